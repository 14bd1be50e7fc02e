"""A readable picture of a position for terminals: suit symbols, backs for face-down cards."""

from __future__ import annotations

from spider.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS
from spider.codes import format_code
from spider.position import Position

__all__ = ["render_text"]

_BACK = "[##]"
_WIDTH = 5


def _card_picture(card: int, symbols: bool) -> str:
    suit = SUITS[card >> 4]
    return RANK_NAMES[card & 15] + (SUIT_SYMBOLS[suit] if symbols else suit)


def render_text(position: Position, symbols: bool = True) -> str:
    """The position as lines of text, columns side by side, top of each column at the bottom."""
    options = position.options
    title = "position" if position.number is None else format_code(options, position.number)
    suits = [SUITS[suit] for suit in position.removed]
    removed = " ".join(SUIT_SYMBOLS[s] if symbols else s for s in suits) or "none"
    lines = [
        f"{title}  {options.game}, {options.suits} suit{'s' if options.suits > 1 else ''}, "
        f"{options.rule} rule, {options.scoring} scoring",
        f"Score {position.score}   Moves {position.moves}   "
        f"Deals left {options.deals_left(len(position.stock))}   "
        f"Runs removed: {removed}",
        "",
        "".join(f"{letter:^{_WIDTH}}" for letter in "abcdefghij"[: options.column_count]).rstrip(),
    ]
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
    if len(position.removed) == options.runs_to_win:
        lines.append("")
        lines.append("Won!")
    return "\n".join(lines)
