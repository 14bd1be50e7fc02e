"""MkDocs hook (``hooks:`` in mkdocs.yml): the docstrings' Sphinx roles read as plain code.

The docstrings name other code as ``:func:`name``` (Sphinx's roles, which read well in the
source); mkdocstrings renders the role's name as text before the code. This drops it, leaving
the code, on every page.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|exc|obj|const):(?=<code>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    """The page's HTML without the role names in front of code."""
    return ROLE.sub("", html)
