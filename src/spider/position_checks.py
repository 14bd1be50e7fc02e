"""What a position text claims, checked against what a game can show.

:func:`check_counters` applies to every position: no more face-down cards than a deal leaves
on the table, ``moves`` covers the deals made and the cards turned, ``moves=0`` only at a
deal's starting layout, and the score stays within what the scoring can give.

:func:`check_deal` applies to a position that gives a deal number (``#N``): its face-down cards
(never more in a column than the deal left there) and its stock must be deal N's, card for card
and place for place (they never move in a game),
and its score must be the one its moves, turned cards and runs give.  A position that fails is
refused with :class:`~spider.errors.InvalidPosition` (code ``not-this-deal`` or
``impossible-counters``), so a code, a win or a record can only come from the deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InvalidPosition
from .options import Options
from .shuffle import shuffled_deck

__all__ = ["check_counters", "check_deal", "deals_made"]

_START_SCORE = {"standard": 500, "reveal": 0}


def deals_made(options: Options, stock_cards: int) -> int:
    """How many deals took cards from the stock to leave ``stock_cards`` in it."""
    return options.deals_left(options.stock_size) - options.deals_left(stock_cards)


def _impossible(message: str) -> InvalidPosition:
    return InvalidPosition(f"position text, counters: {message}", "impossible-counters")


def check_counters(
    options: Options,
    columns: Sequence[Sequence[int]],
    face_down: Sequence[int],
    stock_cards: int,
    removed: Sequence[int],
    score: int,
    moves: int,
) -> None:
    """Refuse counters and face-down counts that no game of ``options`` can show."""
    initial = options.initial_columns
    most_down = sum(size - 1 for size in initial)
    if sum(face_down) > most_down:
        raise _impossible(
            f"{sum(face_down)} face-down cards, but a {options.game} deal leaves only {most_down}"
        )
    deals = deals_made(options, stock_cards)
    turned = most_down - sum(face_down)
    runs = len(removed)
    start_score = _START_SCORE[options.scoring]
    if moves == 0:
        at_start = (
            deals == 0
            and runs == 0
            and turned == 0
            and all(len(column) == size for column, size in zip(columns, initial, strict=True))
        )
        if not at_start or score != start_score:
            raise _impossible(
                "moves=0, but this is not the layout a deal starts from (score "
                f"{start_score}, every column dealt, nothing turned or removed)"
            )
        return
    # A deal turns at most one card per column (after a run leaves); a move at most two.
    needed = deals + (max(0, turned - options.column_count * deals) + 1) // 2
    if moves < needed:
        raise _impossible(
            f"moves={moves}, but {deals} deals and {turned} turned cards take at least {needed}"
        )
    if options.scoring == "standard":
        high = start_score + 100 * runs
        low = 0 if options.score_floor is not None else None
    else:
        high = 5 * most_down + 100 * runs
        low = 0
    if score > high or (low is not None and score < low):
        bounds = f"from {low} to {high}" if low is not None else f"at most {high}"
        raise _impossible(
            f"score={score}, but with {runs} runs removed a {options.scoring} score is {bounds}"
        )


def check_deal(
    options: Options,
    number: int,
    columns: Sequence[Sequence[int]],
    face_down: Sequence[int],
    stock: Sequence[int],
    removed: Sequence[int],
    score: int,
    moves: int,
) -> None:
    """Refuse a position that says it comes from deal ``number`` but cannot (``stock`` in
    dealing order).  Call after :func:`check_counters`."""
    deck = shuffled_deck(options, number)
    position = 0
    for index, size in enumerate(options.initial_columns):
        dealt = deck[position : position + size]
        position += size
        down = face_down[index]
        if down > size - 1:
            raise InvalidPosition(
                f"position text, section {index + 3}: column {index} holds {down} face-down "
                f"cards; deal #{number} leaves {size - 1} there, and they only ever turn up",
                "not-this-deal",
            )
        if moves == 0 and list(columns[index]) != dealt:
            raise InvalidPosition(
                f"position text, section {index + 3}: with moves=0, column {index} must hold "
                f"what deal #{number} put there",
                "not-this-deal",
            )
        if list(columns[index][:down]) != dealt[:down]:
            raise InvalidPosition(
                f"position text, section {index + 3}: the face-down cards of column {index} are "
                f"not those deal #{number} put there",
                "not-this-deal",
            )
    deal_stock = deck[position:]
    if list(stock) != deal_stock[len(deal_stock) - len(stock) :]:
        raise InvalidPosition(
            f"position text, section {options.column_count + 3}: the stock is not what deal "
            f"#{number} leaves after {deals_made(options, len(stock))} deals",
            "not-this-deal",
        )
    runs = len(removed)
    turned = sum(size - 1 for size in options.initial_columns) - sum(face_down)
    if options.scoring == "reveal":
        exact = 5 * turned + 100 * runs
        if score != exact:
            raise _impossible(
                f"score={score}, but {turned} turned cards and {runs} runs give {exact} "
                "under reveal scoring"
            )
        return
    # Standard: 500, -1 per move or deal (never below 0 in spider), +100 per run.
    plain = 500 - moves + 100 * runs
    if options.score_floor is None:
        low = high = plain
    else:
        low, high = max(0, plain), max(0, 500 - moves) + 100 * runs
    if not low <= score <= high:
        allowed = str(low) if low == high else f"from {low} to {high}"
        raise _impossible(
            f"score={score}, but {moves} moves and {runs} runs give {allowed} under standard "
            "scoring"
        )
