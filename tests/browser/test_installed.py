"""Installed from a wheel, it works: what a user installs, outside the checkout.

The sdist of ``spider-solitaire``, its wheel (built from the sdist, so installing the wheel
checks the sdist too), its compiled wheel for this platform and the companion
``spider-solitaire-runtime`` are built (``make wheels``) and pass ``twine check``; the pure
wheel alone installs and plays; ``spider-solitaire[web]`` (compiled) goes into a fresh
virtual environment (offline, from those files and the locked versions); its ``spider serve``,
run from an empty directory with nothing pointing into the checkout, serves the pinned Pyodide
from the runtime wheel, and Chromium plays a move. Without the runtime, ``spider serve`` stops
with exit status 2 instead of serving a page that cannot start.
"""

from __future__ import annotations

import email
import json
import subprocess
import sys
import sysconfig
import tarfile
import urllib.request
import zipfile
from pathlib import Path

import pytest
from conftest import PROFILES, PageLog
from playwright.sync_api import Browser
from webapp import SPIDER_2, assert_shows, drag, open_app

import spider
from scripts import build_native
from spider import Game, native
from spider.serve.pyodide_runtime import load_pin
from tests import static_host, wheels
from tests.test_long_description import check_long_description

pytestmark = pytest.mark.browser
VERSION = spider.__version__


def check_built_files(dist: Path) -> None:
    """The three files, ``twine check`` clean; the core wheel small and standard library only;
    the sdist carries the examples and benchmarks, neither carries the lab."""
    core = dist / f"spider_solitaire-{VERSION}-py3-none-any.whl"
    sdist = dist / f"spider_solitaire-{VERSION}.tar.gz"
    runtime = dist / f"spider_solitaire_runtime-{VERSION}-py3-none-any.whl"
    wheels.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(core), str(sdist), str(runtime)]
    )
    assert core.stat().st_size < 1_000_000 < runtime.stat().st_size
    with zipfile.ZipFile(core) as archive:
        names = archive.namelist()
        metadata = archive.read(f"spider_solitaire-{VERSION}.dist-info/METADATA").decode()
    assert "spider/web/index.html" in names and "spider/pyodide.lock.json" in names
    assert "spider/web/vendor/qrcode.mjs" in names  # copied from node_modules by make setup
    assert not any(name.endswith(".wasm") for name in names)
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and all("extra ==" in line for line in requires)  # no dependency by default
    assert f"Requires-Dist: spider-solitaire-runtime=={VERSION}; extra == 'web'" in requires
    with tarfile.open(sdist) as tar:
        members = set(tar.getnames())
    top = f"spider_solitaire-{VERSION}"
    for name in ("pyproject.toml", "CHANGELOG.md", "src/spider/__init__.py", "docs/hosting.md"):
        assert f"{top}/{name}" in members, name
    # The examples and benchmarks the docs point to are in the sdist; the lab (experiment logs,
    # measurements as they were made) and the benchmarks' raw results are in neither archive.
    for name in ("examples/gym_random_agent.py", "benchmarks/engine.py", "benchmarks/fairplay.py"):
        assert f"{top}/{name}" in members, name
    outside = (f"{top}/lab/", f"{top}/benchmarks/results/")
    assert not [name for name in members if name.startswith(outside)]
    assert not [name for name in names if name.startswith(("lab/", "benchmarks/", "examples/"))]
    assert "Classifier: Typing :: Typed" in metadata
    check_compiled_wheel(dist, names)
    # The long description: no relative link, and the files it names are in the sdist.
    description = email.message_from_string(metadata).get_payload()
    assert isinstance(description, str)
    check_long_description(description, [name.removeprefix(f"{top}/") for name in members])


def check_compiled_wheel(dist: Path, pure_names: list[str]) -> None:
    """With a C compiler, the compiled wheel for this CPython and platform: the pure wheel's
    files, the Python sources included, plus one extension per compiled module."""
    tag = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    abi = f"cp{sys.version_info.major}{sys.version_info.minor}"
    compiled = dist / f"spider_solitaire-{VERSION}-{abi}-{abi}-{tag}.whl"
    if build_native.have_compiler() is None:
        assert not compiled.exists()
        return
    wheels.run([sys.executable, "-m", "twine", "check", "--strict", str(compiled)])
    with zipfile.ZipFile(compiled) as archive:
        names = archive.namelist()
        wheel = archive.read(f"spider_solitaire-{VERSION}.dist-info/WHEEL").decode()
    assert f"Tag: {abi}-{abi}-{tag}" in wheel and "Root-Is-Purelib: false" in wheel
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    extensions = {name for name in names if name.endswith(suffix)}
    wanted = {name.replace(".", "/") + suffix for name in native.COMPILED_MODULES}
    assert wanted < extensions and len(extensions) == len(wanted) + 1  # and the shared library
    kept = {name for name in pure_names if ".dist-info/" not in name}
    assert kept == {name for name in names if ".dist-info/" not in name} - extensions


def test_the_pure_wheel_alone_installs_and_gives_the_same_answers(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # What an installer takes where no compiled wheel fits, and needs no compiler.
    dist = wheels.shared_dist(tmp_path_factory.getbasetemp())
    pure = dist / f"spider_solitaire-{VERSION}-py3-none-any.whl"
    bin_dir = wheels.install(dist, tmp_path / "venv", str(pure))
    home = tmp_path / "home"
    home.mkdir()
    assert wheels.run([str(bin_dir / "spider"), "--version"], cwd=home).endswith(" (pure)\n")
    hint = ["hint", SPIDER_2, "--json"]
    checkout = Path(sys.executable).parent / "spider"
    assert wheels.run([str(bin_dir / "spider"), *hint], cwd=home) == wheels.run(
        [str(checkout), *hint], cwd=home
    )


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=10) as response:
        data: dict[str, object] = json.loads(response.read())
        return data


def test_installed_wheel_serves_the_app_and_it_plays(
    browser: Browser, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, page_log: PageLog
) -> None:
    dist = wheels.shared_dist(tmp_path_factory.getbasetemp())
    check_built_files(dist)
    bin_dir = wheels.install(dist, tmp_path / "venv", "spider-solitaire[web]")
    home = tmp_path / "home"
    home.mkdir()
    # Where a compiled wheel fits, the installer takes it.
    version = wheels.run([str(bin_dir / "spider"), "--version"], cwd=home)
    build = "compiled" if build_native.have_compiler() else "pure"
    assert version == f"spider {VERSION} ({build})\n"
    metadata = wheels.run(
        [
            str(bin_dir / "python"),
            "-c",
            "import importlib.metadata as m, spider; "
            "print(m.version('spider-solitaire'), m.version('spider-solitaire-runtime'), "
            "spider.__file__)",
        ],
        cwd=home,
    ).split()
    assert metadata[:2] == [VERSION, VERSION]
    assert metadata[2].startswith(str(tmp_path / "venv"))  # not the checkout's

    port = static_host.free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(bin_dir / "spider"), "serve", "--port", str(port)],
            cwd=home,
            # The sync service's database goes into the default data directory, here the test's.
            env={**wheels.clean_env(), "XDG_DATA_HOME": str(tmp_path / "data")},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        static_host.wait_listening(process, port, log)
        url = f"http://127.0.0.1:{port}"
        info = get_json(f"{url}/engine.json")
        assert info["release"] == VERSION
        assert info["format"] == "bytecode"  # the runtime wheel's bytecode fits this engine
        files = info["pyodide"].pop("files")
        assert info["pyodide"] == {
            "version": load_pin().version,
            "url": f"/pyodide/{load_pin().version}/",
        }
        assert "pyodide.asm.wasm" in files and "pyodide.mjs" in files
        assert "site-packages/spider_runtime/pyodide" in log.read_text()
        # The sync service is on, its SQLite file in the data directory (no extra installed).
        assert get_json(f"{url}/api/sync")["sync"] == 1
        assert (tmp_path / "data" / "spider-solitaire" / "sync.sqlite3").is_file()

        context = browser.new_context(base_url=url, **PROFILES["desktop"])
        context.on("weberror", lambda web_error: page_log.on_error(web_error.error))
        try:
            page = context.new_page()
            game = Game.from_code(SPIDER_2)
            open_app(page, f"/?code={SPIDER_2}")
            drag(page, "desktop", 1, -1, 4)
            game.move(1, 4, 1)
            assert_shows(page, game)
        finally:
            context.close()
    finally:
        static_host.stop_process(process)
    assert page_log.errors == []

    # Without the runtime wheel: a one-line reason and exit status 2, nothing served.
    wheels.run(
        [
            wheels.UV,
            "pip",
            "uninstall",
            "--quiet",
            "--python",
            str(bin_dir / "python"),
            "spider-solitaire-runtime",
        ]
    )
    refused = subprocess.run(
        [str(bin_dir / "spider"), "serve", "--port", str(port)],
        cwd=home,
        env=wheels.clean_env(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "no Pyodide runtime at" in refused.stderr
