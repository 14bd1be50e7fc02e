#!/usr/bin/env python3
"""Write the Brotli (quality 11) of the large Pyodide files the page loads, as ``<name>.br``.

The server sends ``<name>.br`` to browsers that accept Brotli when it decompresses to exactly
``<name>`` (see :mod:`spider.serve.static`); quality 11 takes about a minute for the WebAssembly,
too slow for a request, so ``make`` does it once. A no-op for files whose ``.br`` is current.

Usage: ``python3 scripts/precompress.py [DIR]`` (default ``vendor/pyodide``)
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from spider.serve.static import BROTLI_SUFFIX, compress_br, same_after_br  # noqa: E402

#: The compressible Pyodide files the page loads (python_stdlib.zip is deflated already).
NAMES = ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs", "pyodide-lock.json")


def precompress(path: Path) -> str:
    """Write ``path``'s ``.br`` unless it is current; say what was done."""
    data = path.read_bytes()
    target = path.with_name(path.name + BROTLI_SUFFIX)
    try:
        if same_after_br(data, target.read_bytes()):
            return f"{target.name} is current"
    except OSError:
        pass
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(compress_br(data, quality=11))
    partial.replace(target)
    return f"{target.name}: {len(data):,} -> {target.stat().st_size:,} bytes"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else ROOT / "vendor" / "pyodide"
    paths = [directory / name for name in NAMES if (directory / name).is_file()]
    with ProcessPoolExecutor(max_workers=2) as pool:
        for line in pool.map(precompress, paths):
            print(f"precompress: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
