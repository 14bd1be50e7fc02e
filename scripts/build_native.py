#!/usr/bin/env python3
"""Build the compiled engine kernel in place (``make setup``): the modules of
:data:`spider.native.COMPILED_MODULES` compiled by mypyc from the same typed Python, as C
extensions next to their sources in ``src/spider/`` (git ignores them, and no archive the
project builds takes them: the browser's ``engine.zip``, the bytecode, the pure wheel and the
sdist take ``.py`` sources).

CPython imports an extension before a ``.py`` of the same name, so the editable install runs the
compiled kernel once this has run, and the pure-Python modules when it has not. The build is a
no-op when it is current: a stamp holds the hash of the sources, of mypyc's version and of
CPython's. Without a C compiler it says so, removes any stale compiled files and leaves the pure
build in place (exit status 0: the project works without it).

Usage: ``python scripts/build_native.py [--pure] [--force]``; ``--pure`` removes the compiled
files (back to the pure build), ``--force`` builds even when the stamp is current.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "spider"
BUILD = ROOT / "build" / "native"
STAMP = PACKAGE / ".native-stamp"
GROUP = "spider._kernel"
"""The shared library of the compiled modules: ``spider/_kernel__mypyc.*.so`` (mypyc's name)."""


def _compiled_modules() -> tuple[str, ...]:
    """spider.native's list, read without importing the package (which may hold stale builds)."""
    spec = importlib.util.spec_from_file_location("_spider_native", PACKAGE / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED_MODULES)


COMPILED_MODULES = _compiled_modules()


def sources() -> list[Path]:
    return [SRC / (module.replace(".", "/") + ".py") for module in COMPILED_MODULES]


def fingerprint() -> str:
    digest = hashlib.sha256()
    digest.update(sys.version.encode())
    digest.update(sysconfig.get_config_var("EXT_SUFFIX").encode())
    digest.update(importlib.metadata.version("mypy").encode())
    digest.update(Path(__file__).read_bytes())
    for path in sources():
        digest.update(str(path.relative_to(SRC)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def stamp_current() -> bool:
    """Whether the stamp holds the fingerprint of these sources, mypy and CPython."""
    return STAMP.is_file() and STAMP.read_text().strip() == fingerprint()


def compiled_files() -> list[Path]:
    """Every extension file this script may have left in the package."""
    suffixes = (".so", ".pyd")
    return sorted(path for path in PACKAGE.rglob("*") if path.suffix in suffixes)


def expected_files() -> list[Path]:
    """The extension files a whole build leaves: one per module, and the shared library."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    names = [module.removeprefix("spider.").replace(".", "/") for module in COMPILED_MODULES]
    return [
        PACKAGE / (name + suffix) for name in [*names, GROUP.removeprefix("spider.") + "__mypyc"]
    ]


def remove_compiled() -> None:
    for path in compiled_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def have_compiler() -> str | None:
    """The C compiler's name when one runs, else None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    found = shutil.which(compiler) or shutil.which("cc")
    if found is None:
        return None
    try:
        subprocess.run([found, "--version"], capture_output=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return found


SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

paths = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", {temp!r}, "--build-lib", {lib!r}]
setup(
    name="spider-native",
    ext_modules=mypycify(paths, opt_level="3", target_dir={target!r}, group_name={group!r}),
)
"""


def build() -> None:
    if BUILD.exists():
        shutil.rmtree(BUILD)
    BUILD.mkdir(parents=True)
    script = BUILD / "setup_native.py"
    script.write_text(
        SETUP.format(
            temp=str(BUILD / "temp"), lib=str(BUILD / "lib"), target=str(BUILD / "c"), group=GROUP
        )
    )
    paths = [str(path.relative_to(SRC)) for path in sources()]
    # From src/, so that the modules are named spider.* and land next to their sources.
    env = dict(os.environ, MYPY_CACHE_DIR=str(BUILD / "mypy_cache"))
    completed = subprocess.run(
        [sys.executable, str(script), *paths], cwd=SRC, env=env, capture_output=True, text=True
    )
    if completed.returncode:
        sys.stderr.write(completed.stdout[-4000:] + completed.stderr[-4000:])
        remove_compiled()
        raise SystemExit("build_native: mypyc failed; the pure-Python build stays in place")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pure", action="store_true", help="remove the compiled modules")
    parser.add_argument("--force", action="store_true", help="build even when current")
    args = parser.parse_args()
    if args.pure:
        remove_compiled()
        print("build_native: compiled modules removed; the pure-Python build runs")
        return
    print(ensure_current(force=args.force))


def ensure_current(force: bool = False) -> str:
    """Builds the compiled modules unless they are current (or ``force``); says what it did."""
    whole = all(path.exists() for path in expected_files())
    if whole and stamp_current() and not force:
        return "build_native: the compiled kernel is current"
    if have_compiler() is None:
        remove_compiled()
        return (
            "build_native: no C compiler found, so the engine runs as pure Python "
            "(install gcc or clang and run make setup again for the compiled kernel)"
        )
    remove_compiled()
    build()
    STAMP.write_text(fingerprint() + "\n")
    names = ", ".join(module.removeprefix("spider.") for module in COMPILED_MODULES)
    return f"build_native: compiled with mypyc: {names}"


if __name__ == "__main__":
    main()
