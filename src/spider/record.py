"""Whole games as JSON: options, starting position, every action played and the redo list.

A saved game is replayed through the rules on load, so a file cannot smuggle in an illegal
position: it either loads exactly or raises ``ValueError`` naming the bad field.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from .errors import IllegalMove
from .limits import MAX_SAVED_CHARS, check_undo_limit, excerpt, load_json
from .moves import action_from_text, action_text

if TYPE_CHECKING:
    from .game import Game

__all__ = ["FORMAT", "VERSION", "game_from_json", "game_to_json"]

FORMAT: Final = "spider-solitaire/game"
VERSION: Final = 1


def game_to_json(game: Game) -> str:
    """The game as a JSON document (see the module docstring)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "code": game.code,
        "undo_limit": game.undo_limit,
        "start": game.start_position().to_text(),
        "played": [action_text(action) for action in game.played],
        "redo": [action_text(action) for action in game.redo_actions],
        "position": game.to_text(),
    }
    return json.dumps(document, separators=(",", ":"))


def _field(document: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in document:
        raise ValueError(f"saved game: field {name!r} is missing")
    value = document[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ValueError(f"saved game: field {name!r} has the wrong type ({type(value).__name__})")
    return value


def game_from_json(text: str | bytes, undo_limit: int | str | None = "saved") -> Game:
    """Rebuild a game from :func:`game_to_json` output; ``ValueError`` names the bad field."""
    from .game import Game

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"saved game: not UTF-8 text ({error.reason})") from None
    document = load_json(text, "saved game", MAX_SAVED_CHARS)
    if not isinstance(document, dict):
        raise ValueError("saved game: expected a JSON object")
    if document.get("format") != FORMAT:
        raise ValueError(f"saved game: field 'format' must be {FORMAT!r}")
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        raise ValueError(
            f"saved game: version {excerpt(version)} is not supported (expected {VERSION})"
        )
    try:
        saved_limit = check_undo_limit(document.get("undo_limit"), "field 'undo_limit'")
    except ValueError as error:
        raise ValueError(f"saved game: {error}") from None
    if undo_limit == "saved":
        limit = saved_limit
    elif isinstance(undo_limit, str):
        raise ValueError(f"undo_limit must be an int, None or 'saved', not {excerpt(undo_limit)}")
    else:
        limit = check_undo_limit(undo_limit)
    start = _field(document, "start", str)
    try:
        game = Game.from_text(start, undo_limit=limit)
    except ValueError as error:
        raise ValueError(f"saved game: field 'start': {error}") from None
    for name in ("played", "redo"):
        actions = _field(document, name, list)
        if not all(isinstance(token, str) for token in actions):
            raise ValueError(f"saved game: field {name!r} must be a list of strings")
    for index, token in enumerate(document["played"]):
        try:
            game.push(action_from_text(token))
        except (IllegalMove, ValueError) as error:
            raise ValueError(
                f"saved game: field 'played', action {index} ({excerpt(token)}): {error}"
            ) from None
    redo = []
    for index, token in enumerate(document["redo"]):
        try:
            redo.append(action_from_text(token))
        except ValueError as error:
            raise ValueError(f"saved game: field 'redo', action {index}: {error}") from None
    # Check the redo list replays from here, then restore it.
    probe = game.copy(history=False)
    for index, action in enumerate(reversed(redo)):
        try:
            probe.push(action)
        except (IllegalMove, ValueError) as error:
            raise ValueError(f"saved game: field 'redo', action {index}: {error}") from None
    game.set_redo(redo)
    position = document.get("position")
    if position is not None and position != game.to_text():
        raise ValueError("saved game: field 'position' does not match the replayed game")
    code = document.get("code")
    if code is not None and code != game.code:
        raise ValueError("saved game: field 'code' does not match the starting position")
    return game
