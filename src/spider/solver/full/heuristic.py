"""The solver's heuristic: how promising a position looks (both phases use it).

It counts runs removed, face-down cards, deals made, one-suit and any-suit links, breaks (worse
over face-down cards), face-up cards over face-down ones and empty columns, with the weights of
:class:`Weights`.  Column scores are cached: most columns are shared between positions.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from spider.position import Position
from spider.rules import RUN_LENGTH, link_counts
from spider.solver.full.encoding import State

__all__ = ["PORTFOLIO", "Heuristic", "Weights"]


class Weights(NamedTuple):
    """Weights of the heuristic (one scale for both phases)."""

    run: int = 400  # per run removed
    down: int = 40  # per face-down card (subtracted)
    deal: int = 100  # per deal made
    suited: int = 12  # per one-suit link
    linked: int = 3  # per link of another suit, one rank apart
    breaks: int = 6  # per break between face-up cards
    break_down: int = 6  # more per break in a column over face-down cards
    cover: int = 2  # per face-up card over face-down ones
    empty: int = 50  # per empty column


PORTFOLIO: Final = (
    Weights(),
    Weights(break_down=15, cover=5),
    Weights(suited=25, linked=1),
    Weights(down=80, break_down=15, cover=5),
)
"""The finding phase's heuristics.  A beam that fails with one often succeeds at once with
another (hard deals have heavy-tailed solving times), so each has its own strict track; the
loose track, costlier, uses the first only.  The first also orders the sound phase."""

_CACHE_SIZE: Final = 500_000
"""Column scores kept before the cache starts again."""


class Heuristic:
    """Scores positions of one game (the stock order and the card count are fixed)."""

    def __init__(self, position: Position, weights: Weights) -> None:
        self.weights = weights
        self.stock = position.stock  # dealing order
        self.stock_total = len(self.stock)
        self.columns = len(position.columns)
        self.cards_start = position.table_cards + len(position.stock)
        self.cache: dict[bytes, int] = {}

    def column_score(self, column: bytes) -> int:
        """The score of one column (cached)."""
        cache = self.cache
        cached = cache.get(column)
        if cached is not None:
            return cached
        weights = self.weights
        down = column[0]
        size = len(column)
        if size == 1:
            score = weights.empty
        else:
            suited, linked, breaks = link_counts(column[down + 1 :])
            score = (
                weights.suited * suited
                + weights.linked * linked
                - weights.breaks * breaks
                - weights.down * down
            )
            if down:
                score -= weights.cover * (size - 1 - down) + weights.break_down * breaks
        if len(cache) > _CACHE_SIZE:
            cache.clear()
        cache[column] = score
        return score

    def score(self, state: State) -> int:
        """The score of a whole position (the search scores children incrementally)."""
        columns, stock = state
        column_score = self.column_score
        total = sum(column_score(column) for column in columns)
        cards = sum(len(column) - 1 for column in columns) + stock
        runs = (self.cards_start - cards) // RUN_LENGTH
        deals = -(-(self.stock_total - stock) // self.columns)
        return total + self.weights.run * runs + self.weights.deal * deals
