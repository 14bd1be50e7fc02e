#!/usr/bin/env python3
"""Build the bytecode the web app starts from, with Pyodide's CPython, into ``vendor/bytecode/``.

- ``stdlib.zip``: the standard-library modules Pyodide and the engine import at start, as
  ``.pyc`` (passed to ``loadPyodide`` as ``stdLibURL``; the rest is loaded from Pyodide's
  ``python_stdlib.zip`` only if a request ever needs it);
- ``engine.zip``: the engine (the files of ``/engine.zip``) as ``.pyc``;
- ``stdlib.zip.br``, ``engine.zip.br``: their Brotli, quality 11 (kept while the zip is the same);
- ``bytecode.json``: what they were built from (the Pyodide version, the engine's version) and
  the list of standard-library modules, read by :mod:`spider.serve.bytecode`.

CPython parses and compiles every module it imports from source at each start; from bytecode it
only unmarshals. The bytecode must come from the same CPython as Pyodide's (same magic number),
so ``scripts/compile_bytecode.mjs`` runs Pyodide under Node. A no-op when ``bytecode.json``
already records the current inputs (``make`` runs it every time).

Usage: ``python3 scripts/build_bytecode.py [--pyodide DIR] [--dest DIR] [--force]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from spider.serve.bytecode import STAMP_NAME, inputs_key  # noqa: E402
from spider.serve.engine_zip import build_engine_zip  # noqa: E402
from spider.serve.static import compress_br, same_after_br  # noqa: E402

COMPILER = ROOT / "scripts" / "compile_bytecode.mjs"
#: How the engine starts (what it imports decides the standard library's modules).
ENGINE_BOOT = ROOT / "src" / "spider" / "web" / "engine-boot.js"
DEFAULT_PYODIDE = ROOT / "vendor" / "pyodide"
DEFAULT_DEST = ROOT / "vendor" / "bytecode"


class BuildError(Exception):
    """A failure with a message meant for the person running the script."""


def pyodide_integrity(pyodide_dir: Path) -> str:
    """The vendored Pyodide's identity: its stamp from scripts/fetch_pyodide.py."""
    try:
        return (pyodide_dir / ".vendored.json").read_text(encoding="utf-8")
    except OSError as exc:
        raise BuildError(
            f"no vendored Pyodide in {pyodide_dir} (run `make vendor`): {exc}"
        ) from exc


def current_key(pyodide_dir: Path) -> tuple[str, bytes, str]:
    """The key of the current inputs, the engine's source zip and its version."""
    engine = build_engine_zip(ROOT / "src" / "spider")
    key = inputs_key(
        pyodide_integrity(pyodide_dir),
        COMPILER.read_bytes() + ENGINE_BOOT.read_bytes(),
        engine.version,
    )
    return key, engine.data, engine.version


def is_current(dest: Path, key: str) -> bool:
    try:
        stamp = json.loads((dest / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    files = ("stdlib.zip", "engine.zip")
    return stamp.get("key") == key and all((dest / name).is_file() for name in files)


def compile_with_node(pyodide_dir: Path, engine_src: bytes, out_dir: Path) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is not installed (apt-get install -y nodejs)")
    (out_dir / "engine-src.zip").write_bytes(engine_src)
    job = {
        "pyodide": str(pyodide_dir),
        "engine_src": str(out_dir / "engine-src.zip"),
        "stdlib_out": str(out_dir / "stdlib.zip"),
        "engine_out": str(out_dir / "engine.zip"),
    }
    (out_dir / "job.json").write_text(json.dumps(job), encoding="utf-8")
    proc = subprocess.run(
        [node, str(COMPILER), str(out_dir / "job.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise BuildError(f"{COMPILER.name} failed ({proc.returncode}):\n{proc.stderr.strip()}")
    if proc.stderr.strip():
        print(proc.stderr.strip(), file=sys.stderr)
    report: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


def _brotli_current(path: Path, data: bytes) -> bool:
    """Whether ``path`` and its ``.br`` already hold ``data`` (Brotli 11 is slow: keep it)."""
    try:
        return path.read_bytes() == data and same_after_br(
            data, path.with_suffix(".zip.br").read_bytes()
        )
    except OSError:
        return False


def build(pyodide_dir: Path, dest: Path, force: bool = False) -> bool:
    """Build into ``dest``; False when it was already current."""
    key, engine_src, engine_version = current_key(pyodide_dir)
    if not force and is_current(dest, key):
        return False
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bytecode-", dir=dest) as tmp:
        out = Path(tmp)
        report = compile_with_node(pyodide_dir, engine_src, out)
        meta = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
        stdlib = (out / "stdlib.zip").read_bytes()
        stamp = {
            "key": key,
            "pyodide": meta["version"],
            "engine": engine_version,
            "python": report["python"],
            "magic": report["magic"],
            "stdlib_sha256": hashlib.sha256(stdlib).hexdigest(),
            "stdlib_modules": report["stdlib_modules"],
        }
        (dest / STAMP_NAME).unlink(missing_ok=True)
        for name in ("stdlib.zip", "engine.zip"):
            data = (out / name).read_bytes()
            if not _brotli_current(dest / name, data):
                (out / (name + ".br")).write_bytes(compress_br(data, quality=11))
                (out / (name + ".br")).replace(dest / (name + ".br"))
            (out / name).replace(dest / name)
    (dest / STAMP_NAME).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pyodide", type=Path, default=DEFAULT_PYODIDE)
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    parser.add_argument("--force", action="store_true", help="build even when current")
    args = parser.parse_args(argv)
    try:
        built = build(args.pyodide.resolve(), args.dest.resolve(), args.force)
    except BuildError as exc:
        print(f"build_bytecode: error: {exc}", file=sys.stderr)
        return 1
    if built:
        stamp = json.loads((args.dest / STAMP_NAME).read_text(encoding="utf-8"))
        sizes = ", ".join(
            f"{name} {(args.dest / name).stat().st_size:,} bytes"
            for name in ("stdlib.zip", "engine.zip")
        )
        print(
            f"build_bytecode: Python {stamp['python']} bytecode of "
            f"{len(stamp['stdlib_modules'])} stdlib modules and engine {stamp['engine']}: {sizes}"
        )
    else:
        print(f"build_bytecode: {args.dest} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
