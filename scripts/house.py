"""The house's figures: modules per folder, imports between folders, and sizes.

``python3 scripts/house.py`` prints, for the ``spider`` package: each folder (package) with its
modules and lines, the imports from one folder to another, the largest module, the functions over
60 lines, and the bytes git tracks. ``docs/architecture.md`` shows its output, and
``tests/test_architecture.py`` reads the same import graph to hold the allowed import directions.

Usage: ``python3 scripts/house.py [--src DIR] [--markdown]``
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "spider"
#: The length from which a function counts as long.
LONG_FUNCTION = 60


@dataclass(frozen=True)
class Module:
    """One ``.py`` file of the package: its dotted name, path and parsed tree."""

    name: str
    path: Path
    tree: ast.Module

    @property
    def folder(self) -> str:
        """The package the module belongs to (a package's ``__init__`` belongs to itself)."""
        if self.path.name == "__init__.py":
            return self.name
        return self.name.rpartition(".")[0]

    @property
    def lines(self) -> int:
        return len(self.path.read_text(encoding="utf-8").splitlines())


def package_modules(src: Path) -> list[Module]:
    """Every module of the package under ``src``, sorted by name."""
    found = []
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if any(part.startswith(".") or part == "__pycache__" for part in parts):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append(Module(name, path, ast.parse(path.read_text(encoding="utf-8"))))
    return found


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    """The absolute dotted name a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if module.path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: Module, known: set[str]) -> set[str]:
    """The package's modules that ``module`` imports (``from pkg import submodule`` included)."""
    targets: set[str] = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            if source.split(".")[0] != PACKAGE:
                continue
            targets.add(source)
            targets.update(
                f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in known
            )
    return {target for target in targets if target in known and target != module.name}


def import_graph(src: Path) -> dict[str, set[str]]:
    """Each module's name mapped to the package's modules it imports."""
    modules = package_modules(src)
    known = {module.name for module in modules}
    return {module.name: imports_of(module, known) for module in modules}


def folder_of(name: str, packages: set[str]) -> str:
    """The deepest package that holds the module ``name`` (a package holds itself)."""
    while name not in packages:
        name = name.rpartition(".")[0]
    return name


def long_functions(modules: list[Module]) -> list[tuple[int, str]]:
    """Functions (and methods) of more than ``LONG_FUNCTION`` lines, longest first."""
    found = []
    for module in modules:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONG_FUNCTION:
                    found.append((length, f"{module.name}.{node.name}"))
    return sorted(found, reverse=True)


def tracked_bytes() -> int:
    """The bytes of every file git tracks (as checked out)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return sum(
        (ROOT / name.decode()).stat().st_size
        for name in listed
        if name and (ROOT / name.decode()).is_file()
    )


def report(src: Path) -> list[str]:
    """The figures, as lines of Markdown."""
    modules = package_modules(src)
    packages = {m.name for m in modules if m.path.name == "__init__.py"}
    per_folder: Counter[str] = Counter()
    lines_per_folder: Counter[str] = Counter()
    for module in modules:
        per_folder[module.folder] += 1
        lines_per_folder[module.folder] += module.lines
    out = ["| folder | modules | lines |", "|---|---:|---:|"]
    out += [f"| `{f}` | {per_folder[f]} | {lines_per_folder[f]} |" for f in sorted(per_folder)]
    between: Counter[tuple[str, str]] = Counter()
    for name, targets in import_graph(src).items():
        for target in targets:
            pair = (folder_of(name, packages), folder_of(target, packages))
            if pair[0] != pair[1]:
                between[pair] += 1
    out += ["", "| from | imports | modules |", "|---|---|---:|"]
    out += [f"| `{a}` | `{b}` | {n} |" for (a, b), n in sorted(between.items())]
    largest = max(modules, key=lambda m: m.lines)
    long = long_functions(modules)
    out += [
        "",
        f"- modules: {len(modules)} in {len(per_folder)} folders",
        f"- largest module: `{largest.name}` ({largest.lines} lines)",
        f"- functions over {LONG_FUNCTION} lines: {len(long)}"
        + (" (" + ", ".join(f"`{n}` {k}" for k, n in long[:5]) + ")" if long else ""),
        f"- bytes tracked by git: {tracked_bytes():,}",
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the folder holding spider/")
    args = parser.parse_args(argv)
    print("\n".join(report(args.src)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
