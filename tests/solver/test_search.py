"""The full-information solver: winnable with a replayed solution, unwinnable when exhausted."""

from __future__ import annotations

import threading
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spider import Game
from spider.moves import action_from_text
from spider.solver import SolveProgress, solve
from tests.helpers import VARIANTS, position


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
    from spider.solver.full.generate import STRICT as _STRICT
    from spider.solver.full.generate import Solver as _Solver

    # Column a: 9H on 10S (a link of another suit); column b ends in 10H; column c ends in 8H.
    # Moving 9H to 10H is kept (it joins its suit); 9H may not go sideways onto column d's 10C.
    game = position("spiderette", 4, ["10S 9H", "10H", "8H", "10C", "KS", "KD", "KC"])
    solver = _Solver(game)
    codes = {code for _, code, _ in solver.children(solver.start, 0, _STRICT)}
    assert 0 << 8 | 1 << 4 | 1 in codes
    assert 0 << 8 | 3 << 4 | 1 not in codes


def test_columns_no_deal_reaches_share_a_key() -> None:
    from spider.solver.full.generate import Solver as _Solver

    # Spiderette with 3 cards in the stock: the short last deal covers columns a to c only, so
    # columns d to g can be permuted (same key); a to c cannot.
    cards = ["KS", "QS", "JS", "10S", "9S", "8S", "7S"]
    game = position("spiderette", 1, cards, stock="2S 3S 4S", removed="SSS")
    solver = _Solver(game)
    columns, stock = solver.start
    swapped_late = ((*columns[:3], columns[4], columns[3], *columns[5:]), stock)
    swapped_early = ((columns[1], columns[0], *columns[2:]), stock)
    assert solver.key(swapped_late) == solver.key(solver.start)
    assert solver.key(swapped_early) != solver.key(solver.start)


def test_pool_prefers_plans_then_fills_with_variants() -> None:
    from spider.solver.full.beam import Pool as _Pool

    def state(down: int, top: int) -> tuple[tuple[bytes, ...], int]:
        return ((bytes((down, 1, top)), bytes((0, 5))), 0)

    pool = _Pool(3)
    pool.add(10, 1, state(1, 2))  # plan A, best
    pool.add(9, 2, state(1, 3))  # plan A, second
    pool.add(8, 3, state(1, 4))  # plan A, third
    pool.add(1, 4, state(0, 2))  # plan B: worse, but a different plan
    assert [node for _, node, _ in pool.best()] == [1, 4, 2]
    assert pool.cut


def _won_by_brute_force(game: Game, limit: int = 3_000) -> bool | None:
    """Whether some line of engine moves wins (stock empty); None when the space is too big."""

    def key(current: Game) -> tuple[object, ...]:
        return tuple(sorted(zip(current.face_down, current.position().columns, strict=True)))

    seen = {key(game)}
    stack = [game.copy(history=False)]
    while stack:
        current = stack.pop()
        if current.is_won:
            return True
        for move in current.legal_moves():
            child = current.copy(history=False)
            child.move(*move)
            child_key = key(child)
            if child_key not in seen:
                seen.add(child_key)
                if len(seen) > limit:
                    return None
                stack.append(child)
    return False


@st.composite
def _blocked_positions(draw: st.DrawFn) -> Game:
    """Spiderette positions with an empty stock, no empty column and at most three face-up
    cards a column: one spade run left (1 suit) or a spade and a heart run (2 suits).  Blocked
    ones (unwinnable) are common."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    suits = draw(st.sampled_from(["S", "SH"]))
    cards = [f"{rank}{suit}" for rank in ranks for suit in suits]
    order = draw(st.permutations(cards))
    cuts = draw(st.lists(st.integers(1, len(cards) - 1), min_size=6, max_size=6, unique=True))
    columns = []
    for low, high in pairwise([0, *sorted(cuts), len(cards)]):
        column = list(order[low:high])
        down = max(0, len(column) - 1 - draw(st.integers(0, 2)))
        columns.append(" ".join([card.lower() for card in column[:down]] + column[down:]))
    return position("spiderette", len(suits), columns, removed="SSS" if suits == "S" else "SH")


# Each example is a brute-force search of a small endgame (about 2 s): ten keep the suit fast.
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_blocked_positions())
def test_answer_agrees_with_brute_force(game: Game) -> None:
    expected = _won_by_brute_force(game)
    assume(expected is not None)
    result = solve(game, time_limit=None)
    assert result.status == ("winnable" if expected else "unwinnable")


def test_too_few_cards_to_deal_again_is_dead() -> None:
    from spider.solver.full.generate import LOOSE as _LOOSE
    from spider.solver.full.generate import Solver as _Solver

    # Six cards on seven columns with the stock not empty: no deal can ever happen again.
    columns = ["KS", "QS", "JS", "10S", "9S", "8S", ""]
    game = position("spiderette", 1, columns, stock="7S 6S 5S 4S 3S 2S AS", removed="SSS")
    solver = _Solver(game)
    assert solver.children(solver.start, 0, 0) == []
    assert solver.children(solver.start, 0, _LOOSE) == []
    assert solve(game, time_limit=None).status == "unwinnable"


def test_portfolio_finds_what_the_first_heuristic_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    from spider.solver.full import heuristic, search

    # 4-suit Spider deal 9: within 20 000 stored positions a beam, the first heuristic alone
    # finds no win; the other weightings of the portfolio, tried at the same widths, do.
    game = Game.new("spider", suits=4, rule="classic", number=9)
    result = solve(game, time_limit=None, node_limit=20_000)
    assert result.status == "winnable"
    replay = game.copy(history=False)
    for token in result.solution:
        replay.push(action_from_text(token))
    assert replay.is_won
    monkeypatch.setattr(search, "PORTFOLIO", heuristic.PORTFOLIO[:1])
    alone = solve(game, time_limit=None, node_limit=20_000)
    assert (alone.status, alone.reason) == ("undecided", "node-limit")


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    number=st.integers(0, 10_000),
    weights=st.integers(0, 3),
    data=st.data(),
)
def test_child_scores_equal_the_full_score(
    variant: tuple[str, int, str], number: int, weights: int, data: st.DataObject
) -> None:
    from spider.solver.full.generate import LOOSE as _LOOSE
    from spider.solver.full.generate import STRICT as _STRICT
    from spider.solver.full.generate import Solver as _Solver
    from spider.solver.full.heuristic import PORTFOLIO as _PORTFOLIO

    # The search scores each child incrementally (only the columns a move or a deal changes);
    # along random walks through moves, supermoves and deals, that must equal a full rescore.
    game_name, suits, rule = variant
    solver = _Solver(
        Game.new(game_name, suits=suits, rule=rule, number=number), _PORTFOLIO[weights]
    )
    state = solver.start
    score = solver.score(state)
    for _ in range(60):
        children = []
        for prune in (0, _LOOSE, _STRICT):
            for child_score, _action, child in solver.children(state, score, prune):
                assert child_score == solver.score(child)
                children.append((child_score, child))
        if not children:
            break
        score, state = data.draw(st.sampled_from(children))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), number=st.integers(0, 10_000), data=st.data())
def test_the_sound_level_leaves_out_only_the_move_back_to_the_parent(
    variant: tuple[str, int, str], number: int, data: st.DataObject
) -> None:
    from spider.solver.full.exhaustive import undo_code
    from spider.solver.full.generate import SOUND, Solver

    # The sound phase skips, among a position's children, the move that undoes the move to it;
    # along random walks (moves that turn cards, complete runs, fill and empty columns, and
    # deals), what it leaves out must be the parent itself, and nothing else.
    game_name, suits, rule = variant
    solver = Solver(Game.new(game_name, suits=suits, rule=rule, number=number))
    parent = solver.start
    undone = 0
    for _ in range(60):
        children = solver.children(parent, 0, SOUND)
        if not children:
            break
        for _score, action, child in children:
            undo = undo_code(parent, child, action)
            every = solver.children(child, 0, SOUND)
            kept = solver.children(child, 0, SOUND, undo)
            left_out = [entry for entry in every if entry not in kept]
            assert [entry[2] for entry in left_out] == [parent] * len(left_out)
            assert len(left_out) <= (1 if undo >= 0 else 0)
            undone += len(left_out)
        parent = data.draw(st.sampled_from(children))[2]
    assume(undone > 0)


def test_a_move_that_completes_a_run_is_not_undone_by_its_reverse() -> None:
    from spider.solver.full.exhaustive import undo_code
    from spider.solver.full.generate import SOUND, Solver

    # The ace completes the run on column b, which then holds the 2; moving one card from b
    # back to a is legal, but it puts the 2 on the 3, not the ace back: no undo move exists.
    run = " ".join(f"{rank}S" for rank in ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"])
    game = position("spiderette", 1, ["3S AS", f"2S {run} 3S 2S", "", "", "", "", ""])
    solver = Solver(game)
    parent = solver.start
    [(_, action, child)] = [entry for entry in solver.children(parent, 0, SOUND) if entry[1] == 17]
    assert child[0][1] == b"\x00\x02"  # the run left, the 2 is on top
    assert 1 << 8 | 1 in [code for _, code, _ in solver.children(child, 0, SOUND)]
    assert undo_code(parent, child, action) < 0


def _schedule(complete: tuple[int, int] | None = None) -> list[tuple[int, int, int]]:
    """The beams the finding phase runs, as (pruning, width, heuristic), with a stand-in beam
    that costs its width in expansions (ten times that at the loose level), finds nothing and
    reports ``complete`` (nothing cut) for the beam (pruning, width) given.  The lean track's
    beams (wide, on ``LEAN_BUDGET``) count as heuristic 4."""
    from spider.solver.budget import Limits
    from spider.solver.full import beam
    from spider.solver.full.generate import LOOSE, Solver
    from spider.solver.full.heuristic import PORTFOLIO

    game = Game.new("spider", suits=4, rule="classic", number=0)
    solvers = [Solver(game, weights) for weights in PORTFOLIO]
    limits = Limits(0.0, None, None, 2048, None, None, 5000)
    calls: list[tuple[int, int, int]] = []

    def stand_in(solver: Solver, limits: Limits, width: int, budget: int, prune: int) -> bool:
        lean = prune != LOOSE and width >= beam.LEAN_WIDTH and budget == beam.LEAN_BUDGET
        calls.append((prune, width, len(solvers) if lean else solvers.index(solver)))
        limits.expanded += width * (10 if prune == LOOSE else 1)
        return (prune, width) == complete

    beam.find(solvers, limits, stand_in)
    return calls


def test_finding_phase_schedule() -> None:
    from spider.solver.full.generate import LOOSE as _LOOSE
    from spider.solver.full.generate import STRICT as _STRICT

    calls = _schedule()
    # The head start: widths 4 and 8 with every heuristic in turn, then the first loose beam.
    assert calls[:9] == [
        *[(_STRICT, 4, member) for member in range(4)],
        *[(_STRICT, 8, member) for member in range(4)],
        (_LOOSE, 8, 0),
    ]
    # Every track doubles its width up to its widest beam, and then the phase ends.
    for member in range(4):
        widths = [width for prune, width, index in calls if prune == _STRICT and index == member]
        assert widths == [4, 8, 16, 32, 64, 128, 256, 512]
    # The lean track: the first heuristic's wide beams on a small budget, from width 64.
    lean = [width for prune, width, index in calls if prune == _STRICT and index == 4]
    assert lean == [64, 128, 256, 512]
    assert calls[9] == (_STRICT, 64, 4)
    loose = [width for prune, width, index in calls if prune == _LOOSE]
    assert loose == [8, 16, 32, 64, 128]
    assert all(index == 0 for prune, _, index in calls if prune == _LOOSE)
    # After the head start, a loose beam starts only when the strict tracks have done more work.
    strict_work = loose_work = 0
    for prune, width, _ in calls:
        if prune == _LOOSE:
            assert width == 8 or loose_work <= strict_work
            loose_work += 10 * width
        else:
            strict_work += width


def test_a_beam_that_cut_nothing_ends_its_level() -> None:
    from spider.solver.full.generate import LOOSE as _LOOSE
    from spider.solver.full.generate import STRICT as _STRICT

    # A strict beam: no strict beam follows, of any width or heuristic; the loose track goes on.
    calls = _schedule(complete=(_STRICT, 16))
    first = next(i for i, (prune, width, _) in enumerate(calls) if (prune, width) == (_STRICT, 16))
    assert [width for _, width, _ in calls[first + 1 :]] == [16, 32, 64, 128]
    assert all(prune == _LOOSE for prune, _, _ in calls[first + 1 :])
    # A loose beam: the phase ends at once (the sound phase takes over).
    calls = _schedule(complete=(_LOOSE, 16))
    assert calls[-1] == (_LOOSE, 16, 0)


def test_a_wide_strict_beam_wins_where_narrow_ones_do_not() -> None:
    from spider.solver.budget import Found, Limits
    from spider.solver.full.beam import WIDE_BUDGET, stage_beam
    from spider.solver.full.encoding import action_of
    from spider.solver.full.generate import STRICT, Solver

    # Spiderette 4-suit deal 98: the strict beams of width 128 find no win; width 512 does.
    game = Game.new("spiderette", suits=4, rule="classic", number=98)
    solver = Solver(game)

    def beam(width: int) -> bool:
        limits = Limits(0.0, None, None, 2048, None, None, 5000)
        try:
            stage_beam(solver, limits, width, WIDE_BUDGET, STRICT)
        except Found as found:
            replay = game.copy(history=False)
            for code in found.line:
                replay.push(action_of(code))
            return replay.is_won
        return False

    assert not beam(128)
    assert beam(512)
