"""Static file serving for :mod:`spider.serve.app`: safe lookup, MIME types, ETags, Brotli, gzip.

Why not Starlette's ``StaticFiles`` + ``GZipMiddleware``? We want, all at once:

- a strict lookup: no directory listings, no dot files, no ``..``/``.``/empty segments, no
  back-slashes or NUL, nothing whose real path (symlinks resolved) leaves the root: all 404;
- our own MIME table (the ``mimetypes`` module depends on the host's ``/etc/mime.types``);
- strong ETags from the content (sha256), so they survive restarts and copies;
- gzip that does not break ranges or ETags: a compressible file is gzipped once, kept in a
  bounded in-memory cache, and served with its own ETag (``"<hash>.gz"``) and
  ``Vary: Accept-Encoding``; a request with ``Range`` gets the identity bytes through
  Starlette's ``FileResponse`` (206/416, ``If-Range``); a gzip that saves under 10 % (an already
  deflated zip such as Pyodide's ``python_stdlib.zip``, images) is not used;
- Brotli, preferred over gzip when the browser accepts it, with its own ETag (``"<hash>.br"``):
  the ``<name>.br`` beside a file when ``make`` made one (quality 11, for the large Pyodide
  files) and it decompresses to exactly that file, else made once in memory (quality 9) for
  files up to 4 MB.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path

import anyio.to_thread
import brotli  # type: ignore[import-untyped]
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.types import Receive, Scope, Send

MIME_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".ts": "text/plain; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".xml": "application/xml",
}
DEFAULT_MIME = "application/octet-stream"

#: Media types worth trying to gzip (anything ``text/*`` is too).
COMPRESSIBLE = frozenset(
    {
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "application/wasm",
        "application/xml",
        "image/svg+xml",
        "image/x-icon",
        # engine.zip is stored uncompressed; an already deflated zip fails the 10 % test.
        "application/zip",
    }
)
#: The most URL paths whose lookup is remembered (then the memory starts again).
MAX_RESOLVED = 4096
#: Below this many bytes gzip is not worth a round of CPU.
MIN_COMPRESS_SIZE = 1024
#: Files larger than this are always streamed from disk, never gzipped in memory.
MAX_COMPRESS_SIZE = 64 * 1024 * 1024
#: A gzip is used only when it is at most this fraction of the original.
MAX_GZIP_RATIO = 0.9
GZIP_LEVEL = 6
#: Brotli made on the fly (a file with no ``.br`` made at build time) uses this quality.
BROTLI_QUALITY = 9
#: ... and only for files up to this size (the larger ones are precompressed by ``make``).
MAX_BROTLI_INLINE = 4 * 1024 * 1024
#: Files up to this size are kept in memory whole (with their gzip and Brotli), so a request
#: costs no disk read and no thread; larger ones are streamed from disk.
MAX_MEMORY_FILE = 32 * 1024 * 1024
#: An in-memory body is sent in pieces of this size, each when the client has taken the last
#: (uvicorn's flow control): a slow reader holds no copy of the file.
SEND_CHUNK = 64 * 1024
#: The Brotli of a file made at build time, beside it: ``<name>.br``.
BROTLI_SUFFIX = ".br"


def compress_br(data: bytes, quality: int = BROTLI_QUALITY) -> bytes:
    """Brotli of ``data`` (quality 11 is the smallest and slowest, for build time)."""
    out: bytes = brotli.compress(data, quality=quality, lgwin=24)
    return out


def same_after_br(data: bytes, compressed: bytes) -> bool:
    """Whether ``compressed`` is a Brotli of exactly ``data`` (a stale or broken one is not)."""
    try:
        return bool(brotli.decompress(compressed) == data)
    except brotli.error:
        return False


def media_type_for(name: str) -> str:
    return MIME_TYPES.get(os.path.splitext(name)[1].lower(), DEFAULT_MIME)


def is_compressible(media_type: str) -> bool:
    base = media_type.partition(";")[0].strip().lower()
    return base.startswith("text/") or base in COMPRESSIBLE


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (``q=0`` refuses it)."""
    return accepts(accept_encoding, ("gzip", "x-gzip"))


def accepts_br(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows Brotli (``q=0`` refuses it)."""
    return accepts(accept_encoding, ("br",))


def accepts(accept_encoding: str | None, codings: tuple[str, ...]) -> bool:
    """Whether an ``Accept-Encoding`` value allows one of ``codings`` (``q=0`` refuses it)."""
    if not accept_encoding:
        return False
    star: bool | None = None
    for item in accept_encoding.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        coding = coding.lower()
        if coding in codings:
            return q > 0
        if coding == "*":
            star = q > 0
    return bool(star)


def safe_path(root: Path, relative: str) -> Path | None:
    """The regular file ``relative`` (URL path, ``/``-separated, decoded) under ``root``.

    None for anything that is not a plain file strictly inside ``root``: empty path or segment
    (directories, ``//``, a trailing ``/``), ``.``/``..``, dot files, back-slashes, NUL, and
    symlinks whose target lies outside the root.
    """
    if not relative or "\x00" in relative or "\\" in relative:
        return None
    parts = relative.split("/")
    if any(not part or part.startswith(".") for part in parts):
        return None
    try:
        root_real = os.path.realpath(root)
        real = os.path.realpath(os.path.join(root_real, *parts))
        if os.path.commonpath([root_real, real]) != root_real or real == root_real:
            return None
        if not stat.S_ISREG(os.stat(real).st_mode):
            return None
    except (OSError, ValueError):
        return None
    return Path(real)


@dataclass(frozen=True)
class Representation:
    """What we know about one file version: its hash and, maybe, a worthwhile gzip and Brotli."""

    etag: str
    gzip_etag: str | None
    gzip_body: bytes | None
    br_etag: str | None = None
    br_body: bytes | None = None
    #: The file's own bytes, kept when it is at most :data:`MAX_MEMORY_FILE` bytes.
    body: bytes | None = None

    @property
    def size(self) -> int:
        """Bytes held in memory."""
        return len(self.gzip_body or b"") + len(self.br_body or b"") + len(self.body or b"")


class FileCache:
    """Files' bytes, content hashes, gzip and Brotli, keyed by path and stat, bounded in bytes.

    The app's own files (the front end and Pyodide's, about 60 MB with their compressed
    forms) fit; past the bound the least recently used are dropped.
    """

    def __init__(self, max_bytes: int = 256 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, int, int, int], Representation] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._key_locks: dict[tuple[str, int, int, int], threading.Lock] = {}
        # URL path under a root -> the real path it named and that file's stat key.
        self._resolved: dict[tuple[str, str], tuple[Path, tuple[str, int, int, int]]] = {}

    def known(
        self, root: Path, relative: str
    ) -> tuple[Path, os.stat_result, Representation] | None:
        """A file looked up before and unchanged since (one ``stat``, no thread), else None."""
        seen = self._resolved.get((str(root), relative))
        if seen is None:
            return None
        path, key = seen
        try:
            st = os.stat(path)
        except OSError:
            return None
        if self.key(path, st) != key:
            return None
        with self._lock:
            rep = self._entries.get(key)
        return None if rep is None else (path, st, rep)

    def load(self, root: Path, relative: str) -> tuple[Path, os.stat_result, Representation] | None:
        """Blocking: look ``relative`` up safely under ``root``, read and compress it once."""
        path = safe_path(root, relative)
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        rep = self.get(path, st, media_type_for(path.name))
        with self._lock:
            if len(self._resolved) >= MAX_RESOLVED and (str(root), relative) not in self._resolved:
                self._resolved.clear()
            self._resolved[(str(root), relative)] = (path, self.key(path, st))
        return path, st, rep

    @staticmethod
    def key(path: Path, st: os.stat_result) -> tuple[str, int, int, int]:
        return (str(path), st.st_size, st.st_mtime_ns, st.st_ino)

    def get(self, path: Path, st: os.stat_result, media_type: str) -> Representation:
        """Blocking: hash (and maybe gzip) the file once per version."""
        key = self.key(path, st)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._entries:
                    return self._entries[key]
            rep = self._compute(path, st, media_type)
            with self._lock:
                self._store(key, rep)
                self._key_locks.pop(key, None)
            return rep

    def _compute(self, path: Path, st: os.stat_result, media_type: str) -> Representation:
        worth_gzip = (
            is_compressible(media_type) and MIN_COMPRESS_SIZE <= st.st_size <= MAX_COMPRESS_SIZE
        )
        if worth_gzip or st.st_size <= MAX_MEMORY_FILE:
            data = path.read_bytes()
            kept = data if len(data) <= MAX_MEMORY_FILE else None
            digest = hashlib.sha256(data).hexdigest()[:32]
            if not worth_gzip:
                return Representation(f'"{digest}"', None, None, body=kept)
            compressed = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
            if len(compressed) > MAX_GZIP_RATIO * len(data):
                return Representation(f'"{digest}"', None, None, body=kept)
            br = self._brotli(path, data)
            return Representation(
                f'"{digest}"',
                f'"{digest}.gz"',
                compressed,
                None if br is None else f'"{digest}.br"',
                br,
                body=kept,
            )
        sha = hashlib.sha256()
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                sha.update(chunk)
        return Representation(f'"{sha.hexdigest()[:32]}"', None, None)

    @staticmethod
    def _brotli(path: Path, data: bytes) -> bytes | None:
        """The ``.br`` made at build time if it holds this very file, else a Brotli made now."""
        try:
            made = path.with_name(path.name + BROTLI_SUFFIX).read_bytes()
        except OSError:
            made = None
        if made is not None and same_after_br(data, made):
            return made
        if len(data) > MAX_BROTLI_INLINE:
            return None
        return compress_br(data)

    def _store(self, key: tuple[str, int, int, int], rep: Representation) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= old.size
        self._entries[key] = rep
        self._bytes += rep.size
        while self._bytes > self.max_bytes and len(self._entries) > 1:
            _, evicted = self._entries.popitem(last=False)
            self._bytes -= evicted.size


async def send_body(send: Send, body: bytes) -> None:
    """Send ``body`` in pieces of :data:`SEND_CHUNK` (see :class:`BytesResponse`)."""
    if len(body) <= SEND_CHUNK:
        await send({"type": "http.response.body", "body": body})
        return
    view = memoryview(body)
    for start in range(0, len(body), SEND_CHUNK):
        piece = bytes(view[start : start + SEND_CHUNK])
        more = start + SEND_CHUNK < len(body)
        await send({"type": "http.response.body", "body": piece, "more_body": more})


class BytesResponse(Response):
    """An in-memory body whose ``Content-Length`` stays right for ``HEAD``.

    The body goes out in pieces of :data:`SEND_CHUNK` bytes; the server takes the next piece
    only when the client has read enough of the last (flow control), so a client that reads
    slowly never makes the server copy the whole body into a send buffer.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        head = scope.get("method", "GET").upper() == "HEAD"
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        await send_body(send, b"" if head else bytes(self.body))


def _etag_matches(if_none_match: str, etags: Iterable[str | None]) -> bool:
    if if_none_match.strip() == "*":
        return True
    wanted = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return any(tag is not None and tag in wanted for tag in etags)


def _not_modified_since(request: Headers, mtime: float | None) -> bool:
    value = request.get("if-modified-since")
    if value is None or mtime is None or "if-none-match" in request:
        return False
    try:
        since = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    return int(mtime) <= since


def representation_response(
    request: Headers,
    *,
    media_type: str,
    headers: Mapping[str, str],
    etag: str,
    body: bytes | None = None,
    gzip_body: bytes | None = None,
    gzip_etag: str | None = None,
    br_body: bytes | None = None,
    br_etag: str | None = None,
    path: Path | None = None,
    st: os.stat_result | None = None,
) -> Response:
    """Choose the representation (Brotli, gzip or identity), answer 304s, build the response.

    Give either ``body`` (in memory) or ``path`` and ``st`` (streamed from disk, with ranges).
    """
    out = dict(headers)
    has_gzip = gzip_body is not None and gzip_etag is not None
    has_br = br_body is not None and br_etag is not None
    if has_gzip or has_br or is_compressible(media_type):
        out["Vary"] = "Accept-Encoding"
    # A range of a file is served from its identity bytes on disk (Starlette handles ranges);
    # a body that exists only in memory ignores ranges.
    encode = "range" not in request or path is None
    accept = request.get("accept-encoding")
    use_br = has_br and encode and accepts_br(accept)
    use_gzip = not use_br and has_gzip and encode and accepts_gzip(accept)
    chosen_etag = (br_etag if use_br else gzip_etag if use_gzip else etag) or etag
    out["ETag"] = chosen_etag
    mtime = st.st_mtime if st is not None else None
    if mtime is not None:
        out["Last-Modified"] = formatdate(mtime, usegmt=True)

    if_none_match = request.get("if-none-match")
    all_etags = (etag, gzip_etag, br_etag)
    if (if_none_match is not None and _etag_matches(if_none_match, all_etags)) or (
        _not_modified_since(request, mtime)
    ):
        keep = ("cache-control", "etag", "vary", "last-modified", "x-pyodide-version")
        return Response(
            status_code=304, headers={k: v for k, v in out.items() if k.lower() in keep}
        )

    if use_br:
        assert br_body is not None
        out["Content-Encoding"] = "br"
        return BytesResponse(br_body, media_type=media_type, headers=out)
    if use_gzip:
        assert gzip_body is not None
        out["Content-Encoding"] = "gzip"
        return BytesResponse(gzip_body, media_type=media_type, headers=out)
    if body is not None and encode:
        return BytesResponse(body, media_type=media_type, headers=out)
    assert path is not None and st is not None
    return FileResponse(path, media_type=media_type, headers=out, stat_result=st)


async def file_response(
    cache: FileCache,
    root: Path,
    relative: str,
    request: Headers,
    headers: Mapping[str, str],
    memo: ResponseMemo | None = None,
    scope: Scope | None = None,
) -> Response | None:
    """The response for ``relative`` under ``root``, or None when there is no such file.

    With ``memo`` and the request's ``scope``, a plain request's answer is kept there.

    A file served before is answered from memory without leaving the event loop (one
    ``stat`` checks it has not changed); a new or changed one is looked up, read and
    compressed in a thread.
    """
    found = cache.known(root, relative)
    if found is None:
        found = await anyio.to_thread.run_sync(cache.load, root, relative)
        if found is None:
            return None
    path, st, rep = found
    media_type = media_type_for(path.name)
    response = representation_response(
        request,
        media_type=media_type,
        headers=headers,
        etag=rep.etag,
        gzip_body=rep.gzip_body,
        gzip_etag=rep.gzip_etag,
        br_body=rep.br_body,
        br_etag=rep.br_etag,
        body=rep.body,
        path=path,
        st=st,
    )
    if memo is not None and scope is not None:
        memo.record(scope, response, path, st)
    return response


#: Request headers that make an answer depend on more than the file and the encoding.
CONDITIONAL_HEADERS = frozenset(
    {b"range", b"if-range", b"if-none-match", b"if-modified-since", b"if-match"}
)
#: The most answers :class:`ResponseMemo` keeps (then it starts again).
MAX_REPLAYS = 1024


def encoding_key(accept_encoding: str | None) -> str:
    """The coding a client accepts that the server prefers: ``br``, ``gzip`` or ``identity``."""
    if accepts_br(accept_encoding):
        return "br"
    return "gzip" if accepts_gzip(accept_encoding) else "identity"


@dataclass(frozen=True)
class Replay:
    """A complete answer for one file version and coding: raw headers and body."""

    path: Path | None  # None: a body made by the server, the same for its whole run
    key: tuple[str, int, int, int] | None
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    #: The header lines as they go on the wire (``name: value\r\n`` each), for a server
    #: protocol that writes the answer itself (:mod:`spider.serve.http_protocol`).
    header_lines: bytes


class ResponseMemo:
    """The answers to plain requests (GET or HEAD, no query, no range, nothing conditional) for
    files, kept whole with every header, so the next such request for an unchanged file is
    answered without routing, thread or header building: one ``stat`` and two sends.

    ``extra_headers`` are added to each recorded answer (the security headers, which a
    middleware adds to the answers it sees).
    """

    def __init__(self, extra_headers: Mapping[str, str]) -> None:
        self.extra = [
            (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra_headers.items()
        ]
        self._replays: dict[tuple[str, str], Replay] = {}

    @staticmethod
    def plain_key(scope: Scope) -> tuple[str, str] | None:
        """(path, coding) of a plain request, else None."""
        if scope.get("method") not in ("GET", "HEAD") or scope.get("query_string"):
            return None
        accept: str | None = None
        for name, value in scope.get("headers", ()):
            if name in CONDITIONAL_HEADERS:
                return None
            if name == b"accept-encoding":
                accept = value.decode("latin-1")
        return str(scope.get("path", "")), encoding_key(accept)

    def find(self, scope: Scope) -> Replay | None:
        """The kept answer for this request, if it is plain and the file has not changed."""
        key = self.plain_key(scope)
        replay = None if key is None else self._replays.get(key)
        if replay is None or replay.path is None:
            return replay
        try:
            st = os.stat(replay.path)
        except OSError:
            return None
        return replay if FileCache.key(replay.path, st) == replay.key else None

    def record(
        self,
        scope: Scope,
        response: Response,
        path: Path | None = None,
        st: os.stat_result | None = None,
    ) -> None:
        """Keep ``response`` (a :class:`BytesResponse` for the file at ``path``, or without a
        ``path`` a body fixed for the server's run) if the request was plain."""
        key = self.plain_key(scope)
        if key is None or not isinstance(response, BytesResponse) or response.status_code != 200:
            return
        if len(self._replays) >= MAX_REPLAYS:
            self._replays.clear()
        headers = [*response.raw_headers, *self.extra]
        body = bytes(response.body)
        file_key = None if path is None or st is None else FileCache.key(path, st)
        lines = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        self._replays[key] = Replay(path, file_key, response.status_code, headers, body, lines)

    @staticmethod
    async def send(replay: Replay, scope: Scope, send: Send) -> None:
        """Send a kept answer."""
        await send(
            {"type": "http.response.start", "status": replay.status, "headers": replay.headers}
        )
        await send_body(send, b"" if scope.get("method") == "HEAD" else replay.body)
