""" "No more moves", claimed only when it is true.

The claim needs two things, both decided from the visible position alone:

1. no deal can ever happen again: the stock is empty, or the table holds fewer cards than there
   are columns (so an empty column can never be filled and the deal is refused for good);
2. no sequence of card moves turns a face-down card or completes a run.  Along such sequences no
   card turns, so the face-up cards are all the search needs: it is exhaustive over every
   arrangement reachable by card moves, with a canonical key (columns sorted: with no deal
   ahead, their order does not matter) and a transposition set.  By default it goes breadth
   first, so a line it finds is a shortest one: depth first, a few empty columns let it wander
   through thousands of rearrangements (and give up) before it tried two moves that turn a card.
   Depth first, on the other hand, can reach a line of dozens of moves that breadth first has no
   budget for; the hint tries both (``order``).

When the search would exceed its node limit the answer is "not proven", and nothing is claimed:
the check can miss a dead end in a huge endgame, but it never raises a false alarm.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from spider.game import Game
from spider.moves import Move
from spider.solver.view import Columns, VisibleView, apply_visible, visible_moves

__all__ = [
    "DEFAULT_NODE_LIMIT",
    "NoMovesReport",
    "check_no_moves",
    "find_useful_line",
    "no_more_moves",
]

DEFAULT_NODE_LIMIT = 100_000
"""Positions the exhaustive search may visit before it gives up (and claims nothing)."""


@dataclass(frozen=True, slots=True)
class NoMovesReport:
    """What the check found.

    ``status`` is ``'no-moves'`` (proven: nothing useful is left), ``'deal'`` (a deal is possible
    now or after filling the empty columns), ``'useful'`` (``line`` turns a card or completes a
    run), ``'won'`` or ``'unknown'`` (the search hit its limit).  ``positions`` counts the
    positions searched.
    """

    status: str
    positions: int
    line: tuple[Move, ...] = ()

    @property
    def no_more_moves(self) -> bool:
        """True only when it is proven that no move or deal can make progress."""
        return self.status == "no-moves"


_Key = tuple[int, ...]
"""A position of the search, up to the order of its columns: its columns as ``id << 8 | down``
(``id`` numbers the distinct face-up columns met, ``down`` counts the cards under them), sorted."""


def _column_id(ids: dict[tuple[int, ...], int], column: tuple[int, ...]) -> int:
    """The number of ``column`` in ``ids``, given it now if it has none."""
    known = ids.get(column)
    if known is None:
        known = ids[column] = len(ids)
    return known


def _key(column_ids: list[int], down: tuple[int, ...]) -> _Key:
    """The canonical key: two positions have the same key exactly when they hold the same
    (face-down count, face-up cards) pairs, in any order (fewer than 256 cards lie face down
    under a column)."""
    return tuple(sorted([column_ids[index] << 8 | under for index, under in enumerate(down)]))


def check_no_moves(
    source: Game | VisibleView, node_limit: int = DEFAULT_NODE_LIMIT
) -> NoMovesReport:
    """Decide "no more moves" for a game or a visible view (see the module documentation)."""
    view = source if isinstance(source, VisibleView) else VisibleView.from_game(source)
    if view.is_won:
        return NoMovesReport("won", 0)
    if view.deal_ever_possible:
        return NoMovesReport("deal", 0)
    return find_useful_line(view, node_limit)


SearchOrder = Literal["breadth", "depth"]
"""The order :func:`find_useful_line` visits positions in."""


def find_useful_line(
    view: VisibleView, node_limit: int = DEFAULT_NODE_LIMIT, order: SearchOrder = "breadth"
) -> NoMovesReport:
    """Search card moves only (no deal) for a line that turns a card or completes a run.

    Returns status ``'useful'`` with such a line (a shortest one when ``order`` is
    ``'breadth'``), ``'no-moves'`` when the search was exhaustive and found none, or
    ``'unknown'`` when it hit ``node_limit``.  Both orders visit the same positions when the
    search is exhaustive, so they agree on ``'no-moves'``.
    """
    flexible = view.flexible
    down = view.down
    start = view.columns
    # No card turns on these paths, so ``down`` never changes.  ``parents`` is the
    # transposition set and remembers how each position was reached, to rebuild the line.  A
    # column is known by its number in ``ids``: a move changes two, whose numbers are looked up.
    ids: dict[tuple[int, ...], int] = {}
    start_ids = [_column_id(ids, column) for column in start]
    start_key = _key(start_ids, down)
    parents: dict[_Key, tuple[_Key, Move] | None] = {start_key: None}
    frontier: deque[tuple[Columns, list[int], _Key]] = deque([(start, start_ids, start_key)])
    take = frontier.popleft if order == "breadth" else frontier.pop
    while frontier:
        columns, column_ids, here = take()
        for move in visible_moves(columns, flexible):
            applied = apply_visible(columns, down, move)
            if applied.flipped or applied.run_suit >= 0:
                return NoMovesReport("useful", len(parents), _line(parents, here, move))
            moved = applied.columns
            src, dst = move.src, move.dst
            child_ids = list(column_ids)
            child_ids[src] = _column_id(ids, moved[src])
            child_ids[dst] = _column_id(ids, moved[dst])
            key = _key(child_ids, down)
            if key in parents:
                continue
            if len(parents) >= node_limit:
                return NoMovesReport("unknown", len(parents))
            parents[key] = (here, move)
            frontier.append((moved, child_ids, key))
    return NoMovesReport("no-moves", len(parents))


def _line(parents: dict[_Key, tuple[_Key, Move] | None], key: _Key, last: Move) -> tuple[Move, ...]:
    moves = [last]
    step = parents[key]
    while step is not None:
        key, move = step
        moves.append(move)
        step = parents[key]
    return tuple(reversed(moves))


def no_more_moves(source: Game | VisibleView, node_limit: int = DEFAULT_NODE_LIMIT) -> bool:
    """True only when no deal is possible and no sequence of moves turns a card or ends a run."""
    return check_no_moves(source, node_limit).no_more_moves
