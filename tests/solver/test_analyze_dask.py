"""``spider analyze --dask``: the address check, an unreachable scheduler, a local cluster, and
the progress of a batch on a terminal and elsewhere."""

from __future__ import annotations

import io
import socket
import time
from pathlib import Path

import pytest

from spider.cli import main
from spider.solver.full import analyze as analyze_module
from spider.solver.full.analyze import analyze, load_results, parse_dask_address


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("local", "local"),
        ("local:3", "local:3"),
        ("local:007", "local:7"),
        ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("tcp://scheduler.lan:8786", "tcp://scheduler.lan:8786"),
        (" tcp://[::1]:8786 ", "tcp://[::1]:8786"),
    ],
)
def test_dask_addresses_accepted(text: str, expected: str) -> None:
    assert parse_dask_address(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "local:", "local:0", "local:1025", "local:x", "loc", "tcp://host", "host:0", "host:99999",
     ":8786", "tls://host:8786", "ho st:8786", "[]:8786", "hôte:8786"],
)  # fmt: skip
def test_dask_addresses_refused(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="--dask"):
        parse_dask_address(text)
    with pytest.raises(SystemExit) as exit_info:
        main(["analyze", "--out", "x.csv", "--dask", text])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("spider analyze: error: argument --dask: ") and err.count("\n") == 1


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_unreachable_scheduler_fails_fast_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(analyze_module, "CONNECT_TIMEOUT", 1.0)
    address = f"127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    status = main(["analyze", "--deals", "0", "--out", str(tmp_path / "r.csv"), "--dask", address])
    assert time.monotonic() - started < 4
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"spider: error: no Dask scheduler answered at tcp://{address} within 1 s "
        "(start one there with 'dask scheduler', or use local)\n"
    )


def test_analyze_on_dask_local_started_for_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("dask.distributed")
    out = tmp_path / "local.csv"
    args = ["analyze", "--game", "spiderette", "--deals", "0-1", "--time-limit", "0.5"]
    assert main([*args, "--out", str(out), "--dask", "local:1"]) == 0
    assert "deals: 2" in capsys.readouterr().out
    assert {int(row["number"]) for row in load_results(out)} == {0, 1}


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _rows(numbers: list[int]) -> list[dict[str, object]]:
    return [
        {"code": "x", "number": n, "status": "winnable", "reason": "solved", "moves": 1,
         "positions": 1, "elapsed": 0.1, "solution": "ab"}
        for n in numbers
    ]  # fmt: skip


def test_analyze_progress_is_a_bar_on_a_terminal(tmp_path: Path) -> None:
    stream = _Stream(tty=True)
    analyze(
        "spiderette", 1, "classic", [0, 1], tmp_path / "r.csv", stream=stream,
        runner=lambda tasks: _rows([task[3] for task in tasks]),
    )  # fmt: skip
    shown = stream.getvalue()
    # Redrawn in place: a carriage return, the bar, an erase to the end of the line.
    assert shown.count("\r") == 3 and shown.endswith("2/2 win 2 lose 0 ? 0\x1b[K\n")


def test_analyze_progress_is_plain_lines_elsewhere(tmp_path: Path) -> None:
    stream = _Stream(tty=False)
    analyze(
        "spiderette", 1, "classic", list(range(5)), tmp_path / "r.csv", stream=stream,
        runner=lambda tasks: _rows([task[3] for task in tasks]),
    )  # fmt: skip
    # The first line at once, the rest at most every 10 s, and the last one at the end.
    assert stream.getvalue().splitlines() == [
        "deals 0/5 win 0 lose 0 ? 0",
        "deals 5/5 win 5 lose 0 ? 0",
    ]
