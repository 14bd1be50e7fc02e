"""The rules of play, written once: pure functions over the engine's int columns.

A column here is a sequence of engine card ints (see :mod:`spider.cards`), bottom to top, of
which the cards before index ``first_up`` lie face down.  Every part of the package that plays,
generates or judges moves calls these functions: :class:`~spider.game.Game`, the player's visible
view and the hint, the solver's move generator at every pruning level and automatic placement.
None keeps a copy of a rule of its own; a property test compares what their generators offer.

The card value :data:`UNKNOWN` (``0``, never a real card) stands for a face-up card whose
identity a lookahead does not know yet (a card it has just turned): nothing goes on it and it
cannot be picked up, which is exactly what a player knows of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from spider.moves import Move

__all__ = [
    "CARD_MOVES",
    "EMPTY",
    "MOST_COLUMNS",
    "MOVE_STRIDE",
    "RUN_LENGTH",
    "UNKNOWN",
    "DealRefusal",
    "accepts",
    "completes_run",
    "deal_blocked_forever",
    "deal_refusal",
    "destination_index",
    "group_length",
    "legal_moves",
    "link_counts",
    "may_deal",
    "scored",
    "settle",
    "turns_over",
]

RUN_LENGTH: Final = 13
"""Cards in a complete run, King down to Ace."""

UNKNOWN: Final = 0
"""A face-up card whose identity is not known (in a lookahead): it takes nothing, never moves."""

EMPTY: Final = -1
"""The top of an empty column, for :func:`destination_index`."""

_NO_COLUMNS: Final[list[int]] = []
"""The shared entry of :func:`destination_index` for ranks no column takes (never modified:
callers only read the lists, or build new ones from them)."""

MOST_COLUMNS: Final = 10
"""The most columns a game has (Spider; Spiderette has 7)."""

_NO_DESTINATIONS: Final = [_NO_COLUMNS] * 14
"""What :func:`destination_index` starts each index from (a copy): no rank has a column."""

_ONE_COLUMN: Final = [[index] for index in range(MOST_COLUMNS)]
"""The shared entries of :func:`destination_index` for ranks one column takes (never modified,
as :data:`_NO_COLUMNS`): most ranks have one column or none, so an index makes few lists."""

MOVE_STRIDE: Final = RUN_LENGTH + 1
"""Group sizes 0 to 13 for each (source, destination) in :data:`CARD_MOVES`."""

CARD_MOVES: Final = [
    Move(src, dst, count)
    for src in range(MOST_COLUMNS)
    for dst in range(MOST_COLUMNS)
    for count in range(MOVE_STRIDE)
]
"""Every card move of a game, made once: ``Move(src, dst, count)`` is
``CARD_MOVES[(src * MOST_COLUMNS + dst) * MOVE_STRIDE + count]``. :func:`legal_moves` and the
game hand these out (moves are immutable), so listing or playing a move allocates none."""

DealRefusal = tuple[Literal["stock-empty", "empty-column"], int]
"""Why a deal is refused: the code, and the first empty column (-1 for an empty stock)."""


def link_counts(cards: Sequence[int]) -> tuple[int, int, int]:
    """(one-suit links, any-suit links, breaks) between neighbouring cards of a column's face-up
    cards, bottom to top: a card one rank below the card under it, of its suit or of any suit,
    or neither (an :data:`UNKNOWN` card breaks).  What the hint's and the solver's heuristics
    count of a column."""
    suited = linked = breaks = 0
    lower = -1  # no card under the first (cards are never negative)
    for upper in cards:  # one pass with the card below carried: no pair is built
        if lower < 0:
            pass
        elif upper == UNKNOWN or lower == UNKNOWN:
            breaks += 1
        elif upper == lower - 1:
            suited += 1
        elif (upper & 15) == (lower & 15) - 1:
            linked += 1
        else:
            breaks += 1
        lower = upper
    return suited, linked, breaks


def group_length(cards: Sequence[int], first_up: int, flexible: bool) -> int:
    """How many top cards of a column may be picked up together: face-up cards in descending
    consecutive ranks, of one suit unless ``flexible`` (the Flexible rule).  0 when the column
    has no face-up card or its top card is :data:`UNKNOWN`."""
    position = len(cards) - 1
    if position < first_up or cards[position] == UNKNOWN:
        return 0
    length = 1
    if flexible:
        while position > first_up and (cards[position - 1] & 15) == (cards[position] & 15) + 1:
            length += 1
            position -= 1
    else:
        # Two cards of one suit are one rank apart exactly when their ints differ by one.
        while position > first_up and cards[position - 1] == cards[position] + 1:
            length += 1
            position -= 1
    return length


def accepts(column: Sequence[int], card: int) -> bool:
    """True when a group whose lowest card is ``card`` may go onto ``column``: the column is
    empty, or its top card is one rank higher (of any suit)."""
    return not column or (column[-1] & 15) == (card & 15) + 1


def destination_index(tops: list[int]) -> tuple[list[list[int]], list[int]]:
    """Where groups may go, as ``(by_rank, empties)``.

    ``tops[i]`` is the top card of column ``i``, or :data:`EMPTY`.  ``by_rank[r]`` lists, left to
    right, the columns a group whose lowest card has rank ``r`` may go onto besides the empty
    columns ``empties`` (the same placement rule as :func:`accepts`).  The lists of ``by_rank``
    are read only: most are shared between calls.
    """
    by_rank = _NO_DESTINATIONS.copy()  # a list of its own only for ranks two columns take
    empties: list[int] = []
    for index, top in enumerate(tops):
        if top <= UNKNOWN:  # EMPTY or UNKNOWN: no card to go onto
            if top == EMPTY:
                empties.append(index)
        else:
            rank = (top & 15) - 1
            columns = by_rank[rank]
            if columns is _NO_COLUMNS and index < MOST_COLUMNS:
                by_rank[rank] = _ONE_COLUMN[index]
            else:
                by_rank[rank] = [*columns, index]
    return by_rank, empties


def legal_moves(columns: Sequence[Sequence[int]], lengths: list[int]) -> list[Move]:
    """Every legal card move, by source column, then group size, then destination (the columns
    with a card one rank higher first, then the empty ones, each left to right).

    ``lengths[i]`` is :func:`group_length` of column ``i``: callers that cache it pass the cache.
    """
    if len(columns) > MOST_COLUMNS:
        raise ValueError(f"at most {MOST_COLUMNS} columns, not {len(columns)}")
    by_rank, empties = destination_index([column[-1] if column else EMPTY for column in columns])
    moves: list[Move] = []
    table = CARD_MOVES
    stride = MOVE_STRIDE
    for src, column in enumerate(columns):
        for count in range(1, lengths[src] + 1):
            first = src * MOST_COLUMNS * stride + count  # Move(src, 0, count)
            for dst in by_rank[column[-count] & 15]:
                moves.append(table[first + dst * stride])
            if empties:
                for dst in empties:
                    moves.append(table[first + dst * stride])
    return moves


def completes_run(cards: Sequence[int], first_up: int) -> bool:
    """True when the column ends in a complete run (13 face-up cards of one suit, King down to
    Ace), which leaves the table at once."""
    if len(cards) - first_up < RUN_LENGTH:
        return False
    ace = cards[-1]
    if ace & 15 != 1:
        return False
    return all(cards[-1 - step] == ace + step for step in range(1, RUN_LENGTH))


def turns_over(size: int, down: int) -> bool:
    """True when a column of ``size`` cards, ``down`` of them face down, must turn its top card:
    every card left is face down."""
    return size > 0 and size == down


def settle(cards: list[int], down: int) -> tuple[int, bool]:
    """Settle a column (in place) that just received cards: remove a completed run and turn the
    card it leaves on top.  Returns ``(suit index of the run removed or -1, card turned)``."""
    last = cards[-1]
    if last & 15 != 1 or not completes_run(cards, down):
        return -1, False
    del cards[-RUN_LENGTH:]
    return last >> 4, turns_over(len(cards), down)


def may_deal(stock_cards: int, empty_columns: int) -> bool:
    """True when a deal is allowed: the stock holds cards and no column is empty."""
    return stock_cards > 0 and not empty_columns


def deal_refusal(stock_cards: int, column_sizes: Sequence[int]) -> DealRefusal | None:
    """Why a deal is refused now (see :func:`may_deal`), or None when it is allowed."""
    if may_deal(stock_cards, column_sizes.count(0)):
        return None
    if stock_cards <= 0:
        return ("stock-empty", -1)
    for index, size in enumerate(column_sizes):
        if not size:
            return ("empty-column", index)
    return None


def deal_blocked_forever(stock_cards: int, table_cards: int, column_count: int) -> bool:
    """True when the stock holds cards but the table has fewer cards than columns, so no column
    filling can ever allow a deal again."""
    return stock_cards > 0 and table_cards < column_count


def scored(score: int, standard: bool, floored: bool, runs: int, turned: int) -> int:
    """The score after a move or deal that removed ``runs`` runs and turned ``turned`` cards.

    Standard scoring: one point off per move or deal (not below 0 when ``floored``, as in
    Spider), 100 per run removed.  Reveal scoring: 5 per card turned, 100 per run removed.
    """
    if standard:
        score -= 1
        if score < 0 and floored:
            score = 0
        return score + 100 * runs
    return score + 5 * turned + 100 * runs
