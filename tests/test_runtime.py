"""Never a broken page: ``spider serve`` and ``spider build-site`` refuse a Pyodide runtime that
is missing or is not the pinned one, with one line and exit status 2, before serving anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import uvicorn

from spider.cli import main
from spider.serve.pyodide_runtime import (
    PYODIDE_ENV,
    STAMP_NAME,
    RuntimeProblem,
    check_runtime,
    default_pyodide_dir,
    load_pin,
)

COMMANDS = [["serve"], ["build-site", "OUT"]]


def _never_served(*args: object, **kwargs: object) -> None:
    raise AssertionError("spider serve started serving a page that cannot work")


def fake_runtime(directory: Path, version: str, stamp: dict[str, str]) -> Path:
    """A runtime directory with every file the page needs (their contents do not matter)."""
    directory.mkdir()
    (directory / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}))
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"):
        (directory / name).write_text("x")
    (directory / "python_stdlib.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    (directory / STAMP_NAME).write_text(json.dumps(stamp))
    return directory


def refusal(
    argv: list[str],
    runtime: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    """Run the command with ``runtime`` as the Pyodide directory; its one line on stderr."""
    monkeypatch.setenv(PYODIDE_ENV, str(runtime))
    monkeypatch.setattr(uvicorn.Server, "run", _never_served)
    out = tmp_path / "site"
    argv = [str(out) if arg == "OUT" else arg for arg in argv]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert not out.exists()
    assert "pip install 'spider-solitaire[web]'" in captured.err and "make" in captured.err
    return captured.err


@pytest.mark.parametrize("argv", COMMANDS, ids=["serve", "build-site"])
def test_refuses_a_missing_runtime(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = refusal(argv, tmp_path / "nowhere", tmp_path, monkeypatch, capsys)
    assert err.startswith(f"spider {argv[0]}: error: no Pyodide runtime at {tmp_path / 'nowhere'}")


@pytest.mark.parametrize("argv", COMMANDS, ids=["serve", "build-site"])
def test_refuses_another_pyodide_version(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pin = load_pin()
    old = {**pin.stamp(), "version": "0.27.7"}
    runtime = fake_runtime(tmp_path / "old", "0.27.7", old)
    err = refusal(argv, runtime, tmp_path, monkeypatch, capsys)
    assert "is version 0.27.7, but spider-solitaire" in err and f"built for {pin.version}" in err


def test_refuses_another_build_of_the_pinned_version_and_an_incomplete_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pin = load_pin()
    forged = fake_runtime(
        tmp_path / "forged", pin.version, {**pin.stamp(), "integrity": "sha512-x"}
    )
    err = refusal(["serve"], forged, tmp_path, monkeypatch, capsys)
    assert f"is not the pinned pyodide {pin.version}" in err and "sha512" in err

    complete = fake_runtime(tmp_path / "complete", pin.version, pin.stamp())
    assert check_runtime(complete) == pin.version
    (complete / "pyodide.asm.wasm").unlink()
    err = refusal(["build-site", "OUT"], complete, tmp_path, monkeypatch, capsys)
    assert "no complete Pyodide runtime" in err and "missing pyodide.asm.wasm" in err


def test_the_checkout_runtime_is_the_pinned_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``make`` vendored passes the check the refusals above fail (so they test the check,
    not a runtime that is never right)."""
    monkeypatch.delenv(PYODIDE_ENV, raising=False)
    directory = default_pyodide_dir()
    assert check_runtime(directory) == load_pin().version
    with pytest.raises(RuntimeProblem, match="no Pyodide runtime"):
        check_runtime(directory / "not-here")
