"""The game a command works on, from its SOURCE argument: a code, a position text, or a file."""

from __future__ import annotations

from pathlib import Path

from spider.game import Game
from spider.limits import MAX_SAVED_CHARS, excerpt

__all__ = ["load_game", "source_text"]


_MAX_FILE_BYTES = MAX_SAVED_CHARS * 4
"""A game file larger than this is refused before it is read (a saved game is at most
:data:`~spider.limits.MAX_SAVED_CHARS` characters, at most 4 bytes each)."""


def source_text(source: str) -> str:
    """The text of ``source``: the file it names (within a size bound), else ``source`` itself."""
    text = source.strip()
    try:
        is_file = len(text) < 4096 and Path(text).is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        path = Path(text)
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise ValueError(f"{excerpt(text)}: the file is too large to be a game")
        try:
            text = path.read_text(encoding="utf-8").strip()
        except UnicodeDecodeError:
            raise ValueError(f"{excerpt(text)}: the file is not UTF-8 text") from None
    return text


def load_game(source: str) -> Game:
    """A game from a code, a position text, a file holding either, or a saved-game JSON file."""
    text = source_text(source)
    if text.startswith("{"):
        return Game.from_json(text)
    if text.upper().startswith(("SP1-", "SD1-")):
        return Game.from_code(text)
    if " / " in text or text.count("/") >= 5:
        return Game.from_text(text)
    raise ValueError(
        f"{excerpt(source)} is neither a game code (such as SP1-S2C-AAAAAAD), a position text, "
        "nor a file holding one"
    )
