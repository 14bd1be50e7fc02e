"""Every fenced code block of README.md and docs/ is checked, by the language its fence names.

One test per page, in a fresh directory holding the files the examples read (a backup, two
devices' backups, a saved game). A block without a language, in a language no rule below
handles, or with a command no rule knows, fails the test: a new example in the docs gets
checked, or says why it cannot be.

- ``python`` (or ``pycon``): run in order, one namespace per page (a block may build on the
  ones above it), each within ``SECONDS`` seconds (an example with a search or training budget
  takes a small one). A block that begins with ``>>>`` is a doctest: what it shows must be what
  it prints. The README's two examples also print what their comments promise
  (``OUTPUT_CHECKS``).
- ``sh`` (or ``bash``, ``shell``), and the ``$`` lines of ``console``: each command line (``\\``
  continues it, ``#`` starts a comment, ``&&`` chains commands):

  - ``spider ...`` runs in this process (``spider.cli.main``) and must end with status 0 within
    ``SECONDS`` seconds, except the lines :func:`parse_only_reason` names with the reason (a
    server, a search or a build that takes longer, a path outside the test's directory): those
    must parse.
  - ``python examples/X.py ...``, ``python benchmarks/X.py ...``: examples and benchmarks take
    minutes by nature, so the script runs with the block's arguments followed by ``--help``:
    argparse reads them in order, so each value the block gives a known option is converted
    and checked before the help ends it, and every option the line names must be in that
    help. Each example the docs show must also be run by a test under ``tests/`` (its file name
    appears there; ``tests/test_research.py`` runs them with small budgets).
  - ``make X``: X is a target of the Makefile. ``pip install``/``uv pip install
    'spider-solitaire[extra]'``: each extra is in pyproject.toml.
  - Commands of other programs are listed in ``OTHER_PROGRAMS`` with why they do not run here.

- ``json``: parses, read as documented JSON (``//`` comments, and ``...``/``…`` for left-out
  parts; a block that begins with ``"key":`` is a member of a larger object). On the pages of
  ``JSON_SOURCES`` it must have the shape of what the engine writes: the same keys at every
  level it shows (a member block: its keys among the real ones).
- ``nginx``, ``caddyfile``: the first line names a file (``# Caddyfile``) that a ``spider
  build-site`` line above wrote; each other line of the block, but the ``...`` ones, is a line of
  that file.
- ``text``: a picture, pseudocode or output, not run; but in it a position text must open
  (``Game.from_text``; one cut short with ``…`` must begin its deal's), a replay link must
  decode, a command's synopsis (``spider hint CODE [--index K]``) names only options the command
  has, and a deal's layout (``1: 6s ks ...``) is that of the game code in the heading above.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from spider import Game, Move
from spider.backup import read_backup
from spider.cli import main
from spider.cli.parser import build_parser
from spider.protocol import Session
from spider.replay import decode_replay
from tests.test_backup import document, slot

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: How long one ``spider`` command or one python block of the docs may take here: wide enough for
#: a loaded two-core machine (the SB3 block starts two processes and trains a little: 8 to 9 s),
#: small enough that a full-size budget (minutes) fails.
SECONDS = 30.0

#: Commands of other programs: why each is not run.
OTHER_PROGRAMS = {
    "cd": "the next command runs in the test's directory anyway",
    "createuser": "PostgreSQL's administration: needs a server and a superuser "
    "(tests/postgres_cluster.py makes its own)",
    "createdb": "PostgreSQL's administration, as createuser",
    "dask": "Dask's own scheduler and workers, which run until stopped "
    "(tests/solver/test_analyze_dask.py runs analyze --dask on a local cluster)",
    "sqlite3": "SQLite's shell, for backing up a live database",
    "curl": "an HTTP client, asking a server that runs until stopped "
    "(tests/test_solver_api.py asks the same API)",
}


def parse_only_reason(argv: list[str]) -> str | None:
    """Why the ``spider`` command ``argv`` (after ``spider``) only parses here, or None: it runs."""
    command, options = argv[0], set(argv[1:])
    if command == "serve":
        return "a server runs until stopped (tests/test_sync_durability.py starts and stops it)"
    if command == "hint" and "--strong" in options:
        return "a search of seconds (tests/test_cli.py runs --strong on a small budget)"
    if command == "analyze":
        return "solves many deals: minutes (tests/solver/test_cli_protocol.py analyzes a few)"
    if command == "build-site" and "--sync" not in options:
        return (
            "copies the 18 MB site, seconds a build: the --sync line of the page is built, "
            "and tests/test_static_site.py builds and serves every form"
        )
    if any(word.startswith("/") for word in argv[1:]) and command != "build-site":
        return "writes outside the test's directory"
    return None


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int
    language: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of ``page``, their lines without the fence's indentation."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        index += 1
        if not opening:
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        body: list[str] = []
        while index < len(lines) and not _closes(lines[index], fence):
            body.append(lines[index][indent:] if lines[index][:indent].isspace() else lines[index])
            index += 1
        index += 1
        words = opening["info"].split()
        found.append(Block(page, index - len(body) - 1, words[0] if words else "", "\n".join(body)))
    return found


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


# The files the examples read.


def write_example_files(directory: Path) -> None:
    """A backup (``spider-backup-2026-12-05.json``), two devices' (``phone.json``,
    ``laptop.json``) and a saved game three actions in (``game.json``)."""
    laptop = slot(rev=1, played=1, won=1)
    backups = {
        "spider-backup-2026-12-05.json": document(),
        "phone.json": document(),
        "laptop.json": document(device="laptop", stats={"devices": {"laptop": laptop}}),
    }
    for name, doc in backups.items():
        (directory / name).write_text(json.dumps(doc), encoding="utf-8")
    game = Game.from_code("SD1-S1-AAAAABD")
    for action in ("de", "cg", "fc"):
        game.push(action)
    (directory / "game.json").write_text(game.to_json(), encoding="utf-8")


# Command lines.


def command_lines(text: str, prompt: str | None = None) -> Iterator[list[str]]:
    """The commands of a shell block (or of a console block's ``prompt`` lines), as words."""
    lines = text.splitlines()
    if prompt is not None:
        lines = [line[len(prompt) :] for line in lines if line.startswith(prompt)]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        command: list[str] = []
        for word in [*words, "&&"]:
            if word != "&&":
                command.append(word)
            elif command:
                yield command
                command = []


@dataclass
class PageRun:
    """What the checks of one page share: its directory, namespace and output."""

    page: Path
    directory: Path
    capsys: pytest.CaptureFixture[str]
    monkeypatch: pytest.MonkeyPatch
    namespace: dict[str, Any]
    ran: list[str]


def run_command(words: list[str], run: PageRun, where: str) -> None:
    """Check one command line of the docs by the rule for its program."""
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
        words = words[1:]  # an environment variable for the command
    program = words[0]
    if program == "spider" or program.endswith("/spider"):
        run_spider(words[1:], run, where)
    elif Path(program).name.startswith("python"):
        check_script(words[1:], where)
    elif program == "make":
        check_make_targets(words[1:], where)
    elif program == "pip" or words[:2] == ["uv", "pip"]:
        check_install(words, where)
    elif words[:2] == ["uv", "venv"]:
        run.ran.append(
            f"{where}: not run: makes a virtual environment "
            "(tests/browser/test_installed.py installs the wheel into one)"
        )
    elif program in OTHER_PROGRAMS:
        run.ran.append(f"{where}: not run: {OTHER_PROGRAMS[program]}")
    else:
        pytest.fail(f"{where}: no rule for the command {shlex.join(words)!r}: add one")


#: What some commands of the docs must print, as the text around them says.
COMMAND_OUTPUT = {
    "spider show SP1-S2C-AAAAAAD dg deal --legal": ("Legal moves:", "Deal: possible"),
    "spider new --game spider --suits 2 --number 3": ("SP1-S2C-AAAAAAD",),
    "spider solve SD1-S1-AAAAABD --time-limit 10": ("winnable",),
}


def run_spider(argv: list[str], run: PageRun, where: str) -> None:
    """Parse ``spider argv``; run it unless :func:`parse_only_reason` says why not."""
    line = shlex.join(["spider", *argv])
    try:
        build_parser().parse_args(argv)
    except SystemExit:
        pytest.fail(f"{where}: {line} does not parse: {run.capsys.readouterr().err}")
    reason = parse_only_reason(argv)
    if reason:
        run.ran.append(f"{where}: parsed, not run: {line}: {reason}")
        return
    run.monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))  # spider play reads it
    start = time.monotonic()
    status = main(argv)
    took = time.monotonic() - start
    printed = run.capsys.readouterr()
    assert status == 0, f"{where}: {line} ended with status {status}: {printed.err}"
    for words in COMMAND_OUTPUT.get(line, ()):
        assert words in printed.out, f"{where}: {line} does not print {words!r}"
    assert took < SECONDS, f"{where}: {line} took {took:.1f} s: make it quicker or parse only"
    run.ran.append(f"{where}: ran: {line} ({took:.1f} s)")


def check_script(words: list[str], where: str) -> None:
    """A script of examples/ or benchmarks/: its arguments, then ``--help``."""
    script, *arguments = words
    assert script.startswith(("examples/", "benchmarks/", "scripts/")), f"{where}: {script}"
    assert (ROOT / script).is_file(), f"{where}: no file {script}"
    proc = subprocess.run(
        [sys.executable, str(ROOT / script), *arguments, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"{where}: {script} refuses its arguments: {proc.stderr}"
    for option in (word.split("=")[0] for word in arguments if word.startswith("--")):
        assert option in proc.stdout, f"{where}: {script} has no option {option}"
    if script.startswith("examples/"):
        tests = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("*.py"))
        assert Path(script).name in tests, f"{where}: no test runs {script}"


def check_make_targets(targets: list[str], where: str) -> None:
    """Each target is one the Makefile defines."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    defined = set()
    for match in re.finditer(r"^([A-Za-z][\w .-]*?)\s*:(?!=)", makefile, re.M):
        defined.update(match[1].split())
    first = re.search(r"^([A-Za-z][\w-]*)\s*:(?!=)", makefile, re.M)
    assert first, "the Makefile has no target"
    for target in targets or [first[1]]:  # `make` alone makes the first target
        assert target in defined, f"{where}: make {target}: no such target"


def check_install(words: list[str], where: str) -> None:
    """An install of spider-solitaire names only extras pyproject.toml defines."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    named = [word for word in words if word.startswith("spider-solitaire")]
    assert named, f"{where}: installs something else: {shlex.join(words)}"
    for requirement in named:
        match = re.fullmatch(r"spider-solitaire(?:\[([\w,-]+)\])?", requirement)
        assert match, f"{where}: {requirement}"
        for extra in match[1].split(",") if match[1] else []:
            assert extra in extras, f"{where}: no extra {extra!r} in pyproject.toml"


# Python.


def run_python(block: Block, run: PageRun) -> None:
    """Run a Python block in the page's namespace (as a doctest when it begins with ``>>>``),
    within ``SECONDS``."""
    start = time.monotonic()
    run_python_block(block, run)
    took = time.monotonic() - start
    assert took < SECONDS, f"{block.where}: took {took:.1f} s: give the example a smaller budget"


def run_python_block(block: Block, run: PageRun) -> None:
    if block.text.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(
            block.text, run.namespace, block.where, str(block.page), block.line
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = io.StringIO()
        runner.run(test, out=out.write, clear_globs=False)
        assert runner.failures == 0, out.getvalue()
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, block.where, "exec"), run.namespace)
    check = OUTPUT_CHECKS.get(block.text.splitlines()[0])
    if check:
        check(block.text, out.getvalue())


def check_engine_example(text: str, printed: str) -> None:
    """README's engine example: its last two prints write what their comments say."""
    promised = [
        line.split("#", 1)[1].strip()
        for line in text.splitlines()
        if line.startswith(("print(h.", "print(r."))
    ]
    assert len(promised) == 2 and printed.splitlines()[-2:] == promised


def check_bot_example(text: str, printed: str) -> None:
    """README's bot example: its loop ends the episode and prints the last action, reward, win."""
    action, _reward, won = printed.split()
    assert action and won in {"True", "False"}


#: Output checks of script-style blocks, by their first line.
OUTPUT_CHECKS: dict[str, Callable[[str, str], None]] = {
    "from spider import Game, IllegalMove": check_engine_example,
    "from spider.env import SpiderEnv": check_bot_example,
}


# JSON.


def documented_json(text: str) -> tuple[Any, bool]:
    """A JSON block of the docs as data, and whether it is a member (``"key": ...``, read inside
    braces): without its ``//`` comments and its ``...``/``…`` for parts left out."""
    code, strings = _outside_strings(text)
    code = re.sub(r"//[^\n]*", "", code)
    code = re.sub(r"\.\.\.|…", "", code)
    for _ in range(3):
        code = re.sub(r",(\s*[,\]}])", r"\1", code)
        code = re.sub(r"([\[{]\s*),", r"\1", code)
    data = code.format(*strings)
    member = bool(re.match(r'\s*"[^"]*"\s*:', data))
    return json.loads("{" + data + "}" if member else data), member


def _outside_strings(text: str) -> tuple[str, list[str]]:
    """``text`` with each JSON string (outside ``//`` comments) replaced by ``{}``, braces
    doubled for ``str.format``, and the strings in order."""
    code: list[str] = []
    strings: list[str] = []
    index = 0
    while index < len(text):
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            code.append(text[index:end].replace("{", "").replace("}", ""))
            index = end
        elif text[index] == '"':
            match = re.compile(r'"(?:[^"\\]|\\.)*"').match(text, index)
            assert match, f"an unclosed string: {text[index : index + 40]!r}"
            strings.append(match[0])
            code.append("{}")
            index = match.end()
        else:
            code.append({"{": "{{", "}": "}}"}.get(text[index], text[index]))
            index += 1
    return "".join(code), strings


def same_shape(shown: Any, real: Any, path: str) -> list[str]:
    """Where ``shown`` (a documented value) has keys ``real`` has not, or lacks some of them."""
    if real in (None, {}, []) or shown in ({}, []):
        return []  # the block shows the case where it is set, or leaves the part out
    if isinstance(shown, dict) and isinstance(real, dict):
        if not set(shown) & set(real):  # a map of names chosen at run time: one entry each
            return same_shape(next(iter(shown.values())), next(iter(real.values())), path + ".*")
        wrong = [f"{path}: {sorted(set(shown) ^ set(real))}"] if set(shown) != set(real) else []
        for key in set(shown) & set(real):
            wrong += same_shape(shown[key], real[key], f"{path}.{key}")
        return wrong
    if isinstance(shown, list) and isinstance(real, list) and real:
        return same_shape(shown[0], real[0], path + "[0]")
    return []


#: A Spiderette endgame that ``be gd eg2 de2 db be`` loses at ``de2``.
LOST_ENDGAME = (
    "spiderette 2 classic standard / score=600 moves=100 removed=SH / 10h 5h 10S 8S 9S / qs 2H / "
    "6S 2S / 6h JS 7H AH JH KH / 3H / 9H / 7S 4S 3S AS 5S 8H KS 4H QH / -"
)


#: Spiderette deal 4 after three moves: a win found within 1,000 positions, none after ``ba2``.
EARLY_SPIDERETTE = (
    "spiderette 2 classic standard #4 / score=497 moves=3 removed=- / - / 10s 5S 4S / js 7h AH / "
    "3h qs JH 10H 9H / jh 8s qh 10s AH / 8h 9s 6s 8h 8s 5S / 2h ks 2h 3h 5h AS / "
    "as 9h 3s 3s 5h kh kh 4s 2s 7s qh 4h 6h 4h 2s 7h 6s 9s 7s js 10h ks qs 6h"
)


def protocol_reply(shown: dict[str, Any]) -> dict[str, Any]:
    """A real reply of the engine with the fields of the documented one."""
    session = Session()
    if "daily" in shown:
        return session.handle({"op": "daily", "date": "2026-11-30"})
    if "replay" in shown:
        session.handle({"op": "open", "code": "SP1-S2C-AAAAAAD"})
        for action in ("dg", "fe", "hc", "deal"):
            session.handle({"op": "deal"} if action == "deal" else _move(action))
        link = session.handle({"op": "replay_link"})["replay_link"]
        return session.handle({"op": "replay", "link": link, "step": 3})
    if shown.get("review", {}).get("status") == "probably-lost":
        # A win found at the start, none after the next move within 1,000 positions a run
        # (tests/solver/test_review.py).
        session.handle({"op": "open", "position": EARLY_SPIDERETTE})
        session.handle(_move("ba2"))
        return session.handle({"op": "review", "node_limit": 1000, "think_iterations": 0})
    if "review" in shown:  # a game lost at its fourth move, as docs/solver.md's review example
        session.handle({"op": "open", "position": LOST_ENDGAME})
        for action in ("be", "gd", "eg2", "de2", "db", "be"):
            session.handle(_move(action))
        return session.handle({"op": "review", "time_limit": 5, "think_iterations": 2})
    session.handle({"op": "open", "code": "SD1-S1-AAAAABD"})
    searches = {
        "hint": {"op": "hint"},
        "solve": {"op": "solve", "time_limit": 5},
        "think": {"op": "think", "iterations": 5, "seed": 0},
        "visible": {"op": "visible"},
    }
    for op, request in searches.items():
        if op in shown:
            return session.handle(request)
    return session.handle({"id": 7, "op": "move", "src": 3, "dst": 4, "count": 1})


def _move(text: str) -> dict[str, Any]:
    move = Move.from_text(text)
    return {"op": "move", "src": move.src, "dst": move.dst, "count": move.count}


def saved_game(shown: dict[str, Any]) -> dict[str, Any]:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    game.push("be")
    game.push("deal")
    data: dict[str, Any] = json.loads(game.to_json())
    return data


def backup_document(shown: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(read_backup(json.dumps(document())).to_text())
    return data


#: Pages whose JSON blocks show what the engine writes, and how to get a real one.
JSON_SOURCES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "protocol.md": protocol_reply,
    "notation.md": saved_game,
    "backup.md": backup_document,
}


def check_json(block: Block, run: PageRun) -> None:
    shown, member = documented_json(block.text)
    source = JSON_SOURCES.get(block.page.name)
    if source is None:
        return
    real = source(shown)
    if member:  # a part of a reply: its keys are some of the reply's
        assert set(shown) <= set(real), f"{block.where}: no {sorted(set(shown) - set(real))}"
        real = {key: real[key] for key in shown}
    wrong = same_shape(shown, real, "")
    assert not wrong, f"{block.where}: keys differ from what the engine writes: {wrong}"


# Server configurations.


def check_configuration(block: Block, run: PageRun) -> None:
    """An nginx or Caddy block: lines of the file a build-site line above wrote."""
    first, *lines = block.text.splitlines()
    name = first.removeprefix("#").strip()
    written = sorted(run.directory.rglob(name), key=lambda path: path.stat().st_mtime)
    assert written, f"{block.where}: no command above wrote {name}"
    have = {line.strip() for line in written[-1].read_text(encoding="utf-8").splitlines()}
    for line in lines:
        wanted = line.split("#")[0].strip()
        if wanted and "..." not in wanted:
            assert wanted in have, f"{block.where}: {wanted!r} is not in {name}"


# Text.

POSITION = re.compile(r"^(spider|spiderette) [124] (classic|flexible) (standard|reveal)\b")


def check_text(block: Block, run: PageRun) -> None:
    """Position texts open, replay links decode, synopses name only real options, and a deal's
    layout (``1: 6s ks 10s ...``) is the layout of the code in the heading above it."""
    if re.match(r"\s*1: ", block.text):
        check_layout(block)
    for line in re.sub(r"\\\n\s*", " ", block.text).splitlines():
        words = line.split()
        if POSITION.match(line):
            check_position(line.strip(), block.where)
        elif len(words) > 1 and words[0] == "spider" and re.fullmatch(r"[a-z-]+", words[1]):
            known = command_help(words[1])
            for option in re.findall(r"(?<![\w-])--[\w-]+", line):
                assert option in known, f"{block.where}: spider {words[1]} has no {option}"
        if "#replay=" in line:
            decode_replay(line.strip())


def check_layout(block: Block) -> None:
    """A deal's columns, bottom to top (face-down cards in lower case), and its stock."""
    above = block.page.read_text(encoding="utf-8").splitlines()[: block.line]
    headings = [m[1] for line in above if (m := re.match(r"#+ `([A-Z0-9-]+)`", line))]
    assert headings, f"{block.where}: a layout under no heading naming its game code"
    game = Game.from_code(headings[-1])
    layout = [
        f"{number:2}: "
        + " ".join(
            [str(card).lower() for card in column.cards[: column.face_down]]
            + [str(card) for card in column.face_up]
        )
        for number, column in enumerate(game.columns, 1)
    ]
    layout.append("stock: " + " ".join(str(card) for card in game.stock))
    assert block.text.splitlines() == layout, f"{block.where}: not the layout of {headings[-1]}"


def command_help(command: str) -> str:
    """What ``spider COMMAND --help`` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as ended:
        build_parser().parse_args([command, "--help"])
    assert ended.value.code == 0, f"spider {command}: no such command"
    return out.getvalue()


def check_position(text: str, where: str) -> None:
    """A position text opens; one cut short (``…``) at a deal's start begins that deal's."""
    if "…" not in text:
        Game.from_text(text)
        return
    game, suits, rule, scoring, number = text.split()[:5]
    assert number.startswith("#") and " moves=0 " in text, f"{where}: which position? {text}"
    deal = Game.new(game, suits=int(suits), rule=rule, scoring=scoring, number=int(number[1:]))
    assert deal.to_text().startswith(text.removesuffix("…").rstrip()), f"{where}: {text}"


# The pages.


def check_block(block: Block, run: PageRun) -> None:
    if block.language in {"python", "pycon"}:
        run_python(block, run)
    elif block.language in {"sh", "bash", "shell"}:
        for words in command_lines(block.text):
            run_command(words, run, block.where)
    elif block.language == "console":
        for words in command_lines(block.text, prompt="$ "):
            run_command(words, run, block.where)
    elif block.language == "json":
        check_json(block, run)
    elif block.language in {"nginx", "caddyfile"}:
        check_configuration(block, run)
    elif block.language == "text":
        check_text(block, run)
    elif not block.language:
        pytest.fail(f"{block.where}: a code block without a language: name one (```text ...)")
    else:
        pytest.fail(f"{block.where}: no rule for {block.language!r} blocks: add one")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_example_of_the_page_holds(
    page: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    write_example_files(tmp_path)
    run = PageRun(page, tmp_path, capsys, monkeypatch, {"__name__": "__docs__"}, [])
    for block in blocks(page):
        check_block(block, run)
    print("\n".join(run.ran))


def test_every_page_is_read() -> None:
    """The pages the test reads: the README and every page of docs/, with their blocks."""
    assert ROOT / "README.md" in PAGES and ROOT / "docs" / "research.md" in PAGES
    readme = blocks(ROOT / "README.md")
    assert [block.language for block in readme] == ["sh", "python", "python", "sh"]
    assert "spider show SP1-S2C-AAAAAAD dg deal --legal" in readme[-1].text


def test_the_rules_read_blocks_as_written(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text\n\n- item:\n\n  ```sh\n  spider new \\\n    --suits 2  # a comment\n"
        "  make a && make b\n  ```\n\n````\n```\n````\n",
        encoding="utf-8",
    )
    shell, bare = blocks(page)
    assert (shell.line, shell.language, bare.language, bare.text) == (5, "sh", "", "```")
    assert list(command_lines(shell.text)) == [
        ["spider", "new", "--suits", "2"],
        ["make", "a"],
        ["make", "b"],
    ]
    shown, member = documented_json('"hint": {"move": {...}, "line": ["ca", ...], // "x"\n"n": 1}')
    assert member and shown == {"hint": {"move": {}, "line": ["ca"], "n": 1}}
    assert same_shape({"a": 1, "b": {"c": 2}}, {"a": 0, "b": {"c": 0, "d": 1}}, "") == [".b: ['d']"]
