"""uvicorn's HTTP/1.1 protocol with the timeouts it lacks, for ``spider serve``.

``spider serve`` runs uvicorn's httptools protocol (a C parser: about a third of the CPU per
request of the pure-Python h11 one, measured with ``benchmarks/serve.py``) on uvloop. uvicorn
closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds after a response,
but nothing else: a client that connects and sends nothing, sends a request line or its headers
a byte at a time, or never reads the response keeps its connection (and what it holds) for
ever. :class:`TimedHttpToolsProtocol` adds:

- a **request timeout**: the whole request (line, headers and any body) must arrive within
  ``request_timeout`` seconds of the connection opening or of its first byte after the previous
  response (the idle time before that byte is uvicorn's keep-alive timeout's business);
- a **send timeout**: a client that reads nothing of a response for ``send_timeout`` seconds,
  while the server has more to send, is dropped.

The timeouts come from :func:`configure` (``spider serve`` calls it) or, in worker processes
that ``--workers`` starts, from the environment variables it sets for them.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from spider.serve_headers import REQUEST_TIMEOUT, SEND_TIMEOUT

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


def configure(request_timeout: float, send_timeout: float) -> None:
    """Set the timeouts of this process and of the worker processes it starts."""
    os.environ[REQUEST_TIMEOUT_ENV] = repr(request_timeout)
    os.environ[SEND_TIMEOUT_ENV] = repr(send_timeout)


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's :class:`HttpToolsProtocol` with the request and send timeouts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timeout = _from_env(REQUEST_TIMEOUT_ENV, DEFAULT_REQUEST_TIMEOUT)
        self.send_timeout = _from_env(SEND_TIMEOUT_ENV, DEFAULT_SEND_TIMEOUT)
        self._request_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        # Whether a request has begun (or the connection opened) and not arrived whole.
        self._receiving = True

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_request_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._receiving = True
        self._arm_request_timer()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._receiving = False
        self._cancel_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_request_timer()
        self._cancel_send_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.send_timeout, self._drop)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_send_timer()

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
