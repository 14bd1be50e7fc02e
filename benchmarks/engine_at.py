"""The engine as it was at a git revision, loaded beside this tree's in the same process.

``engine_at("HEAD~3")`` extracts ``src/spider`` of that revision (``git archive``) into a
temporary directory under a package name of its own (``spider_at_<sha>``), so a benchmark can
time the engine before and after a change in one process, alternating between them: this
machine's speed drifts from minute to minute, and two runs an hour apart do not compare.
The copy's imports of ``spider`` (absolute, as the package writes them) are renamed to its own
package, so the copy runs as it ran then, whatever this tree's modules are called.
"""

from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Engine:
    """An engine to time: its name in tables, its ``Game`` class and its ``hint_report``."""

    name: str
    game: Any
    hint_report: Any


def this_engine() -> Engine:
    """The engine of this tree (the ``spider`` package)."""
    from spider import Game
    from spider.solver.hint.quick import hint_report

    return Engine("this tree", Game, hint_report)


def engine_at(revision: str) -> Engine:
    """The engine at git ``revision``, as a package of its own; exits with a message when the
    revision is unknown or has no engine."""
    sha = _resolve(revision)
    package = f"spider_at_{sha[:12]}"
    home = Path(tempfile.mkdtemp(prefix="engine-at-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", sha, "src/spider"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise SystemExit(f"--against: revision {revision!r} has no src/spider to load")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(home / "tree", filter="data")
    (home / "tree" / "src" / "spider").rename(home / package)
    _rename_imports(home / package, package)
    sys.path.insert(0, str(home))
    game = importlib.import_module(f"{package}.game")
    hint = importlib.import_module(f"{package}.solver.hint")
    return Engine(revision, game.Game, hint.hint_report)


_SPIDER_IMPORT = re.compile(r"^(\s*)(from|import)\s+spider(?=[.\s])", re.MULTILINE)


def _rename_imports(directory: Path, package: str) -> None:
    """Make every ``from spider…`` / ``import spider…`` under ``directory`` read ``package``."""
    for path in directory.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        renamed = _SPIDER_IMPORT.sub(lambda m: f"{m[1]}{m[2]} {package}", text)
        if renamed != text:
            path.write_text(renamed, encoding="utf-8")


def _resolve(revision: str) -> str:
    """The full commit id of ``revision``."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise SystemExit(f"--against: {revision!r} is not a commit of this repository")
    return found.stdout.strip()
