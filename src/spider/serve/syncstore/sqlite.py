"""The SQLite backend of the sync store: one file, WAL journal, ``synchronous=FULL``.

Reads take a connection from a few kept open; the writes of a process share one, taking
turns on a lock (SQLite's busy handler would have them sleep and poll instead, up to 100 ms at
a time, while another commits). A write is one ``BEGIN IMMEDIATE`` transaction (it takes the
database's write lock first, so its read of the current revision cannot be overtaken by
another process's write); with ``synchronous=FULL`` its ``COMMIT`` returns only once the WAL
is on disk, so a write acknowledged survives the process being killed and the machine losing
power.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spider.serve.syncstore import Blob, Conflict, StoreError, SyncStore
from spider.serve.syncstore.migrations import SQLITE_STEPS, apply_steps

#: Seconds a connection waits for another's write lock before giving up.
BUSY_TIMEOUT = 30.0
#: Idle read connections kept open at most.
MAX_IDLE = 8


class SqliteStore(SyncStore):
    """Blobs in the SQLite file ``path`` (created, with its directory, if need be)."""

    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._writing = threading.Lock()
        self._writer: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = self._connect()
            self._migrate()
        except (OSError, sqlite3.Error) as error:
            self.close()
            raise StoreError(f"cannot open the sync database {path}: {error}") from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for reads, from the idle ones (at most :data:`MAX_IDLE` are kept)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        finally:
            with self._lock:
                keep = len(self._idle) < MAX_IDLE
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the writer's connection, holding the write lock from its
        start (the writers of this process one at a time)."""
        with self._writing:
            conn = self._writer
            if conn is None:
                raise StoreError("the sync database is closed")
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _migrate(self) -> None:
        with self._write() as conn:
            apply_steps(conn.execute, SQLITE_STEPS, "?")

    def schema_version(self) -> int:
        with self._reading() as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0])

    def get(self, key: str) -> Blob | None:
        with self._reading() as conn:
            row = conn.execute("SELECT rev, data FROM sync_blobs WHERE id = ?", (key,)).fetchone()
        if row is None or row[1] is None:
            return None
        return Blob(int(row[0]), bytes(row[1]))

    def _swap(self, key: str, expected_rev: int, data: bytes | None) -> int | Conflict:
        """Replace the blob (``data`` None: delete it) when its revision is ``expected_rev``."""
        with self._write() as conn:
            row = conn.execute("SELECT rev, data FROM sync_blobs WHERE id = ?", (key,)).fetchone()
            rev, stored = (0, None) if row is None else (int(row[0]), row[1])
            live = stored is not None
            if (live and expected_rev != rev) or (not live and (expected_rev != 0 or data is None)):
                return Conflict(rev, None if stored is None else bytes(stored))
            now = int(time.time() * 1000)
            conn.execute(
                "INSERT INTO sync_blobs (id, rev, data, updated_ms) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, data = excluded.data, "
                "updated_ms = excluded.updated_ms",
                (key, rev + 1, data, now),
            )
            return rev + 1

    def put(self, key: str, expected_rev: int, data: bytes) -> int | Conflict:
        return self._swap(key, expected_rev, data)

    def delete(self, key: str, expected_rev: int) -> int | Conflict:
        return self._swap(key, expected_rev, None)

    def close(self) -> None:
        with self._writing, self._lock:
            for conn in [*self._idle, *([self._writer] if self._writer else [])]:
                conn.close()
            self._idle.clear()
            self._writer = None
