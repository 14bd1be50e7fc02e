"""Whole games as JSON: options, starting position, every action played and the redo list.

A saved game is replayed through the rules on load, so a file cannot smuggle in an illegal
position: it either loads exactly or raises ``ValueError`` naming the bad field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from spider.limits import MAX_SAVED_CHARS, check_undo_limit, excerpt, load_json
from spider.moves import Action, action_from_text, action_text

__all__ = ["FORMAT", "VERSION", "SavedGame", "read_saved", "write_saved"]

FORMAT: Final = "spider-solitaire/game"
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A saved game as the file holds it, read and checked field by field but not yet replayed
    (:meth:`spider.game.Game.from_json` replays it through the rules).

    ``start`` and ``position`` are position texts; ``redo`` lists the undone actions, the next
    one to redo last.  ``position`` and ``code`` are optional cross-checks (None when absent).
    """

    start: str
    played: list[Action]
    redo: list[Action]
    undo_limit: int | None
    position: str | None = None
    code: str | None = None


def write_saved(saved: SavedGame) -> str:
    """The saved game as a JSON document (see the module docstring)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "code": saved.code,
        "undo_limit": saved.undo_limit,
        "start": saved.start,
        "played": [action_text(action) for action in saved.played],
        "redo": [action_text(action) for action in saved.redo],
        "position": saved.position,
    }
    return json.dumps(document, separators=(",", ":"))


def _field(document: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in document:
        raise ValueError(f"saved game: field {name!r} is missing")
    value = document[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ValueError(f"saved game: field {name!r} has the wrong type ({type(value).__name__})")
    return value


def _document(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a saved game, its format and version checked."""
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
    return document


def _actions(document: dict[str, Any], name: str) -> list[Action]:
    tokens = _field(document, name, list)
    if not all(isinstance(token, str) for token in tokens):
        raise ValueError(f"saved game: field {name!r} must be a list of strings")
    actions = []
    for index, token in enumerate(tokens):
        try:
            actions.append(action_from_text(token))
        except ValueError as error:
            raise ValueError(
                f"saved game: field {name!r}, action {index} ({excerpt(token)}): {error}"
            ) from None
    return actions


def _optional_text(document: dict[str, Any], name: str) -> str | None:
    value = document.get(name)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"saved game: field {name!r} must be text or null")
    return value


def read_saved(text: str | bytes) -> SavedGame:
    """Read a saved game document; ``ValueError`` names the bad field."""
    document = _document(text)
    try:
        undo_limit = check_undo_limit(document.get("undo_limit"), "field 'undo_limit'")
    except ValueError as error:
        raise ValueError(f"saved game: {error}") from None
    return SavedGame(
        start=_field(document, "start", str),
        played=_actions(document, "played"),
        redo=_actions(document, "redo"),
        undo_limit=undo_limit,
        position=_optional_text(document, "position"),
        code=_optional_text(document, "code"),
    )
