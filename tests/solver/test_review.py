"""The review ("where did I lose it?") on games built to lose at a known move, its CLI and op.

The games are 2-suit Spiderette endgames without a stock (two runs already removed), where the
solver decides every position within a few hundred positions, so the node budgets below make
the tests deterministic.  The losing move is found in the setup by the solver itself.
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
from spider.solver.review import FULL_INFORMATION_NOTE, review

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


def test_undecided_is_could_not_tell_never_a_guess() -> None:
    game, _, _ = _lost_game()
    report = review(game, time_limit=None, node_limit=1)
    assert report.status == "could-not-tell" and report.reason == "undecided"
    assert report.losing is None and report.last_winnable is None
    assert report.first_unwinnable is None
    assert sorted(probe.index for probe in report.probes) == list(range(7))
    assert all(probe.status == "undecided" for probe in report.probes)
    assert "Could not tell" in "\n".join(report.lines())


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
