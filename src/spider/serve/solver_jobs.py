"""The searches of ``spider serve``'s solver API, each in a process of its own that can be stopped.

A :class:`Job` starts one search ("Think harder" or a review) in a child process and reads
what it says through a pipe: ``("ready",)`` once its input is read and the search begins, or
``("error", code, message)`` when the input is refused; then ``("progress", {...})`` at most
every :data:`PROGRESS_SECONDS`, and at last ``("result", {...})``, the field the protocol's
reply would carry (``{"think": ...}`` or ``{"review": ...}``). :meth:`Job.stop` kills the
process at once, wherever the search is: a cancelled search costs nothing more.

The child runs the very functions the page's worker runs: a review through
:class:`spider.protocol.session.Session` (op ``load``, then op ``review``); "Think harder"
through :func:`spider.solver.think.harder.think_visible`, on the visible form the page sent
(:func:`spider.solver.visible_form.read_visible_form`) and nothing else.

Processes come from a fork server (``multiprocessing``'s ``forkserver``), which has imported the
engine once (the compiled build when it is there): a job starts in a few milliseconds, and no
process is forked from the server's threads.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any, Final, Literal

from spider.protocol.session import Session
from spider.solver.think.harder import ThinkProgress, think_visible
from spider.solver.visible_form import read_visible_form

__all__ = ["PROGRESS_SECONDS", "Job", "JobKind", "Message", "run_job"]

JobKind = Literal["think", "review"]
Message = tuple[Any, ...]
"""What a child says: ``("ready",)``, ``("error", code, message)``, ``("progress", dict)`` or
``("result", dict)``."""

PROGRESS_SECONDS: Final = 0.25
"""The least time between two progress messages of a search."""
#: Progress reports of the review, in expanded positions (the worker's own setting).
REVIEW_PROGRESS_EVERY: Final = 1000


class _Progress:
    """Sends a search's progress to the parent, at most every :data:`PROGRESS_SECONDS`."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.sent = 0.0

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.sent < PROGRESS_SECONDS:
            return False
        self.sent = now
        return True

    def think(self, progress: ThinkProgress) -> None:
        if self.due():
            self.conn.send(("progress", progress.to_json()))

    def review(self, progress: dict[str, Any]) -> None:
        if self.due():
            self.conn.send(("progress", progress))


def run_job(kind: JobKind, request: dict[str, Any], conn: Connection) -> None:
    """The child process: run the search of ``request`` (checked by the API) and say what
    happens on ``conn``."""
    try:
        if kind == "think":
            _think(request, conn)
        else:
            _review(request, conn)
    except Exception as error:  # the last guard: the parent reads an error, never nothing
        conn.send(("error", "failed", f"{type(error).__name__}: {str(error)[:120]}"))
    finally:
        conn.close()


def _think(request: dict[str, Any], conn: Connection) -> None:
    try:
        view, visited = read_visible_form(request["visible"])
    except ValueError as error:
        conn.send(("error", "bad-visible", str(error)))
        return
    conn.send(("ready",))
    progress = _Progress(conn)
    report = think_visible(
        view,
        visited,
        iterations=request.get("iterations"),
        time_limit=request["time_limit"],
        seed=request.get("seed", 0),
        progress=progress.think,
        progress_every=1,
    )
    conn.send(("result", {"think": report.to_json()}))


def _review(request: dict[str, Any], conn: Connection) -> None:
    session = Session()
    loaded = session.handle({"op": "load", "saved": request["saved"]})
    if not loaded["ok"]:
        conn.send(("error", loaded["error"]["code"], loaded["error"]["message"]))
        return
    conn.send(("ready",))
    progress = _Progress(conn)
    session.progress = progress.review
    fields = {name: value for name, value in request.items() if name != "saved"}
    reply = session.handle({"op": "review", **fields, "progress_every": REVIEW_PROGRESS_EVERY})
    if not reply["ok"]:
        conn.send(("error", reply["error"]["code"], reply["error"]["message"]))
        return
    conn.send(("result", {"review": reply["review"]}))


def job_context() -> BaseContext:
    """The fork server's context, the engine imported in it once (and the main module, so
    that no job imports it again: a script that serves must guard its start with
    ``if __name__ == "__main__"``, as ``multiprocessing`` asks of every script)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["__main__", __name__])
    return context


class Job:
    """One search in its own process (see the module's description)."""

    def __init__(self, kind: JobKind, request: dict[str, Any]) -> None:
        context = job_context()
        self.kind = kind
        self.conn, child = context.Pipe(duplex=False)
        self.process = context.Process(  # type: ignore[attr-defined]
            target=run_job, args=(kind, request, child), daemon=True, name=f"spider-{kind}"
        )
        self.process.start()
        child.close()

    async def next(self, timeout: float) -> Message | None:
        """The child's next message, or None when ``timeout`` seconds pass without one.

        A child that ends without a result (killed, out of memory) reads as an error ``failed``.
        """
        if not self.conn.poll():
            loop = asyncio.get_running_loop()
            readable = loop.create_future()
            fd = self.conn.fileno()

            def wake() -> None:
                if not readable.done():
                    readable.set_result(None)

            loop.add_reader(fd, wake)
            try:
                await asyncio.wait_for(readable, max(0.0, timeout))
            except TimeoutError:
                return None
            finally:
                loop.remove_reader(fd)
        try:
            message: Message = self.conn.recv()
        except (EOFError, OSError):
            return ("error", "failed", "the search ended without an answer")
        return message

    @property
    def running(self) -> bool:
        """Whether the child process is still alive."""
        return bool(self.process.is_alive())

    def stop(self) -> None:
        """Kill the search (if it still runs) and free its pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()
