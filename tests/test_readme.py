"""The README's Python examples run as written and print what their comments say, and its
command lines are ones the command line accepts."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from spider.cli import main
from spider.cli.parser import build_parser

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run_and_their_comments_hold() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    engine_example, bot_example = blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(engine_example, str(README), "exec"), {})
    printed = out.getvalue().splitlines()
    # The two lines whose output the comments show are the last two printed.
    promised = [
        line.split("#", 1)[1].strip()
        for line in engine_example.splitlines()
        if line.startswith("print(h.") or line.startswith("print(r.")
    ]
    assert printed[-2:] == promised
    # The bot's loop ends its episode (truncated at the default 2,000 steps, or over).
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(bot_example, str(README), "exec"), {})
    action, _reward, won = out.getvalue().split()
    assert action and won in {"True", "False"}


# Subcommands of the README's command lines that are quick and write nothing: each such line runs
# in-process and must succeed; every other line must at least parse.
_RUN_IN_TEST = {"new", "show", "daily", "replay"}


def _readme_command_lines() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Command line", 1)[1]
    block = re.findall(r"```sh\n(.*?)```", section, re.S)[0]
    return [
        shlex.split(line.split("  #", 1)[0])
        for line in block.splitlines()
        if line.startswith("spider ")
    ]


def test_readme_command_lines_parse_and_the_quick_ones_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _readme_command_lines()
    assert ["spider", "show", "SP1-S2C-AAAAAAD", "dg", "deal", "--legal"] in lines
    ran = 0
    for argv in lines:
        assert argv[0] == "spider"
        build_parser().parse_args(argv[1:])
        if argv[1] in _RUN_IN_TEST:
            assert main(argv[1:]) == 0, " ".join(argv)
            ran += 1
    assert ran >= 5
    out = capsys.readouterr().out
    assert "Legal moves:" in out and "Deal: possible" in out
