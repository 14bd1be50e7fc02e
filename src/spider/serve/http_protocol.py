"""uvicorn's HTTP/1.1 protocol with the timeouts and limits it lacks, for ``spider serve``.

``spider serve`` runs uvicorn's httptools protocol (a C parser: about a third of the CPU per
request of the pure-Python h11 one, measured with ``benchmarks/serve.py``) on asyncio's own
loop (under 1,000 connections uvloop accepted new ones seconds late, and served fewer). uvicorn
closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds after a response,
but nothing else: a client that connects and sends nothing, sends a request line or its headers
a byte at a time, or never reads the response keeps its connection (and what it holds) for
ever. :class:`TimedHttpToolsProtocol` extends
:class:`~spider.serve.request_limits.LimitedHttpToolsProtocol` (bounded request line, headers and
bodies) and adds:

- a **request timeout**: the whole request (line, headers and any body) must arrive within
  ``request_timeout`` seconds of the connection opening or of its first byte after the previous
  response (the idle time before that byte is uvicorn's keep-alive timeout's business);
- a **send timeout**: a client that reads nothing of a response for ``send_timeout`` seconds,
  while the server has more to send, is dropped.

It also answers the commonest request itself: a plain GET or HEAD (no query, no body, nothing
conditional) for a file the app has already answered, whose answer the app keeps whole in its
:class:`~spider.serve.static.ResponseMemo` (``app.state.response_memo``). The kept header lines
and body are written straight to the connection, with uvicorn's ``date`` header: no ASGI
request cycle, no task, no routing. That is most of what a page load asks for, and it costs
about a third of the CPU of the ASGI path (``benchmarks/serve.py``). Bodies over
:data:`~spider.serve.static.SEND_CHUNK` go out in pieces of that size under flow control, as the
ASGI path sends them, so a client that reads slowly costs no copy of the file. A request that
arrives while such a body is still going out waits in uvicorn's pipeline, as it would behind an
ASGI response. Everything else goes to the app as before.

The timeouts come from :func:`configure` (``spider serve`` calls it) or, in worker processes
that ``--workers`` starts, from the environment variables it sets for them.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import httptools
from uvicorn.protocols.utils import get_client_addr

from spider.serve.headers import REQUEST_TIMEOUT, SEND_TIMEOUT
from spider.serve.request_limits import BODY_HEADERS, LimitedHttpToolsProtocol
from spider.serve.static import SEND_CHUNK, Replay, ResponseMemo

REQUEST_TIMEOUT_ENV = "SPIDER_SERVE_REQUEST_TIMEOUT"
SEND_TIMEOUT_ENV = "SPIDER_SERVE_SEND_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = float(REQUEST_TIMEOUT)
DEFAULT_SEND_TIMEOUT = float(SEND_TIMEOUT)


def _from_env(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


#: How many wrappers (uvicorn's middlewares) to look through for the app's memo.
MAX_APP_WRAPPERS = 8


def find_response_memo(app: object) -> ResponseMemo | None:
    """The :class:`ResponseMemo` of ``spider.serve.app``'s app, under the middlewares uvicorn
    wraps it in (each keeps the app it wraps as ``app``); None for any other app."""
    for _ in range(MAX_APP_WRAPPERS):
        memo = getattr(getattr(app, "state", None), "response_memo", None)
        if isinstance(memo, ResponseMemo):
            return memo
        app = getattr(app, "app", None)
        if app is None:
            return None
    return None


class ReplayInFlight:
    """A kept answer being written by the protocol itself. It stands where uvicorn keeps its
    request cycle (``protocol.cycle``), so uvicorn queues a pipelined request behind it and a
    graceful shutdown waits for it, as for any response."""

    def __init__(self, rest: memoryview, keep_alive: bool) -> None:
        self.rest = rest  # what is still to be written of the body
        self.keep_alive = keep_alive
        self.response_complete = False


def configure(request_timeout: float, send_timeout: float) -> None:
    """Set the timeouts of this process and of the worker processes it starts."""
    os.environ[REQUEST_TIMEOUT_ENV] = repr(request_timeout)
    os.environ[SEND_TIMEOUT_ENV] = repr(send_timeout)


class TimedHttpToolsProtocol(LimitedHttpToolsProtocol):
    """uvicorn's :class:`HttpToolsProtocol` with the size limits, the request and send
    timeouts, and kept answers written directly."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timeout = _from_env(REQUEST_TIMEOUT_ENV, DEFAULT_REQUEST_TIMEOUT)
        self.send_timeout = _from_env(SEND_TIMEOUT_ENV, DEFAULT_SEND_TIMEOUT)
        self._request_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        # Whether a request has begun (or the connection opened) and not arrived whole.
        self._receiving = True
        self.response_memo = find_response_memo(self.app)
        # The answer the protocol is writing (a request queued behind it becomes self.cycle).
        self._replay_in_flight: ReplayInFlight | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_request_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._receiving = True
        self._arm_request_timer()

    def on_headers_complete(self) -> None:
        replay = self._plain_replay()
        if replay is None:
            super().on_headers_complete()
        else:
            self._head_complete(may_have_body=False)  # as _plain_replay made sure
            self._write_replay(replay)

    def on_message_complete(self) -> None:
        if isinstance(self.cycle, ReplayInFlight):
            self._request_arrived()
        else:
            super().on_message_complete()
        self._receiving = False
        self._cancel_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_request_timer()
        self._cancel_send_timer()
        self._replay_in_flight = None  # nothing more to write
        if isinstance(self.cycle, ReplayInFlight):
            self.cycle = None  # type: ignore[assignment]
        super().connection_lost(exc)

    def _plain_replay(self) -> Replay | None:
        """The kept answer to the request whose headers just arrived, when the protocol may
        write it itself: nothing else in flight on the connection, GET or HEAD, no upgrade,
        query, escape or body, and the app's memo has it (which checks conditional headers)."""
        if self.response_memo is None or self.limit_concurrency is not None or self.pipeline:
            return None
        if self.cycle is not None and not self.cycle.response_complete:
            return None
        method = self.parser.get_method()
        if method not in (b"GET", b"HEAD") or self.parser.should_upgrade():
            return None
        url = httptools.parse_url(self.url)
        if url.query is not None or b"%" in url.path or self.root_path:
            return None
        if any(name in BODY_HEADERS for name, _ in self.headers):
            return None
        self.scope["method"] = method.decode("ascii")
        self.scope["path"] = url.path.decode("ascii")
        self.scope["raw_path"] = url.path
        self.scope["query_string"] = b""
        return self.response_memo.find(self.scope)

    def _write_replay(self, replay: Replay) -> None:
        """Write ``replay``'s status line, headers and (unless HEAD) body."""
        keep_alive = self.parser.get_http_version() != "1.0" and self.parser.should_keep_alive()
        default = b"".join(n + b": " + v + b"\r\n" for n, v in self.server_state.default_headers)
        head = b"HTTP/1.1 200 OK\r\n" + default + replay.header_lines
        head += b"\r\n" if keep_alive else b"connection: close\r\n\r\n"
        body = b"" if self.scope["method"] == "HEAD" else replay.body
        if self.access_log:
            self.access_logger.info(
                '%s - "%s %s HTTP/%s" %d',
                get_client_addr(self.scope),
                self.scope["method"],
                self.scope["path"],
                self.parser.get_http_version(),
                replay.status,
            )
        in_flight = ReplayInFlight(memoryview(body)[SEND_CHUNK:], keep_alive)
        self.cycle = self._replay_in_flight = in_flight  # type: ignore[assignment]
        self.transport.write(head + body[:SEND_CHUNK])
        self._write_rest(in_flight)

    def _write_rest(self, in_flight: ReplayInFlight) -> None:
        """Write the body's next pieces while the client keeps reading; finish the answer."""
        while in_flight.rest and not self.flow.write_paused:
            self.transport.write(in_flight.rest[:SEND_CHUNK])
            in_flight.rest = in_flight.rest[SEND_CHUNK:]
        if in_flight.rest or in_flight.response_complete:
            return
        in_flight.response_complete = True
        self._replay_in_flight = None
        if not in_flight.keep_alive:
            self.transport.close()
        self.on_response_complete()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.send_timeout, self._drop)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_send_timer()
        if self._replay_in_flight is not None:
            self._write_rest(self._replay_in_flight)

    def _arm_request_timer(self) -> None:
        if self._request_timer is None:
            self._request_timer = self.loop.call_later(self.request_timeout, self._request_late)

    def _cancel_request_timer(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _cancel_send_timer(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _request_late(self) -> None:
        self._request_timer = None
        if self._receiving:
            self._drop()

    def _drop(self) -> None:
        self._send_timer = None
        if not self.transport.is_closing():
            self.transport.abort()
