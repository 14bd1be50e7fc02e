"""Command line (hint, solve, analyze, Dask) and the protocol's hint/status operations."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider.cli import main
from spider.protocol import Session
from spider.solver import hint
from spider.solver.full.analyze import analyze, load_results, parse_deals, wilson_interval
from tests.helpers import FILL_POSITION, VARIANTS, position, random_game


def test_cli_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "SP1-S4C-AAAAAAH"]) == 0
    out = capsys.readouterr().out
    assert "turns a card" in out and "Deal possible: yes" in out
    assert main(["hint", "SP1-S4C-AAAAAAH", "--json", "--index", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rank"] == 1 and data["move"] is not None


def test_cli_hint_never_suggests_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """No move helps: the deals left are a fact, not advice.  A fill is called a fill."""
    assert main(["hint", "SP1-S4C-AAAAAEC"]) == 0
    assert capsys.readouterr().out == "No move seems to help. 5 deals are left.\n"
    assert main(["hint", "SP1-S4C-AAAAAEC", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] is None and data["reason"] == "nothing-helps-deals-left"
    assert data["deal_possible"] is True
    assert main(["hint", FILL_POSITION]) == 0
    assert capsys.readouterr().out.startswith("*  1. id    fills an empty column  (line: id)\n")
    assert main(["hint", FILL_POSITION, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["notation"] == "id" and data["reason"] == "fills-column"
    assert data["text"] == "fills an empty column"


def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "SD1-S1-AAAAAAC", "--json", "--time-limit", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "winnable" and data["solution"]


def test_cli_solve_exit_status_says_whether_it_decided(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As its help says: 1 when the limits stop the search first, 2 for bad input."""
    assert main(["solve", "SD1-S4-AAAAABS", "--time-limit", "0.05", "--quiet"]) == 1
    assert "undecided (time-limit)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        main(["solve", "SD1-S4-AAAAABS", "--time-limit", "abc"])
    assert refused.value.code == 2
    assert main(["solve", "SD9-S4-AAAAABS", "--quiet"]) == 2
    assert "spider: error" in capsys.readouterr().err


def test_parse_deals_and_wilson() -> None:
    assert parse_deals("0-3,7,2") == [0, 1, 2, 3, 7]
    with pytest.raises(ValueError):
        parse_deals("5-1")
    low, high = wilson_interval(5, 10)
    assert 0.23 < low < 0.24 and 0.76 < high < 0.77


def test_analyze_writes_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    args = [
        "analyze",
        "--game",
        "spiderette",
        "--suits",
        "1",
        "--deals",
        "0-1",
        "--time-limit",
        "0.5",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "winnable" in printed and "95% CI" in printed and "p95" in printed
    assert len(load_results(out)) == 2
    # Resume: only the new deal is solved.
    calls: list[int] = []

    def runner(tasks: list[tuple[str, int, str, int, float, float]]) -> list[dict[str, object]]:
        calls.extend(task[3] for task in tasks)
        return [
            {
                "code": "x",
                "number": task[3],
                "status": "undecided",
                "reason": "time-limit",
                "moves": 0,
                "positions": 1,
                "elapsed": 0.1,
                "solution": "",
            }
            for task in tasks
        ]

    summary = analyze("spiderette", 1, "classic", [0, 1, 2], out, stream=None, runner=runner)
    assert calls == [2]
    assert summary.total == 3


def test_analyze_json_output(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    summary = analyze("spiderette", 1, "classic", [0], out, time_limit=0.5, stream=None)
    assert summary.total == 1
    assert json.loads(out.read_text())["results"][0]["number"] == 0


def test_analyze_on_local_dask_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        out = tmp_path / "dask.csv"
        summary = analyze(
            "spiderette",
            1,
            "classic",
            [0, 1],
            out,
            time_limit=0.5,
            stream=None,
            dask_address=cluster.scheduler_address,
        )
    assert summary.total == 2
    assert {int(row["number"]) for row in load_results(out)} == {0, 1}


def test_protocol_hint_and_status() -> None:
    session = Session()
    session.handle({"op": "new", "game": "spider", "suits": 4, "number": 7})
    reply = session.handle({"op": "hint"})
    assert reply["ok"] and reply["hint"]["rank"] == 0 and reply["no_moves"] is False
    first = reply["hint"]["move"]
    assert set(first) == {"src", "dst", "count"}
    second = session.handle({"op": "hint", "index": 1})["hint"]
    assert second["rank"] == 1 and second["move"] != first
    assert session.handle({"op": "hint", "index": -1})["error"]["code"] == "bad-request"
    # Asked again on the same table, the engine itself offers the next best; a move starts over.
    fresh = Session()
    fresh.handle({"op": "new", "game": "spider", "suits": 4, "number": 7})
    ranks = [fresh.handle({"op": "hint"})["hint"]["rank"] for _ in range(2)]
    assert ranks == [0, 1]
    fresh.handle({"op": "move", **first})
    assert fresh.handle({"op": "hint"})["hint"]["rank"] == 0
    status = session.handle({"op": "status"})
    assert status["no_moves"] is False and status["deal_possible"] is True
    # Playing the hint works through the normal move op.
    moved = session.handle({"op": "move", **first})
    assert moved["ok"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    number=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    script=st.lists(st.sampled_from(["hint", "hint", "move", "undo", "redo", "deal"]), max_size=14),
    seed=st.integers(0, 2**32),
)
def test_protocol_hint_answers_for_the_table_shown(
    variant: tuple[str, int, str], number: int, steps: int, script: list[str], seed: int
) -> None:
    # Hints asked between moves, undos and deals (the protocol keeps its last report to answer
    # a second press at once) always answer for the table as it is now.
    session = Session()
    session.game = random_game(variant, number, steps)
    rng = random.Random(seed)
    index = 0
    for op in script:
        game = session.require_game()
        if op == "hint":
            reply = session.handle({"op": "hint", "index": index})
            assert reply["hint"] == hint(game, index).to_json()
            index += 1
            continue
        index = 0
        if op == "move":
            moves = game.legal_moves()
            if moves:
                src, dst, count = rng.choice(moves)
                session.handle({"op": "move", "src": src, "dst": dst, "count": count})
        else:
            session.handle({"op": op})


def test_protocol_no_moves() -> None:
    session = Session()
    session.game = position("spiderette", 1, ["KS", "KS", "KS", "KS", "QS 5S", "9S", "7S"])
    reply = session.handle({"op": "hint"})
    assert reply["hint"]["move"] is None and reply["no_moves"] is True
    assert reply["hint"]["reason"] == "no-moves" and reply["hint"]["deal_possible"] is False


NEARLY_WON = (
    "spiderette 1 classic standard / score=400 moves=100 removed=SSS / "
    "KS QS JS 10S 9S 8S 7S / 3s 6S 5S / 2S / 4S / AS / - / - / -"
)


def test_protocol_solve_reports_progress_and_actions() -> None:
    session = Session()
    reports: list[dict[str, object]] = []
    session.progress = reports.append
    session.handle({"op": "new", "game": "spiderette", "suits": 1, "number": 2})
    reply = session.handle({"op": "solve", "time_limit": 20, "progress_every": 200})
    assert reply["ok"] and reply["events"] == []
    result = reply["solve"]
    assert result["status"] == "winnable" and result["moves"] == len(result["solution"])
    assert reports and set(reports[0]) == {"expanded", "positions", "elapsed"}
    # The actions are protocol requests: played in order, they win the game.
    for action in result["actions"]:
        assert session.handle(action)["ok"]
    assert session.handle({"op": "state"})["state"]["won"]


def test_protocol_solve_from_a_loaded_position_and_bad_fields() -> None:
    engine = Session()
    engine.handle({"op": "open", "position": NEARLY_WON})
    saved = engine.handle({"op": "state"})
    assert "saved" not in saved  # 'state' carries no saved text: take it from an action
    saved_text = engine.handle({"op": "set", "undo_limit": 400})["saved"]
    solver = Session()  # a second session, as the web app's solver worker
    assert solver.handle({"op": "load", "saved": saved_text})["ok"]
    result = solver.handle({"op": "solve"})["solve"]
    assert result["status"] == "winnable" and result["actions"][0]["op"] == "move"
    for field, value in (("time_limit", 0), ("time_limit", "10"), ("memory_mb", True)):
        reply = solver.handle({"op": "solve", field: value})
        assert not reply["ok"] and reply["error"]["code"] == "bad-request"


def test_protocol_status_node_limit() -> None:
    session = Session()
    session.handle({"op": "open", "position": NEARLY_WON})
    reply = session.handle({"op": "status", "node_limit": 1000})
    assert reply["no_moves"] is False and reply["no_moves_status"] == "useful"
    dead = (
        "spiderette 1 classic standard / score=400 moves=100 removed=SS / 2s 6s 3s 7S 5S 7S / "
        "ks qs 10S KS / 4s 2S / 9s 8s JS / 3s as 4s 8S / as 9s JS / 6s qs 5S 10S / -"
    )
    session.handle({"op": "open", "position": dead})
    assert session.handle({"op": "status"})["no_moves"] is True
    assert session.handle({"op": "status", "node_limit": 1})["no_moves_status"] == "unknown"
    assert not session.handle({"op": "status", "node_limit": 0})["ok"]
