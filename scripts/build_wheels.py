#!/usr/bin/env python3
"""Build what a user installs: the ``spider-solitaire`` wheel and sdist, its compiled wheel for
this platform, and the companion wheel ``spider-solitaire-runtime`` that its ``web`` extra pulls
in (``make wheels``).

The core package is the engine, the CLI, the server and the front end: standard library only,
small. The compiled wheel holds the same files plus the modules mypyc compiles
(``scripts/hatch_native.py``): installers take it where it fits (this CPython on this
platform) and the pure wheel everywhere else, with no compiler needed. The runtime wheel
carries the files the page loads that are not Python sources, all checked here:

- the Pyodide files the page uses, taken from the npm package whose sha512 must equal the one
  pinned in ``src/spider/pyodide.lock.json`` (``npm pack``, from npm's cache when it has it;
  a mismatch stops the build), with their Brotli (``vendor/pyodide/*.br`` when they decompress
  to exactly these files, else made now) and the pin's stamp;
- the bytecode standard library and engine (``vendor/bytecode``, from ``make bytecode``), which
  must be current for these sources and this Pyodide.

All the wheels have the version of ``spider.__version__``; the ``web`` extra pins the runtime to
it (a mismatch stops the build). Builds use the project's own hatchling (``uv build
--no-build-isolation``), so they need no network but npm's (or its cache).

Usage: ``python scripts/build_wheels.py [--out DIR] [--only core|compiled|runtime]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import build_bytecode  # noqa: E402
import build_native  # noqa: E402
import fetch_pyodide  # noqa: E402
import precompress  # noqa: E402

from spider import __version__  # noqa: E402
from spider.serve.app import PYODIDE_FILES  # noqa: E402
from spider.serve.pyodide_runtime import (  # noqa: E402
    RUNTIME_DISTRIBUTION,
    RUNTIME_PACKAGE,
    STAMP_NAME,
)
from spider.serve.static import BROTLI_SUFFIX, compress_br, same_after_br  # noqa: E402

DEFAULT_OUT = ROOT / "dist"
VENDOR_PYODIDE = ROOT / "vendor" / "pyodide"
VENDOR_BYTECODE = ROOT / "vendor" / "bytecode"
BYTECODE_FILES = ("bytecode.json", "stdlib.zip", "stdlib.zip.br", "engine.zip", "engine.zip.br")

RUNTIME_PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.25"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "{version}"
description = "The Pyodide runtime (pinned, checked) and bytecode of spider-solitaire's web app"
readme = "README.md"
requires-python = ">=3.11"
license = "MIT AND MPL-2.0 AND PSF-2.0"
dependencies = []

[tool.hatch.build.targets.wheel]
packages = ["src/{package}"]
"""

RUNTIME_README = """\
# {name} {version}

The files that spider-solitaire {version}'s web app loads in the browser and that are not
Python sources: Pyodide {pyodide} (from its npm package, sha512 checked against the pin of
spider-solitaire {version}; Mozilla Public License 2.0, with CPython's standard library under
the PSF License), their Brotli, and the standard library and engine as bytecode compiled by
Pyodide's CPython.

Install it through the extra, `pip install "spider-solitaire[web]"`, then run `spider serve`.
Nothing here is imported by Python code: `spider serve` finds the files in this package's
`pyodide/` and `bytecode/` directories and checks them against its pin before serving.
"""

RUNTIME_INIT = '''\
"""The Pyodide runtime of spider-solitaire's web app: data only (see ``pyodide/``, ``bytecode/``).

spider-solitaire finds these directories itself (``spider.serve.pyodide_runtime``) and checks the
Pyodide version and sha512 recorded in ``pyodide/{stamp}`` against its pin.
"""

__version__ = "{version}"
PYODIDE_VERSION = "{pyodide}"
'''


class BuildError(Exception):
    """A failure with a message meant for the person running the script."""


def runtime_pin() -> str:
    """The version the ``web`` extra pins the runtime wheel to; must be ``__version__``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    prefix = f"{RUNTIME_DISTRIBUTION}=="
    pins = [r for r in project["optional-dependencies"]["web"] if r.startswith(prefix)]
    if len(pins) != 1:
        raise BuildError(f"pyproject.toml's web extra must pin {RUNTIME_DISTRIBUTION} once")
    pinned = str(pins[0])[len(prefix) :]
    if pinned != __version__:
        raise BuildError(
            f"the web extra pins {RUNTIME_DISTRIBUTION}=={pinned} but spider.__version__ is "
            f"{__version__}: make them agree"
        )
    return pinned


def uv_build(project: Path, out: Path, *targets: str, env: dict[str, str] | None = None) -> None:
    """``uv build`` with the project's hatchling (no build isolation, no network)."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        raise BuildError("uv is not installed (make setup installs it into .venv)")
    command = [uv, "build", "--quiet", "--no-build-isolation", "--python", sys.executable]
    command += [*targets, "--out-dir", str(out), str(project)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise BuildError(f"uv build of {project} failed:\n{proc.stderr.strip()}")


def build_compiled(out: Path) -> bool:
    """The compiled wheel for this platform (``scripts/hatch_native.py``), built from the
    checkout; False, with a line said, when there is no C compiler to build it."""
    if build_native.have_compiler() is None:
        print("build_wheels: no C compiler, so no compiled wheel (the pure one installs anywhere)")
        return False
    env = dict(os.environ, HATCH_BUILD_HOOK_ENABLE_CUSTOM="true")
    uv_build(ROOT, out, "--wheel", env=env)
    return True


def checked_pyodide_files(workdir: Path) -> tuple[dict[str, bytes], dict[str, str]]:
    """The page's Pyodide files (and ``package.json``) from the pinned npm package, whose sha512
    is checked first; and the pin's stamp."""
    pin = fetch_pyodide.load_pin()
    spec = f"{pin['package']}@{pin['version']}"
    tarball = fetch_pyodide.npm_pack(spec, workdir, prefer_offline=True)
    actual = fetch_pyodide.sri_sha512(tarball)
    if actual != pin["integrity"]:
        raise BuildError(
            f"integrity mismatch for {spec}: pinned {pin['integrity']}, npm gave {actual}"
        )
    wanted = {f"package/{name}" for name in (*PYODIDE_FILES, "package.json")}
    files: dict[str, bytes] = {}
    with tarfile.open(tarball, "r:gz") as tar:
        for info in tar.getmembers():
            if info.name in wanted and info.isfile():
                source = tar.extractfile(info)
                assert source is not None
                files[info.name.removeprefix("package/")] = source.read()
    missing = [name for name in pin["required"] if name != "package.json" and name not in files]
    if missing:
        raise BuildError(f"{spec} lacks {', '.join(missing)}")
    return files, fetch_pyodide.stamp_for(pin)


def brotli_of(name: str, data: bytes) -> bytes:
    """The Brotli ``make vendor`` made of ``name`` when it is exactly ``data``'s, else a new one."""
    made = VENDOR_PYODIDE / (name + BROTLI_SUFFIX)
    if made.is_file() and same_after_br(data, made.read_bytes()):
        return made.read_bytes()
    return compress_br(data, quality=11)


def check_bytecode(pyodide_version: str) -> None:
    """``vendor/bytecode`` must be built from these sources and the pinned Pyodide."""
    key, _, engine_version = build_bytecode.current_key(VENDOR_PYODIDE)
    if not build_bytecode.is_current(VENDOR_BYTECODE, key):
        raise BuildError(f"{VENDOR_BYTECODE} is not current for these sources: run `make`")
    stamp = json.loads((VENDOR_BYTECODE / "bytecode.json").read_text(encoding="utf-8"))
    if stamp.get("pyodide") != pyodide_version or stamp.get("engine") != engine_version:
        raise BuildError(f"{VENDOR_BYTECODE} was built for another Pyodide or engine: run `make`")
    missing = [name for name in BYTECODE_FILES if not (VENDOR_BYTECODE / name).is_file()]
    if missing:
        raise BuildError(f"{VENDOR_BYTECODE} lacks {', '.join(missing)}: run `make`")


def stage_runtime(stage: Path, version: str) -> None:
    """Lay out the runtime project in ``stage``."""
    files, stamp = checked_pyodide_files(stage)
    meta = json.loads(files["package.json"])
    pyodide_version = str(meta["version"])
    check_bytecode(pyodide_version)
    package = stage / "src" / RUNTIME_PACKAGE
    pyodide = package / "pyodide"
    pyodide.mkdir(parents=True)
    for name, data in files.items():
        (pyodide / name).write_bytes(data)
        if name in precompress.NAMES:
            (pyodide / (name + BROTLI_SUFFIX)).write_bytes(brotli_of(name, data))
    (pyodide / STAMP_NAME).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    bytecode = package / "bytecode"
    bytecode.mkdir()
    for name in BYTECODE_FILES:
        shutil.copyfile(VENDOR_BYTECODE / name, bytecode / name)
    values = {
        "name": RUNTIME_DISTRIBUTION,
        "package": RUNTIME_PACKAGE,
        "version": version,
        "pyodide": pyodide_version,
        "stamp": STAMP_NAME,
    }
    (package / "__init__.py").write_text(RUNTIME_INIT.format(**values), encoding="utf-8")
    (stage / "README.md").write_text(RUNTIME_README.format(**values), encoding="utf-8")
    (stage / "pyproject.toml").write_text(RUNTIME_PYPROJECT.format(**values), encoding="utf-8")
    for tarball in stage.glob("*.tgz"):
        tarball.unlink()


def build_runtime(out: Path, version: str) -> None:
    with tempfile.TemporaryDirectory(prefix="runtime-wheel-") as tmp:
        stage = Path(tmp)
        stage_runtime(stage, version)
        uv_build(stage, out, "--wheel")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the files go")
    parser.add_argument(
        "--only", choices=("core", "compiled", "runtime"), help="build one of the three"
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    try:
        version = runtime_pin()
        out.mkdir(parents=True, exist_ok=True)
        if args.only in (None, "core"):
            uv_build(ROOT, out)  # the sdist, then the wheel built from it
        if args.only in (None, "compiled"):
            build_compiled(out)
        if args.only in (None, "runtime"):
            build_runtime(out, version)
    except (BuildError, fetch_pyodide.FetchError, build_bytecode.BuildError) as error:
        print(f"build_wheels: error: {error}", file=sys.stderr)
        return 1
    built = sorted(p for p in out.iterdir() if version in p.name and p.suffix in (".whl", ".gz"))
    for path in built:
        print(f"build_wheels: {path.name} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
