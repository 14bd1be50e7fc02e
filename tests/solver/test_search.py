"""The full-information solver: winnable with a replayed solution, unwinnable when exhausted."""

from __future__ import annotations

import threading

from spider import Game
from spider.moves import action_from_text
from spider.solver.search import SolveProgress, solve
from tests.helpers import position


def test_small_deal_is_winnable_and_solution_replays() -> None:
    game = Game.from_code("SD1-S1-AAAAAAC")
    result = solve(game, time_limit=20)
    assert result.status == "winnable"
    replay = game.copy(history=False)
    for token in result.solution:
        replay.push(action_from_text(token))
    assert replay.is_won
    assert result.positions > 0 and result.to_json()["moves"] == len(result.solution)


def test_near_end_position_is_solved() -> None:
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    run = " ".join(f"{rank}S" for rank in ranks)
    game = position("spiderette", 1, [run, "AS", "", "", "", "", ""], removed="SSS")
    result = solve(game, time_limit=5)
    assert result.status == "winnable"
    assert result.solution == ["ba"]


def test_dead_position_is_unwinnable() -> None:
    game = position("spiderette", 2, ["KS", "KH", "QS", "JH", "", "", ""], removed="SSH")
    result = solve(game, time_limit=5)
    assert result.status == "unwinnable"
    assert result.reason == "exhausted"
    assert result.positions >= 1


def test_stop_event_and_progress() -> None:
    event = threading.Event()
    seen: list[SolveProgress] = []

    def progress(report: SolveProgress) -> None:
        seen.append(report)
        event.set()

    result = solve(
        Game.new("spider", suits=4, number=1),
        time_limit=30,
        progress=progress,
        stop=event,
        progress_every=500,
    )
    assert result.status == "undecided" and result.reason == "stopped"
    assert seen and seen[0].expanded == 500


def test_node_and_time_limits() -> None:
    game = Game.new("spider", suits=4, number=2)
    assert solve(game, node_limit=200).reason == "node-limit"
    assert solve(game, time_limit=0.0).reason == "time-limit"
    assert solve(game, memory_limit_mb=0.1).reason == "memory-limit"


def test_stop_callable() -> None:
    result = solve(Game.new("spider", suits=4, number=3), stop=lambda: True)
    assert result.reason == "stopped"


def test_four_suit_spider_deal_is_solved() -> None:
    # The strict pruning (no sideways moves) and the plan-diverse beam solve this in well under
    # a second on an idle machine; the generous limit only absorbs a busy one.
    game = Game.new("spider", suits=4, number=0)
    result = solve(game, time_limit=30)
    assert result.status == "winnable"
    replay = game.copy(history=False)
    for token in result.solution:
        replay.push(action_from_text(token))
    assert replay.is_won


def test_strict_pruning_keeps_useful_moves() -> None:
    from spider.solver.search import _STRICT, _Solver

    # Column a: 9H on 10S (a link of another suit); column b ends in 10H; column c ends in 8H.
    # Moving 9H to 10H is kept (it joins its suit); 9H may not go sideways onto column d's 10C.
    game = position("spiderette", 4, ["10S 9H", "10H", "8H", "10C", "KS", "KD", "KC"])
    solver = _Solver(game)
    codes = {code for _, code, _ in solver.children(solver.start, 0, _STRICT)}
    assert 0 << 8 | 1 << 4 | 1 in codes
    assert 0 << 8 | 3 << 4 | 1 not in codes
