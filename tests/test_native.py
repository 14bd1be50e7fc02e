"""The compiled build of the engine kernel against the pure-Python one: the same answers to the
bit over many random games (tests/native_digest.py), the pure build as the fallback, and no
compiled file in what the browser or an archive gets.

The pure build runs in a subprocess from a copy of the package's ``.py`` files; the compiled
build runs in this process (every other test runs on it too when ``make setup`` built it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from scripts import build_native
from spider import native
from spider.serve.engine_zip import build_engine_zip, engine_files
from tests import native_digest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = ROOT / "src" / "spider"
GAMES = 40

needs_compiled = pytest.mark.skipif(
    not native.compiled_modules(),
    reason="no compiled build here (make setup builds it when a C compiler is installed)",
)


@pytest.fixture(scope="module")
def pure_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the ``spider`` package without any compiled file, for PYTHONPATH."""
    root = tmp_path_factory.mktemp("pure")
    shutil.copytree(
        PACKAGE_DIR,
        root / "spider",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".native-stamp"),
    )
    return root


def run_pure(pure_copy: Path, *args: str) -> str:
    completed = subprocess.run(
        [sys.executable, *args],
        cwd=pure_copy,
        env={"PYTHONPATH": str(pure_copy), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return completed.stdout


def test_without_compiled_files_the_pure_build_runs(pure_copy: Path) -> None:
    out = run_pure(
        pure_copy, "-c", "import spider, spider.native as n; print(n.build(), spider.__file__)"
    )
    assert out == f"pure {pure_copy / 'spider' / '__init__.py'}\n"


@needs_compiled
def test_the_compiled_build_is_whole_and_current() -> None:
    assert native.compiled_modules() == list(native.COMPILED_MODULES)
    assert native.build() == "compiled"
    assert build_native.stamp_current(), "the compiled kernel is stale: run make setup"


@needs_compiled
def test_both_builds_answer_the_same_to_the_bit(pure_copy: Path) -> None:
    script = str(ROOT / "tests" / "native_digest.py")
    pure = run_pure(pure_copy, script, "--games", str(GAMES))
    compiled = native_digest.digest(GAMES)
    assert pure == f"pure {compiled}\n"


def test_the_digest_sees_a_change_of_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # A digest that missed a difference would make the comparison above pass on anything:
    # one changed refusal in one game changes it.
    before = native_digest.digest(2)
    monkeypatch.setattr(native_digest, "BAD_INPUTS", ("zz",))
    assert native_digest.digest(2) != before


def test_the_browser_bundle_takes_no_compiled_file(pure_copy: Path) -> None:
    files = engine_files(PACKAGE_DIR)
    assert not [path for path in files if path.name.endswith(tuple(EXTENSION_SUFFIXES))]
    assert files == engine_files(pure_copy / "spider")
    assert build_engine_zip(PACKAGE_DIR).version == build_engine_zip(pure_copy / "spider").version


def test_git_ignores_the_compiled_files() -> None:
    names = [
        "src/spider/game" + EXTENSION_SUFFIXES[0],
        "src/spider/_kernel__mypyc" + EXTENSION_SUFFIXES[0],
        "src/spider/.native-stamp",
    ]
    completed = subprocess.run(
        ["git", "check-ignore", *names], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert completed.stdout.split() == names


def test_without_a_c_compiler_the_build_says_so_and_leaves_the_pure_build(
    pure_copy: Path, tmp_path: Path
) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "build_native.py", tmp_path / "scripts")
    shutil.copytree(pure_copy / "spider", tmp_path / "src" / "spider")
    stale = tmp_path / "src" / "spider" / ("game" + EXTENSION_SUFFIXES[0])
    stale.write_bytes(b"")
    completed = subprocess.run(
        [sys.executable, "scripts/build_native.py"],
        cwd=tmp_path,
        env={"PATH": str(tmp_path / "no-compiler-here")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert completed.stdout.startswith("build_native: no C compiler found, so the engine runs as")
    assert not stale.exists()


def test_a_pickled_game_carries_every_attribute(pure_copy: Path) -> None:
    # Game pickles through the list of its attributes beside __slots__ (which the compiled
    # class does not keep): the two lists must not drift apart.
    out = run_pure(
        pure_copy,
        "-c",
        "from spider.game import Game, _GAME_STATE; print(Game.__slots__ == _GAME_STATE)",
    )
    assert out == "True\n"
