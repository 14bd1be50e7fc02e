"""The next card weighed: a lookahead that sees past the card a line turns, over every card it
could be.

The hint's lookahead (:mod:`~spider.solver.hint.quick`) ends each line at the first card it turns:
the card is unknown, nothing can go on it, and a turned card is worth the same whatever it will be.
Yet two lines that each turn a card differ in what the card can then do: a card turned next to the
card one rank higher of its suit builds at once, one turned in a column of Kings does nothing.
What the player knows of that card is exact: it is any of the unseen cards (the variant's deck
minus every card seen), each as likely as its copies are many.

:func:`expected_values` weighs each of a few candidate lines by that knowledge, an
*expectimax* of one chance step: for every distinct unseen card, the line is played with the
card it turns set to that card (:class:`~spider.solver.worlds.World`, which plays the rules kernel),
and the position reached is valued as the hint values positions plus the best gain a short
lookahead finds from it; the line's value is the mean over the cards, weighted by their copies.
A line that turns no card (one that removes a run, say) is valued the same way, once.  No card
is drawn at random, so the values depend only on the visible position: the face-down cards are
never read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spider.moves import Move
from spider.solver.view import VisibleView, apply_visible
from spider.solver.worlds import World

__all__ = ["Follow", "Value", "expected_values", "turns_card"]

Value = Callable[[VisibleView], float]
"""The value of a visible position reached from the root (the hint's evaluation)."""

Follow = Callable[[World], float]
"""The best gain a short lookahead finds from a world's position (0 when nothing helps)."""


def turns_card(view: VisibleView, line: Sequence[Move]) -> bool:
    """True when a move of ``line`` turns a face-down card."""
    columns, down = view.columns, view.down
    for move in line:
        applied = apply_visible(columns, down, move)
        if applied.flipped:
            return True
        columns, down = applied.columns, applied.down
    return False


def expected_values(
    view: VisibleView,
    lines: Sequence[tuple[Move, ...]],
    world: World,
    value: Value,
    follow: Follow,
    stop: Callable[[], bool] | None = None,
) -> list[float] | None:
    """The expected value of each line's end over every card it could turn (see the module).

    Each line must be legal in ``view``, a line of card moves cut at its first card turned
    (:func:`~spider.solver.view.truncate_line`).  Where that move turns two (a group taken off
    face-down cards completes a run over others), the card weighed is the one in the lower-numbered
    column; the other is left unknown, as the lookahead leaves it.  ``world`` is the player's
    world of ``view`` (its pool, the unseen cards, gives the odds); it is copied, never
    changed.  ``stop``, asked between cards, returns None when it says to stop: a partial
    weighing would rank the lines by the cards that happened to come first.
    """
    odds = _card_odds(world.pool)
    values = []
    for line in lines:
        outcomes: list[tuple[int | None, float]] = (
            list(odds) if turns_card(view, line) else [(None, 1.0)]
        )
        expected = 0.0
        for card, chance in outcomes:
            if stop is not None and stop():
                return None
            played = world.copy()
            played.play_seen(line, () if card is None else (card,))
            expected += chance * (value(played.view()) + follow(played))
        values.append(expected)
    return values


def _card_odds(pool: Sequence[int]) -> list[tuple[int | None, float]]:
    """Each distinct card of ``pool`` with the chance that a card drawn from it is that one."""
    copies: dict[int, int] = {}
    for card in pool:
        copies[card] = copies.get(card, 0) + 1
    total = len(pool)
    return [(card, count / total) for card, count in sorted(copies.items())]
