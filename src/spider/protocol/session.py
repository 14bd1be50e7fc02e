"""The JSON protocol between the web page and the engine (see ``docs/protocol.md``).

The page sends small JSON requests; :class:`Session` answers with the player's view of the state
(face-down cards as counts only), the legal moves in the shape the page needs, the events of the
action (what the page announces and sounds), and errors as stable codes.  Pure Python, no I/O: the
Web Worker calls :meth:`Session.handle_json` under Pyodide, and pytest calls it directly.

Every request gets a reply, whatever it holds: the fields are checked for type and range
(:mod:`spider.limits`), an error reply carries an :data:`ErrorCode` and a short message, and a
refused request leaves the session as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from spider.autoplace import NoDestination, best_destination, no_destination_reason
from spider.cards import card_text
from spider.errors import IllegalMove, InvalidCode
from spider.game import DEFAULT_UNDO_LIMIT, Effects, Game
from spider.limits import (
    MAX_MESSAGE_CHARS,
    MAX_REQUEST_CHARS,
    excerpt,
    load_json,
)
from spider.moves import DEAL, Action, Move
from spider.options import GAMES, RULES, SCORINGS, SUIT_COUNTS
from spider.player_view import card_names, game_view
from spider.protocol.backup_ops import backup_operations, request_limit
from spider.protocol.fields import (
    ERROR_CODES,
    Answer,
    ErrorCode,
    Handler,
    ProtocolError,
    bool_field,
    choice_field,
    int_field,
    int_list_field,
    is_int,
    text_field,
    undo_limit_field,
)
from spider.protocol.share import share_operations
from spider.protocol.solver_ops import solver_operations
from spider.shuffle import MAX_NUMBER

__all__ = ["ERROR_CODES", "PROTOCOL_VERSION", "ErrorCode", "ProtocolError", "Session", "game_view"]

PROTOCOL_VERSION: Final = 1

_MAX_ID_CHARS: Final = 100

_NO_DESTINATION: Final[dict[NoDestination, str]] = {
    "no-destination": "no column takes this group",
    "other-suit-only": (
        "in spiderette this group goes automatically only onto its own suit or an empty column"
    ),
}

Reply = dict[str, Any]


def _short(message: str) -> str:
    """An error message cut to :data:`~spider.limits.MAX_MESSAGE_CHARS`."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 1] + "…"


def _effect_events(game: Game, action: Action, stock_before: int) -> list[dict[str, Any]]:
    """Events of a move or deal just played (``stock_before``: stock size before it)."""
    events: list[dict[str, Any]] = []
    effects: Effects | None = game.last_effects
    runs = effects.runs if effects is not None else ()
    columns = game.position().columns
    if isinstance(action, Move):
        # When the move completed a run, the moved cards left the table with it.
        moved = [] if runs else card_names(columns[action.dst][-action.count :])
        events.append(
            {
                "type": "move",
                "src": action.src,
                "dst": action.dst,
                "count": action.count,
                "cards": moved,
            }
        )
    else:
        dealt = min(len(columns), stock_before)
        events.append({"type": "deal", "columns": list(range(dealt))})
    for column, suit in runs:
        events.append({"type": "run", "column": column, "suit": suit})
    if effects is not None:
        for column in effects.flipped:
            events.append(
                {"type": "flip", "column": column, "card": card_text(columns[column][-1])}
            )
    return events


class Session:
    """One player's game, driven by JSON requests.

    Examples:
        >>> session = Session()
        >>> reply = session.handle({"op": "new", "game": "spider", "suits": 1, "number": 3})
        >>> reply["ok"], reply["state"]["code"]
        (True, 'SP1-S1C-AAAAAAD')
    """

    def __init__(self) -> None:
        self.game: Game | None = None
        # Called by long operations (op 'solve') with a progress dict; the Web Worker sets it
        # to a function that posts the progress to the page.
        self.progress: Callable[[dict[str, Any]], None] | None = None
        self._ops: dict[str, Handler] = {
            "new": self._op_new,
            "open": self._op_open,
            "load": self._op_load,
            "move": self._op_move,
            "auto": self._op_auto,
            "deal": self._op_deal,
            "undo": self._op_undo,
            "redo": self._op_redo,
            "restart": self._op_restart,
            "set": self._op_set,
            "state": self._op_state,
            "export": self._op_export,
        }
        # Hints, the no-moves check and the solver: from spider.solver.
        self._ops.update(solver_operations(self))
        # The daily deal and replay links: from spider.protocol.share (no game needed).
        self._ops.update(share_operations(self, game_view))
        # Backups: checking one, merging two (spider.protocol.backup_ops; no game needed).
        self._ops.update(backup_operations())

    def register(self, op: str, handler: Handler) -> None:
        """Add an operation: ``handler`` takes the request and returns an :class:`Answer`."""
        self._ops[op] = handler

    # ----------------------------------------------------------------- entry points

    def handle_json(self, text: str) -> str:
        """Answer a JSON request with a JSON reply (what the Web Worker calls).

        Requests longer than :data:`~spider.limits.MAX_REQUEST_CHARS` (those of the backup
        operations: :data:`~spider.protocol.backup_ops.MAX_BACKUP_REQUEST_CHARS`), nested deeper
        than :data:`~spider.limits.MAX_JSON_DEPTH`, or holding ``NaN``, ``Infinity`` or numbers too
        large to read are refused with ``bad-request``.
        """
        try:
            request = load_json(text, "request", request_limit(text, MAX_REQUEST_CHARS))
        except ValueError as error:
            reply = self._error_reply(None, "bad-request", str(error))
        else:
            reply = self.handle(request)
        try:
            return json.dumps(reply, separators=(",", ":"), allow_nan=False)
        except ValueError as error:  # a reply JSON cannot hold (NaN): the engine's fault
            fault = self._error_reply(reply.get("id"), "internal-error", f"reply: {error}")
            return json.dumps(fault, separators=(",", ":"))

    def handle(self, request: Any) -> Reply:
        """Answer one request (a dict); never raises, and a refused request changes nothing."""
        if not isinstance(request, dict):
            return self._error_reply(None, "bad-request", "a request is a JSON object")
        request_id = request.get("id")
        if not (
            request_id is None
            or is_int(request_id, -(2**53), 2**53)
            or (isinstance(request_id, str) and len(request_id) <= _MAX_ID_CHARS)
        ):
            return self._error_reply(
                None,
                "bad-request",
                f"field 'id' must be null, an integer or text of at most {_MAX_ID_CHARS} "
                "characters",
            )
        op = request.get("op")
        handler = self._ops.get(op) if isinstance(op, str) else None
        if handler is None or not isinstance(op, str):
            return self._error_reply(request_id, "bad-request", f"unknown op {excerpt(op)}")
        before = self.game
        backup = before.copy() if before is not None else None
        try:
            return self._answer(request_id, op, handler, request)
        except (ProtocolError, IllegalMove) as error:
            # Operations check everything before they change anything: the game is as it was.
            self.game = before
            # IllegalMove's codes are all protocol codes (the types say so; a test checks it).
            return self._error_reply(request_id, error.code, str(error))
        except Exception as error:  # the last guard: a reply, never a traceback
            self.game = backup
            return self._error_reply(
                request_id, "internal-error", f"{type(error).__name__}: {excerpt(str(error), 120)}"
            )

    def _answer(self, request_id: Any, op: str, handler: Handler, request: dict[str, Any]) -> Reply:
        answer = handler(request)
        game = self.game  # None only for the operations that need no game (daily, replay)
        reply: Reply = {"id": request_id, "ok": True, "version": PROTOCOL_VERSION}
        if game is not None:
            reply["state"] = game_view(game)
        reply["events"] = answer.events
        if op != "state" and game is not None:
            reply["saved"] = game.to_json()
        reply.update(answer.fields)
        return reply

    def _error_reply(self, request_id: Any, code: ErrorCode, message: str) -> Reply:
        reply: Reply = {
            "id": request_id,
            "ok": False,
            "version": PROTOCOL_VERSION,
            "error": {"code": code, "message": _short(message)},
        }
        if self.game is not None:
            reply["state"] = game_view(self.game)
        return reply

    def require_game(self) -> Game:
        if self.game is None:
            raise ProtocolError("no-game", "start a game first (op 'new', 'open' or 'load')")
        return self.game

    # ----------------------------------------------------------------- operations

    def _op_new(self, request: dict[str, Any]) -> Answer:
        number = request.get("number")
        if number is not None and not is_int(number, 0, MAX_NUMBER):
            raise ProtocolError(
                "bad-request",
                f"field 'number' must be a deal number from 0 to {MAX_NUMBER} or null, "
                f"not {excerpt(number)}",
            )
        winnable = bool_field(request, "winnable")
        avoid = frozenset(int_list_field(request, "avoid")) if winnable else frozenset()
        try:
            game = Game.new(
                choice_field(request, "game", GAMES),
                suits=choice_field(request, "suits", SUIT_COUNTS),
                rule=choice_field(request, "rule", RULES),
                number=number,
                scoring=choice_field(request, "scoring", SCORINGS),
                undo_limit=undo_limit_field(request, DEFAULT_UNDO_LIMIT),
                winnable=winnable,
                avoid=avoid,
            )
        except (ValueError, LookupError) as error:
            raise ProtocolError("bad-request", str(error)) from None
        self.game = game
        return Answer([{"type": "new"}])

    def _op_open(self, request: dict[str, Any]) -> Answer:
        undo_limit = undo_limit_field(request, DEFAULT_UNDO_LIMIT)
        scoring = choice_field(request, "scoring", SCORINGS)
        if "code" in request:
            code = text_field(request, "code", "invalid-code")
            try:
                self.game = Game.from_code(code, scoring, undo_limit=undo_limit)
            except InvalidCode as error:
                raise ProtocolError("invalid-code", str(error)) from None
            except ValueError as error:
                raise ProtocolError("bad-request", str(error)) from None
        elif "position" in request:
            try:
                position = text_field(request, "position", "invalid-position")
                self.game = Game.from_text(position, undo_limit=undo_limit)
            except ValueError as error:
                raise ProtocolError("invalid-position", str(error)) from None
        else:
            raise ProtocolError("bad-request", "op 'open' needs a 'code' or a 'position'")
        return Answer([{"type": "new"}])

    def _op_load(self, request: dict[str, Any]) -> Answer:
        saved = text_field(request, "saved", "invalid-saved")
        limit: int | str | None = "saved"
        if "undo_limit" in request:
            limit = undo_limit_field(request, DEFAULT_UNDO_LIMIT)
        try:
            self.game = Game.from_json(saved, undo_limit=limit)
        except ValueError as error:
            raise ProtocolError("invalid-saved", str(error)) from None
        return Answer([{"type": "new"}])

    def _play(self, game: Game, action: Action) -> Answer:
        stock_before = len(game.position().stock)
        game.push(action)
        return Answer(_effect_events(game, action, stock_before))

    def _op_move(self, request: dict[str, Any]) -> Answer:
        game = self.require_game()
        move = Move(
            int_field(request, "src"), int_field(request, "dst"), int_field(request, "count", 1)
        )
        return self._play(game, move)

    def _op_auto(self, request: dict[str, Any]) -> Answer:
        game = self.require_game()
        src, count = int_field(request, "src"), int_field(request, "count", 1)
        move = best_destination(game, src, count)
        if move is None:
            reason = no_destination_reason(game, src, count)
            raise ProtocolError(reason, _NO_DESTINATION[reason])
        return self._play(game, move)

    def _op_deal(self, request: dict[str, Any]) -> Answer:
        return self._play(self.require_game(), DEAL)

    def _op_undo(self, request: dict[str, Any]) -> Answer:
        game = self.require_game()
        if not game.can_undo:
            raise ProtocolError("nothing-to-undo", "there is nothing to undo")
        action = game.undo()
        return Answer([{"type": "undo", "action": _action_json(action)}])

    def _op_redo(self, request: dict[str, Any]) -> Answer:
        game = self.require_game()
        if not game.can_redo:
            raise ProtocolError("nothing-to-redo", "there is nothing to redo")
        stock_before = len(game.position().stock)
        action = game.redo()
        return Answer([{"type": "redo"}, *_effect_events(game, action, stock_before)])

    def _op_restart(self, request: dict[str, Any]) -> Answer:
        self.require_game().restart()
        return Answer([{"type": "restart"}])

    def _op_set(self, request: dict[str, Any]) -> Answer:
        game = self.require_game()
        game.undo_limit = undo_limit_field(request, game.undo_limit)
        return Answer([])

    def _op_state(self, request: dict[str, Any]) -> Answer:
        self.require_game()
        return Answer([])

    def _op_export(self, request: dict[str, Any]) -> Answer:
        """The position texts for sharing: kept out of the view because they reveal every card."""
        game = self.require_game()
        export = {"position": game.to_text(), "start": game.start_position().to_text()}
        return Answer([], {"export": export})


def _action_json(action: Action) -> dict[str, Any]:
    if isinstance(action, str):
        return {"type": "deal"}
    return {"type": "move", "src": action.src, "dst": action.dst, "count": action.count}
