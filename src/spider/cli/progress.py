"""The progress line of a long command on stderr."""

from __future__ import annotations

import sys

__all__ = ["progress_line"]


def progress_line(text: str) -> None:
    """Show ``text`` as the progress line on stderr, over the previous one."""
    print(f"\r{text}", end="", file=sys.stderr, flush=True)
