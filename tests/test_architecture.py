"""The import directions of docs/architecture.md, held for every module of the package.

Each module belongs to one part; a part may import only the parts its row allows. The engine
imports nothing above it, so it runs alone (and in the browser); nothing imports the command
line; only the command line imports the web server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.house import PACKAGE, import_graph, package_modules

SRC = Path(__file__).resolve().parent.parent / "src"

#: The solver's parts, from the bottom: what all three engines share (the visible view, sampled
#: worlds, search budgets, the parameters of the hint and of "Think harder"), the
#: full-information solver, the quick hint (which hands its endgame to the full solver), "Think
#: harder" (which plays the quick hint out), and the package itself.
SOLVER = ("solver-shared", "full", "hint", "think", "solver")


def _may_import(*parts: str) -> frozenset[str]:
    return frozenset({"engine", *parts})


#: Each part and the parts it may import (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "engine": _may_import(),
    **{part: _may_import(*SOLVER[: i + 1]) for i, part in enumerate(SOLVER)},
    "protocol": _may_import(*SOLVER, "protocol"),
    "env": _may_import(*SOLVER, "env"),
    "research": _may_import(*SOLVER, "env", "research"),
    "serve": _may_import(*SOLVER, "protocol", "serve"),
    "cli": _may_import(*SOLVER, "protocol", "env", "research", "serve", "cli"),
}

#: Module-name prefixes of each part, most specific first; the rest of the package is the engine.
PARTS: tuple[tuple[str, str], ...] = (
    ("spider.solver.hint", "hint"),
    ("spider.solver.think", "think"),
    ("spider.solver.full", "full"),
    ("spider.solver.view", "solver-shared"),
    ("spider.solver.worlds", "solver-shared"),
    ("spider.solver.budget", "solver-shared"),
    ("spider.solver.params", "solver-shared"),
    ("spider.solver", "solver"),
    ("spider.protocol", "protocol"),
    ("spider.env", "env"),
    ("spider.research", "research"),
    ("spider.serve", "serve"),
    ("spider.cli", "cli"),
)


def part_of(module: str) -> str:
    """The part a module belongs to."""
    for prefix, part in PARTS:
        if module == prefix or module.startswith(prefix + "."):
            return part
    return "engine"


GRAPH = import_graph(SRC)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_a_module_imports_only_what_its_part_may(module: str) -> None:
    part = part_of(module)
    refused = sorted(t for t in GRAPH[module] if part_of(t) not in ALLOWED[part])
    assert not refused, f"{module} ({part}) imports {refused}"


def test_the_walker_sees_every_kind_of_import(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("")
    (package / "low" / "deep.py").write_text("")
    (package / "top.py").write_text(
        f"import {PACKAGE}.low\nfrom {PACKAGE}.low import deep\nfrom .low.deep import x\n"
    )
    graph = import_graph(tmp_path)
    assert graph[f"{PACKAGE}.top"] == {f"{PACKAGE}.low", f"{PACKAGE}.low.deep"}


def test_every_part_has_modules() -> None:
    parts = {part_of(module) for module in GRAPH}
    assert parts == set(ALLOWED)


def test_no_two_modules_share_a_name_or_differ_by_one_letter() -> None:
    names: dict[str, str] = {}
    for module in package_modules(SRC):
        if module.path.name == "__init__.py":
            short = module.name.rpartition(".")[2]
        else:
            short = module.path.stem
        if module.name == PACKAGE:
            continue
        assert short not in names, f"{module.name} and {names[short]} share a name"
        names[short] = module.name
    close = [(a, b) for a in names for b in names if a < b and _one_letter_apart(a, b)]
    assert not close, close


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether one letter added, removed or changed turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
