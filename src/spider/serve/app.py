"""The web server: the front end, the Pyodide runtime and the engine's sources. No game state.

``create_app()`` builds the Starlette app, ``serve()`` runs it on uvicorn (``spider serve``).

URLs:

- ``/`` (``index.html``) and every other file of the front end, from ``spider/web/``;
- ``/pyodide/<file>`` and ``/pyodide/<version>/<file>``: the Pyodide runtime (found by
  :mod:`spider.serve.pyodide_runtime`: a checkout's ``vendor/pyodide/``, the installed
  ``spider-solitaire-runtime``, or ``$SPIDER_PYODIDE_DIR``). The versioned URL is
  cached for a year as immutable; the plain one is revalidated (``no-cache`` + ETag) so that an
  upgrade can never mix files of two versions in a browser cache. Responses carry
  ``X-Pyodide-Version``. Only the files the page uses are served (not Pyodide's consoles, type
  declarations, source maps or read-me);
- ``/engine.zip``: the engine (see :mod:`spider.serve.engine_zip`), as bytecode compiled by
  Pyodide's CPython when ``make`` built it for these sources (see :mod:`spider.serve.bytecode`),
  else as sources; unpack into a directory on ``sys.path`` and ``import spider``;
  ``/engine.json``: the release (``release``, ``spider.__version__``), the engine's version
  (content hash of the sources), format, file list, the Pyodide version, versioned URL and the
  names of its files served (``pyodide.files``), the URL of the bytecode standard library
  (``stdlib``, or null) and whether the worker may keep a memory snapshot (``snapshot``);
- ``/stdlib/<hash>.zip``: the standard library as bytecode (``loadPyodide``'s ``stdLibURL``),
  immutable;
- ``/start.json?request=<JSON>``: the reply to the page's first request, dealt by the engine
  here so that a first visit shows its table before Pyodide has started (see
  :mod:`spider.serve.start`);
- ``/healthz``: ``ok``;
- ``/api/sync`` and ``/api/sync/{id}``: the sync service (:mod:`spider.serve.sync`), when the app
  is given one (``spider serve`` does unless ``--no-sync``); ``index.html`` then names it in its
  ``<meta name="spider-sync">``, which is how the page learns that sync is offered;
- ``POST /api/think`` and ``POST /api/review``: "Think harder" and the review at native speed
  (:mod:`spider.serve.solver_api`), when the app is given the solver API (``spider serve`` does
  unless ``--no-solver-api``); ``/engine.json`` then names them in its ``api`` field, and the
  page sends its searches there rather than to its own worker.

Every response carries the security headers and each path its caching headers, both from the
table of :mod:`spider.serve.headers` (which ``spider build-site`` writes the nginx, Caddy and
``_headers`` configurations from). Only GET and HEAD are allowed; directories and anything
outside the served roots are 404 (the sync service also takes PUT and DELETE, the solver API
POST).
Files are answered from memory (:mod:`spider.serve.static`);
a plain request for an unchanged file is replayed whole before routing (``ReplayMiddleware``).
:func:`serve` runs uvicorn's httptools protocol on Python's own asyncio loop (under load it
accepts new connections sooner than uvloop does), with timeouts for slow and idle clients and a
direct answer for kept files (:mod:`spider.serve.http_protocol`), in one or more worker
processes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spider import __version__
from spider.limits import excerpt
from spider.serve.bytecode import Bytecode, load_bytecode
from spider.serve.engine_zip import EngineBundle, build_engine_zip
from spider.serve.headers import (
    CONTENT_SECURITY_POLICY as CONTENT_SECURITY_POLICY,  # re-exported
)
from spider.serve.headers import (
    KEEP_ALIVE_TIMEOUT,
    NO_CACHE,
    REQUEST_TIMEOUT,
    SECURITY_HEADERS,
    SEND_TIMEOUT,
    PathRule,
    path_rules,
    rule_for,
)
from spider.serve.listen import ListenProblem
from spider.serve.pyodide_runtime import (
    PYODIDE_ENV as PYODIDE_ENV,  # re-exported
)
from spider.serve.pyodide_runtime import (
    REPO_DIR as REPO_DIR,  # re-exported
)
from spider.serve.pyodide_runtime import (
    REQUIRED_PYODIDE_FILES as REQUIRED_PYODIDE_FILES,  # re-exported
)
from spider.serve.pyodide_runtime import (
    RuntimeProblem,
    check_runtime,
    default_bytecode_dir,
    default_pyodide_dir,
    pyodide_version,
)
from spider.serve.solver_api import (
    REVIEW_PATH,
    SOLVER_ENV,
    THINK_PATH,
    SolverApi,
    SolverLimits,
)
from spider.serve.solver_api import info as solver_api_info
from spider.serve.start import start_reply
from spider.serve.static import (
    GZIP_LEVEL,
    FileCache,
    ResponseMemo,
    file_response,
    media_type_for,
    representation_response,
    safe_path,
)
from spider.serve.sync import (
    SYNC_ENV,
    SYNC_META_OFF,
    SYNC_META_ON,
    SYNC_PATH,
    SyncConfig,
    SyncService,
)

#: The ``spider`` package directory (this module is in ``spider/serve``).
PACKAGE_DIR = Path(__file__).resolve().parent.parent
WEB_DIR = PACKAGE_DIR / "web"

ALLOWED_METHODS = ("GET", "HEAD")
#: The page, served at ``/``.
INDEX_FILE = "index.html"
#: Seconds the requests still running when the server is stopped (a search streaming its answer,
#: up to its time limit) are given to end, before they are cancelled and their searches killed.
SHUTDOWN_SECONDS = 5

#: The files of the Pyodide package that the page loads (``pyodide.asm.js``: older versions).
PYODIDE_FILES = frozenset(
    {
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.js",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    }
)


class SecurityMiddleware:
    """Security headers on every response; 405 for methods other than GET and HEAD, except
    under ``open_paths`` (the sync service, which answers every method itself).

    An unhandled error becomes a plain 500 here (with the headers) before it propagates, so
    even error pages carry the headers.
    """

    def __init__(self, app: ASGIApp, open_paths: tuple[str, ...] = ()) -> None:
        self.app = app
        self.open_paths = open_paths

    def _open(self, path: str) -> bool:
        return any(path == p or path.startswith(p + "/") for p in self.open_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        if scope["method"] not in ALLOWED_METHODS and not self._open(scope["path"]):
            response = PlainTextResponse(
                "Method Not Allowed", status_code=405, headers={"Allow": ", ".join(ALLOWED_METHODS)}
            )
            await response(scope, receive, send_with_headers)
            return
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:
                error = PlainTextResponse("Internal Server Error", status_code=500)
                await error(scope, receive, send_with_headers)
            raise


class ReplayMiddleware:
    """Answers plain requests for unchanged files from :class:`ResponseMemo` (see there),
    before routing; everything else goes on to the app."""

    def __init__(self, app: ASGIApp, memo: ResponseMemo) -> None:
        self.app = app
        self.memo = memo

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            replay = self.memo.find(scope)
            if replay is not None:
                await self.memo.send(replay, scope, send)
                return
        await self.app(scope, receive, send)


class _App:
    """The request handlers, holding only read-only configuration and caches."""

    def __init__(
        self,
        web_dir: Path,
        pyodide_dir: Path,
        engine: EngineBundle,
        extra_static: Mapping[str, Path],
        bytecode_dir: Path | None,
        snapshot: bool = True,
        sync: bool = False,
        solver_api: dict[str, str] | None = None,
    ) -> None:
        self.web_dir = web_dir
        self.sync = sync
        # index.html naming the sync service, made from the file when it changes.
        self.index_page: tuple[tuple[int, int], bytes, bytes] | None = None
        self.pyodide_dir = pyodide_dir
        self.pyodide_version = pyodide_version(pyodide_dir)
        self.engine = engine
        self.bytecode: Bytecode | None = (
            load_bytecode(bytecode_dir, engine.version, self.pyodide_version)
            if bytecode_dir is not None
            else None
        )
        # What /engine.zip sends: identity, gzip and Brotli bodies (Brotli made by `make`).
        self.engine_bodies: tuple[bytes, bytes, bytes | None]
        if self.bytecode is None:
            self.engine_bodies = (engine.data, _gzip(engine.data), None)
        else:
            code = self.bytecode
            self.engine_bodies = (code.engine, _gzip(code.engine), code.engine_br)
        self.engine_etag = _short_hash(self.engine_bodies[0])
        self.rules: tuple[PathRule, ...] = path_rules(self.pyodide_version)
        self.extra_static = dict(extra_static)
        self.cache = FileCache()
        self.memo = ResponseMemo(SECURITY_HEADERS)
        self.stdlib_gzip: bytes | None = None
        self.stdlib_lock = threading.Lock()
        info: dict[str, Any] = {
            "release": __version__,
            "version": engine.version,
            "format": "source" if self.bytecode is None else "bytecode",
            "files": list(engine.files),
            "pyodide": (
                {
                    "version": self.pyodide_version,
                    "url": f"/pyodide/{self.pyodide_version}/",
                    "files": self.pyodide_files(),
                }
                if self.pyodide_version
                else None
            ),
            "stdlib": (
                None if self.bytecode is None else f"/stdlib/{self.bytecode.stdlib_version}.zip"
            ),
            "snapshot": snapshot,
            "api": None,
        }
        # A static host's /engine.json offers no API; this server's names its own, if any.
        self.site_engine_json = (json.dumps(info, indent=1) + "\n").encode("utf-8")
        info["api"] = solver_api
        self.engine_json = (json.dumps(info, indent=1) + "\n").encode("utf-8")

    def pyodide_files(self) -> list[str]:
        """The names of the Pyodide files served (of :data:`PYODIDE_FILES`, those this version
        has: it has one of the two loaders), so that no one asks for the other."""
        return sorted(name for name in PYODIDE_FILES if (self.pyodide_dir / name).is_file())

    def site_files(self) -> list[SiteFile]:
        """Every file a static host needs to serve the app as this server does.

        The front end, ``/engine.zip`` and ``/engine.json``, the bytecode standard library and
        the Pyodide files the page loads, under their versioned address (a static host has no
        ``/start.json``: the page then waits for its worker; no ``/healthz`` either).
        """
        files = [
            SiteFile("/" + path.relative_to(self.web_dir).as_posix(), path=path)
            for path in sorted(self.web_dir.rglob("*"))
            if safe_path(self.web_dir, path.relative_to(self.web_dir).as_posix()) is not None
        ]
        body, _, br_body = self.engine_bodies
        files.append(SiteFile("/engine.zip", data=body, br=br_body))
        files.append(SiteFile("/engine.json", data=self.site_engine_json))
        if self.bytecode is not None:
            code = self.bytecode
            files.append(
                SiteFile(f"/stdlib/{code.stdlib_version}.zip", data=code.stdlib, br=code.stdlib_br)
            )
        if self.pyodide_version is not None:
            for name in self.pyodide_files():
                path = self.pyodide_dir / name
                files.append(SiteFile(f"/pyodide/{self.pyodide_version}/{name}", path=path))
        return files

    def _headers(self, path: str) -> dict[str, str]:
        """The headers of the table (:mod:`spider.serve.headers`) for the URL path ``path``."""
        return dict(rule_for(self.rules, path).headers)

    async def healthz(self, request: Request) -> Response:
        return PlainTextResponse("ok", headers=self._headers("/healthz"))

    async def engine_zip(self, request: Request) -> Response:
        body, gzip_body, br_body = self.engine_bodies
        response = representation_response(
            request.headers,
            media_type="application/zip",
            headers=self._headers("/engine.zip"),
            etag=f'"{self.engine_etag}"',
            body=body,
            gzip_body=gzip_body,
            gzip_etag=f'"{self.engine_etag}.gz"',
            br_body=br_body,
            br_etag=f'"{self.engine_etag}.br"',
        )
        self.memo.record(request.scope, response)
        return response

    def _stdlib_gzip(self) -> bytes:
        """The stdlib's gzip, made at the first request (Brotli is made by `make`)."""
        assert self.bytecode is not None
        with self.stdlib_lock:
            if self.stdlib_gzip is None:
                self.stdlib_gzip = _gzip(self.bytecode.stdlib)
            return self.stdlib_gzip

    async def stdlib(self, request: Request) -> Response:
        code = self.bytecode
        if code is None or request.path_params["name"] != f"{code.stdlib_version}.zip":
            return PlainTextResponse("Not Found", status_code=404)
        gzip_body = await anyio.to_thread.run_sync(self._stdlib_gzip)
        return representation_response(
            request.headers,
            media_type="application/zip",
            headers=self._headers(request.url.path),
            etag=f'"{code.stdlib_version}"',
            body=code.stdlib,
            gzip_body=gzip_body,
            gzip_etag=f'"{code.stdlib_version}.gz"',
            br_body=code.stdlib_br,
            br_etag=f'"{code.stdlib_version}.br"',
        )

    async def start(self, request: Request) -> Response:
        text = request.query_params.get("request")
        status, body = await anyio.to_thread.run_sync(start_reply, text)
        return Response(
            body,
            status_code=status,
            media_type="application/json",
            headers=self._headers("/start.json"),
        )

    async def engine_info(self, request: Request) -> Response:
        return representation_response(
            request.headers,
            media_type="application/json",
            headers=self._headers("/engine.json"),
            etag=f'"{_short_hash(self.engine_json)}"',
            body=self.engine_json,
        )

    async def pyodide(self, request: Request) -> Response:
        relative: str = request.path_params["path"]
        headers = self._headers(request.url.path)
        first, sep, rest = relative.partition("/")
        if sep and self.pyodide_version and first == self.pyodide_version:
            relative = rest
        if relative not in PYODIDE_FILES:
            return PlainTextResponse("Not Found", status_code=404)
        return await self._file(self.pyodide_dir, relative, request, headers)

    async def static(self, request: Request) -> Response:
        relative: str = request.path_params["path"]
        for prefix, root in self.extra_static.items():
            if relative.startswith(prefix):
                rest = relative[len(prefix) :]
                return await self._file(root, rest, request, {"Cache-Control": NO_CACHE})
        if relative == "":
            relative = INDEX_FILE
        headers = self._headers(f"/{relative}")
        if relative == INDEX_FILE and self.sync:
            return await self._index(request, headers)
        return await self._file(self.web_dir, relative, request, headers)

    def _index_page(self) -> tuple[bytes, bytes] | None:
        """index.html with its ``spider-sync`` meta naming the service, and its gzip."""
        path = self.web_dir / INDEX_FILE
        try:
            st = path.stat()
            key = (st.st_mtime_ns, st.st_size)
            if self.index_page is None or self.index_page[0] != key:
                page = path.read_bytes().replace(SYNC_META_OFF, SYNC_META_ON)
                self.index_page = (key, page, _gzip(page))
        except OSError:
            return None
        return self.index_page[1], self.index_page[2]

    async def _index(self, request: Request, headers: Mapping[str, str]) -> Response:
        page = await anyio.to_thread.run_sync(self._index_page)
        if page is None:
            return PlainTextResponse("Not Found", status_code=404)
        body, gzip_body = page
        etag = _short_hash(body)
        return representation_response(
            request.headers,
            media_type=media_type_for(INDEX_FILE),
            headers=headers,
            etag=f'"{etag}"',
            body=body,
            gzip_body=gzip_body,
            gzip_etag=f'"{etag}.gz"',
        )

    async def _file(
        self, root: Path, relative: str, request: Request, headers: Mapping[str, str]
    ) -> Response:
        response = await file_response(
            self.cache, root, relative, request.headers, headers, self.memo, request.scope
        )
        if response is None:
            return PlainTextResponse("Not Found", status_code=404)
        return response


@dataclass(frozen=True)
class SiteFile:
    """One file of the app for a static host: its URL path and its bytes (or file).

    ``br`` is a Brotli of it made by ``make``, when there is one.
    """

    url: str
    data: bytes | None = None
    path: Path | None = None
    br: bytes | None = None

    def read(self) -> bytes:
        """The file's bytes."""
        if self.data is not None:
            return self.data
        assert self.path is not None
        return self.path.read_bytes()


def _short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def browser_url(host: str, port: int) -> str:
    """The URL a browser on this machine uses to reach ``host:port``."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def create_app(
    pyodide_dir: Path | None = None,
    *,
    web_dir: Path | None = None,
    engine_dir: Path | None = None,
    extra_static: Mapping[str, Path] | None = None,
    bytecode_dir: Path | None = None,
    fast_start: bool = True,
    snapshot: bool = True,
    sync: SyncService | None = None,
    solver: SolverApi | None = None,
) -> Starlette:
    """Build the app.

    ``pyodide_dir`` defaults to :func:`spider.serve.pyodide_runtime.default_pyodide_dir`,
    ``web_dir`` to ``spider/web/``, ``engine_dir`` (the package zipped into ``/engine.zip``) to the
    ``spider`` package itself, ``bytecode_dir`` to
    :func:`spider.serve.pyodide_runtime.default_bytecode_dir`. ``fast_start=False`` serves the plain
    start (sources only, no ``/start.json``); ``snapshot=False`` tells the worker not to use a
    memory snapshot (``snapshot`` in ``/engine.json``).
    ``extra_static`` maps URL prefixes (``"_test/"``, no leading slash, with a trailing one) to
    more directories, served with ``no-cache``: tests use it for their own pages. ``sync``:
    the sync service to answer under ``/api/sync`` (None: no sync, and the page offers none).
    ``solver``: the solver API to answer under ``/api/think`` and ``/api/review``
    (:mod:`spider.serve.solver_api`; None: none, ``/engine.json`` says ``"api": null`` and the
    page runs its searches in its worker).
    """
    extra = dict(extra_static or {})
    for prefix in extra:
        if prefix.startswith("/") or not prefix.endswith("/"):
            raise ValueError(f"extra_static prefix {excerpt(prefix)} must look like 'name/'")
    handlers = _App(
        web_dir=(web_dir or WEB_DIR),
        pyodide_dir=(pyodide_dir or default_pyodide_dir()),
        engine=build_engine_zip(engine_dir or PACKAGE_DIR),
        extra_static=extra,
        bytecode_dir=(bytecode_dir or default_bytecode_dir()) if fast_start else None,
        snapshot=snapshot,
        sync=sync is not None,
        solver_api=solver_api_info(solver),
    )
    routes: list[BaseRoute] = [
        *(sync.routes() if sync is not None else []),
        *(solver.routes() if solver is not None else []),
        Route("/healthz", handlers.healthz, methods=["GET", "HEAD"]),
        Route("/stdlib/{name}", handlers.stdlib, methods=["GET", "HEAD"]),
        Route("/engine.zip", handlers.engine_zip, methods=["GET", "HEAD"]),
        Route("/engine.json", handlers.engine_info, methods=["GET", "HEAD"]),
        *([Route("/start.json", handlers.start, methods=["GET", "HEAD"])] if fast_start else []),
        Route("/pyodide/{path:path}", handlers.pyodide, methods=["GET", "HEAD"]),
        Route("/{path:path}", handlers.static, methods=["GET", "HEAD"]),
    ]
    middleware = [
        Middleware(ReplayMiddleware, memo=handlers.memo),
        Middleware(SecurityMiddleware, open_paths=_open_paths(sync, solver)),
    ]
    app = Starlette(routes=routes, middleware=middleware)
    app.state.web_dir = handlers.web_dir
    app.state.pyodide_dir = handlers.pyodide_dir
    app.state.pyodide_version = handlers.pyodide_version
    app.state.engine = handlers.engine
    app.state.bytecode = handlers.bytecode
    app.state.site_files = handlers.site_files
    app.state.response_memo = handlers.memo  # spider.serve.http_protocol answers from it directly
    app.state.solver_api = solver
    return app


def _open_paths(sync: SyncService | None, solver: SolverApi | None) -> tuple[str, ...]:
    """The paths whose routes answer methods other than GET and HEAD themselves."""
    return (
        *((SYNC_PATH,) if sync is not None else ()),
        *((THINK_PATH, REVIEW_PATH) if solver is not None else ()),
    )


def _open_when_listening(host: str, port: int, url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    target = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((target, port), timeout=1.0):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(0.1)


@dataclass(frozen=True)
class ServeOptions:
    """How ``spider serve`` runs: worker processes and the timeouts of slow or idle clients.

    ``timeout_keep_alive``: seconds an idle connection stays open after a response;
    ``timeout_request``: seconds a request may take to arrive whole (from the connection or its
    first byte); ``timeout_send``: seconds a client may read nothing of a response
    (see :mod:`spider.serve.http_protocol`); ``sync``: where the sync service keeps its data (None:
    no sync service); ``solver``: the bounds of the solver API (None: no solver API, the page
    runs its searches in its worker).
    """

    workers: int = 1
    timeout_keep_alive: int = KEEP_ALIVE_TIMEOUT
    timeout_request: int = REQUEST_TIMEOUT
    timeout_send: int = SEND_TIMEOUT
    sync: SyncConfig | None = None
    solver: SolverLimits | None = field(default_factory=SolverLimits)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    options: ServeOptions | None = None,
) -> None:
    """Serve the app with uvicorn until interrupted.

    Raises:
        spider.serve.pyodide_runtime.RuntimeProblem: the Pyodide runtime is missing or not the
            pinned one (nothing is served: the page could not start).
        spider.serve.syncstore.StoreError: the sync database cannot be opened.
        spider.serve.listen.ListenProblem: it cannot listen on ``host:port`` (checked before
            the app is built).
    """
    import uvicorn

    from spider.serve.http_protocol import TimedHttpToolsProtocol, configure
    from spider.serve.listen import listen_sockets

    options = options or ServeOptions()
    check_runtime(default_pyodide_dir())
    sockets = listen_sockets(host, port)
    sync = options.sync.open() if options.sync is not None else None
    solver = SolverApi(options.solver) if options.solver is not None else None
    app = create_app(sync=sync, solver=solver)
    url = browser_url(host, port)
    _announce(app, url, sync, options)
    configure(float(options.timeout_request), float(options.timeout_send))
    if open_browser:
        threading.Thread(target=_open_when_listening, args=(host, port, url), daemon=True).start()
    settings: dict[str, Any] = {
        "host": host,
        "port": port,
        "server_header": False,
        "log_level": "info",
        "http": TimedHttpToolsProtocol,
        "loop": "asyncio",
        "timeout_keep_alive": options.timeout_keep_alive,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
    }
    if options.workers > 1:
        # Each worker process builds its own app (the same as above) and shares the sockets.
        del app
        if sync is not None:
            sync.store.close()
        _serve_workers(options, settings, sockets)
        return
    try:
        uvicorn.Server(uvicorn.Config(app, **settings)).run(sockets=sockets)
    finally:
        if sync is not None:
            sync.store.close()


def _announce(app: Starlette, url: str, sync: SyncService | None, options: ServeOptions) -> None:
    """What ``spider serve`` serves, where, and from which files, on stderr."""
    state = app.state
    workers = options.workers
    print(
        f"spider serve: {url} (spider-solitaire {__version__}, engine {state.engine.version}, "
        f"{len(state.engine.files)} files; Pyodide {state.pyodide_version} "
        f"from {state.pyodide_dir}; {workers} worker(s))",
        file=sys.stderr,
    )
    if sync is not None:
        print(
            f"spider serve: sync at {SYNC_PATH}, data in {sync.store.kind} {sync.store.location}",
            file=sys.stderr,
        )
    if options.solver is not None:
        limits = options.solver
        print(
            f"spider serve: think and review at {THINK_PATH} and {REVIEW_PATH} "
            f"(at most {limits.think_seconds:g} s and {limits.review_seconds:g} s; "
            f"{limits.total} at once, {limits.per_client} per client address"
            + (", in each worker)" if workers > 1 else ")"),
            file=sys.stderr,
        )
    if state.bytecode is None:
        print(
            "spider serve: warning: no bytecode built for this engine (run `make`): "
            "the app starts from sources, slower",
            file=sys.stderr,
        )


def _serve_workers(
    options: ServeOptions, settings: dict[str, Any], sockets: list[socket.socket]
) -> None:
    """Serve on ``options.workers`` processes sharing ``sockets``, each building its own app
    (:func:`worker_app`) with the sync configuration passed on in the environment."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    if options.sync is not None:
        os.environ[SYNC_ENV] = options.sync.to_env()
    if options.solver is not None:
        os.environ[SOLVER_ENV] = options.solver.to_env()
    config = uvicorn.Config(
        "spider.serve.app:worker_app", factory=True, workers=options.workers, **settings
    )
    Multiprocess(config, sockets=sockets).run()


def worker_app() -> Starlette:
    """The app of one of several worker processes: :func:`create_app` with the sync service
    and the solver API that :func:`serve` passed on in the environment."""
    config = SyncConfig.from_env()
    limits = SolverLimits.from_env()
    return create_app(
        sync=config.open() if config is not None else None,
        solver=SolverApi(limits) if limits is not None else None,
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m spider.serve.app [--host H] [--port P] [--open]``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m spider.serve.app",
        description="Serve the app with uvicorn until interrupted.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--open", action="store_true", help="open a browser tab")
    args = parser.parse_args(argv)
    try:
        serve(args.host, args.port, args.open)
    except (RuntimeProblem, ListenProblem) as problem:
        print(f"spider serve: error: {problem}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
