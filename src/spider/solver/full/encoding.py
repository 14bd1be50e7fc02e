"""How the solver encodes positions and actions, and reads a winning line back.

A position (:data:`State`) is a tuple of columns, each a ``bytes`` object (first byte: the
face-down count, then the cards bottom to top), and the number of cards left in the stock (its
order is fixed, so its length says which cards are left).  Columns a move leaves alone are shared
between parent and child.  An action code (:data:`ActionCode`) is ``src << 8 | dst << 4 |
count`` for a card move, ``-1`` for a deal, or a tuple of move codes for a macro (a supermove).
"""

from __future__ import annotations

from typing import Final

from spider.moves import DEAL, Action, Move
from spider.position import Position
from spider.rules import RUN_LENGTH, completes_run, turns_over

__all__ = [
    "DEAL_CODE",
    "ActionCode",
    "State",
    "Tree",
    "action_of",
    "canonical_key",
    "is_won",
    "settle_column",
    "start_state",
    "turn_top",
]

State = tuple[tuple[bytes, ...], int]
"""A position: its columns (byte 0 counts the face-down cards) and the stock size."""

ActionCode = int | tuple[int, ...]
"""A primitive move or deal (int), or a macro of primitive moves."""

DEAL_CODE: Final = -1
"""The action code of a deal."""


def start_state(position: Position) -> State:
    """The solver's encoding of an engine position."""
    columns = tuple(
        bytes((down, *cards))
        for cards, down in zip(position.columns, position.face_down, strict=True)
    )
    return (columns, len(position.stock))


def turn_top(column: bytes) -> bytes:
    """Turn the last card face up when every card left is face down."""
    if turns_over(len(column) - 1, column[0]):
        return bytes((column[0] - 1,)) + column[1:]
    return column


def settle_column(column: bytes) -> tuple[bytes, bool]:
    """Remove a completed run from the end of a column (turning the card under it); return the
    column and whether a run left."""
    if not completes_run(column, column[0] + 1):  # byte 0 counts the face-down cards
        return column, False
    return turn_top(column[:-RUN_LENGTH]), True


def canonical_key(state: State, column_count: int) -> tuple[object, ...]:
    """The transposition key: the columns no deal will reach again are sorted (all of them once
    the stock is empty; in Spiderette, columns 3 to 6 before the short last deal), since their
    order no longer matters, while a deal puts a known card on each other column by position."""
    columns, stock = state
    if stock >= column_count:
        return (stock, columns)
    return (stock, columns[:stock], *sorted(columns[stock:]))


def is_won(state: State) -> bool:
    """True when the stock is empty and every column is empty (every run removed)."""
    columns, stock = state
    return not stock and all(len(column) == 1 for column in columns)


def action_of(code: int) -> Action:
    """The engine action of a primitive action code."""
    if code < 0:
        return DEAL
    return Move(code >> 8, (code >> 4) & 15, code & 15)


class Tree:
    """Parent links and action codes of the stored positions (the solution is read back here)."""

    def __init__(self) -> None:
        self.parents: list[int] = [-1]
        self.actions: list[ActionCode] = [0]

    def add(self, parent: int, action: ActionCode) -> int:
        """Store a child of node ``parent`` reached by ``action``; return its node number."""
        self.parents.append(parent)
        self.actions.append(action)
        return len(self.parents) - 1

    def line(self, node: int) -> list[int]:
        """The primitive action codes from the root to ``node``."""
        line: list[int] = []
        while node > 0:
            action = self.actions[node]
            if isinstance(action, int):
                line.append(action)
            else:
                line.extend(reversed(action))
            node = self.parents[node]
        line.reverse()
        return line
