"""The progress line of a long command on stderr (the command line's and the batch analysis').

On a terminal the line is redrawn in place (a carriage return, the text, and an erase to the end
of the line). Anywhere else (a file, a pipe, a CI log) control characters would only be noise:
the progress is written as plain lines, at most one every :data:`PLAIN_EVERY` seconds, and the
last one when it ends.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

__all__ = ["PLAIN_EVERY", "ProgressLine"]

PLAIN_EVERY = 10.0
"""Seconds between two progress lines when stderr is not a terminal."""


class ProgressLine:
    """One command's progress on ``stream`` (stderr when not given): :meth:`update` with each
    new text, :meth:`close` at the end (also when nothing was shown); as a context manager,
    ``with ProgressLine() as line:`` closes it however the block ends."""

    def __init__(
        self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
        self.clock = clock
        self._shown = False
        self._last: float | None = None
        self._pending: str | None = None

    def update(self, text: str) -> None:
        """Show ``text`` as the progress now (or soon, when stderr is not a terminal)."""
        if self.tty:
            self.stream.write(f"\r{text}\033[K")
            self.stream.flush()
            self._shown = True
            return
        now = self.clock()
        if self._last is None or now - self._last >= PLAIN_EVERY:
            self.stream.write(text + "\n")
            self.stream.flush()
            self._last = now
            self._pending = None
        else:
            self._pending = text

    def close(self) -> None:
        """End the progress: the line ends on a terminal; elsewhere the last text not yet
        written is written."""
        if self.tty and self._shown:
            self.stream.write("\n")
        elif self._pending is not None:
            self.stream.write(self._pending + "\n")
            self._pending = None
        self._shown = False
        self.stream.flush()

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
