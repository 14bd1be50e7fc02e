"""``spider backup``: a backup file summarised, merged, or refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spider.backup import read_backup
from spider.cli import main
from tests.test_backup import document, slot


def _write(path: Path, doc: object) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_backup_says_what_a_file_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = _write(tmp_path / "spider-backup-2026-12-05.json", document())
    assert main(["backup", name]) == 0
    out = capsys.readouterr().out
    assert "Game in progress: Spider 1 suit, standard scoring, deal SP1-S1C-" in out
    assert "3 moves" in out
    assert "Statistics (1 device): 5 played, 2 won, current streak 1, best streak 2" in out
    assert "Daily deals: 1 win on 1 day, streak 1 day (best 1)" in out
    assert "Settings: 2 settings" in out
    assert main(["backup", name, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["played"] == 5


def test_backup_merges_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    laptop = slot(rev=1, played=1, won=1)
    laptop["variants"]["spider/1/classic/standard"].update(streak=1, bestStreak=1, recent="W")
    laptop["all"] = {"streak": 1, "bestStreak": 1}
    a = _write(tmp_path / "a.json", document())
    b = _write(
        tmp_path / "b.json", document(device="laptop", stats={"devices": {"laptop": laptop}})
    )
    out = tmp_path / "merged.json"
    assert main(["backup", a, b, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Statistics (2 devices): 6 played, 3 won" in text and "Merged: something changed" in text
    assert set(read_backup(out.read_text()).stats) == {"phone", "laptop"}
    assert main(["backup", str(out), a]) == 0
    assert "Merged: nothing changed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "not-backup"),
        (json.dumps(document(version=3)), "later version of Spider"),
        (
            json.dumps({**document(), "game": {**document()["game"], "state": {"score": 1}}}),
            "bad-backup",
        ),
    ],
)
def test_a_bad_file_ends_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, says: str
) -> None:
    name = tmp_path / "bad.json"
    name.write_text(content, encoding="utf-8")
    assert main(["backup", str(name)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"spider: error: {name}: ") and says in err
    assert main(["backup", str(tmp_path / "missing.json")]) == 2
    assert "No such file" in capsys.readouterr().err
