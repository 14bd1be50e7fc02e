"""The bytecode the web app starts from, built by ``scripts/build_bytecode.py`` (``make``).

``vendor/bytecode/`` (or ``$SPIDER_BYTECODE_DIR``, or the installed runtime's ``bytecode/``: see
:mod:`spider.serve.pyodide_runtime`) holds ``stdlib.zip`` (the standard-library
modules Pyodide and the engine import at start, compiled by Pyodide's CPython), ``engine.zip``
(the engine compiled the same way), their Brotli (``*.br``, quality 11) and ``bytecode.json``
(what they were built from).
:func:`load_bytecode` hands them to the server only when they match the engine and the Pyodide
being served; otherwise the server serves the sources, which always work, only slower.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from spider.serve.static import same_after_br

STAMP_NAME = "bytecode.json"


@dataclass(frozen=True)
class Bytecode:
    """The standard library and the engine as bytecode, for one engine and Pyodide version."""

    stdlib: bytes
    engine: bytes
    stdlib_modules: tuple[str, ...]
    stdlib_br: bytes | None = None
    engine_br: bytes | None = None

    @property
    def stdlib_version(self) -> str:
        """A short content hash, part of the stdlib's immutable URL."""
        return hashlib.sha256(self.stdlib).hexdigest()[:16]


def inputs_key(pyodide: str, scripts: bytes, engine_version: str) -> str:
    """The key of everything the bytecode is built from."""
    digest = hashlib.sha256()
    for part in (pyodide.encode(), scripts, engine_version.encode()):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def load_bytecode(
    directory: Path, engine_version: str, pyodide_version: str | None
) -> Bytecode | None:
    """The bytecode in ``directory`` if built for this engine and Pyodide, else None."""
    try:
        stamp = json.loads((directory / STAMP_NAME).read_text(encoding="utf-8"))
        if stamp.get("engine") != engine_version or stamp.get("pyodide") != pyodide_version:
            return None
        stdlib = (directory / "stdlib.zip").read_bytes()
        engine = (directory / "engine.zip").read_bytes()
    except (OSError, ValueError, AttributeError):
        return None
    if hashlib.sha256(stdlib).hexdigest() != stamp.get("stdlib_sha256"):
        return None
    modules = stamp.get("stdlib_modules")
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        return None
    return Bytecode(
        stdlib=stdlib,
        engine=engine,
        stdlib_modules=tuple(modules),
        stdlib_br=_brotli_of(directory / "stdlib.zip.br", stdlib),
        engine_br=_brotli_of(directory / "engine.zip.br", engine),
    )


def _brotli_of(path: Path, data: bytes) -> bytes | None:
    """The Brotli made by ``make`` at ``path`` if it decompresses to exactly ``data``."""
    try:
        compressed = path.read_bytes()
    except OSError:
        return None
    return compressed if same_after_br(data, compressed) else None
