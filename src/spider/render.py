"""A readable picture of a position for terminals: suit symbols, backs for face-down cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import RANK_NAMES, SUIT_SYMBOLS, SUITS

if TYPE_CHECKING:
    from .game import Game

__all__ = ["render_text"]

_BACK = "[##]"
_WIDTH = 5


def _card_picture(card: int, symbols: bool) -> str:
    suit = SUITS[card >> 4]
    return RANK_NAMES[card & 15] + (SUIT_SYMBOLS[suit] if symbols else suit)


def render_text(game: Game, symbols: bool = True) -> str:
    """The position as lines of text, columns side by side, top of each column at the bottom."""
    options = game.options
    title = game.code or "position"
    removed = " ".join(SUIT_SYMBOLS[s] if symbols else s for s in game.completed) or "none"
    lines = [
        f"{title}  {options.game}, {options.suits} suit{'s' if options.suits > 1 else ''}, "
        f"{options.rule} rule, {options.scoring} scoring",
        f"Score {game.score}   Moves {game.moves}   Deals left {game.deals_left}   "
        f"Runs removed: {removed}",
        "",
        "".join(f"{letter:^{_WIDTH}}" for letter in "abcdefghij"[: options.column_count]).rstrip(),
    ]
    position = game.position()
    height = max(map(len, position.columns), default=0)
    for row in range(height):
        cells = []
        for column, down in zip(position.columns, position.face_down, strict=True):
            if row >= len(column):
                cells.append(" " * _WIDTH)
            elif row < down:
                cells.append(f"{_BACK:^{_WIDTH}}")
            else:
                cells.append(f"{_card_picture(column[row], symbols):^{_WIDTH}}")
        lines.append("".join(cells).rstrip())
    if game.is_won:
        lines.append("")
        lines.append("Won!")
    return "\n".join(lines)
