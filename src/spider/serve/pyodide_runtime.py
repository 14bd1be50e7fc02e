"""Where the web app's Pyodide runtime comes from, and whether it is the one this release pins.

The page runs the engine under Pyodide, whose files (and the bytecode built from them) are not
Python sources: a checkout fetches them into ``vendor/`` (``make``); an install gets them from
the companion wheel ``spider-solitaire-runtime`` (the package ``spider_runtime``) that the
``web`` extra pulls in. They are looked for, in this order, in

1. ``$SPIDER_PYODIDE_DIR`` (and ``$SPIDER_BYTECODE_DIR``);
2. the checkout's ``vendor/pyodide`` (and ``vendor/bytecode``), when the package runs from one;
3. the installed ``spider_runtime`` package's ``pyodide/`` (and ``bytecode/``).

``pyodide.lock.json`` beside this module pins the Pyodide version and the sha512 of its npm
package; :func:`check_runtime` refuses a runtime that is incomplete or not that one, with a
one-line reason (``spider serve`` and ``spider build-site`` then stop with exit status 2).
"""

from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

from spider import __version__

#: The ``spider`` package directory (this module is in ``spider/serve``).
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: The source checkout the package runs from, if it does (``src/spider`` -> the root).
REPO_DIR = PACKAGE_DIR.parent.parent
PIN_FILE = PACKAGE_DIR / "pyodide.lock.json"
PYODIDE_ENV = "SPIDER_PYODIDE_DIR"
BYTECODE_ENV = "SPIDER_BYTECODE_DIR"
#: The import name of the companion wheel ``spider-solitaire-runtime``.
RUNTIME_PACKAGE = "spider_runtime"
RUNTIME_DISTRIBUTION = "spider-solitaire-runtime"
#: What ``scripts/fetch_pyodide.py`` (and the runtime wheel) record of the package they hold.
STAMP_NAME = ".vendored.json"
#: The files of the Pyodide package without which the page cannot start (and one loader).
REQUIRED_PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
    "python_stdlib.zip",
)
PYODIDE_LOADERS = ("pyodide.asm.mjs", "pyodide.asm.js")
#: How to get the runtime, said at the end of every refusal.
REMEDY = (
    f"install the web extra (pip install 'spider-solitaire[web]', which brings "
    f"{RUNTIME_DISTRIBUTION}=={__version__}) or, in a checkout, run `make`"
)


class RuntimeProblem(Exception):
    """The Pyodide runtime is missing or is not the pinned one; the message says so on one
    line."""


@dataclass(frozen=True)
class Pin:
    """The Pyodide this release is built for (``pyodide.lock.json``)."""

    package: str
    version: str
    integrity: str

    def stamp(self) -> dict[str, str]:
        """The stamp a runtime directory of exactly this package carries."""
        return {"package": self.package, "version": self.version, "integrity": self.integrity}


def load_pin(path: Path = PIN_FILE) -> Pin:
    """The pinned Pyodide package, version and npm sha512 integrity."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Pin(str(data["package"]), str(data["version"]), str(data["integrity"]))


def installed_runtime_dir() -> Path | None:
    """The directory of the installed ``spider_runtime`` package, or None (not imported)."""
    spec = importlib.util.find_spec(RUNTIME_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _find(env: str, name: str) -> Path:
    """``$env``, else ``vendor/<name>`` of the checkout if there, else the runtime package's
    ``<name>`` if installed, else the checkout's path (which a refusal then names)."""
    configured = os.environ.get(env)
    if configured:
        return Path(configured)
    checkout = REPO_DIR / "vendor" / name
    if checkout.is_dir():
        return checkout
    installed = installed_runtime_dir()
    if installed is not None and (installed / name).is_dir():
        return installed / name
    return checkout


def default_pyodide_dir() -> Path:
    """Where the Pyodide files are (see the module's description)."""
    return _find(PYODIDE_ENV, "pyodide")


def default_bytecode_dir() -> Path:
    """Where the bytecode built for that Pyodide is (see the module's description)."""
    return _find(BYTECODE_ENV, "bytecode")


def pyodide_version(pyodide_dir: Path) -> str | None:
    """The version in the runtime's ``package.json``, or None when there is none."""
    try:
        meta = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = meta.get("version") if isinstance(meta, dict) else None
    if isinstance(version, str) and version and "/" not in version and not version.startswith("."):
        return version
    return None


def missing_files(pyodide_dir: Path) -> list[str]:
    """The files the page needs that ``pyodide_dir`` lacks."""
    missing = [name for name in REQUIRED_PYODIDE_FILES if not (pyodide_dir / name).is_file()]
    if not any((pyodide_dir / name).is_file() for name in PYODIDE_LOADERS):
        missing.append(" or ".join(PYODIDE_LOADERS))
    return missing


def _stamp(pyodide_dir: Path) -> object:
    try:
        return json.loads((pyodide_dir / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def check_runtime(pyodide_dir: Path, pin: Pin | None = None) -> str:
    """The version of the complete, pinned Pyodide runtime in ``pyodide_dir``.

    Raises:
        RuntimeProblem: it is missing, incomplete, another version, or another build of the
            pinned version (its recorded sha512 differs).
    """
    pin = pin or load_pin()
    version = pyodide_version(pyodide_dir)
    if version is None:
        raise RuntimeProblem(f"no Pyodide runtime at {pyodide_dir}: {REMEDY}")
    if version != pin.version:
        raise RuntimeProblem(
            f"the Pyodide runtime at {pyodide_dir} is version {version}, but spider-solitaire "
            f"{__version__} is built for {pin.version}: {REMEDY}"
        )
    if _stamp(pyodide_dir) != pin.stamp():
        raise RuntimeProblem(
            f"the Pyodide runtime at {pyodide_dir} is not the pinned {pin.package} {pin.version} "
            f"(its {STAMP_NAME} does not record the pinned sha512): {REMEDY}"
        )
    missing = missing_files(pyodide_dir)
    if missing:
        raise RuntimeProblem(
            f"no complete Pyodide runtime at {pyodide_dir} (missing {', '.join(missing)}): {REMEDY}"
        )
    return version
