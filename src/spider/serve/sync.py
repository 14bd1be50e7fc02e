"""The sync service of ``spider serve``: encrypted blobs under key ids, written by compare and set.

Devices that share a sync key keep one blob under its key id (64 lowercase hex characters,
derived from the key in the browser, which also encrypts the blob: the server reads nothing of
it). The routes (docs/sync.md, "HTTP API"):

- ``GET /api/sync`` → ``{"sync": 1, "maxBlobBytes": N}``;
- ``GET /api/sync/{id}`` → ``{"rev": r, "data": "<base64url>"}`` or 404 ``not-found``;
- ``PUT /api/sync/{id}`` with ``{"rev": r, "data": "<base64url>"}`` (``r`` the revision read, 0
  to create) → ``{"rev": r + 1}`` once durable, or 409 ``conflict`` with the stored ``rev`` and
  ``data``, or 404 ``not-found`` when ``r`` > 0 and nothing is stored;
- ``DELETE /api/sync/{id}`` with ``{"rev": r}`` → ``{"rev": ...}``, 409 ``conflict`` or 404.

Every refusal is ``{"error": {"code": ..., "message": ...}}`` with a stable code:
``bad-request`` (400), ``bad-key`` (400), ``not-found`` (404), ``method-not-allowed`` (405),
``conflict`` (409), ``too-large`` (413), ``rate-limited`` (429, with ``Retry-After``),
``unavailable`` (503: the database failed). A body is refused from its ``Content-Length`` before
it is read, and while it streams in once it passes :data:`MAX_BODY_BYTES`. Writes (PUT and
DELETE) are limited per key id and per client address by token buckets
(:mod:`spider.serve.rate_limit`).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from spider.serve.rate_limit import Rate, RateLimiter, retry_after
from spider.serve.syncstore import Blob, Conflict, SyncStore, open_store

#: The URL of the service; blobs are under it (``/api/sync/{id}``).
SYNC_PATH = "/api/sync"
#: The page offers sync when its ``index.html`` names the service here (empty: no sync).
SYNC_META_OFF = b'<meta name="spider-sync" content="">'
SYNC_META_ON = b'<meta name="spider-sync" content="/api/sync">'
#: The largest blob stored, in bytes (decoded): a backup document, gzipped and encrypted, is
#: far smaller (a long game's history is tens of kilobytes).
MAX_BLOB_BYTES = 1024 * 1024
#: The largest request body: the blob in base64url and the JSON around it.
MAX_BODY_BYTES = 4 * math.ceil(MAX_BLOB_BYTES / 3) + 1024
#: Writes per key id a minute (on average; a third of it at once: see :func:`rate`).
KEY_WRITES_PER_MINUTE = 60
#: Writes per client address a minute (a whole household or school behind one address).
CLIENT_WRITES_PER_MINUTE = 600
#: Revisions are at most this (a client's number beyond it is refused, never stored).
MAX_REV = 2**62
KEY_ID = re.compile(r"[0-9a-f]{64}")
BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
WRITE_METHODS = ("PUT", "DELETE")
BLOB_METHODS = ("GET", "HEAD", "PUT", "DELETE")
NO_STORE = {"Cache-Control": "no-store"}

#: How ``spider serve`` passes its sync configuration to its worker processes.
SYNC_ENV = "SPIDER_SYNC"

log = logging.getLogger("spider.sync")


def rate(per_minute: float) -> Rate:
    """``per_minute`` writes a minute on average, a third of a minute's worth at once (0: no
    limit)."""
    return Rate(per_minute=per_minute, burst=max(1, round(per_minute / 3)))


@dataclass(frozen=True)
class SyncLimits:
    """The limits of the service (rates of 0 a minute: no limit)."""

    max_blob_bytes: int = MAX_BLOB_BYTES
    key_rate: Rate = field(default_factory=lambda: rate(KEY_WRITES_PER_MINUTE))
    client_rate: Rate = field(default_factory=lambda: rate(CLIENT_WRITES_PER_MINUTE))

    @property
    def max_body_bytes(self) -> int:
        return 4 * math.ceil(self.max_blob_bytes / 3) + 1024


@dataclass(frozen=True)
class SyncConfig:
    """Where ``spider serve`` keeps sync data (``database``: a PostgreSQL URL; else SQLite in
    ``data_dir``, by default :func:`spider.serve.syncstore.default_data_dir`) and its limits."""

    database: str | None = None
    data_dir: Path | None = None
    key_writes_per_minute: float = KEY_WRITES_PER_MINUTE
    client_writes_per_minute: float = CLIENT_WRITES_PER_MINUTE

    def open(self) -> SyncService:
        """The service on its store, opened and migrated.

        Raises:
            spider.serve.syncstore.StoreError: the database cannot be opened.
        """
        store = open_store(self.database, self.data_dir)
        limits = SyncLimits(
            key_rate=rate(self.key_writes_per_minute),
            client_rate=rate(self.client_writes_per_minute),
        )
        return SyncService(store, limits)

    def to_env(self) -> str:
        """This configuration as the value of :data:`SYNC_ENV`."""
        return json.dumps(
            {
                "database": self.database,
                "data_dir": None if self.data_dir is None else str(self.data_dir),
                "key": self.key_writes_per_minute,
                "client": self.client_writes_per_minute,
            }
        )

    @staticmethod
    def from_env() -> SyncConfig | None:
        """The configuration in :data:`SYNC_ENV`, or None (no sync)."""
        text = os.environ.get(SYNC_ENV)
        if not text:
            return None
        value = json.loads(text)
        return SyncConfig(
            database=value["database"],
            data_dir=None if value["data_dir"] is None else Path(value["data_dir"]),
            key_writes_per_minute=float(value["key"]),
            client_writes_per_minute=float(value["client"]),
        )


class ApiError(Exception):
    """A refusal: HTTP status, stable code, message (and extra headers)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def json_response(body: dict[str, Any], status: int = 200, **headers: str) -> Response:
    """A JSON answer that no cache keeps."""
    data = json.dumps(body, separators=(",", ":")).encode("utf-8")
    return Response(
        data, status_code=status, media_type="application/json", headers={**NO_STORE, **headers}
    )


def error_response(error: ApiError) -> Response:
    """The error body of the service for ``error``."""
    body = {"error": {"code": error.code, "message": error.message}}
    return json_response(body, error.status, **error.headers)


def encode(data: bytes) -> str:
    """``data`` as base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def decode(text: str) -> bytes:
    """base64url (padding optional) to bytes; :class:`ApiError` ``bad-request`` if it is not."""
    if not BASE64URL.fullmatch(text) or len(text.rstrip("=")) % 4 == 1:
        raise ApiError(400, "bad-request", "data must be base64url (A-Z a-z 0-9 - _)")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise ApiError(400, "bad-request", "data must be base64url (A-Z a-z 0-9 - _)") from None


def check_key(key: str) -> str:
    """The key id of a URL, or :class:`ApiError` ``bad-key``."""
    if not KEY_ID.fullmatch(key):
        raise ApiError(400, "bad-key", "the key id must be 64 lowercase hexadecimal characters")
    return key


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) from its ``Content-Length`` or as soon as more than
    ``limit`` bytes have arrived, without reading the rest."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise ApiError(400, "bad-request", "Content-Length must be a number")
        if int(length) > limit:
            raise ApiError(413, "too-large", f"the request body is over {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "too-large", f"the request body is over {limit:,} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        # The client hung up, or the server's own body cap cut the request off.
        raise ApiError(400, "bad-request", "the request body did not arrive whole") from None
    return b"".join(chunks)


def parse_body(body: bytes, fields: tuple[str, ...]) -> dict[str, Any]:
    """The body as a JSON object with exactly ``fields`` (``rev``: an int from 0;
    ``data``: a string), or :class:`ApiError` ``bad-request``."""
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "bad-request", "the body must be a JSON object") from None
    if not isinstance(value, dict):
        raise ApiError(400, "bad-request", "the body must be a JSON object")
    if sorted(value) != sorted(fields):
        raise ApiError(400, "bad-request", f"the body must have exactly: {', '.join(fields)}")
    rev = value["rev"]
    if isinstance(rev, bool) or not isinstance(rev, int) or not 0 <= rev <= MAX_REV:
        raise ApiError(400, "bad-request", "rev must be a whole number from 0")
    if "data" in fields and not isinstance(value["data"], str):
        raise ApiError(400, "bad-request", "data must be a base64url string")
    return value


def conflict(found: Conflict) -> ApiError | Response:
    """The answer to a refused write: 404 when nothing is stored, else 409 with the blob."""
    if found.data is None:
        return ApiError(404, "not-found", "nothing is stored under this key id (write rev 0)")
    body = {
        "error": {"code": "conflict", "message": "the blob has changed: merge and write again"},
        "rev": found.rev,
        "data": encode(found.data),
    }
    return json_response(body, 409)


class SyncService:
    """The routes of the sync service over one :class:`~spider.serve.syncstore.SyncStore`."""

    def __init__(self, store: SyncStore, limits: SyncLimits | None = None) -> None:
        self.store = store
        self.limits = limits or SyncLimits()
        self.by_key = RateLimiter(self.limits.key_rate)
        self.by_client = RateLimiter(self.limits.client_rate)

    def routes(self) -> list[BaseRoute]:
        """``/api/sync`` and ``/api/sync/{id}`` (any method: others are answered 405)."""
        every = ["GET", "HEAD", "PUT", "DELETE", "POST", "PATCH", "OPTIONS"]
        return [
            Route(SYNC_PATH, self.info, methods=every),
            Route(SYNC_PATH + "/{key:path}", self.blob, methods=every),
        ]

    async def info(self, request: Request) -> Response:
        """``GET /api/sync``: that the service is here, and its blob size limit."""
        if request.method not in ("GET", "HEAD"):
            return error_response(_not_allowed(("GET", "HEAD")))
        return json_response({"sync": 1, "maxBlobBytes": self.limits.max_blob_bytes})

    async def blob(self, request: Request) -> Response:
        """``/api/sync/{id}``: GET, PUT or DELETE one blob."""
        try:
            if request.method not in BLOB_METHODS:
                raise _not_allowed(BLOB_METHODS)
            key = check_key(request.path_params["key"])
            if request.method in WRITE_METHODS:
                self._limit(request, key)
                return await self._write(request, key)
            blob: Blob | None = await self._call(self.store.get, key)
            if blob is None:
                raise ApiError(404, "not-found", "nothing is stored under this key id")
            return json_response({"rev": blob.rev, "data": encode(blob.data)})
        except ApiError as error:
            return error_response(error)

    async def _write(self, request: Request, key: str) -> Response:
        body = await read_body(request, self.limits.max_body_bytes)
        if request.method == "DELETE":
            rev = parse_body(body, ("rev",))["rev"]
            result = await self._call(self.store.delete, key, rev)
        else:
            fields = parse_body(body, ("rev", "data"))
            data = decode(fields["data"])
            if len(data) > self.limits.max_blob_bytes:
                raise ApiError(
                    413, "too-large", f"the blob is over {self.limits.max_blob_bytes:,} bytes"
                )
            if not data:
                raise ApiError(400, "bad-request", "data must not be empty")
            result = await self._call(self.store.put, key, fields["rev"], data)
        if isinstance(result, Conflict):
            answer = conflict(result)
            if isinstance(answer, ApiError):
                raise answer
            return answer
        return json_response({"rev": result})

    def _limit(self, request: Request, key: str) -> None:
        """Refuse (429) a write beyond the rate of its client address or its key id."""
        client = request.client.host if request.client is not None else ""
        for limiter, name, what in (
            (self.by_client, client, "from this address"),
            (self.by_key, key, "to this key id"),
        ):
            wait = limiter.take(name)
            if wait > 0:
                raise ApiError(
                    429,
                    "rate-limited",
                    f"too many writes {what}: try again in {retry_after(wait)} s",
                    {"Retry-After": retry_after(wait)},
                )

    async def _call(self, method: Any, *args: Any) -> Any:
        """Run a store method in a thread; a database failure is 503 ``unavailable``."""
        try:
            return await anyio.to_thread.run_sync(method, *args)
        except Exception as error:
            log.error("sync store failed: %s", " ".join(str(error).split()) or type(error))
            raise ApiError(503, "unavailable", "the sync database is unavailable") from None


def _not_allowed(methods: tuple[str, ...]) -> ApiError:
    return ApiError(
        405,
        "method-not-allowed",
        f"use {', '.join(methods)}",
        {"Allow": ", ".join(methods)},
    )
