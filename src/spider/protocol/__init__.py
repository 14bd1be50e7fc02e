"""The JSON protocol between the web page and the engine (see ``docs/protocol.md``).

A :class:`Session` holds one game and answers requests (``new``, ``move``, ``deal``, ``hint``,
``review``, …) with the player's view of the game. The operations live in one module per family:
:mod:`~spider.protocol.session` (the game itself), :mod:`~spider.protocol.share` (daily deals and
replay links), :mod:`~spider.protocol.backup_ops`, :mod:`~spider.protocol.solver_ops` and
:mod:`~spider.protocol.review_ops`; :mod:`~spider.protocol.fields` reads and checks request fields.
"""

from __future__ import annotations

from spider.protocol.session import (
    ERROR_CODES,
    PROTOCOL_VERSION,
    ErrorCode,
    ProtocolError,
    Session,
    game_view,
)

__all__ = ["ERROR_CODES", "PROTOCOL_VERSION", "ErrorCode", "ProtocolError", "Session", "game_view"]
