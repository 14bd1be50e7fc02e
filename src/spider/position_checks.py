"""What a position text claims, checked against what a game can show.

:func:`check_counters` applies to every position: no more face-down cards than a deal leaves
on the table, ``moves`` covers the deals made, the runs removed and the cards turned,
``moves=0`` only at a deal's starting layout, and the score stays within what the scoring can
give.

:func:`check_deal` applies to a position that gives a deal number (``#N``): its face-down cards
(never more in a column than the deal left there), the face-up card lying on them and its stock
must be deal N's, card for card and place for place (they never move in a game); every other
face-up card lies on a card one rank higher or was dealt onto its column by one of deal N's
deals; and its score must be the one its moves, turned cards and runs give.  A position that
fails is refused with :class:`~spider.errors.InvalidPosition` (code ``not-this-deal`` or
``impossible-counters``), so a code, a win or a record can only come from the deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from spider.cards import card_text
from spider.errors import InvalidPosition
from spider.options import Options
from spider.shuffle import shuffled_deck

__all__ = ["check_counters", "check_deal", "deals_made"]

_START_SCORE = {"standard": 500, "reveal": 0}


def deals_made(options: Options, stock_cards: int) -> int:
    """How many deals took cards from the stock to leave ``stock_cards`` in it."""
    return options.deals_left(options.stock_size) - options.deals_left(stock_cards)


def _impossible(message: str) -> InvalidPosition:
    return InvalidPosition(f"position text, counters: {message}", "impossible-counters")


def _check_play_counts(moves: int, deals: int, turned: int, runs: int) -> None:
    """Refuse a move count too small for the cards turned and the runs removed.

    A deal turns no card but the one under a run it completes.  A card move turns at most the
    card it uncovers in its source column, and a removed run the card it leaves on top.  Each
    removed run needs a card move of its own: a column holds at most one dealt card face up plus
    one per deal that no move brought (at most 6, a run is 13), and the cards of one move are
    never split between two runs (a run starts at a King).
    """
    card_moves = moves - deals
    needed = max(runs, turned - runs)
    if card_moves < needed:
        raise _impossible(
            f"moves={moves}, but {deals} deals, {runs} runs removed and {turned} cards turned "
            f"take at least {deals + needed} (each run needs a card move; a card turns only when a "
            "move or a run uncovers it)"
        )


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
    _check_play_counts(moves, deals, turned, runs)
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
    dealt = _initial_columns(options, deck)
    for index, cards in enumerate(dealt):
        _check_dealt_column(number, index, cards, columns[index], face_down[index], moves)
    deal_stock = deck[sum(options.initial_columns) :]
    deals = deals_made(options, len(stock))
    if list(stock) != deal_stock[len(deal_stock) - len(stock) :]:
        raise InvalidPosition(
            f"position text, section {options.column_count + 3}: the stock is not what deal "
            f"#{number} leaves after {deals} deals",
            "not-this-deal",
        )
    for index, cards in enumerate(columns):
        from_stock = deal_stock[index : deals * options.column_count : options.column_count]
        _check_face_up(number, index, cards[face_down[index] :], from_stock)
    _check_deal_score(options, face_down, removed, score, moves)


def _initial_columns(options: Options, deck: Sequence[int]) -> list[Sequence[int]]:
    """The cards deal ``deck`` gives each column at the start, bottom to top."""
    dealt: list[Sequence[int]] = []
    position = 0
    for size in options.initial_columns:
        dealt.append(deck[position : position + size])
        position += size
    return dealt


def _not_this_deal(index: int, message: str) -> InvalidPosition:
    return InvalidPosition(f"position text, section {index + 3}: {message}", "not-this-deal")


def _check_dealt_column(
    number: int, index: int, dealt: Sequence[int], cards: Sequence[int], down: int, moves: int
) -> None:
    """Refuse a column whose face-down cards, or the face-up card on them, are not the deal's.

    Face-down cards never move.  The card lying on them has not moved either: moving it away
    would have turned the card under it.  So it is the card the deal put in that place.
    """
    size = len(dealt)
    if down > size - 1:
        raise _not_this_deal(
            index,
            f"column {index} holds {down} face-down cards; deal #{number} leaves {size - 1} "
            "there, and they only ever turn up",
        )
    if moves == 0 and list(cards) != list(dealt):
        raise _not_this_deal(
            index, f"with moves=0, column {index} must hold what deal #{number} put there"
        )
    if list(cards[:down]) != list(dealt[:down]):
        raise _not_this_deal(
            index, f"the face-down cards of column {index} are not those deal #{number} put there"
        )
    if down and cards[down] != dealt[down]:
        raise _not_this_deal(
            index,
            f"column {index}: {card_text(cards[down])} lies on its face-down cards, where deal "
            f"#{number} put {card_text(dealt[down])} (it never moved: that would have turned "
            "the card under it)",
        )


def _check_face_up(
    number: int, index: int, face_up: Sequence[int], from_stock: Sequence[int]
) -> None:
    """Refuse face-up cards that neither a move nor a deal can have put where they lie.

    A move puts a card only onto a card one rank higher (or into an empty column, at the
    bottom), so a card on any other card was dealt there, onto that column, by one of the deals
    made (``from_stock``, oldest first); and it is above the cards dealt there before it.
    """
    next_deal = 0
    for lower, upper in pairwise(face_up):
        if upper & 15 == (lower & 15) - 1:
            continue
        try:
            next_deal = from_stock.index(upper, next_deal) + 1
        except ValueError:
            raise _not_this_deal(
                index,
                f"column {index}: {card_text(upper)} lies on {card_text(lower)}; a move puts a "
                f"card only on one rank higher, and deal #{number} dealt no "
                f"{card_text(upper)} onto this column in that order",
            ) from None


def _check_deal_score(
    options: Options, face_down: Sequence[int], removed: Sequence[int], score: int, moves: int
) -> None:
    """Refuse a score other than the one the counters give (see the module's text)."""
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
