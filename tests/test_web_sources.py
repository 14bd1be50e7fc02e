"""The web app's JavaScript is type-checked: every file opts in with ``// @ts-check`` and is in
one of the two programs ``make jscheck`` runs, and the checker's version is pinned."""

from __future__ import annotations

import json
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JS_DIRS = [ROOT / "src" / "spider" / "web", ROOT / "tests" / "browser" / "pages"]


#: Third-party modules copied in by ``make setup`` (pinned in package-lock.json), not ours to check.
VENDORED = ROOT / "src" / "spider" / "web" / "vendor"


def _js_files() -> list[Path]:
    return sorted(p for d in JS_DIRS for p in d.rglob("*.js") if VENDORED not in p.parents)


def _patterns(config: str) -> tuple[list[str], list[str]]:
    data = json.loads((ROOT / config).read_text(encoding="utf-8"))
    base = json.loads((ROOT / "jsconfig.json").read_text(encoding="utf-8"))
    return data.get("include", base["include"]), data.get("exclude", base["exclude"])


def _matches(rel: str, patterns: list[str]) -> bool:
    # tsc's "**/" also matches no folder at all.
    return any(fnmatch(rel, p) or fnmatch(rel, p.replace("**/", "")) for p in patterns)


def _in(path: Path, config: str) -> bool:
    include, exclude = _patterns(config)
    rel = path.relative_to(ROOT).as_posix()
    return _matches(rel, include) and not _matches(rel, exclude)


def test_every_javascript_file_is_type_checked() -> None:
    files = _js_files()
    assert len(files) > 20
    unchecked = [
        str(p) for p in files if not p.read_text(encoding="utf-8").startswith("// @ts-check")
    ]
    assert not unchecked, f"missing // @ts-check: {unchecked}"
    outside = [
        str(p) for p in files if not (_in(p, "jsconfig.json") or _in(p, "jsconfig.worker.json"))
    ]
    assert not outside, f"not in a jsconfig program: {outside}"


def test_typescript_is_pinned_by_the_lock_file() -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    wanted = package["devDependencies"]["typescript"]
    assert wanted[0].isdigit(), "an exact version, not a range"
    assert lock["packages"]["node_modules/typescript"]["version"] == wanted
