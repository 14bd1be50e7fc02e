"""Scoring (section 5) and history (section 6)."""

from __future__ import annotations

import pytest

from spider import DEAL, Game, Move
from tests.helpers import position

RUN = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"


def test_standard_score_clamps_at_zero_in_spider() -> None:
    game = position("spider", 1, ["5s " + RUN, "AS", "3S", "4S"] + ["KS"] * 6, score=1)
    game.move(2, 3)
    assert game.score == 0
    game.undo()
    assert game.score == 1
    game = position("spider", 1, ["5s " + RUN, "AS", "3S", "4S"] + ["KS"] * 6, score=0)
    game.move(2, 3)
    assert game.score == 0
    game.move(1, 0)  # completes the run at score 0: clamp first, then +100
    assert game.score == 100


def test_standard_score_goes_negative_in_spiderette() -> None:
    game = position("spiderette", 1, ["3S", "4S", "5S", "KS", "KS", "KS", "KS"], score=0)
    game.move(0, 1)
    assert game.score == -1
    game.move(1, 2, 2)
    assert game.score == -2 and game.moves == 2


def test_reveal_scoring() -> None:
    game = position(
        "spider", 1, ["5s " + RUN, "qs AS", "3S", "4S"] + ["KS"] * 6, scoring="reveal", score=0
    )
    game.move(2, 3)
    assert game.score == 0  # moves score nothing
    game.move(1, 0)  # turns QS under the ace (+5), completes a run (+100), turns 5S (+5)
    assert game.score == 110
    assert game.moves == 2


def test_reveal_new_game_starts_at_zero() -> None:
    assert Game.new("spider", suits=4, number=8, scoring="reveal").score == 0
    assert Game.from_code("SD1-S2-AAAAABD", scoring="reveal").score == 0


def test_undo_restores_everything_and_redo_replays() -> None:
    game = Game.new("spider", suits=2, number=3)
    start = game.to_text()
    move = game.legal_moves()[0]
    game.move(*move)
    after_move = game.to_text()
    game.deal()
    after_deal = game.to_text()
    assert game.undo() == DEAL
    assert game.to_text() == after_move
    assert game.undo() == move
    assert game.to_text() == start and not game.can_undo and game.can_redo
    assert game.redo() == move and game.redo() == DEAL
    assert game.to_text() == after_deal and not game.can_redo


def test_new_action_clears_redo() -> None:
    game = Game.new("spider", suits=1, number=11)
    game.deal()
    game.undo()
    assert game.can_redo
    game.move(*game.legal_moves()[0])
    assert not game.can_redo


@pytest.mark.parametrize("limit", [0, 1, 3, 100])
def test_undo_limit(limit: int) -> None:
    game = Game.new("spider", suits=1, number=11, undo_limit=limit)
    for _ in range(5):
        game.deal()
    undone = 0
    while game.can_undo:
        game.undo()
        undone += 1
    assert undone == min(limit, 5)
    with pytest.raises(IndexError):
        game.undo()


def test_unlimited_undo_and_default() -> None:
    assert Game.new("spider", number=1).undo_limit == 400
    game = Game.new("spider", number=1, undo_limit=None)
    for _ in range(5):
        game.deal()
    while game.can_undo:
        game.undo()
    assert game.moves == 0
    with pytest.raises(ValueError):
        Game.new("spider", undo_limit=-1)


def test_restart_goes_back_to_the_deal() -> None:
    game = Game.new("spider", suits=4, number=77)
    start = game.to_text()
    game.deal()
    game.move(*game.legal_moves()[0])
    game.restart()
    assert game.to_text() == start
    assert not game.can_undo and not game.can_redo and game.played == ()


def test_redo_of_a_run_removal() -> None:
    game = position("spider", 1, ["5s " + RUN, "AS"] + ["KS"] * 8)
    game.move(1, 0)
    done = game.to_text()
    game.undo()
    game.redo()
    assert game.to_text() == done and game.completed == ("S",)
    assert game.last_effects is not None and game.last_effects.runs == ((0, "S"),)
    assert game.last_effects.flipped == (0,)
    assert game.last_effects.action == Move(1, 0, 1)
