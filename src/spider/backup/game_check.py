"""The check of the game in progress in a backup: its history is replayed through the rules and
its state rebuilt from it, so a state that its history does not give never passes."""

from __future__ import annotations

import json
import math
from typing import Any, Final

from spider.backup.document import InvalidBackup, JsonObject
from spider.backup.stats import MAX_MS
from spider.game import Game
from spider.limits import MAX_SAVED_CHARS, excerpt
from spider.player_view import game_view

__all__ = ["check_game", "history_length"]

_FIELDS: Final = frozenset({"saved", "state", "meta", "rev", "id", "updated"})
_FLAGS: Final = ("started", "counted", "won", "assisted", "practice")
_MAX_ID_CHARS: Final = 100

_SHOWN: Final = (
    "game",
    "suits",
    "rule",
    "scoring",
    "code",
    "number",
    "columns",
    "deals_left",
    "stock_cards",
    "completed",
    "score",
    "moves",
    "won",
)
"""The parts of a stored state that describe the game: each one the document holds must be what
the replayed history gives (the others are derived from them, or were added by later versions)."""


def _fail(where: str, message: str) -> InvalidBackup:
    return InvalidBackup(f"game.{where}: {message}")


def _whole(data: JsonObject, name: str, default: int | None = None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MS:
        raise _fail(name, f"expected a whole number from 0 to {MAX_MS}, not {excerpt(value)}")
    return value


def _replay(saved: object) -> Game:
    if not isinstance(saved, str):
        raise _fail("saved", f"expected the saved game's text, not {excerpt(saved)}")
    if len(saved) > MAX_SAVED_CHARS:
        raise _fail("saved", f"longer than the {MAX_SAVED_CHARS:,} characters allowed")
    try:
        return Game.from_json(saved, undo_limit="saved")
    except ValueError as error:
        raise _fail("saved", str(error)) from None


def _check_state(state: object, view: dict[str, Any]) -> None:
    if not isinstance(state, dict):
        raise _fail("state", "expected an object")
    for name in _SHOWN:
        if name in state and json.dumps(state[name], sort_keys=True) != json.dumps(
            view[name], sort_keys=True
        ):
            raise _fail(f"state.{name}", "does not match the game its history gives")


def _check_meta(meta: object, from_deal_start: bool) -> JsonObject:
    if not isinstance(meta, dict):
        raise _fail("meta", "expected an object")
    elapsed = meta.get("elapsed", 0)
    if (
        isinstance(elapsed, bool)
        or not isinstance(elapsed, (int, float))
        or not math.isfinite(elapsed)
        or not 0 <= elapsed <= MAX_MS
    ):
        raise _fail("meta.elapsed", f"expected a time in milliseconds, not {excerpt(elapsed)}")
    out: JsonObject = {"elapsed": elapsed}
    for flag in _FLAGS:
        value = meta.get(flag, False)
        if not isinstance(value, bool):
            raise _fail(f"meta.{flag}", "expected true or false")
        out[flag] = value
    # Only a game begun at its deal's first layout counts in the statistics: a document cannot
    # make another one count.
    out["counted"] = out["counted"] and from_deal_start
    out["started"] = out["started"] or out["counted"]
    return out


def check_game(data: object) -> JsonObject | None:
    """The game in progress, rebuilt: ``saved`` as the engine writes it, ``state`` the player's
    view of the replayed game (refused when the document's state says otherwise)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InvalidBackup("game: expected null or the stored game {saved, state, meta, …}")
    unknown = set(data) - _FIELDS
    if unknown:
        raise _fail(sorted(unknown)[0], "unknown field")
    game = _replay(data.get("saved"))
    view = game_view(game)
    _check_state(data.get("state"), view)
    game_id = data.get("id", "")
    if not isinstance(game_id, str) or len(game_id) > _MAX_ID_CHARS:
        raise _fail("id", f"expected text of at most {_MAX_ID_CHARS} characters")
    return {
        "saved": game.to_json(),
        "state": view,
        "meta": _check_meta(data.get("meta", {}), bool(view["from_deal_start"])),
        "rev": _whole(data, "rev", 0),
        "id": game_id,
        "updated": _whole(data, "updated", 0),
    }


def history_length(game: JsonObject) -> int:
    """How many actions a checked game's history holds (played and undone)."""
    saved = json.loads(game["saved"])
    return len(saved["played"]) + len(saved["redo"])
