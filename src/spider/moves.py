"""Moves and their text notation.

A card move is written with column letters ``a`` (the first column) to ``j`` and the number of
cards when it is more than one: ``ad`` moves one card from column a to column d, ``bc3`` moves the
three top cards of column b onto column c.  A deal is written ``deal``.  A game record is these
tokens separated by spaces.
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple, TypeAlias

from spider.limits import excerpt

__all__ = ["DEAL", "Action", "Move", "action_from_text", "action_text"]

_COLUMN_LETTERS: Final = "abcdefghij"
_MOVE_RE: Final = re.compile(r"^([a-j])([a-j])([1-9][0-9]{0,2})?$", re.ASCII)


class Move(NamedTuple):
    """A card move: the ``count`` top cards of column ``src`` onto column ``dst`` (0-based)."""

    src: int
    dst: int
    count: int = 1  # type: ignore[assignment]  # the field shadows tuple.count on purpose

    def text(self) -> str:
        """The move in notation: ``Move(0, 3, 2).text() == 'ad2'``."""
        letters = _COLUMN_LETTERS[self.src] + _COLUMN_LETTERS[self.dst]
        return letters if self.count == 1 else f"{letters}{self.count}"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read a move such as ``'ad'`` or ``'bc3'``; ``ValueError`` if it is not one."""
        if not isinstance(text, str):
            raise ValueError(f"not a move: {excerpt(text)} (a move is text such as 'ad' or 'bc3')")
        match = _MOVE_RE.match(text.strip().lower()) if text.isascii() else None
        if match is None:
            raise ValueError(
                f"not a move: {excerpt(text)} (expected two column letters a-j and an optional "
                "count, such as 'ad' or 'bc3')"
            )
        src, dst, count = match.groups()
        return cls(_COLUMN_LETTERS.index(src), _COLUMN_LETTERS.index(dst), int(count or 1))


DEAL: Final = "deal"
"""The action of dealing from the stock, in game records and redo lists."""

Action: TypeAlias = Move | Literal["deal"]


def action_text(action: Action) -> str:
    """Notation of a move or a deal."""
    return DEAL if isinstance(action, str) else action.text()


def action_from_text(text: str) -> Action:
    """Read ``'deal'`` or a move."""
    return DEAL if text.strip().lower() == DEAL else Move.from_text(text)
