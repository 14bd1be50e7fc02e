"""The API reference, built as ``make docs`` builds it: every docstring example is a code block."""

from __future__ import annotations

import ast
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import spider

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src" / "spider"


class _Text(HTMLParser):
    """The text of a page, split into what is inside ``<pre>`` and what is outside."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.code: list[str] = []
        self.prose: list[str] = []
        self.blockquotes = 0
        self.html = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.depth += tag == "pre"
        self.blockquotes += tag == "blockquote"

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag == "pre"

    def handle_data(self, data: str) -> None:
        (self.code if self.depth else self.prose).append(data)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, _Text]:
    """Each API page's text, from a fresh ``mkdocs build --strict``."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    pages = {}
    for page in sorted((site / "api").glob("*/index.html")):
        text = _Text()
        text.html = page.read_text(encoding="utf-8")
        text.feed(text.html)
        pages[page.parent.name] = text
    assert pages
    return pages


def _public_docstrings(tree: ast.Module) -> list[str]:
    """The docstrings of a module and of its public classes, functions and methods."""
    found = [ast.get_docstring(tree) or ""]
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        public = not getattr(node, "name", "_").startswith("_")
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and public:
            found.append(ast.get_docstring(node) or "")
            todo.extend(node.body)
    return found


def _examples() -> list[str]:
    """Every ``>>>`` line of a public docstring in the package."""
    lines = []
    for path in sorted(SOURCES.rglob("*.py")):
        for docstring in _public_docstrings(ast.parse(path.read_text(encoding="utf-8"))):
            lines += [line.strip() for line in docstring.splitlines() if ">>>" in line]
    return lines


def test_no_example_is_prose(reference: dict[str, _Text]) -> None:
    for name, page in reference.items():
        prose = "".join(page.prose)
        assert ">>>" not in prose, f"api/{name}: a >>> line outside a code block"
        # Python-Markdown reads a bare ">>> x" as three nested quotes: its ">>>" is gone.
        assert page.blockquotes == 0, f"api/{name}: a docstring example read as a quote"


def test_every_docstring_example_is_a_code_block(reference: dict[str, _Text]) -> None:
    examples = _examples()
    assert len(examples) > 20
    code = "".join("".join(page.code) for page in reference.values())
    missing = [line for line in examples if line not in code]
    assert not missing, f"examples missing from the reference's code blocks: {missing}"


def test_the_names_of_spider_are_documented_as_spider_names(reference: dict[str, _Text]) -> None:
    engine = reference["engine"].html
    for name in spider.__all__:
        assert f'id="spider.{name}"' in engine, f"spider.{name} is not on the engine page"
    # Each is documented once, under the name a caller writes: not again in its module.
    assert 'id="spider.game.Game"' not in engine and 'id="spider.moves.Move"' not in engine


def test_full_paths_in_docstrings_are_links(reference: dict[str, _Text]) -> None:
    # spider.solver.view names :class:`~spider.game.Game`, which the reference
    # documents as spider.Game (scripts/mkdocs_hooks.py).
    solver = reference["solver"].html
    assert 'href="../engine/#spider.Game"' in solver
    html = "".join(page.html for page in reference.values())
    assert ":class:" not in html and ":func:" not in html
