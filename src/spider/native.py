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
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
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
)
"""The modules the compiled build compiles: the rules kernel, ``Game`` and what they import on
every action."""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that run compiled in this process."""
    found = []
    for name in COMPILED_MODULES:
        path = getattr(sys.modules.get(name) or import_module(name), "__file__", None) or ""
        if path.endswith(tuple(EXTENSION_SUFFIXES)):
            found.append(name)
    return found


def compiled() -> bool:
    """True when the engine's kernel runs compiled (every module of :data:`COMPILED_MODULES`)."""
    return len(compiled_modules()) == len(COMPILED_MODULES)


def build() -> Literal["compiled", "pure"]:
    """``"compiled"`` or ``"pure"``: what :func:`compiled` says, as a word."""
    return "compiled" if compiled() else "pure"
