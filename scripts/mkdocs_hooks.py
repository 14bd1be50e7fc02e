"""MkDocs hook (``hooks:`` in mkdocs.yml): the docstrings' reStructuredText habits read as plain
Markdown in the API reference.

The docstrings name other code as ``:func:`name``` (Sphinx's roles, which read well in the
source), shorten a name to its last part with ``~`` (``:class:`~spider.game.Game```), and end a
sentence with ``::`` before an indented block.  mkdocstrings renders all three as they are
written; this shows the code alone (the last part of a ``~`` name) and ends the sentence with
one colon, on every page.
"""

from __future__ import annotations

import re
from typing import Any

ROLES = "func|meth|class|mod|attr|data|exc|obj|const"
ROLE = re.compile(rf":(?:{ROLES}):(?=<code>)")
SHORTENED = re.compile(rf":(?:{ROLES}):<code>~(?:[\w.]*\.)?(\w+)</code>")
LITERAL_MARK = re.compile(r"::</p>(\s*<div class=\"highlight\"><pre>|\s*<pre>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    """The page's HTML without role names, with ``~`` names shortened and ``::`` as ``:``."""
    html = SHORTENED.sub(r"<code>\1</code>", html)
    html = ROLE.sub("", html)
    return LITERAL_MARK.sub(r":</p>\1", html)
