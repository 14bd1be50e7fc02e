"""The schema of the sync store, as numbered steps applied in order at start-up.

Each backend keeps the number of the last step applied in a one-row table ``schema_version``;
opening a store applies the steps after it, in the same transaction as the new number, so a
start-up that dies half-way leaves the old schema whole. A database whose version is newer than
this release knows is refused rather than written with an older idea of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spider.serve.syncstore import StoreError

#: Step n (1-based) brings a database from version n - 1 to n. ``data`` NULL is a tombstone: a
#: deleted blob whose revision is kept so that revisions never go back.
SQLITE_STEPS: tuple[str, ...] = (
    """
    CREATE TABLE sync_blobs (
        id TEXT PRIMARY KEY,
        rev INTEGER NOT NULL CHECK (rev >= 1),
        data BLOB,
        updated_ms INTEGER NOT NULL
    )
    """,
)

POSTGRES_STEPS: tuple[str, ...] = (
    """
    CREATE TABLE sync_blobs (
        id TEXT PRIMARY KEY,
        rev BIGINT NOT NULL CHECK (rev >= 1),
        data BYTEA,
        updated TIMESTAMPTZ NOT NULL DEFAULT now()
    )
    """,
)

SCHEMA_VERSION = len(SQLITE_STEPS)
assert len(POSTGRES_STEPS) == SCHEMA_VERSION


def too_new(found: int) -> str:
    """The message for a database whose schema is newer than this release knows."""
    return (
        f"the sync database has schema version {found}, newer than this release's "
        f"{SCHEMA_VERSION}: upgrade spider-solitaire"
    )


def apply_steps(execute: Callable[..., Any], steps: Sequence[str], placeholder: str) -> None:
    """Brings a database to :data:`SCHEMA_VERSION` with ``steps``, inside the caller's
    transaction: ``execute`` is the connection's, ``placeholder`` its driver's parameter mark
    (``?`` for sqlite3, ``%s`` for psycopg).

    Raises:
        StoreError: the database's schema is newer than this release knows.
    """
    execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = execute("SELECT version FROM schema_version").fetchone()
    found = 0 if row is None else int(row[0])
    if found > SCHEMA_VERSION:
        raise StoreError(too_new(found))
    for step in steps[found:]:
        execute(step)
    if row is None:
        execute(f"INSERT INTO schema_version VALUES ({placeholder})", (SCHEMA_VERSION,))
    elif found != SCHEMA_VERSION:
        execute(f"UPDATE schema_version SET version = {placeholder}", (SCHEMA_VERSION,))
