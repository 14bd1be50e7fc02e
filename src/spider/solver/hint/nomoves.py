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
from typing import Final, Literal

from spider.game import Game
from spider.moves import Move
from spider.rules import destination_index
from spider.solver.hint.column_table import column_table
from spider.solver.hint.pruned_moves import unpack
from spider.solver.view import VisibleView

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
(``id`` is the column's in the hint's :class:`~.column_table.ColumnTable`, ``down`` counts the
cards under it), sorted."""


def _key(column_ids: list[int], down: tuple[int, ...]) -> _Key:
    """The canonical key: two positions have the same key exactly when they hold the same
    (face-down count, face-up cards) pairs, in any order (fewer than 256 cards lie face down
    under a column)."""
    return tuple(sorted([column_ids[index] << 8 | under for index, under in enumerate(down)]))


_NOTHING: Final = 1 << 60
"""Above every value of a :data:`_Key`."""


_MIX: Final = 0x27D4EB2F
"""The multiplier of a key value's share of the hash: below ``1 << 30``, as the values are, so
that the compiled build multiplies machine words."""
_MIX_BITS: Final = (1 << 58) - 1
_HASH_BITS: Final = (1 << 61) - 1


def _mixed(value: int) -> int:
    """A key value's share of the hash: scrambled (multiplied, then its high bits folded in),
    so that different sets of values seldom sum to the same hash."""
    mixed = value * _MIX
    return (mixed ^ mixed >> 29) & _MIX_BITS


def _same(known: _Key, key: _Key, old_a: int, old_b: int, new_a: int, new_b: int) -> bool:
    """Whether ``known`` is :func:`_replaced` of the other arguments, without building it."""
    if new_b < new_a:
        new_a, new_b = new_b, new_a
    index = 0
    for value in key:
        if value == old_a:
            old_a = -1  # taken out once (values are never negative)
            continue
        if value == old_b:
            old_b = -1
            continue
        if new_a <= value:
            if known[index] != new_a:
                return False
            index += 1
            new_a, new_b = new_b, _NOTHING
            if new_a <= value:
                if known[index] != new_a:
                    return False
                index += 1
                new_a = _NOTHING
        if known[index] != value:
            return False
        index += 1
    if new_a < _NOTHING:
        if known[index] != new_a:
            return False
        if new_b < _NOTHING and known[index + 1] != new_b:
            return False
    return True


def _replaced(key: _Key, old_a: int, old_b: int, new_a: int, new_b: int) -> _Key:
    """The :func:`_key` of a child: ``key`` with the values ``old_a`` and ``old_b`` of the two
    columns a move changed taken out and their new values put in, in order (one pass over the
    sorted key, where sorting again would compare and move every value)."""
    if new_b < new_a:
        new_a, new_b = new_b, new_a
    items: list[int] = []
    for value in key:
        if value == old_a:
            old_a = -1  # taken out once (values are never negative)
            continue
        if value == old_b:
            old_b = -1
            continue
        if new_a <= value:
            items.append(new_a)
            new_a, new_b = new_b, _NOTHING
            if new_a <= value:
                items.append(new_a)
                new_a = _NOTHING
        items.append(value)
    if new_a < _NOTHING:
        items.append(new_a)
        if new_b < _NOTHING:
            items.append(new_b)
    return tuple(items)


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
    down = view.down
    # No card turns on these paths, so ``down`` never changes.  ``parents`` is the
    # transposition set and remembers how each position was reached (by a packed move,
    # :func:`~.pruned_moves.pack`), to rebuild the line.  A column is its id in the hint's
    # :class:`~.column_table.ColumnTable`, which knows the groups it can move and what a move
    # leaves, so the moves of a position (in the order of ``visible_moves``) and their results
    # are looked up.
    table = column_table(view.flexible)
    infos, table_moves = table.infos, table.moves
    start_ids = [table.intern(column) for column in view.columns]
    start_key = _key(start_ids, down)
    parents: dict[_Key, tuple[_Key, int] | None] = {start_key: None}
    # A key by a hash of its values (their _mixed summed), which a move changes by the values of
    # its two columns: most children were met before, and are told by this hash and one pass
    # over the key it names, without a key of their own (see _same).
    start_hash = 0
    for value in start_key:
        start_hash = (start_hash + _mixed(value)) & _HASH_BITS
    by_hash = {start_hash: start_key}
    # A position to expand: its column ids, key and hash, and the packed reverse of the move
    # that led to it (-1 at the start), which leads straight back to a position met before.
    frontier: deque[tuple[list[int], _Key, int, int]] = deque(
        [(start_ids, start_key, start_hash, -1)]
    )
    breadth = order == "breadth"
    while frontier:
        column_ids, here, here_hash, back = frontier.popleft() if breadth else frontier.pop()
        targets, empties = destination_index([infos[column_id].top for column_id in column_ids])
        for src, source in enumerate(column_ids):
            info = infos[source]
            turning = info.size if down[src] else -1  # moving this many cards turns a card
            for piece in info.pieces:
                count = piece[0]
                onto = targets[piece[1] & 15]
                for dst in onto + empties if empties else onto:
                    packed = src | dst << 4 | count << 8
                    if count == turning:
                        return NoMovesReport("useful", len(parents), _line(parents, here, packed))
                    target = column_ids[dst]
                    moved = table_moves.get(source << 32 | target << 4 | count)  # move_key
                    if moved is None:
                        moved = table.move(source, target, count)
                    if moved[2] >= 0:  # it completes a run
                        return NoMovesReport("useful", len(parents), _line(parents, here, packed))
                    if packed == back:
                        continue  # back to the position this one came from (met before)
                    old_a, old_b = source << 8 | down[src], target << 8 | down[dst]
                    new_a, new_b = moved[0] << 8 | down[src], moved[1] << 8 | down[dst]
                    child_hash = (
                        here_hash - _mixed(old_a) - _mixed(old_b) + _mixed(new_a) + _mixed(new_b)
                    ) & _HASH_BITS
                    known = by_hash.get(child_hash)
                    if known is not None and _same(known, here, old_a, old_b, new_a, new_b):
                        continue  # met before
                    key = _replaced(here, old_a, old_b, new_a, new_b)
                    if known is not None and key in parents:
                        continue  # met before, under a hash another key has
                    if len(parents) >= node_limit:
                        return NoMovesReport("unknown", len(parents))
                    parents[key] = (here, packed)
                    if known is None:
                        by_hash[child_hash] = key
                    child_ids = column_ids.copy()
                    child_ids[src] = moved[0]
                    child_ids[dst] = moved[1]
                    frontier.append((child_ids, key, child_hash, dst | src << 4 | count << 8))
    return NoMovesReport("no-moves", len(parents))


def _line(parents: dict[_Key, tuple[_Key, int] | None], key: _Key, last: int) -> tuple[Move, ...]:
    """The moves from the search's start to the position ``key``, then ``last`` (packed)."""
    moves = [unpack(last)]
    step = parents[key]
    while step is not None:
        key, move = step
        moves.append(unpack(move))
        step = parents[key]
    return tuple(reversed(moves))


def no_more_moves(source: Game | VisibleView, node_limit: int = DEFAULT_NODE_LIMIT) -> bool:
    """True only when no deal is possible and no sequence of moves turns a card or ends a run."""
    return check_no_moves(source, node_limit).no_more_moves
