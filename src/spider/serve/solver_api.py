"""The solver API of ``spider serve``: "Think harder" and "Where did I lose it?" at native speed.

The page sends these searches here when ``/engine.json`` names the API (``api``), and to its own
solver worker otherwise (a static host, offline, or when this API refuses). The routes:

- ``POST /api/think`` with ``{"visible": form, "time_limit": s, "iterations": n, "seed": k}``:
  "Think harder" (:func:`spider.solver.think.harder.think_visible`) on the visible form of the
  position (:mod:`spider.solver.visible_form`: the face-up cards, the *number* of face-down
  cards and of cards in the stock, the runs removed, the positions since the last card turned).
  Only ``visible`` is required; the server never learns a hidden card;
- ``POST /api/review`` with ``{"saved": text, "time_limit": s, "position_time_limit": s,
  "node_limit": n, "think_iterations": k}``: the review of a game
  (:func:`spider.solver.review.review`, through the protocol's ``load`` and ``review`` as the
  worker runs it); only ``saved`` is required. A review reads every card: the page sends it
  when the player asks for it, after the game.

The fields and their ranges are the protocol's (docs/protocol.md); ``time_limit`` is at most
the server's cap (:class:`SolverLimits`: 30 s for think, 60 s for a review by default), and a
larger one is cut to it. A search runs in a process of its own
(:mod:`spider.serve.solver_jobs`), killed when the client goes away (a closed connection, the
page's cancel), when it passes its time limit by :data:`GRACE_SECONDS`, or when the answer is
sent.

The answer is ``200`` with ``application/x-ndjson``: one JSON object a line,
``{"progress": {...}}`` (the protocol's progress messages, a few a second), then
``{"think": {...}}`` or ``{"review": {...}}`` (the protocol's reply fields), or
``{"error": {"code": ..., "message": ...}}`` when the search fails (``time-limit``, ``failed``).
A request refused before the search begins is a JSON error with a stable code:
``bad-request`` (400: not JSON, a field missing, unknown, of the wrong type or out of range),
``bad-visible`` (400: not a visible position of a game), ``invalid-saved`` (400: not a saved
game), ``method-not-allowed`` (405), ``too-large`` (413), ``unsupported-media-type`` (415: the
body must be ``application/json``, which a page of another site cannot send without asking),
``too-many`` (429: this client address already has :attr:`SolverLimits.per_client` searches
running) and ``busy`` (503: the server already runs :attr:`SolverLimits.total`), both with
``Retry-After``; ``failed`` (500) when the search's process could not begin.

The bounds hold in each worker process of ``spider serve --workers N`` (N times as many in
all).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from typing import Any, Final

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from spider.limits import MAX_SAVED_CHARS, load_json
from spider.protocol.fields import ProtocolError, number_field, ranged_int_field
from spider.protocol.review_ops import REVIEW_MAX_THINK
from spider.protocol.solver_ops import THINK_MAX_ITERATIONS, THINK_MAX_SEED
from spider.serve.solver_jobs import Job, JobKind
from spider.serve.solver_limits import SOLVER_ENV, SolverLimits
from spider.serve.sync import ApiError, error_response, read_body
from spider.solver.visible_form import read_visible_form

__all__ = [
    "GRACE_SECONDS",
    "REVIEW_PATH",
    "SOLVER_ENV",
    "THINK_PATH",
    "SolverApi",
    "SolverLimits",
    "info",
]

THINK_PATH: Final = "/api/think"
REVIEW_PATH: Final = "/api/review"
#: What ``/engine.json`` says of the API (``api``) when it is offered.
API_INFO: Final = {"think": THINK_PATH, "review": REVIEW_PATH}
#: Seconds a search may run past its time limit before it is killed (``time-limit``).
GRACE_SECONDS: Final = 5.0
#: Seconds to wait for a search's process to read its input and begin.
START_SECONDS: Final = 30.0
#: The largest body of ``/api/think``: a visible position is a few kilobytes, and each earlier
#: position since the last card turned a few hundred bytes more.
MAX_THINK_BODY: Final = 1024 * 1024
#: The largest body of ``/api/review``: a saved game and the fields around it.
MAX_REVIEW_BODY: Final = MAX_SAVED_CHARS + 4096
#: Seconds a refused client is told to wait (``Retry-After``): about a search's length.
RETRY_SECONDS: Final = 10
NDJSON: Final = "application/x-ndjson"
NO_STORE: Final = {"Cache-Control": "no-store"}

THINK_FIELDS: Final = frozenset({"visible", "time_limit", "iterations", "seed"})
REVIEW_FIELDS: Final = frozenset(
    {"saved", "time_limit", "position_time_limit", "node_limit", "think_iterations"}
)


class Slots:
    """Searches running, per client address and in all, within :class:`SolverLimits`."""

    def __init__(self, limits: SolverLimits) -> None:
        self.limits = limits
        self.by_client: dict[str, int] = {}

    @property
    def running(self) -> int:
        """Searches running now."""
        return sum(self.by_client.values())

    def take(self, client: str) -> None:
        """Take a slot for ``client``, or refuse: 429 ``too-many``, 503 ``busy``."""
        retry = {"Retry-After": str(RETRY_SECONDS)}
        if self.by_client.get(client, 0) >= self.limits.per_client:
            raise ApiError(
                429,
                "too-many",
                f"{self.limits.per_client} searches from this address are running already",
                retry,
            )
        if self.running >= self.limits.total:
            raise ApiError(503, "busy", "the server runs as many searches as it can", retry)
        self.by_client[client] = self.by_client.get(client, 0) + 1

    def give_back(self, client: str) -> None:
        """Free a slot of ``client``."""
        left = self.by_client.get(client, 0) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)


class SolverApi:
    """The routes of the solver API under one :class:`SolverLimits`."""

    def __init__(self, limits: SolverLimits | None = None) -> None:
        self.limits = limits or SolverLimits()
        self.slots = Slots(self.limits)
        #: The searches whose processes run now (the tests read it).
        self.jobs: set[Job] = set()

    def routes(self) -> list[BaseRoute]:
        """``/api/think`` and ``/api/review`` (any method: others are answered 405)."""
        every = ["GET", "HEAD", "PUT", "DELETE", "POST", "PATCH", "OPTIONS"]
        return [
            Route(THINK_PATH, self.think, methods=every),
            Route(REVIEW_PATH, self.review, methods=every),
        ]

    async def think(self, request: Request) -> Response:
        """``POST /api/think``: "Think harder" on a visible position."""
        return await self._search(request, "think")

    async def review(self, request: Request) -> Response:
        """``POST /api/review``: the review of a saved game."""
        return await self._search(request, "review")

    async def _search(self, request: Request, kind: JobKind) -> Response:
        client = request.client.host if request.client is not None else ""
        try:
            fields = await self._read(request, kind)
            self.slots.take(client)
        except ApiError as error:
            return error_response(error)
        try:
            # In a thread: the first job also starts the fork server, which imports the engine.
            # Shielded: a job started is always ended below, even if the client left meanwhile.
            with anyio.CancelScope(shield=True):
                job = await anyio.to_thread.run_sync(Job, kind, fields)
        except BaseException:
            self.slots.give_back(client)
            raise
        self.jobs.add(job)
        try:
            first = await job.next(START_SECONDS)
            if first is None or first[0] != "ready":
                code, message = (
                    ("failed", "the search did not start") if first is None else first[1:]
                )
                raise ApiError(400 if code != "failed" else 500, code, message)
        except BaseException as error:
            self._end(job, client)
            if isinstance(error, ApiError):
                return error_response(error)
            raise
        limit = float(fields["time_limit"]) + GRACE_SECONDS
        return SearchStream(self._lines(job, limit), lambda: self._end(job, client))

    def _end(self, job: Job, client: str) -> None:
        job.stop()
        self.jobs.discard(job)
        self.slots.give_back(client)

    async def _read(self, request: Request, kind: JobKind) -> dict[str, Any]:
        """The request's fields, checked; :class:`ApiError` when refused."""
        if request.method != "POST":
            raise ApiError(405, "method-not-allowed", "use POST", {"Allow": "POST"})
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            raise ApiError(415, "unsupported-media-type", "the body must be application/json")
        limit = MAX_THINK_BODY if kind == "think" else MAX_REVIEW_BODY
        body = await read_body(request, limit)
        try:
            value = load_json(body.decode("utf-8", "replace"), "the body", limit)
        except ValueError as error:
            raise ApiError(400, "bad-request", str(error)) from None
        if not isinstance(value, dict):
            raise ApiError(400, "bad-request", "the body must be a JSON object")
        try:
            if kind == "think":
                return self._think_fields(value)
            return self._review_fields(value)
        except ProtocolError as error:
            raise ApiError(400, error.code, str(error)) from None

    def _think_fields(self, value: dict[str, Any]) -> dict[str, Any]:
        _known(value, THINK_FIELDS, "visible")
        try:
            view, _visited = read_visible_form(value["visible"])
        except ValueError as error:
            raise ApiError(400, "bad-visible", str(error)) from None
        if view.is_won:
            raise ApiError(400, "bad-request", "the game is won: there is nothing to think about")
        cap = self.limits.think_seconds
        fields: dict[str, Any] = {
            "visible": value["visible"],
            "time_limit": min(cap, number_field(value, "time_limit", cap, 0.01, 3600)),
            "seed": ranged_int_field(value, "seed", 0, THINK_MAX_SEED, 0),
        }
        if "iterations" in value:
            fields["iterations"] = ranged_int_field(value, "iterations", 1, THINK_MAX_ITERATIONS)
        return fields

    def _review_fields(self, value: dict[str, Any]) -> dict[str, Any]:
        _known(value, REVIEW_FIELDS, "saved")
        if not isinstance(value["saved"], str):
            raise ApiError(400, "invalid-saved", "saved must be the text of a saved game")
        cap = self.limits.review_seconds
        total = min(cap, number_field(value, "time_limit", cap, 0.01, 3600))
        fields: dict[str, Any] = {
            "saved": value["saved"],
            "time_limit": total,
            "position_time_limit": number_field(value, "position_time_limit", 10.0, 0.01, 3600),
            "think_iterations": ranged_int_field(
                value, "think_iterations", 0, REVIEW_MAX_THINK, 20
            ),
            "memory_mb": self.limits.review_memory_mb,
        }
        if "node_limit" in value:
            fields["node_limit"] = ranged_int_field(value, "node_limit", 1, 10**8)
        return fields

    async def _lines(self, job: Job, limit: float) -> AsyncGenerator[bytes, None]:
        """The answer's lines: progress, then the result or an error."""
        deadline = anyio.current_time() + limit
        while True:
            message = await job.next(deadline - anyio.current_time())
            if message is None:
                yield _line(
                    {"error": {"code": "time-limit", "message": "the search took too long"}}
                )
                return
            kind = message[0]
            if kind == "progress":
                yield _line({"progress": message[1]})
            elif kind == "result":
                yield _line(message[1])
                return
            else:
                yield _line({"error": {"code": message[1], "message": message[2]}})
                return


def _known(value: dict[str, Any], fields: frozenset[str], required: str) -> None:
    unknown = sorted(name for name in value if name not in fields)
    if unknown:
        raise ApiError(400, "bad-request", f"unknown field {unknown[0]!r}")
    if required not in value:
        raise ApiError(400, "bad-request", f"the field {required!r} is required")


def _line(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")


class SearchStream(StreamingResponse):
    """A search's answer, line by line; the search ends (``end``) when the answer is sent, when
    the client goes away, or when this response fails, whichever comes first."""

    def __init__(self, lines: AsyncGenerator[bytes, None], end: Callable[[], None]) -> None:
        super().__init__(lines, 200, NO_STORE, NDJSON)
        self.lines = lines
        self.end = end

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:

                async def watch() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    group.cancel_scope.cancel()

                group.start_soon(watch)
                await self._send(send)
                group.cancel_scope.cancel()
        finally:
            self.end()
            with anyio.CancelScope(shield=True):
                await self.lines.aclose()

    async def _send(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        async for line in self.lines:
            await send({"type": "http.response.body", "body": line, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def info(api: SolverApi | None) -> dict[str, str] | None:
    """What ``/engine.json`` says of the API: its URLs, or None when it is not offered."""
    return dict(API_INFO) if api is not None else None
