"""The library as a python-chess user expects it: actions as text, outcome, equality."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spider
from spider import DEAL, Game, IllegalMove, InvalidAction, Move, Outcome, parse_action
from spider.moves import action_text
from spider.shuffle import MAX_NUMBER
from tests.helpers import VARIANTS, position, random_play

actions = st.one_of(
    st.just(DEAL),
    st.builds(Move, st.integers(0, 9), st.integers(0, 9), st.integers(1, 104)),
)


def test_the_parser_and_the_outcome_are_exported_at_the_top() -> None:
    for name in ("parse_action", "action_text", "Outcome", "InvalidAction"):
        assert name in spider.__all__ and hasattr(spider, name)


@given(actions)
def test_action_text_reads_back(action: Move | str) -> None:
    text = action_text(action)  # type: ignore[arg-type]
    assert parse_action(text) == action
    assert parse_action(f"  {text.upper()} ") == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad-shape"),
        ("zz", "bad-shape"),
        ("ad0", "bad-shape"),
        ("aa1x", "bad-shape"),
        ("déal", "bad-shape"),
        ("a" * 1000, "too-long"),
        (3, "not-text"),
        (None, "not-text"),
    ],
)
def test_bad_action_text_is_refused_with_a_code(text: object, code: str) -> None:
    with pytest.raises(InvalidAction) as caught:
        parse_action(text)  # type: ignore[arg-type]
    assert caught.value.code == code and "not an action" in str(caught.value)
    assert isinstance(caught.value, ValueError) and len(str(caught.value)) < 200
    if not isinstance(text, str):
        return
    game = Game.from_code("SP1-S2C-AAAAAAD")
    before = game.to_text()
    with pytest.raises(InvalidAction):
        game.push(text)  # type: ignore[arg-type]
    assert game.to_text() == before and game.played == ()


def test_move_from_text_names_the_deal_and_the_parser() -> None:
    with pytest.raises(InvalidAction, match="parse_action") as caught:
        Move.from_text("deal")
    assert caught.value.code == "not-a-move"
    assert Move.from_text(" BC3 ") == Move(1, 2, 3)


@settings(max_examples=25)
@given(st.sampled_from(VARIANTS), st.integers(0, MAX_NUMBER), st.integers(0, 2**32))
def test_pushing_text_plays_as_pushing_actions(
    variant: tuple[str, int, str], number: int, seed: int
) -> None:
    game_name, suits, rule = variant
    played = random_play(
        Game.new(game_name, suits=suits, rule=rule, number=number), 40, random.Random(seed)
    )
    again = played.start_position()
    for action in played.played:
        again.push(action_text(action))
    assert again.played == played.played and again == played
    assert " ".join(map(action_text, again.played)).split() == list(map(action_text, played.played))


def test_pushing_text_the_rules_refuse_raises_illegal_move() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    with pytest.raises(IllegalMove) as caught:
        game.push("ad")
    assert caught.value.code == "no-target" and game.played == ()
    game.push("dg")
    game.push("DEAL")
    assert game.played == (Move(3, 6), DEAL) and game.moves == 2


def test_outcome_in_play_won_and_stuck() -> None:
    start = Game.from_code("SP1-S2C-AAAAAAD").outcome()
    assert start == Outcome("in-play", "6 legal moves and a deal") and not start.is_over
    won = position("spiderette", 1, [""] * 7, removed="SSSS")
    assert won.outcome().status == "won" and won.outcome().is_over
    assert "4 runs" in won.outcome().reason
    kings = ["KS"] * 7
    stuck = position("spiderette", 1, kings)
    assert stuck.legal_moves() == [] and not stuck.can_deal
    assert stuck.outcome().status == "stuck" and "stock is empty" in stuck.outcome().reason
    only_deal = position("spiderette", 1, kings, stock="AS 2S 3S 4S 5S 6S 7S")
    assert only_deal.outcome() == Outcome("in-play", "no legal move, but a deal")
    no_deal = position("spiderette", 1, ["KS", "QS", "", "", "", "", ""], stock="AS")
    assert no_deal.outcome().status == "in-play" and "no deal" in no_deal.outcome().reason


def test_stuck_means_no_action_at_all() -> None:
    rng = random.Random(5)
    for number in range(30):
        game = random_play(Game.new("spiderette", suits=4, number=number), 400, rng, 0.3)
        outcome = game.outcome()
        no_action = not game.legal_moves() and not game.can_deal
        assert (outcome.status == "stuck") == (no_action and not game.is_won)


def test_games_are_equal_by_position_not_history() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    assert game == game.copy() == game.copy(history=False) == Game.from_code("SP1-S2C-AAAAAAD")
    assert game != Game.from_code("SP1-S2C-AAAAAAD", scoring="reveal")
    assert game != Game.from_code("SP1-S2C-AAAAAAE")
    copy = game.copy()
    game.push("dg")
    assert game != copy and game.copy() == game
    assert game == Game.from_text(game.to_text())
    game.undo()
    assert game == copy  # the redo list differs; the position does not
    assert (game == "SP1-S2C-AAAAAAD") is False
    with pytest.raises(TypeError):
        hash(game)
    assert {game.state_key(): 1}[copy.state_key()] == 1


def test_can_deal_is_a_property_and_the_old_call_fails_loudly() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    assert game.can_deal is True
    with pytest.raises(TypeError, match="not callable"):
        game.can_deal()  # type: ignore[operator]
    empty = position("spiderette", 1, ["KS", "", "", "", "", "", ""], stock="AS")
    assert empty.can_deal is False
