"""examples/train_maskable_ppo.py runs (a few thousand steps: it must run, not learn), writes its
learning curve and prints the evaluation; without the train extra it says which to install."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_maskable_ppo.py"


def test_training_example_runs_and_writes_its_curve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("matplotlib")
    args = ["--steps", "2048", "--eval-every", "1024", "--eval-deals", "3", "--eval-first", "7"]
    args += ["--max-actions", "40", "--envs", "2", "--out", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
    runpy.run_path(str(SCRIPT), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("spiderette, 1 suit(s): 2,048 training steps in ")
    assert lines[0].endswith("evaluation deals 7..9, at most 40 actions a game")
    rows = [line.split(" | ") for line in lines[3:]]
    assert [row[0] for row in rows] == ["| MaskablePPO", "| random", "| quick hint"]
    assert all(row[1] == "3" for row in rows)
    assert (tmp_path / "learning-curve.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (tmp_path / "model.zip").stat().st_size > 0
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert [point["steps"] for point in curve["points"]] == [0, 1024, 2048]
    assert curve["points"][-1]["evaluation"]["games"] == 3
    assert sorted(curve["baselines"]) == ["quick hint", "random"]


def test_a_missing_train_extra_says_what_to_install() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import runpy, sys; sys.modules['matplotlib'] = None; "
            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.strip().endswith("pip install 'spider-solitaire[train]'")
    assert "needs matplotlib" in result.stderr
