#!/usr/bin/env python3
"""Vendor the Pyodide runtime from the npm registry into ``vendor/pyodide/``.

Standard library only. The version and the tarball's sha512 integrity are pinned in
``src/spider/pyodide.lock.json`` (in the wheel too: the server checks the runtime against it).
The script

1. skips everything when ``vendor/pyodide/.vendored.json`` already records the pinned version and
   integrity and every required file is present (so ``make vendor`` is cheap and idempotent);
2. otherwise runs ``npm pack pyodide@VERSION`` in a temporary directory, checks the tarball's
   sha512 against the pin (a mismatch is an error, nothing is unpacked), unpacks the tarball's
   ``package/`` directory into a fresh directory next to the destination, checks the required
   files, and swaps it into place; the stamp file is written last.

Usage: ``python3 scripts/fetch_pyodide.py [--dest DIR] [--force] [--check] [--list]``
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PIN_FILE = ROOT / "src" / "spider" / "pyodide.lock.json"
DEFAULT_DEST = ROOT / "vendor" / "pyodide"
STAMP_NAME = ".vendored.json"


class FetchError(Exception):
    """A failure with a message meant for the person running the script."""


def load_pin(path: Path = PIN_FILE) -> dict[str, Any]:
    try:
        pin: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read the pin file {path}: {exc}") from exc
    for key in ("package", "version", "integrity", "required"):
        if key not in pin:
            raise FetchError(f"pin file {path} lacks {key!r}")
    if not str(pin["integrity"]).startswith("sha512-"):
        raise FetchError(f"pin file {path}: integrity must be an npm 'sha512-…' value")
    return pin


def stamp_for(pin: dict[str, Any]) -> dict[str, str]:
    return {"package": pin["package"], "version": pin["version"], "integrity": pin["integrity"]}


def is_current(dest: Path, pin: dict[str, Any]) -> bool:
    """True when ``dest`` already holds the pinned version, complete."""
    try:
        stamp = json.loads((dest / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if stamp != stamp_for(pin):
        return False
    return all((dest / name).is_file() for name in pin["required"])


def sri_sha512(path: Path) -> str:
    digest = hashlib.sha512()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def npm_pack(spec: str, workdir: Path, prefer_offline: bool = False) -> Path:
    """``npm pack spec`` into ``workdir`` (from npm's cache without asking the registry when
    ``prefer_offline`` and the cache has it); the tarball's path."""
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError("npm is not installed (apt-get install -y npm, or install Node.js)")
    cmd = [npm, "pack", spec, "--json", "--silent", "--pack-destination", str(workdir)]
    if prefer_offline:
        cmd.append("--prefer-offline")
    print(f"fetch_pyodide: running {' '.join(cmd[1:])}", flush=True)
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise FetchError(
            f"`npm pack {spec}` failed with exit code {proc.returncode}:\n{proc.stderr.strip()}"
        )
    tarballs = sorted(workdir.glob("*.tgz"))
    if len(tarballs) != 1:
        raise FetchError(f"`npm pack {spec}` left {len(tarballs)} tarballs, expected one")
    return tarballs[0]


def safe_members(tar: tarfile.TarFile) -> list[tuple[tarfile.TarInfo, PurePosixPath]]:
    """The tarball's regular files and directories under ``package/``, with checked paths."""
    members: list[tuple[tarfile.TarInfo, PurePosixPath]] = []
    for info in tar.getmembers():
        path = PurePosixPath(info.name)
        if path.is_absolute() or ".." in path.parts or "\\" in info.name:
            raise FetchError(f"unsafe path in tarball: {info.name!r}")
        if not path.parts or path.parts[0] != "package":
            raise FetchError(f"unexpected entry outside package/: {info.name!r}")
        relative = PurePosixPath(*path.parts[1:])
        if not relative.parts:
            continue
        if info.isdir() or info.isfile():
            members.append((info, relative))
        else:
            raise FetchError(f"refusing non-regular tar entry {info.name!r}")
    return members


def unpack(tarball: Path, target: Path) -> list[tuple[str, int]]:
    """Unpack ``package/*`` of ``tarball`` into the new directory ``target``."""
    target.mkdir(parents=True)
    listing: list[tuple[str, int]] = []
    with tarfile.open(tarball, "r:gz") as tar:
        for info, relative in safe_members(tar):
            out = target.joinpath(*relative.parts)
            if info.isdir():
                out.mkdir(parents=True, exist_ok=True)
                continue
            out.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(info)
            if source is None:
                raise FetchError(f"cannot read {info.name!r} from the tarball")
            with source, out.open("wb") as fh:
                shutil.copyfileobj(source, fh)
            out.chmod(0o644)
            listing.append((relative.as_posix(), info.size))
    return sorted(listing)


def check_contents(target: Path, pin: dict[str, Any]) -> None:
    missing = [name for name in pin["required"] if not (target / name).is_file()]
    if missing:
        raise FetchError(f"the {pin['package']} package lacks required files: {', '.join(missing)}")
    meta = json.loads((target / "package.json").read_text(encoding="utf-8"))
    if meta.get("name") != pin["package"] or meta.get("version") != pin["version"]:
        raise FetchError(
            f"package.json says {meta.get('name')}@{meta.get('version')}, "
            f"expected {pin['package']}@{pin['version']}"
        )


def print_listing(listing: list[tuple[str, int]]) -> None:
    total = sum(size for _, size in listing)
    for name, size in listing:
        print(f"  {size:>10,}  {name}")
    print(f"  {total:>10,}  total ({len(listing)} files)")


def listing_of(dest: Path) -> list[tuple[str, int]]:
    return sorted(
        (p.relative_to(dest).as_posix(), p.stat().st_size)
        for p in dest.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    )


def fetch(dest: Path, pin: dict[str, Any], force: bool = False) -> bool:
    """Vendor the pinned package into ``dest``. Returns False when it was already there."""
    if not force and is_current(dest, pin):
        return False
    spec = f"{pin['package']}@{pin['version']}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fetch-pyodide-") as tmp:
        tarball = npm_pack(spec, Path(tmp))
        actual = sri_sha512(tarball)
        if actual != pin["integrity"]:
            raise FetchError(
                f"integrity mismatch for {spec} ({tarball.name}):\n"
                f"  pinned ({PIN_FILE.name}): {pin['integrity']}\n"
                f"  downloaded:{' ' * len(PIN_FILE.name)}{actual}\n"
                "Nothing was unpacked. If the new value is expected (a new version), "
                "update the pin file; otherwise do not trust this tarball."
            )
        print(f"fetch_pyodide: {tarball.name} integrity OK ({actual[:23]}…)")
        staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.new-", dir=dest.parent))
        staging.rmdir()
        try:
            listing = unpack(tarball, staging)
            check_contents(staging, pin)
            if dest.exists() or dest.is_symlink():
                old = dest.with_name(f".{dest.name}.old-{os.getpid()}")
                dest.rename(old)
                shutil.rmtree(old, ignore_errors=True)
            staging.rename(dest)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    (dest / STAMP_NAME).write_text(json.dumps(stamp_for(pin), indent=2) + "\n", encoding="utf-8")
    print(f"fetch_pyodide: vendored {spec} into {dest}:")
    print_listing(listing)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="target directory")
    parser.add_argument("--force", action="store_true", help="fetch even when up to date")
    parser.add_argument(
        "--check", action="store_true", help="only say whether dest is up to date (exit 1 if not)"
    )
    parser.add_argument("--list", action="store_true", help="list the vendored files")
    args = parser.parse_args(argv)
    try:
        pin = load_pin()
        dest: Path = args.dest.resolve()
        if args.check:
            current = is_current(dest, pin)
            print(f"fetch_pyodide: {dest} {'is' if current else 'is NOT'} at {pin['version']}")
            return 0 if current else 1
        if not fetch(dest, pin, force=args.force):
            print(f"fetch_pyodide: {pin['package']}@{pin['version']} already in {dest}")
            if args.list:
                print_listing(listing_of(dest))
        return 0
    except FetchError as exc:
        print(f"fetch_pyodide: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
