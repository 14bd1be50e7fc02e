"""The research extras stay optional: the core never imports them, a missing extra says which to
install, and the examples of docs/research.md run."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_the_core_imports_no_extra() -> None:
    result = python(
        "import sys, spider, spider.env, spider.research.observe, spider.solver, spider.cli\n"
        "print(sorted({'gymnasium', 'numpy', 'pyspiel'} & set(sys.modules)))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("spider.research.gym", "gymnasium", "gym"),
        ("spider.research.arrays", "gymnasium", "gym"),
        ("spider.research.chains", "numpy", "gym"),
        ("spider.research.vector", "gymnasium", "gym"),
        ("spider.research.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_extra_names_the_extra(module: str, missing: str, extra: str) -> None:
    result = python(f"import sys; sys.modules[{missing!r}] = None; import {module}")
    assert result.returncode == 1
    assert f"pip install 'spider-solitaire[{extra}]'" in result.stderr
    assert f"{module} needs" in result.stderr.splitlines()[-1]


def run_example(
    name: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """Run ``examples/name`` as a script, in this process; its output lines."""
    path = ROOT / "examples" / name
    monkeypatch.setattr(sys, "argv", [str(path), *args])
    runpy.run_path(str(path), run_name="__main__")
    return capsys.readouterr().out.splitlines()


def test_gym_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("gymnasium")
    args = ["--episodes", "2", "--max-steps", "50"]
    lines = run_example("gym_random_agent.py", args, monkeypatch, capsys)
    assert len(lines) == 2 and all(line.startswith("SP1-S1C-") for line in lines)
    assert all(line.endswith("in 50 steps") for line in lines)


def test_openspiel_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyspiel")
    args = ["--deals", "3", "--simulations", "4", "--rollout", "3", "--max-actions", "15"]
    rows = run_example("openspiel_vs_hint.py", args, monkeypatch, capsys)[2:]
    assert [row.split(" | ")[:2] for row in rows] == [
        ["| SP1-S1C-AAAAAAD", "ismcts"],
        ["| SP1-S1C-AAAAAAD", "hint"],
    ]
    assert rows[0].endswith("| 15 |")  # ISMCTS played its 15 actions
