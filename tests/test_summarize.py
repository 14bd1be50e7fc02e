"""``benchmarks/summarize.py`` turns fair-play records into the figures of docs/strength.md: the
table, the deal-by-deal comparison, the chart and the command that plays the games again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "summarize.py"


def record(player: str, deal: int, won: bool, **budget: int) -> dict[str, object]:
    return {
        "player": player,
        "game": "spider",
        "suits": 2,
        "rule": "classic",
        "deal": deal,
        **budget,
        "won": won,
        "runs": 8 if won else 3,
        "actions": 100,
        "seconds": 1.5,
        "down": 0 if won else 12,
    }


def test_table_pairs_chart_and_commands(tmp_path: Path) -> None:
    hint = tmp_path / "hint.jsonl"
    think = tmp_path / "think.jsonl"
    hint.write_text(
        "".join(json.dumps(record("hint", deal, deal < 2)) + "\n" for deal in range(4))
        + '{"player": "hint", "gam',  # a line torn by an interrupted run is ignored
        encoding="utf-8",
    )
    think.write_text(
        "".join(
            json.dumps(record("think", deal, deal != 1, iterations=10, seed=0)) + "\n"
            for deal in range(3)
        )
        + json.dumps({"key": "a tune_hint.py candidate", "score": 1.0})
        + "\n",
        encoding="utf-8",
    )
    chart = tmp_path / "chart.svg"
    options = ["--pairs", "--commands", "--svg", str(chart)]
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(hint), str(think), *options],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert (
        "| spider-2-classic | quick hint | 0-3 | 2 | 50.0% | 15.0-85.0% | 5.50 | 6.0 | 1.5 |" in out
    )
    assert "| spider-2-classic | Think harder, 10 play-outs | 0-2 | 2 | 66.7% |" in out
    # Deals 0-2: the hint won 0 and 1, "Think harder" 0 and 2; one each, p = 1.
    assert "| quick hint | Think harder, 10 play-outs | 0-2 | 2 | 2 | 1 | 1 | 1.000 |" in out
    assert (
        "fairplay.py --players think --variants spider-2-classic --deals 3 --iterations 10 "
        f"--jobs 2 --out benchmarks/results/{think.name}"
    ) in out
    svg = chart.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<circle") == 2
