"""``spider build-site DIR``: the whole web app as static files, for a CDN or a web server.

The game runs in the browser, so hosting it is serving files. ``DIR`` receives:

- ``public/``: every file ``spider serve`` would send (the front end, ``engine.zip`` and
  ``engine.json``, the bytecode standard library, the Pyodide files the page loads under their
  versioned address), each compressible one with a Brotli (``.br``, quality 11) and a gzip
  (``.gz``) beside it when they save at least 10 %; and ``_headers`` (Netlify, Cloudflare Pages);
- ``nginx/spider-locations.conf`` (the inside of a ``server`` block) and ``nginx/spider.conf``
  (a ``server`` block on ``port``, 80 by default, including it);
- ``Caddyfile``;
- ``spider-site.json``: what was built, and the mark that lets a later build replace it.

``public/index.html`` tells the page there is no ``/start.json`` (a static host has no engine
to deal the first game: the page waits for its own). With ``sync_url`` (``--sync URL``), the
address of a sync service (``spider serve`` elsewhere), the nginx and Caddy configurations pass
``/api/sync`` on to it and ``index.html`` names ``/api/sync`` in its ``spider-sync`` meta, so
the page offers sync; without, it offers none. The configurations serve the files of the
build and nothing else: no dot file, no symbolic link left in ``public/``.

Configurations name ``public/`` by its absolute path where the site is deployed
(``deploy_dir``, by default ``DIR`` itself). Headers come from :mod:`spider.serve.headers`.
"""

from __future__ import annotations

import gzip
import json
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from spider.serve.app import SiteFile, create_app
from spider.serve.headers import path_rules
from spider.serve.host_config import (
    DEFAULT_PORT,
    caddyfile,
    check_port,
    check_sync_url,
    headers_file,
    nginx_locations,
    nginx_server,
)
from spider.serve.pyodide_runtime import RuntimeProblem, check_runtime, default_pyodide_dir
from spider.serve.static import (
    BROTLI_SUFFIX,
    GZIP_LEVEL,
    MAX_GZIP_RATIO,
    MIN_COMPRESS_SIZE,
    compress_br,
    is_compressible,
    media_type_for,
    same_after_br,
)
from spider.serve.sync import MAX_BODY_BYTES, SYNC_META_OFF, SYNC_META_ON

MARKER = "spider-site.json"
INDEX_URL = "/index.html"
PUBLIC = "public"
NGINX_DIR = "nginx"
NGINX_LOCATIONS = "spider-locations.conf"
NGINX_SERVER = "spider.conf"
CADDYFILE = "Caddyfile"
#: Everything a build writes at the top of DIR (a rebuild replaces exactly these).
OUTPUTS = (PUBLIC, NGINX_DIR, CADDYFILE, MARKER)
GZIP_SUFFIX = ".gz"
#: The page asks the server's engine for its first deal where this names an address; a static
#: site has none, so its page says so (and asks nothing that would answer 404).
START_META = b'<meta name="spider-start" content="/start.json">'
NO_START_META = b'<meta name="spider-start" content="">'


class SiteError(Exception):
    """The site cannot be built; the message says why, on one line."""


@dataclass(frozen=True)
class SiteReport:
    """What a build wrote."""

    directory: Path
    files: int
    bytes: int
    compressed: int
    pyodide_version: str


def check_target(directory: Path) -> None:
    """Refuse a ``directory`` that exists and holds anything but an earlier build."""
    if directory.exists() and not directory.is_dir():
        raise SiteError(f"{directory} exists and is not a directory")
    if not directory.is_dir() or not any(directory.iterdir()):
        return
    try:
        marker = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        marker = None
    if not isinstance(marker, dict) or marker.get("generator") != "spider build-site":
        raise SiteError(
            f"{directory} is not empty and not the output of spider build-site; "
            "give an empty or new directory"
        )
    strangers = sorted(p.name for p in directory.iterdir() if p.name not in OUTPUTS)
    if strangers:
        raise SiteError(f"{directory} holds files spider build-site did not write: {strangers}")


def check_pyodide(pyodide_dir: Path) -> str:
    """The version of the pinned Pyodide runtime in ``pyodide_dir``; refused when missing,
    incomplete or not the pinned one (see :func:`spider.serve.pyodide_runtime.check_runtime`)."""
    try:
        return check_runtime(pyodide_dir)
    except RuntimeProblem as problem:
        raise SiteError(str(problem)) from None


def _brotli_for(item: SiteFile, data: bytes) -> bytes:
    """The Brotli ``make`` made for this file when it is right, else one made now."""
    made = item.br
    if made is None and item.path is not None:
        beside = item.path.with_name(item.path.name + BROTLI_SUFFIX)
        made = beside.read_bytes() if beside.is_file() else None
    if made is not None and same_after_br(data, made):
        return made
    return compress_br(data, quality=11)


def _static_page(item: SiteFile, sync: bool = False) -> SiteFile:
    """``/index.html`` as a static site serves it: telling the page there is no ``/start.json``,
    and with ``sync`` that there is a sync service at ``/api/sync``."""
    data = item.read()
    for meta in (START_META, SYNC_META_OFF):
        if data.count(meta) != 1:
            raise SiteError(f"{item.url} does not hold {meta.decode()} once")
    data = data.replace(START_META, NO_START_META)
    if sync:
        data = data.replace(SYNC_META_OFF, SYNC_META_ON)
    return SiteFile(item.url, data=data)


def _write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _write_file(public: Path, item: SiteFile) -> tuple[int, int]:
    """Write one file and its precompressed forms; (bytes, compressed files written)."""
    relative = PurePosixPath(item.url.lstrip("/"))
    target = public.joinpath(*relative.parts)
    data = item.read()
    _write(target, data)
    if len(data) < MIN_COMPRESS_SIZE or not is_compressible(media_type_for(target.name)):
        return len(data), 0
    gz = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    if len(gz) > MAX_GZIP_RATIO * len(data):
        return len(data), 0  # already compressed (a deflated zip): Brotli will not do better
    _write(target.with_name(target.name + GZIP_SUFFIX), gz)
    br = _brotli_for(item, data)
    written = 1
    if len(br) <= MAX_GZIP_RATIO * len(data):
        _write(target.with_name(target.name + BROTLI_SUFFIX), br)
        written += 1
    return len(data), written


def build_site(
    directory: Path,
    *,
    deploy_dir: Path | None = None,
    pyodide_dir: Path | None = None,
    bytecode_dir: Path | None = None,
    port: int = DEFAULT_PORT,
    sync_url: str | None = None,
) -> SiteReport:
    """Write the static site into ``directory`` (see the module's description); ``port`` is
    the one the nginx ``server`` block and the Caddyfile listen on by default; ``sync_url``
    the address of a sync service to pass ``/api/sync`` on to."""
    try:
        check_port(port)
        sync = check_sync_url(sync_url) if sync_url is not None else None
    except ValueError as error:
        raise SiteError(str(error)) from None
    directory = directory.absolute()
    deploy = deploy_dir if deploy_dir is not None else directory
    if not deploy.is_absolute():
        raise SiteError(f"the deploy directory must be an absolute path, not {deploy}")
    pyodide_dir = pyodide_dir or default_pyodide_dir()
    version = check_pyodide(pyodide_dir)
    check_target(directory)
    app = create_app(pyodide_dir, bytecode_dir=bytecode_dir)
    files: list[SiteFile] = [
        _static_page(item, sync is not None) if item.url == INDEX_URL else item
        for item in app.state.site_files()
    ]
    configs = _host_configs(version, deploy, [item.url for item in files], port, sync)
    _remove_outputs(directory)
    directory.mkdir(parents=True, exist_ok=True)
    public = directory / PUBLIC
    total = compressed = 0
    for item in files:
        size, extra = _write_file(public, item)
        total += size
        compressed += extra
    for name, text in configs.items():
        _write(directory / name, text.encode("utf-8"))
    marker = {
        "generator": "spider build-site",
        "pyodide": version,
        "engine": app.state.engine.version,
        "bytecode": app.state.bytecode is not None,
        "deploy_dir": str(deploy),
        "port": port,
        "sync": sync,
        "files": sorted(item.url for item in files),
    }
    _write(directory / MARKER, (json.dumps(marker, indent=1) + "\n").encode("utf-8"))
    return SiteReport(directory, len(files), total, compressed, version)


def _host_configs(
    version: str, deploy: Path, urls: list[str], port: int, sync: str | None
) -> dict[str, str]:
    """The nginx, Caddy and ``_headers`` configurations of a site deployed at ``deploy``, by
    their path in the build."""
    rules = path_rules(version)
    root = str(deploy / PUBLIC)
    locations = str(deploy / NGINX_DIR / NGINX_LOCATIONS)
    try:
        return {
            f"{NGINX_DIR}/{NGINX_LOCATIONS}": nginx_locations(
                rules, root, urls, None if sync is None else (sync, MAX_BODY_BYTES)
            ),
            f"{NGINX_DIR}/{NGINX_SERVER}": nginx_server(locations, port),
            CADDYFILE: caddyfile(rules, root, urls, port, sync),
            f"{PUBLIC}/_headers": headers_file(rules, urls),
        }
    except ValueError as error:
        raise SiteError(str(error)) from None


def _remove_outputs(directory: Path) -> None:
    """Remove what an earlier build wrote into ``directory`` (a link itself, not its target)."""
    for name in OUTPUTS:
        old = directory / name
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        elif old.exists() or old.is_symlink():
            old.unlink()
