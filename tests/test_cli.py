"""The command line, through its main() entry point."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from spider import Game
from spider.cli import main
from spider.cli.parser import build_parser
from spider.progress_line import ProgressLine


def test_new_prints_code_and_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--suits", "2", "--number", "3", "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("SP1-S2C-AAAAAAD\n")
    assert "[##]" in out and "\u2665" in out
    assert Game.from_code("SP1-S2C-AAAAAAD").to_text() in out


def test_show_code_with_moves_and_legal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "SP1-S2C-AAAAAAD", "be", "deal", "--legal", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "Moves 2" in out and "Legal moves:" in out and "Deals left 4" in out


def test_show_file_and_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_code("SD1-S4-AAAAABD")
    file = tmp_path / "position.txt"
    file.write_text(game.to_text())
    assert main(["show", str(file)]) == 0
    assert main(["show", game.to_text()]) == 0
    saved = tmp_path / "game.json"
    saved.write_text(game.to_json())
    assert main(["show", str(saved)]) == 0
    assert capsys.readouterr().out.count("SD1-S4-AAAAABD") == 3


def test_errors_are_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "SP1-S9C-AAAAAAA"]) == 2
    assert "1, 2 or 4" in capsys.readouterr().err
    assert main(["show", "SP1-S1C-AAAAAAA", "aa"]) == 2
    assert "own column" in capsys.readouterr().err
    assert main(["show", "nonsense"]) == 2


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "serve" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])


def test_every_option_of_every_command_has_help() -> None:
    """``spider COMMAND --help`` explains every option and argument, and shows the defaults
    a caller would otherwise have to guess."""
    parser = build_parser()
    # argparse offers no public way to list a parser's arguments: read its documented-in-source
    # internals here, in this one test.
    commands = next(
        action
        for action in parser._actions  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction)  # noqa: SLF001
    )
    for name, command in commands.choices.items():
        for action in command._actions:  # noqa: SLF001
            if isinstance(action, argparse._HelpAction):  # noqa: SLF001
                continue
            assert action.help, f"spider {name} {action.dest} has no help"
            takes_value = action.nargs != 0 and action.option_strings
            has_default = action.default is not None and action.default is not False
            if takes_value and has_default and not action.required:
                assert "default" in action.help, f"spider {name} {action.dest}: no default"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--iterations", "0"], "a number of iterations must be from 1 to 10000000, not 0"),
        (
            ["--iterations", "9" * 25],
            f"a number of iterations must be from 1 to 10000000, not '{'9' * 25}'",
        ),
        (["--iterations", "-" + "9" * 5000], "must be from 1 to 10000000, not '-999"),
        (["--iterations", "ten"], "'ten' is not a number of iterations"),
        (["--seed", "1.5"], "'1.5' is not a seed"),
        (["--seed=--5"], "'--5' is not a seed"),
    ],
)
def test_whole_number_options_say_what_is_wrong(
    option: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A whole number out of range, however long, is answered with the range, never with a
    # traceback (Python refuses int() of over 4,300 digits) nor with "not a number".
    with pytest.raises(SystemExit) as exit_info:
        main(["hint", "SP1-S4C-AAAAAAH", "--strong", *option])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_progress_line_redraws_in_place_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    line = ProgressLine()
    line.update("1 positions")
    line.update("2 positions")
    line.close()
    assert capsys.readouterr().err == "\r1 positions\033[K\r2 positions\033[K\n"


def test_progress_line_is_plain_and_sparse_elsewhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    now = [0.0]
    line = ProgressLine(clock=lambda: now[0])
    for step in range(1, 31):
        line.update(f"{step} positions")
        now[0] += 1.0
    line.close()
    # At once, then every 10 s, then the last text at the end; no control characters.
    assert capsys.readouterr().err == "1 positions\n11 positions\n21 positions\n30 positions\n"
    line.close()
    assert capsys.readouterr().err == ""


def test_solve_progress_without_a_terminal_has_no_control_characters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A hard deal: the search passes 20,000 positions, where it reports, well within the second.
    assert main(["solve", "SP1-S4C-AAAAAAH", "--time-limit", "1"]) in (0, 1)
    err = capsys.readouterr().err
    assert "positions" in err and err.endswith("s\n")
    assert "\r" not in err and "\033" not in err
