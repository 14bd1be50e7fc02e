"""The quick hint's evaluation: what columns and unknown cards are worth."""

from __future__ import annotations

import pytest

from spider.cards import parse_card_int
from spider.rules import link_counts
from spider.solver.hint.evaluation import Reveal
from spider.solver.params import HintParams
from spider.solver.view import UNKNOWN, VisibleView


def test_link_counts_say_how_neighbouring_cards_lie() -> None:
    cards = [parse_card_int(text) for text in ("KS", "QS", "JH", "9H", "8H")]
    # KS-QS one suit, QS-JH any suit, JH-9H a break, 9H-8H one suit.
    assert link_counts(tuple(cards)) == (2, 1, 1)
    assert link_counts((cards[0], UNKNOWN)) == (0, 0, 1)
    assert link_counts(()) == link_counts((cards[0],)) == (0, 0, 0)


def _view(columns: tuple[tuple[int, ...], ...], down: tuple[int, ...]) -> VisibleView:
    return VisibleView("spider", 4, False, columns, down, 50, 0, 8)


def test_reveal_value_is_the_expectation_over_unseen_cards() -> None:
    eight = parse_card_int("8S")
    unknown_over_down = _view(((UNKNOWN,), (eight,)), (2, 0))
    reveal = Reveal(unknown_over_down)
    # 103 unseen cards: the deck minus the 8S.  Eight Sevens can go onto the 8S, two 7S link in
    # one suit below it and two 9S above it, and eight Nines can take the 8S (loose: it lies at
    # the bottom of its column).
    common = 40 * 4 / 103 + 30 * 8 / 103
    assert reveal.value(unknown_over_down.columns, unknown_over_down.down) == pytest.approx(
        common + 2.5 * HintParams().turn * 8 / 103
    )
    # With no face-down card left under it, moving the new card away empties the column.
    assert reveal.value(unknown_over_down.columns, (0, 0)) == pytest.approx(
        common + 2.5 * 400 * 8 / 103
    )
    assert reveal.value(((eight,), (eight,)), (0, 0)) == 0.0  # nothing unknown
