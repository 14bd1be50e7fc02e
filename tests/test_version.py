"""One version, written once (``spider.__version__``), and everything that says it agrees:
``spider --version``, the installed metadata, ``/engine.json``, the engine as the browser loads
it (no metadata there), the web extra's pin of the runtime wheel and the changelog. The
service worker's cache name is checked in the browser (test_app_persistence), the built
wheels' metadata in test_installed."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

import spider
from spider import native
from spider.cli import main
from spider.serve.app import create_app
from spider.serve.engine_zip import build_engine_zip

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
VERSION = spider.__version__


def test_the_version_is_a_release_number() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_spider_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"spider {VERSION} ({native.build()})\n"


def test_the_package_metadata_reads_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/spider/__init__.py"
    assert importlib.metadata.version("spider-solitaire") == VERSION, "run make setup"


def test_the_web_extra_pins_the_runtime_of_this_release() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert f"spider-solitaire-runtime=={VERSION}" in extras["web"]
    assert extras["server"] == ["spider-solitaire[web]"]


def test_engine_json_says_it() -> None:
    info = TestClient(create_app()).get("/engine.json").json()
    assert info["release"] == VERSION


def test_the_engine_the_browser_loads_says_it_without_metadata(tmp_path: Path) -> None:
    bundle = build_engine_zip(ROOT / "src" / "spider")
    archive = tmp_path / "engine.zip"
    archive.write_bytes(bundle.data)
    code = (
        "import sys, importlib.metadata\n"
        f"sys.path.insert(0, {str(archive)!r})\n"
        "import spider\n"
        f"assert spider.__file__.startswith({str(archive)!r}), spider.__file__\n"
        "print(spider.__version__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{VERSION}\n"


def test_the_changelog_has_a_section_for_it() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert headings[0] == "Unreleased"
    assert VERSION in headings
    assert re.search(rf"^## \[{re.escape(VERSION)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
