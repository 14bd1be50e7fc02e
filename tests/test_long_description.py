"""The wheel's long description (README.md as pyproject.toml's readme hook rewrites it) has no
relative link: the project has no public address, and a link to ``docs/x.md`` breaks on an index
page. Each file the README links to is written out as its path "in the source distribution",
which must hold it. ``tests/browser/test_installed.py`` checks the same on the built wheel and
sdist."""

from __future__ import annotations

import email
import re
from collections.abc import Iterable
from pathlib import Path

import hatchling.build
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: A Markdown link or image, ``[words](target)``, and a reference definition, ``[id]: target``.
_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(\s|$)", re.M)
_HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)""", re.I)
#: What the hook writes for a link to a file: its path and where that file is.
_IN_SDIST = re.compile(r"`([^`\s]+)`\s+in the source distribution")


def relative_links(markdown: str) -> list[str]:
    """The targets of ``markdown``'s links that are neither absolute (a scheme) nor anchors."""
    targets = [m[1] for m in _INLINE_LINK.finditer(markdown)]
    targets += [m[1] for m in _REFERENCE.finditer(markdown)]
    targets += [m[1] for m in _HTML_LINK.finditer(markdown)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t, re.I)]


def files_said_in_sdist(markdown: str) -> list[str]:
    """The paths ``markdown`` says are in the source distribution."""
    return [m[1] for m in _IN_SDIST.finditer(markdown)]


def check_long_description(description: str, sdist_files: Iterable[str]) -> None:
    """No relative link; every file said to be in the sdist is in ``sdist_files``; and the README's
    links to files all became such paths (none dropped)."""
    assert relative_links(description) == [], "relative links in the long description"
    said = files_said_in_sdist(description)
    missing = sorted(set(said) - set(sdist_files))
    assert not missing, f"said to be in the source distribution, but not there: {missing}"
    readme_links = [
        link.split("#")[0]
        for link in relative_links(README.read_text(encoding="utf-8"))
        if not link.startswith("lab/")
    ]
    assert readme_links and sorted(said) == sorted(readme_links)


def _sdist_include() -> list[str]:
    """pyproject.toml's list of what the sdist holds (paths from the root, some globs)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include: list[str] = config["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    return include


def _in_sdist(path: str) -> bool:
    """Whether the checkout's file ``path`` matches the sdist's include list."""
    if not (ROOT / path).is_file():
        return False
    for pattern in _sdist_include():
        pattern = pattern.lstrip("/")
        if path == pattern or path.startswith(pattern + "/") or Path(path).match(pattern):
            return True
    return False


def test_the_wheel_metadata_has_no_relative_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    info = hatchling.build.prepare_metadata_for_build_wheel(str(tmp_path))
    metadata = email.message_from_string((tmp_path / info / "METADATA").read_text(encoding="utf-8"))
    assert metadata["Description-Content-Type"] == "text/markdown"
    description = metadata.get_payload()
    assert isinstance(description, str) and description.startswith("# Spider Solitaire")
    said = files_said_in_sdist(description)
    check_long_description(description, [path for path in said if _in_sdist(path)])
    # The lab is named, not linked, and said to be outside the source distribution.
    assert "the repository's `lab/` folder (not in the source distribution)" in description
    # No project URL is claimed: the project has no public address.
    assert metadata.get_all("Project-URL") is None and metadata["Home-page"] is None


def test_the_link_rewriting_keeps_links_with_a_scheme() -> None:
    text = "[a](https://example.org/x) [b](#part) [c](docs/c.md) ![d](img/d.png)\n[e]: e.md"
    assert relative_links(text) == ["docs/c.md", "img/d.png", "e.md"]
    assert files_said_in_sdist("see `docs/c.md` in the source distribution") == ["docs/c.md"]
