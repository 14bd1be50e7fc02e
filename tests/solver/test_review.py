"""The review ("where did I lose it?") on games built to lose at a known move, its CLI and op.

The games are 2-suit Spiderette endgames without a stock (two runs already removed), where the
solver decides every position within a few hundred positions, so the node budgets below make
the tests deterministic.  The losing move is found in the setup by the solver itself.  The
unproven verdict (``probably-lost``) is tested on an early Spiderette position where a win is
found within a small node budget and the position after the next move is not decided within it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider import Game
from spider.cards import card_text
from spider.cli import main
from spider.moves import Move, action_from_text
from spider.protocol import Session
from spider.solver import solve
from spider.solver.review import FULL_INFORMATION_NOTE, REFINE_ROUNDS, ReviewReport, review
from spider.solver.review_evidence import fact_text, facts_for

NODES = 5_000
"""Node budget per solver run: every position of these endgames is decided well within it."""

# Winnable; the solver's line wins it.  (Found by a seeded search over random endgames.)
ENDGAME = (
    "spiderette 2 classic standard / score=600 moves=100 removed=SH / 10h 5h 10S 8S 9S / qs 2H / "
    "6S 2S / 6h JS 7H AH JH KH / 3H / 9H / 7S 4S 3S AS 5S 8H KS 4H QH / -"
)
# Winnable, but the fair hint's move (db: it turns a card) makes it unwinnable.
HINT_LOSES = (
    "spiderette 2 classic standard / score=600 moves=100 removed=SH / 9S / 2h AH 3S / "
    "KS KH 5H 10S 7H / 8s qh 7s 2S / 6S 9H / 4h 10h 3H JS QS 5S JH / as 8h 6h 4S / -"
)


# Spiderette 2-suit deal 4 after three of the hint's moves: a win is found within 1,000 positions
# there; after the hint's next move (ba2) none is within 4,000 (the solver finds one after about
# 2 million positions: the unproven verdict below is wrong, which is why it is never a proof).
EARLY = (
    "spiderette 2 classic standard #4 / score=497 moves=3 removed=- / - / 10s 5S 4S / js 7h AH / "
    "3h qs JH 10H 9H / jh 8s qh 10s AH / 8h 9s 6s 8h 8s 5S / 2h ks 2h 3h 5h AS / "
    "as 9h 3s 3s 5h kh kh 4s 2s 7s qh 4h 6h 4h 2s 7h 6s 9s 7s js 10h ks qs 6h"
)
EARLY_NODES = 1_000


def _early_game() -> Game:
    game = Game.from_text(EARLY)
    game.push(action_from_text("ba2"))
    return game


def _solution(game: Game) -> list[str]:
    result = solve(game, time_limit=None, node_limit=NODES)
    assert result.status == "winnable"
    return result.solution


def _losing_child(game: Game) -> Move:
    """The first legal move (engine order) after which the solver proves the game lost and
    some move is still left to play."""
    for move in game.legal_moves():
        child = game.copy(history=False)
        child.push(move)
        if not child.legal_moves():
            continue
        if solve(child, time_limit=None, node_limit=NODES).status == "unwinnable":
            return move
    raise AssertionError("no losing move here")


def _lost_game() -> tuple[Game, Move, str]:
    """ENDGAME: three moves of the solver's line, a losing move, then two more moves.

    Returns the game, the losing move (action 4) and the position before it."""
    game = Game.from_text(ENDGAME)
    for text in _solution(game)[:3]:
        game.push(action_from_text(text))
    before = game.to_text()
    losing = _losing_child(game)
    game.push(losing)
    for _ in range(2):
        game.push(game.legal_moves()[0])
    return game, losing, before


def test_lost_at_a_known_move() -> None:
    game, losing, before = _lost_game()
    saved = game.to_json()
    report = review(game, time_limit=None, node_limit=NODES)
    assert report.status == "lost" and report.reason == "decided"
    assert report.moves == 6
    assert (report.last_winnable, report.first_unwinnable) == (3, 4)
    assert report.losing is not None
    assert report.losing.number == 4 and report.losing.action == losing
    assert report.losing.before == before == report.practice
    # The solver's first move from there wins, and is not the losing one.
    assert report.losing.winning is not None and report.losing.winning != losing
    check = Game.from_text(before)
    check.push(report.losing.winning)
    assert solve(check, time_limit=None, node_limit=NODES).status == "winnable"
    # The current position first, then bisection: never more probes than positions.
    assert report.probes[0].index == 6 and report.probes[0].status == "unwinnable"
    assert len(report.probes) <= 7
    assert game.to_json() == saved  # the review changes nothing
    text = "\n".join(report.lines())
    assert f"Lost at move 4 ({losing.text()})" in text and FULL_INFORMATION_NOTE in text


def test_the_hint_would_have_played_it_so_it_is_bad_luck() -> None:
    game = Game.from_text(HINT_LOSES)
    game.push(Move(3, 1, 1))  # db, what the hint suggests
    report = review(game, time_limit=None, node_limit=NODES, think_iterations=0)
    assert report.status == "lost" and report.losing is not None
    assert report.losing.number == 1
    assert report.losing.hint.move == Move(3, 1, 1) and report.losing.hint_same
    assert report.losing.think is None and report.losing.think_same is None
    assert report.losing.verdict == "bad-luck"
    assert report.to_json()["losing"]["verdict"] == "bad-luck"
    assert "Bad luck" in "\n".join(report.lines())


def test_a_move_no_fair_helper_plays_is_a_mistake() -> None:
    game, _, _ = _lost_game()
    report = review(game, time_limit=None, node_limit=NODES, think_iterations=10)
    assert report.losing is not None
    assert not report.losing.hint_same and report.losing.think_same is False
    assert report.losing.verdict == "mistake"


def test_never_winnable_from_the_position_it_was_opened_at() -> None:
    lost = Game.from_text(HINT_LOSES)
    lost.push(Move(3, 1, 1))
    game = Game.from_text(lost.to_text())
    report = review(game, time_limit=None, node_limit=NODES)
    assert report.status == "never-winnable" and report.losing is None
    assert report.first_unwinnable == 0 and report.practice is None


def test_won_and_still_winnable() -> None:
    game = Game.from_text(ENDGAME)
    solution = _solution(game)
    for text in solution[:5]:
        game.push(action_from_text(text))
    still = review(game, time_limit=None, node_limit=NODES)
    assert still.status == "still-winnable" and len(still.probes) == 1
    assert still.last_winnable == 5 and still.practice is None
    for text in solution[5:]:
        game.push(action_from_text(text))
    won = review(game, time_limit=None, node_limit=NODES)
    assert won.status == "won" and won.probes == ()


def test_from_a_deal_start() -> None:
    game = Game.from_code("SD1-S1-AAAAAAC")
    line = solve(game, time_limit=None, node_limit=50_000).solution
    for text in line[:10]:
        game.push(action_from_text(text))
    report = review(game, time_limit=None, node_limit=50_000)
    assert report.status == "still-winnable" and report.code == "SD1-S1-AAAAAAC"


def test_an_undone_move_is_not_on_the_line() -> None:
    """Undo takes a move off the played line: a blunder taken back did not lose the game."""
    game, losing, _ = _lost_game()
    for _ in range(3):
        game.undo()
    assert review(game, time_limit=None, node_limit=NODES).status == "still-winnable"
    game.redo()  # the losing move again
    assert game.played[-1] == losing
    again = review(game, time_limit=None, node_limit=NODES)
    assert again.status == "lost" and again.losing is not None and again.losing.number == 4


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.sampled_from([ENDGAME, HINT_LOSES]),
    picks=st.lists(st.integers(min_value=0, max_value=50), max_size=8),
)
def test_every_claim_holds_against_the_solver(start: str, picks: list[int]) -> None:
    """Random lines from two endgames: what the review claims, the solver confirms position by
    position (these endgames are decided within the node budget, so it never has to guess)."""
    game = Game.from_text(start)
    for pick in picks:
        moves = game.legal_moves()
        if not moves or game.is_won:
            break
        game.push(moves[pick % len(moves)])
    report = review(game, time_limit=None, node_limit=NODES, think_iterations=0)
    start_game = game.start_position()

    def status(index: int) -> str:
        position = start_game.copy(history=False)
        for action in game.played[:index]:
            position.push(action)
        return solve(position, time_limit=None, node_limit=NODES).status

    statuses = [status(index) for index in range(len(game.played) + 1)]
    assert "undecided" not in statuses
    # Monotone: once lost, lost for good.
    assert statuses == sorted(statuses, key=lambda value: value == "unwinnable")
    if game.is_won:
        assert report.status == "won"
    elif statuses[-1] == "winnable":
        assert report.status == "still-winnable"
    elif statuses[0] == "unwinnable":
        assert report.status == "never-winnable"
    else:
        number = statuses.index("unwinnable")
        assert report.status == "lost" and report.losing is not None
        assert report.losing.number == number and report.losing.action == game.played[number - 1]


def test_no_win_found_is_could_not_tell_never_a_guess() -> None:
    game, _, _ = _lost_game()
    report = review(game, time_limit=None, node_limit=1)
    assert report.status == "could-not-tell" and report.reason == "undecided"
    assert not report.proven and report.to_json()["proven"] is False
    assert report.losing is None and report.probable is None and report.last_winnable is None
    assert report.first_unwinnable is None
    assert all(probe.status == "undecided" for probe in report.probes)
    # Bisection on "won or not" closes on the start, searched again with twice the budget.
    assert [probe.index for probe in report.probes][-1 - REFINE_ROUNDS :] == [0] * (
        1 + REFINE_ROUNDS
    )
    assert "Could not tell" in "\n".join(report.lines())


def test_probably_lost_when_the_loss_is_not_proven() -> None:
    game = _early_game()
    report = review(game, time_limit=None, node_limit=EARLY_NODES, think_iterations=0)
    assert report.status == "probably-lost" and report.reason == "undecided"
    assert not report.proven and report.losing is None
    assert (report.last_winnable, report.first_unwinnable) == (0, None)
    probable = report.probable
    assert probable is not None and not probable.proven
    assert (probable.earliest, probable.number) == (1, 1)
    assert probable.move is not None and probable.move.action == action_from_text("ba2")
    assert probable.move.before == EARLY == report.practice
    # The frontier was searched 1 + REFINE_ROUNDS times, each with twice the positions.
    runs = [probe for probe in report.probes if probe.index == 1]
    assert len(runs) == 1 + REFINE_ROUNDS and all(run.status == "undecided" for run in runs)
    # The evidence: the win found at the start (proven) and the largest search after move 1.
    first, second = probable.evidence
    assert (first.index, first.outcome, first.proven, first.reason) == (
        0,
        "win-found",
        True,
        "solved",
    )
    assert (second.index, second.outcome, second.proven) == (1, "no-win-found", False)
    assert second.reason == "node-limit"
    assert second.positions == max(run.positions for run in runs)
    text = "\n".join(report.lines())
    assert "Probably lost at about move 1 (ba2) (not proven)" in text
    assert "At the start: a win found in" in text and "(proven: its line replays to a win)" in text
    assert "After move 1: no win found in" in text and "not a proof" in text
    assert "Lost at move" not in text
    # What it rests on as proven holds: the start can be won.
    assert solve(Game.from_text(EARLY), time_limit=None, node_limit=4 * EARLY_NODES).status == (
        "winnable"
    )


def test_probably_lost_json() -> None:
    report = review(_early_game(), time_limit=None, node_limit=EARLY_NODES, think_iterations=0)
    data = json.loads(json.dumps(report.to_json()))
    assert data["status"] == "probably-lost" and data["proven"] is False
    assert data["losing"] is None and data["practice"] == EARLY
    probable = data["probable"]
    assert probable["proven"] is False
    assert (probable["earliest"], probable["number"]) == (1, 1)
    assert probable["move"]["notation"] == "ba2" and probable["move"]["number"] == 1
    assert [fact["outcome"] for fact in probable["evidence"]] == ["win-found", "no-win-found"]
    assert [fact["proven"] for fact in probable["evidence"]] == [True, False]
    assert set(probable["evidence"][1]) == {
        "index",
        "outcome",
        "proven",
        "seconds",
        "positions",
        "reason",
    }
    proven = review(_lost_game()[0], time_limit=None, node_limit=NODES).to_json()
    assert proven["proven"] is True and proven["probable"] is None


def test_evidence_keeps_what_a_verdict_rests_on() -> None:
    """From the runs: the win at the last winnable position (not earlier ones), each position
    after it searched without a win (its largest search), the first proven lost; in words."""
    runs = [
        (9, "unwinnable", "exhausted", 4321, 0.1),
        (4, "winnable", "solved", 800, 0.2),
        (6, "undecided", "time-limit", 5000, 10.0),
        (5, "winnable", "solved", 900, 0.4),
        (6, "undecided", "time-limit", 9000, 19.5),
        (8, "undecided", "memory-limit", 700, 1.5),
    ]
    facts = facts_for(runs, 5, 9)
    assert [(f.index, f.outcome, f.positions) for f in facts] == [
        (5, "win-found", 900),
        (6, "no-win-found", 9000),
        (8, "no-win-found", 700),
        (9, "proven-lost", 4321),
    ]
    assert [f.proven for f in facts] == [True, False, False, True]
    assert [fact_text(f) for f in facts] == [
        "After move 5: a win found in 0.4 s (proven: its line replays to a win).",
        "After move 6: no win found in 19.5 s of search (9,000 positions, stopped by the time "
        "limit; not a proof).",
        "After move 8: no win found in 1.5 s of search (700 positions, stopped by the memory "
        "limit; not a proof).",
        "After move 9: proven lost (every reachable position searched: 4,321 in 0.1 s).",
    ]
    start = facts_for([(0, "winnable", "solved", 10, 0.01)], 0, 3)
    assert fact_text(start[0]).startswith("At the start: a win found in 0.0 s")
    with pytest.raises(ValueError, match="unknown solver status 'maybe'"):
        facts_for([(1, "maybe", "solved", 1, 0.1)], 0, 3)


def _statuses(game: Game) -> list[str]:
    """The solver's status of every position of the played line, with a budget that decides
    every position of these endgames."""
    start = game.start_position()
    found = []
    for index in range(len(game.played) + 1):
        position = start.copy(history=False)
        for action in game.played[:index]:
            position.push(action)
        found.append(solve(position, time_limit=None, node_limit=NODES).status)
    assert "undecided" not in found
    return found


def _holds(report: ReviewReport, statuses: list[str]) -> None:
    """Every proven part of ``report`` agrees with the positions' true ``statuses``."""
    lost_at = statuses.index("unwinnable") if "unwinnable" in statuses else None
    if report.last_winnable is not None:
        assert statuses[report.last_winnable] == "winnable"
    if report.first_unwinnable is not None:
        assert statuses[report.first_unwinnable] == "unwinnable"
    if report.status == "lost":
        assert report.losing is not None and report.losing.number == lost_at
    elif report.status == "never-winnable":
        assert lost_at == 0
    elif report.status == "still-winnable":
        assert statuses[-1] == "winnable"
    elif report.status == "probably-lost":
        probable = report.probable
        assert probable is not None and not report.proven
        assert 1 <= probable.earliest <= probable.number <= len(statuses) - 1
        # Unproven: the game may even be winnable still; but never lost before ``earliest``.
        assert lost_at is None or lost_at >= probable.earliest
        for fact in probable.evidence:
            if fact.outcome == "win-found":
                assert statuses[fact.index] == "winnable"
            elif fact.outcome == "proven-lost":
                assert statuses[fact.index] == "unwinnable"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.sampled_from([ENDGAME, HINT_LOSES]),
    picks=st.lists(st.integers(min_value=0, max_value=50), max_size=8),
    nodes=st.integers(min_value=1, max_value=400),
)
def test_a_proven_claim_is_never_wrong_whatever_the_budget(
    start: str, picks: list[int], nodes: int
) -> None:
    """Small node budgets leave positions undecided, so answers are often unproven: whatever
    the review says, what it says is proven (the status, the bounds, the evidence's proofs)
    agrees with the solver given enough budget, and an unproven verdict never comes before the
    last position proven winnable."""
    game = Game.from_text(start)
    for pick in picks:
        moves = game.legal_moves()
        if not moves or game.is_won:
            break
        game.push(moves[pick % len(moves)])
    report = review(game, time_limit=None, node_limit=nodes, think_iterations=0)
    _holds(report, _statuses(game))


def test_stop_keeps_what_was_proven() -> None:
    game, _, _ = _lost_game()
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 1  # the first check (before the first probe) lets it start

    report = review(game, time_limit=None, node_limit=NODES, stop=stop)
    assert report.status == "could-not-tell" and report.reason == "stopped"
    assert report.losing is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time_limit", 0),
        ("position_time_limit", -1.0),
        ("node_limit", 0),
        ("think_iterations", -1),
        ("think_iterations", True),
    ],
)
def test_bad_budgets_are_refused(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=field):
        review(Game.from_text(ENDGAME), **{field: value})


# ------------------------------------------------------------------------- command line


def test_cli_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, losing, _ = _lost_game()
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    assert main(["review", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"Lost at move 4 ({losing.text()})" in out and "could not see" in out
    assert main(["review", str(path), "--json", "--time", "30"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "lost" and data["losing"]["number"] == 4
    assert data["full_information"] is True


def test_cli_review_probably_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A small time budget: the start is won at once, position 1 needs far more (about 2
    million positions), so the answer is unproven, and said so."""
    path = tmp_path / "game.json"
    path.write_text(_early_game().to_json(), encoding="utf-8")
    assert main(["review", str(path), "--time", "5", "--position-time", "0.2", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "Probably lost at about move 1 (ba2) (not proven)" in out and "Evidence:" in out


def test_cli_review_could_not_tell_and_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "SD1-S4-AAAAABS", "--time", "0.05", "--quiet"]) == 1
    assert "Could not tell" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "spider-solitaire/game", "version": 7}', encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spider: error: saved game: version 7") and err.count("\n") == 1
    with pytest.raises(SystemExit) as refused:
        main(["review", str(bad), "--time", "0"])
    assert refused.value.code == 2


# ------------------------------------------------------------------------- protocol


def _session(game: Game) -> Session:
    session = Session()
    assert session.handle({"op": "load", "saved": game.to_json()})["ok"]
    return session


def test_protocol_review_with_progress() -> None:
    game, losing, before = _lost_game()
    session = _session(game)
    seen: list[dict[str, Any]] = []
    session.progress = seen.append
    reply = session.handle({"op": "review", "node_limit": NODES, "think_iterations": 0})
    assert reply["ok"], reply
    result = reply["review"]
    assert result["status"] == "lost" and result["practice"] == before
    assert result["losing"]["action"] == {
        "op": "move",
        "src": losing.src,
        "dst": losing.dst,
        "count": losing.count,
    }
    assert result["losing"]["hint"]["notation"]
    # The page names the cards, since it does not hold that position's cards.
    column = Game.from_text(before).position().columns[losing.src]
    assert result["losing"]["card"] == card_text(column[-losing.count])
    assert result["losing"]["hint_card"] is not None
    assert seen and seen[0]["probing"] == 6 and seen[0]["moves"] == 6
    assert reply["state"]["moves"] == game.moves  # the game is as it was


def test_protocol_review_cancel() -> None:
    """The web worker's interrupt raises KeyboardInterrupt in the progress hook's caller."""
    game, _, _ = _lost_game()
    session = _session(game)
    calls = 0

    def interrupt(_: dict[str, Any]) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    session.progress = interrupt
    reply = session.handle({"op": "review", "node_limit": NODES})
    assert reply["ok"]
    assert reply["review"]["status"] == "could-not-tell"
    assert reply["review"]["reason"] == "interrupted" and reply["review"]["losing"] is None


@pytest.mark.parametrize(
    "request_fields",
    [
        {"time_limit": "soon"},
        {"time_limit": 0},
        {"position_time_limit": 1e9},
        {"node_limit": 0},
        {"node_limit": 1.5},
        {"think_iterations": -1},
        {"think_iterations": 10**6},
        {"memory_mb": 0},
    ],
)
def test_protocol_review_bad_input(request_fields: dict[str, Any]) -> None:
    session = _session(Game.from_text(ENDGAME))
    reply = session.handle({"op": "review", **request_fields})
    assert not reply["ok"] and reply["error"]["code"] == "bad-request"
    assert next(iter(request_fields)) in reply["error"]["message"]


def test_protocol_review_needs_a_game() -> None:
    reply = Session().handle({"op": "review"})
    assert reply["error"]["code"] == "no-game"
