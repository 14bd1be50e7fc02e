"""The next card weighed: a line is worth the mean over every card it could turn."""

from __future__ import annotations

from collections import Counter

import pytest

from spider import Move
from spider.rules import UNKNOWN
from spider.solver.hint.chance import expected_values, turns_card
from spider.solver.view import VisibleView
from spider.solver.worlds import World
from tests.helpers import position

# 2-suit Spider, one deal left: 9S over three face-down cards can go onto 10H (turning a card),
# 3H onto 4H (turning nothing: 4H sits on a King, nothing is under the 3H but face-up cards).
_COLUMNS = ["as as as 9S", "KS 10H", "KH 4H", "KS QS 3H", "KS", "KS", "KS", "KS", "KS", "KS"]
_TURNS = (Move(0, 1, 1),)
_BUILDS = (Move(3, 2, 1),)


def _view_and_world() -> tuple[VisibleView, World]:
    view = VisibleView.from_game(position("spider", 2, _COLUMNS, stock="as " * 10))
    return view, World.from_view(view, frozenset())


def _turned_card(reached: VisibleView) -> int:
    """The card now on top of the first column (the one the line turned)."""
    return reached.columns[0][-1] if reached.columns[0] else UNKNOWN


def test_a_line_is_worth_the_mean_over_every_card_it_could_turn() -> None:
    view, world = _view_and_world()
    assert turns_card(view, _TURNS) and not turns_card(view, _BUILDS)
    follows: list[int] = []

    def follow(played: World) -> float:
        follows.append(played.columns[0][-1])
        return 1.0

    values = expected_values(view, [_TURNS], world, lambda v: float(_turned_card(v)), follow)
    assert values is not None
    # Each unseen card weighs as many times as it has copies: the mean over the whole pool.
    assert values[0] == pytest.approx(sum(world.pool) / len(world.pool) + 1.0)
    # One follow-up per distinct card, each with that card turned; the world is left as it was.
    assert sorted(follows) == sorted(Counter(world.pool))
    assert world.columns == view.columns and sorted(world.pool) == sorted(
        card for card, copies in view.unseen_cards().items() for _ in range(copies)
    )


def test_a_line_that_turns_no_card_is_weighed_once() -> None:
    view, world = _view_and_world()
    calls: list[VisibleView] = []

    def value(reached: VisibleView) -> float:
        calls.append(reached)
        return 7.0

    values = expected_values(view, [_BUILDS], world, value, lambda played: 2.0)
    assert values == [9.0]
    assert len(calls) == 1 and calls[0].columns[2][-1] == view.columns[3][-1]


def test_a_stop_request_gives_no_values_rather_than_a_partial_weighing() -> None:
    view, world = _view_and_world()
    asked = iter([False, False, True])
    stopped = expected_values(
        view, [_TURNS, _BUILDS], world, lambda v: 0.0, lambda p: 0.0, lambda: next(asked)
    )
    assert stopped is None


def test_a_move_that_turns_two_cards_weighs_the_first_and_leaves_the_other_unknown() -> None:
    # 5H-AH leaves a face-down card in the first column and completes KH-AH over one in the
    # second: one move turns two cards.
    columns = ["as 5H 4H 3H 2H AH", "as KH QH JH 10H 9H 8H 7H 6H", *["KS"] * 8]
    view = VisibleView.from_game(position("spider", 2, columns, stock="as " * 10))
    world = World.from_view(view, frozenset())
    line = (Move(0, 1, 5),)
    seen: list[tuple[int, int]] = []

    def follow(played: World) -> float:
        seen.append((played.columns[0][-1], played.columns[1][-1]))
        return 0.0

    first = expected_values(view, [line], world, lambda v: 0.0, follow)
    assert first == expected_values(view, [line], world, lambda v: 0.0, follow)  # no draw
    assert {top for top, _ in seen} == set(world.pool) and {other for _, other in seen} == {UNKNOWN}
