"""``/start.json``: the page's first game, dealt by the engine on the server.

On a first visit the page has no saved game to show while Pyodide starts. It asks the server for
the reply to its first request (``new`` or ``open``, the same JSON it sends the engine), paints
the table from it at once, and then has the worker ``load`` the game that reply saved. The
server runs the very same engine (:class:`spider.protocol.session.Session`), so the table shown is
the one the worker then plays; the browser re-implements nothing. A static host has no such URL: the
page then waits for its worker as before.

``GET /start.json?request=<JSON>``: the protocol's reply, ``200`` when ``ok``, ``400`` with the
protocol's error (stable code) otherwise; never cached. The request text is read as the worker
reads one (:func:`spider.limits.load_json`): anything that is not such JSON (too long, nested
more than :data:`~spider.limits.MAX_JSON_DEPTH` deep, ``NaN``, numbers too large) is
``bad-request``.
"""

from __future__ import annotations

import json
from typing import Any

from spider.limits import load_json
from spider.protocol.session import Session

#: The requests a page may start with.
START_OPS = frozenset({"new", "open"})
#: The longest request text accepted (a position code is the longest field, well under this).
MAX_REQUEST_CHARS = 4096


def _error(code: str, message: str, status: int = 400) -> tuple[int, bytes]:
    body = {"id": None, "ok": False, "error": {"code": code, "message": message}}
    return status, json.dumps(body).encode("utf-8")


def start_reply(text: str | None) -> tuple[int, bytes]:
    """The HTTP status and JSON body for the ``request`` query parameter ``text``."""
    if text is None:
        return _error("bad-request", "query parameter 'request' (a JSON request) is required")
    if len(text) > MAX_REQUEST_CHARS:
        return _error("bad-request", f"a start request is at most {MAX_REQUEST_CHARS} characters")
    try:
        request: Any = load_json(text, "request", MAX_REQUEST_CHARS)
    except ValueError as error:
        return _error("bad-request", str(error))
    if not isinstance(request, dict) or request.get("op") not in START_OPS:
        return _error("bad-request", "a start request is an object with op 'new' or 'open'")
    reply = Session().handle(request)
    try:
        body = json.dumps(reply, separators=(",", ":"), allow_nan=False)
    except ValueError as error:  # a reply JSON cannot hold (NaN): the engine's fault
        return _error("internal-error", f"reply: {error}", status=500)
    return (200 if reply.get("ok") else 400), body.encode("ascii")
