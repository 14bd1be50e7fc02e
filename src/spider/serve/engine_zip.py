"""The engine's own Python sources as one deterministic zip, for Pyodide in the browser.

The archive holds every ``*.py`` (and ``py.typed``) of the ``spider`` package except the parts
that only make sense in CPython (the server, the command line, the research adapters) and the
front end.
Paths inside the archive start with ``spider/``, so unpacking it into a directory on
``sys.path`` makes ``import spider`` work. Entries are sorted, stored uncompressed with fixed
timestamps and permissions: the same sources always give the same bytes, whatever the zlib or
the file system; the HTTP layer gzips the whole archive instead (better across files too).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

PACKAGE_NAME = "spider"
#: Sub-directories (at the package root) that stay on the server: the web server and its sync
#: storage, the command line, the research adapters (Gymnasium, OpenSpiel) and the front end.
EXCLUDED_DIRS = frozenset({"web", "serve", "cli", "research"})
#: Modules at the package root that only the command line runs.
EXCLUDED_MODULES = frozenset({"__main__.py"})
#: The timestamp of every entry (the earliest a zip can hold).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class EngineBundle:
    """The zip's bytes, the list of its files and a short content hash."""

    data: bytes
    files: tuple[str, ...]
    version: str

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


def is_engine_file(relative: PurePosixPath) -> bool:
    """Whether a path relative to the package directory belongs in the browser bundle."""
    parts = relative.parts
    if not parts or any(part.startswith(".") or part == "__pycache__" for part in parts):
        return False
    if len(parts) > 1 and parts[0] in EXCLUDED_DIRS:
        return False
    name = parts[-1]
    if not (name.endswith(".py") or name == "py.typed"):
        return False
    return not (len(parts) == 1 and name in EXCLUDED_MODULES)


def engine_files(package_dir: Path) -> list[PurePosixPath]:
    """The engine's files, relative to ``package_dir``, sorted."""
    found = []
    for path in package_dir.rglob("*"):
        if not path.is_file():
            continue
        relative = PurePosixPath(path.relative_to(package_dir).as_posix())
        if is_engine_file(relative):
            found.append(relative)
    return sorted(found)


def build_engine_zip(package_dir: Path, package_name: str = PACKAGE_NAME) -> EngineBundle:
    """Zip the engine sources under ``package_dir`` as ``<package_name>/...``."""
    buffer = io.BytesIO()
    names: list[str] = []
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for relative in engine_files(package_dir):
            name = f"{package_name}/{relative.as_posix()}"
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o100644 << 16
            info.create_system = 3  # Unix, whatever the host
            archive.writestr(info, (package_dir / relative).read_bytes())
            names.append(name)
    data = buffer.getvalue()
    version = hashlib.sha256(data).hexdigest()[:16]
    return EngineBundle(data=data, files=tuple(names), version=version)
