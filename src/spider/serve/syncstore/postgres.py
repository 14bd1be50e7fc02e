"""The PostgreSQL backend of the sync store, through psycopg 3 and its connection pool.

A write is one transaction: the row is read ``FOR UPDATE`` (a concurrent writer of the same key
waits for this one to commit, then sees its revision), then replaced. The first write of a key
inserts with ``ON CONFLICT DO NOTHING``; when two insert at once, the one that finds the row
taken reads it again. A write is acknowledged once PostgreSQL has committed it.

Needs the ``postgres`` extra (``pip install 'spider-solitaire[postgres]'``).
"""

from __future__ import annotations

import re
from typing import Any

from spider.serve.syncstore import Blob, Conflict, StoreError, SyncStore
from spider.serve.syncstore.migrations import POSTGRES_STEPS, apply_steps

#: Connections the pool keeps open at most (requests beyond wait for one).
POOL_SIZE = 16
#: Seconds a request waits for a pooled connection before failing.
POOL_TIMEOUT = 30.0
#: Any number, the same in every process: the lock that serialises migrations at start-up.
MIGRATION_LOCK = 0x5350_4944


def redact(url: str) -> str:
    """``url`` without its password, for messages and the start-up line."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresStore(SyncStore):
    """Blobs in the PostgreSQL database ``url`` (which must exist; the tables are made)."""

    kind = "postgresql"

    def __init__(
        self, url: str, pool_size: int = POOL_SIZE, connect_timeout: float = POOL_TIMEOUT
    ) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as error:
            raise StoreError(
                f"PostgreSQL needs the postgres extra (pip install "
                f"'spider-solitaire[postgres]'): {error}"
            ) from None
        self.location = redact(url)
        try:
            # One connection first, for the database's own words when it cannot be reached.
            psycopg.connect(url, connect_timeout=max(1, round(connect_timeout))).close()
        except Exception as error:  # psycopg's errors, and a URL it cannot parse
            raise StoreError(
                f"cannot open the sync database {self.location}: {_one_line(error)}"
            ) from None
        self._pool: Any = None
        try:
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=POOL_TIMEOUT,
                open=False,
                kwargs={"autocommit": True},
            )
            self._pool.open(wait=True, timeout=connect_timeout)
            self._migrate()
        except StoreError:
            self.close()
            raise
        except Exception as error:  # psycopg's and the pool's errors
            self.close()
            raise StoreError(
                f"cannot open the sync database {self.location}: {_one_line(error)}"
            ) from None

    def _migrate(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            apply_steps(conn.execute, POSTGRES_STEPS, "%s")

    def schema_version(self) -> int:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0])

    def get(self, key: str) -> Blob | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT rev, data FROM sync_blobs WHERE id = %s", (key,)).fetchone()
        if row is None or row[1] is None:
            return None
        return Blob(int(row[0]), bytes(row[1]))

    def _swap(self, key: str, expected_rev: int, data: bytes | None) -> int | Conflict:
        """Replace the blob (``data`` None: delete it) when its revision is ``expected_rev``."""
        with self._pool.connection() as conn, conn.transaction():
            select = "SELECT rev, data FROM sync_blobs WHERE id = %s FOR UPDATE"
            row = conn.execute(select, (key,)).fetchone()
            if row is None:
                if expected_rev != 0 or data is None:
                    return Conflict(0, None)
                inserted = conn.execute(
                    "INSERT INTO sync_blobs (id, rev, data) VALUES (%s, 1, %s) "
                    "ON CONFLICT (id) DO NOTHING RETURNING rev",
                    (key, data),
                ).fetchone()
                if inserted is not None:
                    return 1
                # Another transaction inserted it first (and has committed): read it now.
                row = conn.execute(select, (key,)).fetchone()
            rev, stored = int(row[0]), row[1]
            live = stored is not None
            if (live and expected_rev != rev) or (not live and (expected_rev != 0 or data is None)):
                return Conflict(rev, None if stored is None else bytes(stored))
            conn.execute(
                "UPDATE sync_blobs SET rev = %s, data = %s, updated = now() WHERE id = %s",
                (rev + 1, data, key),
            )
            return rev + 1

    def put(self, key: str, expected_rev: int, data: bytes) -> int | Conflict:
        return self._swap(key, expected_rev, data)

    def delete(self, key: str, expected_rev: int) -> int | Conflict:
        return self._swap(key, expected_rev, None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__
