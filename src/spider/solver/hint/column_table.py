"""Columns as small numbers for the hint's lookahead: each distinct face-up column is stored once.

The lookahead (:mod:`.lookahead`) meets the same columns again and again: a move changes two
columns of ten, and the same column turns up in thousands of positions of a search and in the
searches after it.  Kept as tuples of cards, every position it tests for "seen before" hashes
all its cards, every score it reads hashes a column, and every move it plays slices and joins
tuples.  A :class:`ColumnTable` gives each distinct column a number (its *id*) and keeps what
the search asks of it by that number: its cards, the groups it can move, its length and top card
(:func:`~.pruned_moves.column_info`), its score (:meth:`ColumnTable.scores_for`) and the columns
a move leaves (:meth:`ColumnTable.move`).  A position is then ten small numbers and its face-down
counts, and the moves of a position met before are looked up (:meth:`ColumnTable.children_of`).

Ids mean nothing outside the table that gave them; a table only grows, and
:func:`column_table` starts a new one between searches once it is large.  The empty column is
always id 0, so ``not column_id`` still says "empty".
"""

from __future__ import annotations

import threading
from typing import Final, final

from spider.rules import RUN_LENGTH, UNKNOWN, completes_run
from spider.solver.hint.evaluation import (
    ColumnScores,
    ColumnWeights,
    column_reveal_facts,
    score_pair,
)
from spider.solver.hint.pruned_moves import Info, column_info, useful_packed_moves

__all__ = [
    "EMPTY_ID",
    "UNKNOWN_ID",
    "ColumnTable",
    "IdScores",
    "column_table",
    "move_key",
]

EMPTY_ID: Final = 0
"""The id of the empty column in every table."""

UNKNOWN_ID: Final = 1
"""The id of a column whose only face-up card was just turned and is unknown."""

_TABLE_LIMIT: Final = 50_000
"""Columns a table may hold (and four times as many moves) before :func:`column_table` starts a
new one: a few megabytes, also in the browser."""

_CHILDREN_LIMIT: Final = 20_000
"""Positions whose moves a table keeps (it forgets them all at once past this): the positions of
about ten hints, enough for the next hint to find those of the last."""


def move_key(src: int, dst: int, count: int) -> int:
    """The key of :attr:`ColumnTable.moves` for ``count`` cards from column id ``src`` onto
    column id ``dst``: one int (ids stay far below 2**28, counts below 16), which hashes and
    compares at once where a tuple of three is built, hashed and compared item by item."""
    return src << 32 | dst << 4 | count


class ColumnTable:
    """Every face-up column a search met, by id, with what the search asks of it.

    ``cards[id]`` is the column, ``infos[id]`` its :func:`~.pruned_moves.column_info` (under
    the rule the table was made for) and ``reveal_facts[id]`` its
    :func:`~.evaluation.column_reveal_facts` (see :meth:`current_reveal_facts`); :attr:`moves`
    and :attr:`children` keep what :meth:`move` and :meth:`children_of` worked out.  Ids are
    handed out in the order columns are first met.
    """

    def __init__(self, flexible: bool) -> None:
        self.flexible = flexible
        self.ids: dict[tuple[int, ...], int] = {}
        self.cards: list[tuple[int, ...]] = []
        self.infos: list[Info] = []
        self.reveal_facts: list[int] = []
        self.moves: dict[int, tuple[int, int, int]] = {}  # by move_key(src, dst, count)
        self.children: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        self._scores: dict[tuple[float, ...], IdScores] = {}
        self._lock = threading.Lock()
        self.intern(())
        self.intern((UNKNOWN,))

    def __len__(self) -> int:
        return len(self.cards)

    def intern(self, column: tuple[int, ...]) -> int:
        """The id of ``column``, given it now if it has none.

        Searches in several threads may share a table: a new id is given under a lock, and
        only once its column is stored, so an id always names the same column."""
        known = self.ids.get(column)
        if known is not None:
            return known
        info = column_info(column, self.flexible)
        with self._lock:
            known = self.ids.get(column)
            if known is not None:
                return known
            self.cards.append(column)
            self.infos.append(info)
            new = self.ids[column] = len(self.cards) - 1
        return new

    def current_reveal_facts(self) -> list[int]:
        """:attr:`reveal_facts`, once it holds those of every column of the table (it is extended
        here: only the lookahead of 4-suit classic games reads them)."""
        facts, cards = self.reveal_facts, self.cards
        if len(facts) < len(cards):
            with self._lock:
                for column in cards[len(facts) :]:
                    facts.append(column_reveal_facts(column))
        return facts

    def columns(self, ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The columns of a position given by ids."""
        cards = self.cards
        return tuple(cards[column_id] for column_id in ids)

    def move(self, src: int, dst: int, count: int) -> tuple[int, int, int]:
        """``(source left, destination after, run suit)`` when the top ``count`` cards of column
        id ``src`` go onto column id ``dst``: the ids of the two columns the move leaves (before
        any card is turned) and the suit index of the run it completes, or -1.  A completed run
        leaves the table at once, as :func:`~spider.solver.view.apply_visible` plays it (cached)."""
        key = move_key(src, dst, count)
        known = self.moves.get(key)
        if known is not None:
            return known
        # The two columns alone, with nothing face down under them, played as apply_visible
        # plays a move (a completed run leaves at once); no card turns (the search turns it).
        source = self.cards[src]
        after = self.cards[dst] + source[-count:]
        run_suit = -1
        if after[-1] & 15 == 1 and completes_run(after, 0):
            run_suit = after[-1] >> 4
            after = after[:-RUN_LENGTH]
        result = self.moves[key] = (self.intern(source[:-count]), self.intern(after), run_suit)
        return result

    def children_of(self, ids: tuple[int, ...], down: tuple[int, ...]) -> tuple[int, ...]:
        """The useful moves (:func:`~.pruned_moves.useful_packed_moves`, packed) of the position
        with column ids ``ids`` and face-down counts ``down``, kept in :attr:`children` for the
        next time (plain numbers, which the garbage collector does not track)."""
        infos = self.infos
        moves = tuple(useful_packed_moves([infos[column_id] for column_id in ids], down))
        if len(self.children) >= _CHILDREN_LIMIT:
            self.children.clear()
        self.children[ids, down] = moves
        return moves

    def scores_for(self, scores: ColumnScores) -> IdScores:
        """``scores`` by ``2 * id + (face-down cards under it > 0)`` (a column's score depends on
        whether cards lie under it, not on how many), kept for every column of the table."""
        weights = scores.weights
        by_id = self._scores.get(weights)
        if by_id is None:
            by_id = self._scores[weights] = IdScores(self, weights)
        return by_id


@final
class IdScores:
    """Column scores in a list by ``2 * id + covered`` (:meth:`ColumnTable.scores_for`): read by
    index, where the lookahead reads four per position it generates."""

    def __init__(self, table: ColumnTable, weights: ColumnWeights) -> None:
        self.table = table
        self.weights = weights
        self.values: list[float] = []
        self._lock = threading.Lock()  # searches in several threads may share it

    def current(self) -> list[float]:
        """:attr:`values`, once it holds the scores of every column of the table (it is
        extended here; the scores are :func:`~.evaluation.score_pair`'s under :attr:`weights`)."""
        values, table, weights = self.values, self.table, self.weights
        if len(values) < 2 * len(table.cards):
            with self._lock:
                for column in table.cards[len(values) >> 1 :]:
                    uncovered, covered = score_pair(weights, column)
                    values.append(uncovered)
                    values.append(covered)
        return values


_tables: dict[bool, ColumnTable] = {}


def column_table(flexible: bool) -> ColumnTable:
    """The table for the rule (``flexible`` or classic), a new one once the last is large.

    A search keeps the table it started with, so starting a new one never changes ids under a
    search that is running."""
    table = _tables.get(flexible)
    if table is None or len(table) > _TABLE_LIMIT or len(table.moves) > 4 * _TABLE_LIMIT:
        table = _tables[flexible] = ColumnTable(flexible)
    return table
