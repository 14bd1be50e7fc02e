"""Which build of the engine runs: the compiled kernel or pure Python.

The same typed Python modules run either way. ``make setup`` (``scripts/build_native.py``)
compiles the modules of :data:`COMPILED_MODULES` with mypyc into C extensions next to their
sources; CPython then imports those before the ``.py`` files. Without a C compiler, in the pure
wheel and in the browser, the ``.py`` files run, with the same answers (the differential tests
check it on both builds).

Examples:
    >>> from spider import native
    >>> native.build() in ("compiled", "pure")
    True
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Final, Literal

__all__ = ["COMPILED_MODULES", "build", "compiled", "compiled_modules"]

COMPILED_MODULES: Final = (
    "spider.codes",
    "spider.errors",
    "spider.game",
    "spider.limits",
    "spider.moves",
    "spider.notation",
    "spider.options",
    "spider.position",
    "spider.position_checks",
    "spider.rules",
    "spider.shuffle",
    "spider.solver.budget",
    "spider.solver.full.beam",
    "spider.solver.full.encoding",
    "spider.solver.full.exhaustive",
    "spider.solver.full.generate",
    "spider.solver.full.heuristic",
    "spider.solver.hint.chance",
    "spider.solver.hint.column_table",
    "spider.solver.hint.endgame",
    "spider.solver.hint.evaluation",
    "spider.solver.hint.lookahead",
    "spider.solver.hint.nomoves",
    "spider.solver.hint.pruned_moves",
    "spider.solver.hint.quick",
    "spider.solver.view",
    "spider.solver.worlds",
)
"""The modules the compiled build compiles: the rules kernel, ``Game`` and what they import on
every action; the full solver's position encoding, move generator and heuristic; the quick
hint's lookahead, evaluation and move tables."""


def _runs_compiled(name: str) -> bool:
    """True when module ``name`` runs (or, not imported yet, will run) compiled: CPython imports
    an extension module before the ``.py`` file beside it."""
    module = sys.modules.get(name)
    if module is not None:
        return (getattr(module, "__file__", None) or "").endswith(tuple(EXTENSION_SUFFIXES))
    base = Path(__file__).parent.joinpath(*name.split(".")[1:])
    return any(base.with_name(base.name + suffix).is_file() for suffix in EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that run compiled in this process."""
    return [name for name in COMPILED_MODULES if _runs_compiled(name)]


def compiled() -> bool:
    """True when every module of :data:`COMPILED_MODULES` runs compiled."""
    return len(compiled_modules()) == len(COMPILED_MODULES)


def build() -> Literal["compiled", "pure"]:
    """``"compiled"`` or ``"pure"``: what :func:`compiled` says, as a word."""
    return "compiled" if compiled() else "pure"
