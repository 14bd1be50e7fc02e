"""Storage of the sync service: opaque blobs under a key id, each with a revision.

The sync service of ``spider serve`` (:mod:`spider.serve.sync`) keeps what devices upload here,
never reading it (the browser encrypts it). A :class:`SyncStore` holds, per key id, the latest
blob and its revision, a number that grows by one with each write:

- :meth:`SyncStore.get` → :class:`Blob` or None;
- :meth:`SyncStore.put` writes only over the revision the writer read (compare and set, in one
  transaction): the new revision, or a :class:`Conflict` with what is stored now;
- :meth:`SyncStore.delete` likewise removes it.

A deleted blob leaves its revision behind (a tombstone without data), so revisions of a key
never go back: a writer that read a blob before it was deleted cannot overwrite one written
after it. Writing revision 0 creates a blob where there is none (never written, or deleted).

Two backends: SQLite (:mod:`spider.serve.syncstore.sqlite`, the default: one file, nothing to
install) and PostgreSQL (:mod:`spider.serve.syncstore.postgres`, through psycopg 3, the ``postgres``
extra). :func:`open_store` opens either and brings its schema up to date
(:mod:`spider.serve.syncstore.migrations`). The engine never imports this package.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

#: The database file of the SQLite backend, in the data directory.
SQLITE_FILE = "sync.sqlite3"
#: The data directory's name under ``$XDG_DATA_HOME`` (or ``~/.local/share``).
DATA_DIR_NAME = "spider-solitaire"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StoreError(Exception):
    """The store cannot be opened or used; the message says why, on one line."""


@dataclass(frozen=True)
class Blob:
    """A stored blob and its revision (1 or more)."""

    rev: int
    data: bytes


@dataclass(frozen=True)
class Conflict:
    """A write refused: the revision given is not the stored one.

    ``rev`` and ``data`` are what is stored now; ``data`` is None when nothing is (never
    written, or deleted at revision ``rev``).
    """

    rev: int
    data: bytes | None


class SyncStore(ABC):
    """Blobs under key ids, each written by compare and set on its revision."""

    #: Which backend this is ("sqlite" or "postgresql").
    kind: str
    #: Where the data is, for the start-up line (a file path, or a database without password).
    location: str

    @abstractmethod
    def get(self, key: str) -> Blob | None:
        """The blob stored under ``key``, or None."""

    @abstractmethod
    def put(self, key: str, expected_rev: int, data: bytes) -> int | Conflict:
        """Store ``data`` under ``key`` if its revision is ``expected_rev`` (0: none stored).

        Returns the new revision, durable when returned, or a :class:`Conflict`.
        """

    @abstractmethod
    def delete(self, key: str, expected_rev: int) -> int | Conflict:
        """Remove the blob under ``key`` if its revision is ``expected_rev``.

        Returns the revision of the deletion (the tombstone's), or a :class:`Conflict`
        (``data`` None: there is nothing to delete).
        """

    @abstractmethod
    def schema_version(self) -> int:
        """The version of the schema the database has."""

    @abstractmethod
    def close(self) -> None:
        """Release the connections."""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/spider-solitaire``, else ``~/.local/share/spider-solitaire``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / DATA_DIR_NAME


def is_postgres_url(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return url.startswith(POSTGRES_SCHEMES)


def open_store(database: str | None = None, data_dir: Path | None = None) -> SyncStore:
    """Open the store: PostgreSQL when ``database`` is a ``postgresql://`` URL, else SQLite in
    ``data_dir`` (default :func:`default_data_dir`), created if need be; migrations applied.

    Raises:
        StoreError: the database cannot be opened, or its schema is newer than this release.
    """
    if database is not None:
        if not is_postgres_url(database):
            raise StoreError("--database takes a postgresql://user@host/dbname URL")
        from spider.serve.syncstore.postgres import PostgresStore

        return PostgresStore(database)
    from spider.serve.syncstore.sqlite import SqliteStore

    directory = data_dir if data_dir is not None else default_data_dir()
    return SqliteStore(directory / SQLITE_FILE)
