"""The sizes a request to ``spider serve`` may have, checked as its bytes arrive.

uvicorn's httptools protocol puts no bound on a request's line and headers: the parser keeps
a header that has not ended, however long, and one 50 MB header was read whole and answered.
:class:`LimitedHttpToolsProtocol` (which :class:`spider.serve.http_protocol.TimedHttpToolsProtocol`
extends) refuses, before the parser has kept more than the limit:

- a request whose line and headers (every byte up to the blank line that ends them) pass
  :data:`MAX_HEAD_BYTES`: ``414`` when the request line alone does, else ``431``;
- a request with more than :data:`MAX_HEADERS` header fields: ``431``;
- a body on a GET or HEAD request (no URL of the app reads one): ``413``;
- a body over :data:`MAX_BODY_BYTES`, by its ``Content-Length`` before any of it is read, or
  as its bytes arrive (chunk framing and trailers counted too, with :data:`MAX_HEAD_BYTES` of
  room for them): ``413``. The routes that take a body check their own, smaller limit; this
  one bounds what any request can make the server hold. A body over the limit that a route
  is reading reaches it as ``http.disconnect`` (Starlette's ``ClientDisconnect``), as when the
  client goes away; a route that has answered already sees nothing, the connection closes.

The refusal is a short JSON answer, ``{"error": {"code": ..., "message": ...}}`` with a stable
code (:data:`REFUSAL_CODES`), and ``Connection: close``. The server then stops
writing but reads and drops what the client still sends, for at most :data:`LINGER_SECONDS`
(as nginx's lingering close does), so that a client still sending its request reads the
answer rather than a reset; then the connection is closed. A request that arrives behind one
whose answer is still being written (pipelining) cannot be answered in order: its connection is
closed without an answer.

The bytes are counted before they reach the parser, so a request is refused after at most the
limit's bytes of it have been parsed. A request that begins in the same read as the previous
one ends (pipelining) has its head measured again, field by field, once it is complete, so it
may keep the parser busy with at most one read (asyncio reads 256 KiB at a time) more before
it is refused.

The limits come from the environment (:data:`MAX_HEAD_BYTES_ENV` and the two others), read
when a connection opens, so that ``spider serve --workers N`` holds them in every worker; unset
or unreadable values mean the defaults.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from spider.serve.headers import SECURITY_HEADERS

#: Bytes of the request line and headers, as nginx's default ``large_client_header_buffers``
#: (4 of 8 KiB) allow: ample for any browser's request to this app (a few hundred bytes; the
#: page's ``/start.json`` query under 13 KiB; cookies of other apps on the host), 1/1,600 of
#: the 50 MB header that used to be read whole.
MAX_HEAD_BYTES = 32 * 1024
#: Header fields per request, as Apache's ``LimitRequestFields`` (a browser sends about 15).
MAX_HEADERS = 100
#: Bytes of any request body: far above what the routes that read one accept (they refuse
#: larger bodies themselves), far below what would matter to the server's memory.
MAX_BODY_BYTES = 4 * 1024 * 1024
#: Seconds a refused client's remaining bytes are read and dropped before the connection closes.
LINGER_SECONDS = 2.0

MAX_HEAD_BYTES_ENV = "SPIDER_SERVE_MAX_HEAD_BYTES"
MAX_HEADERS_ENV = "SPIDER_SERVE_MAX_HEADERS"
MAX_BODY_BYTES_ENV = "SPIDER_SERVE_MAX_BODY_BYTES"

#: The stable code of each refusal, and its status.
REFUSAL_CODES = {
    "headers-too-large": 431,
    "url-too-long": 414,
    "body-not-allowed": 413,  # on GET or HEAD
    "too-large": 413,  # a body over the limit
}
#: Bytes of a refused request's URL written in the access log.
LOGGED_URL_BYTES = 80
#: Request headers that announce a body.
BODY_HEADERS = frozenset({b"content-length", b"transfer-encoding"})
#: Methods whose requests take no body here.
NO_BODY_METHODS = frozenset({b"GET", b"HEAD"})
#: Bytes the request line has besides its URL, at most: a method, two spaces, ``HTTP/1.1``, CRLF.
REQUEST_LINE_FRAMING = 24
#: Bytes each header field adds to its name and value in the request: ``: `` and CRLF.
HEADER_FRAMING = 4


def _int_from_env(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


class Refusal(Exception):
    """A request over a limit: the status, a stable code and why, in a few words."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason


def refusal_bytes(refusal: Refusal, default_headers: list[tuple[bytes, bytes]]) -> bytes:
    """The whole answer to a refused request: status line, headers, and a JSON body
    ``{"error": {"code": ..., "message": ...}}`` as the app's JSON errors have."""
    error = {"error": {"code": refusal.code, "message": refusal.reason}}
    body = (json.dumps(error) + "\n").encode("ascii")
    lines = [STATUS_LINE[refusal.status]]
    lines += [name + b": " + value + b"\r\n" for name, value in default_headers]
    lines += [f"{name}: {value}\r\n".encode("ascii") for name, value in SECURITY_HEADERS.items()]
    lines += [
        b"content-type: application/json\r\n",
        b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
        b"connection: close\r\n\r\n",
        body,
    ]
    return b"".join(lines)


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's :class:`HttpToolsProtocol` that refuses requests over the size limits.

    The parser is fed through a gate: in a request's head at most :data:`MAX_HEAD_BYTES`, in
    its body at most :data:`MAX_BODY_BYTES` and room for chunk framing and trailers
    (:data:`MAX_HEAD_BYTES` more), each counted from the start of that part; more is refused.
    The number of header fields, and the size of a head that began in the same read as the
    previous request ended (its first bytes went by uncounted), are checked when the head is
    complete, so that a request costs no more than a few operations per read.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_head_bytes = _int_from_env(MAX_HEAD_BYTES_ENV, MAX_HEAD_BYTES)
        self.max_headers = _int_from_env(MAX_HEADERS_ENV, MAX_HEADERS)
        self.max_body_bytes = _int_from_env(MAX_BODY_BYTES_ENV, MAX_BODY_BYTES)
        # Whether the parser is in a request's line and headers (or between requests), else
        # in a body; the bytes fed since that part began, and how many it may take.
        self._in_head = True
        self._fed = 0
        self._room = self.max_head_bytes
        # Whether a request ended in the read being fed; whether the head being read began
        # after such an end, in the same read.
        self._ended_in_read = False
        self._unmetered = False
        self._refused = False
        self._linger_timer: asyncio.TimerHandle | None = None

    # -------------------------------------------------------------------- bytes in

    def data_received(self, data: bytes) -> None:
        """Feed ``data`` to the parser, no more than the current part's room."""
        if self._refused:
            return
        if len(data) <= self._room - self._fed:  # the common case
            self._fed += len(data)
            self._feed(data)
            return
        view = memoryview(data)
        while view and not self._refused:
            room = self._room - self._fed
            if room <= 0:
                self._refuse(self._head_refusal() if self._in_head else self._body_refusal())
                return
            piece, view = view[:room], view[room:]
            self._fed += len(piece)
            self._feed(piece)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return

    def _feed(self, data: bytes | memoryview) -> None:
        """uvicorn's ``data_received``, answering a :class:`Refusal` from a callback."""
        self._unset_keepalive_if_required()
        self._ended_in_read = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError as error:
            refusal = error.__context__
            if isinstance(refusal, Refusal):
                self._refuse(refusal)
                return
            message = "Invalid HTTP request received."
            self.logger.warning(message)
            self.send_400_response(message)

    # -------------------------------------------------------------- parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._unmetered = self._ended_in_read

    def on_headers_complete(self) -> None:
        self._head_complete()
        super().on_headers_complete()

    def _head_complete(self, may_have_body: bool = True) -> None:
        """The request's line and headers are in: check them and (unless the caller knows
        there is none) what they say of a body, then count the body's bytes."""
        if len(self.headers) > self.max_headers:
            raise self._headers_refusal()
        if self._unmetered and self._head_size() > self.max_head_bytes:
            raise self._headers_refusal()
        if may_have_body:
            self._check_body()
        self._in_head = False
        self._fed = 0
        self._room = self.max_body_bytes + self.max_head_bytes

    def _head_size(self) -> int:
        """The bytes of the request line and headers (the method and version estimated)."""
        fields = sum(len(name) + len(value) for name, value in self.headers)
        return len(self.url) + REQUEST_LINE_FRAMING + fields + HEADER_FRAMING * len(self.headers)

    def _check_body(self) -> None:
        """Refuse a body where none is read, or one declared larger than the limit."""
        said = [(name, value) for name, value in self.headers if name in BODY_HEADERS]
        if not said:
            return
        length = next((value for name, value in said if name == b"content-length"), None)
        chunked = any(name == b"transfer-encoding" for name, _ in said)
        declared = int(length) if length is not None and length.strip().isdigit() else 0
        if self.parser.get_method() in NO_BODY_METHODS and (chunked or declared > 0):
            raise Refusal(413, "body-not-allowed", "a GET or HEAD request takes no body")
        if declared > self.max_body_bytes:
            raise self._body_refusal()

    def on_message_complete(self) -> None:
        self._request_arrived()
        super().on_message_complete()

    def _request_arrived(self) -> None:
        """The request is in whole: what follows is the next one's head."""
        self._in_head = True
        self._fed = 0
        self._room = self.max_head_bytes
        self._ended_in_read = True

    def _head_refusal(self) -> Refusal:
        """The refusal of a head over the limit: 414 while no header field has ended and the
        bytes are nearly all the URL (the method and version take at most about 24)."""
        url = getattr(self, "url", b"")
        if not self.headers and len(url) + REQUEST_LINE_FRAMING >= self._fed:
            return Refusal(
                414, "url-too-long", f"the request line is over {self.max_head_bytes} bytes"
            )
        return self._headers_refusal()

    def _headers_refusal(self) -> Refusal:
        return Refusal(
            431,
            "headers-too-large",
            f"the request headers are over {self.max_head_bytes} bytes or "
            f"{self.max_headers} fields",
        )

    def _body_refusal(self) -> Refusal:
        return Refusal(413, "too-large", f"the request body is over {self.max_body_bytes} bytes")

    # ------------------------------------------------------------------- refusing

    def _refuse(self, refusal: Refusal) -> None:
        """Answer ``refusal`` and linger, unless an answer is already under way (see the
        module's description); read nothing more of the request."""
        self._refused = True
        self._log(refusal)
        cycle = self.cycle
        if not self._in_head:  # in this request's body: the app may have begun answering
            if cycle.response_complete:
                self.transport.close()
                return
            if cycle.response_started:
                self.transport.abort()
                return
            cycle.disconnected = True  # the app reads no more and its answer goes nowhere
            cycle.message_event.set()
        elif cycle is not None and not cycle.response_complete:
            cycle.keep_alive = False  # a request behind an answer in progress: close after it
            return
        self.transport.write(refusal_bytes(refusal, self._defaults()))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._linger_timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _defaults(self) -> list[tuple[bytes, bytes]]:
        return list(self.server_state.default_headers)

    def _log(self, refusal: Refusal) -> None:
        """An access log line, as uvicorn writes one (its formatter wants these five)."""
        if not self.access_log:
            return
        url = getattr(self, "url", b"")
        shown = url[:LOGGED_URL_BYTES].decode("latin-1")
        if len(url) > LOGGED_URL_BYTES:
            shown += "…"
        method = self.parser.get_method().decode("ascii", "replace") if url else "-"
        client = f"{self.client[0]}:{self.client[1]}" if self.client else ""
        self.access_logger.info(
            '%s - "%s %s HTTP/%s" %d',
            client,
            method,
            shown or "-",
            self.parser.get_http_version(),
            refusal.status,
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if self._linger_timer is not None:
            self._linger_timer.cancel()
            self._linger_timer = None
        super().connection_lost(exc)
