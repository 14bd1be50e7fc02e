"""MkDocs hook (``hooks:`` in mkdocs.yml): the docstrings' reStructuredText habits read as plain
Markdown in the API reference.

The docstrings name other code as ``:func:`name``` (Sphinx's roles, which read well in the
source), shorten a name to its last part with ``~`` (``:class:`~spider.game.Game```), and end a
sentence with ``::`` before an indented block.  mkdocstrings renders all three as they are
written; this shows the code alone (the last part of a ``~`` name) and ends the sentence with
one colon, on every page.

A role that names a full path in a module the reference documents (a ``:::`` line of
``docs/api/``) becomes a cross-reference, which must resolve: ``mkdocs build --strict`` fails on
a name that is not in the reference. ``spider.game.Game`` links to ``spider.Game``, where the
reference documents it. Names in modules the reference leaves out, relative names and short
names stay plain code.

The reference documents the sources: griffe (which reads them for mkdocstrings) is told to skip
the compiled modules that ``make setup`` puts beside them (``scripts/build_native.py``), which it
would otherwise inspect instead, losing their docstrings' sections.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from griffe import ModuleFinder

COMPILED = (".so", ".pyd")
ModuleFinder.accepted_py_module_extensions = [
    suffix for suffix in ModuleFinder.accepted_py_module_extensions if suffix not in COMPILED
]
ModuleFinder.extensions_set = set(ModuleFinder.accepted_py_module_extensions)

ROLES = "func|meth|class|mod|attr|data|exc|obj|const"
ROLE = re.compile(rf":(?:{ROLES}):(?=<code>)")
SHORTENED = re.compile(rf":(?:{ROLES}):<code>~(?:[\w.]*\.)?(\w+)</code>")
LITERAL_MARK = re.compile(r"::</p>(\s*<div class=\"highlight\"><pre>|\s*<pre>)")
FULL_PATH = re.compile(rf":(?:{ROLES}):<code>(~?)(spider(?:\.\w+)+)</code>")
ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src"
DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.M)


def documented_modules() -> set[str]:
    """The modules the API reference renders: the ``::: module`` lines of ``docs/api/``."""
    return {
        match[1]
        for page in (ROOT / "docs" / "api").glob("*.md")
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8"))
    }


def module_of(path: str) -> str:
    """The longest prefix of the dotted ``path`` that is a module or package of ``src/``."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        base = SOURCES.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return ".".join(parts[:end])
    return ""


def link_full_paths(html: str) -> str:
    """Roles that name a full path in a documented module, as cross-references (autorefs)."""
    documented = documented_modules()

    def link(match: re.Match[str]) -> str:
        path = match[2]
        if module_of(path) not in documented:
            return match[0]
        shown = path.rsplit(".", 1)[-1] if match[1] else path
        return f'<autoref identifier="{path}"><code>{shown}</code></autoref>'

    return FULL_PATH.sub(link, html)


def on_page_content(html: str, **kwargs: Any) -> str:
    """The page's HTML without role names, with ``~`` names shortened and ``::`` as ``:``, and
    full paths in documented modules linked."""
    html = link_full_paths(html)
    html = SHORTENED.sub(r"<code>\1</code>", html)
    html = ROLE.sub("", html)
    return LITERAL_MARK.sub(r":</p>\1", html)
