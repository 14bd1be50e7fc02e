"""The sync store on SQLite and on a real PostgreSQL: compare and set, concurrent writers,
migrations."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest

from spider.serve.syncstore import Blob, Conflict, StoreError, SyncStore, open_store
from spider.serve.syncstore.migrations import SCHEMA_VERSION
from spider.serve.syncstore.postgres import PostgresStore
from spider.serve.syncstore.sqlite import SqliteStore
from tests.postgres_cluster import Cluster
from tests.sync_fixtures import new_key, pg_cluster, pg_url, store

__all__ = ["pg_cluster", "pg_url", "store"]  # fixtures


def test_a_blob_is_written_read_replaced_and_deleted(store: SyncStore) -> None:
    key = new_key()
    assert store.get(key) is None
    assert store.put(key, 0, b"first") == 1
    assert store.get(key) == Blob(1, b"first")
    assert store.put(key, 1, b"second") == 2
    assert store.get(key) == Blob(2, b"second")
    assert store.delete(key, 2) == 3
    assert store.get(key) is None


def test_a_write_over_a_revision_not_stored_is_refused_with_what_is(store: SyncStore) -> None:
    key = new_key()
    assert store.put(key, 0, b"one") == 1
    assert store.put(key, 0, b"again") == Conflict(1, b"one")
    assert store.put(key, 1, b"two") == 2
    assert store.put(key, 1, b"stale") == Conflict(2, b"two")
    assert store.put(key, 3, b"ahead") == Conflict(2, b"two")
    assert store.delete(key, 1) == Conflict(2, b"two")
    assert store.get(key) == Blob(2, b"two")


def test_nothing_stored_is_a_conflict_without_data(store: SyncStore) -> None:
    key = new_key()
    assert store.put(key, 4, b"x") == Conflict(0, None)
    assert store.delete(key, 0) == Conflict(0, None)
    assert store.delete(key, 1) == Conflict(0, None)
    assert store.get(key) is None


def test_revisions_never_go_back_after_a_delete(store: SyncStore) -> None:
    """A writer that read revision 1 before a delete cannot overwrite a blob made after it."""
    key = new_key()
    assert store.put(key, 0, b"old") == 1
    assert store.delete(key, 1) == 2
    assert store.put(key, 1, b"stale") == Conflict(2, None)
    assert store.put(key, 0, b"new") == 3
    assert store.put(key, 1, b"stale") == Conflict(3, b"new")
    assert store.get(key) == Blob(3, b"new")


def test_concurrent_writers_never_lose_an_update(store: SyncStore) -> None:
    """Threads each append their markers by read, modify, compare and set, retrying on a
    conflict: every acknowledged marker is in the final blob."""
    key = new_key()
    writers, each = 6, 12
    acknowledged: list[str] = []
    conflicts = [0]
    lock = threading.Lock()

    def write(writer: int) -> None:
        for n in range(each):
            marker = f"{writer}.{n};"
            blob = store.get(key)
            while True:
                rev, data = (0, b"") if blob is None else (blob.rev, blob.data)
                result = store.put(key, rev, data + marker.encode())
                if isinstance(result, int):
                    break
                with lock:
                    conflicts[0] += 1
                blob = None if result.data is None else Blob(result.rev, result.data)
            with lock:
                acknowledged.append(marker)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = store.get(key)
    assert final is not None
    markers = final.data.decode().split(";")[:-1]
    assert sorted(markers) == sorted(m[:-1] for m in acknowledged)
    assert len(acknowledged) == writers * each
    assert final.rev == writers * each


def test_sqlite_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    opened = SqliteStore(tmp_path / "sync.sqlite3")
    try:
        opened.put(new_key(), 0, b"x")
        with sqlite3.connect(tmp_path / "sync.sqlite3") as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        with opened._write() as conn:  # noqa: SLF001 - the store's own connection
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        with opened._reading() as conn:  # noqa: SLF001
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        opened.close()


def test_sqlite_migrates_an_empty_database_once_and_keeps_data(tmp_path: Path) -> None:
    directory = tmp_path / "new" / "dir"
    first = open_store(data_dir=directory)
    key = new_key()
    assert first.schema_version() == SCHEMA_VERSION
    assert first.put(key, 0, b"kept") == 1
    first.close()
    again = open_store(data_dir=directory)
    try:
        assert again.schema_version() == SCHEMA_VERSION
        assert again.get(key) == Blob(1, b"kept")
    finally:
        again.close()
    with sqlite3.connect(directory / "sync.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 1


def test_postgres_migrates_an_empty_database_once_and_keeps_data(pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    first = open_store(url)
    key = new_key()
    assert first.schema_version() == SCHEMA_VERSION
    assert first.put(key, 0, b"kept") == 1
    first.close()
    # Several processes start at once (spider serve --workers): the migrations run once.
    opened: list[SyncStore] = []
    threads = [threading.Thread(target=lambda: opened.append(open_store(url))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert len(opened) == 4
        assert all(s.schema_version() == SCHEMA_VERSION for s in opened)
        assert opened[0].get(key) == Blob(1, b"kept")
    finally:
        for each in opened:
            each.close()
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone() == (1,)


def test_a_schema_newer_than_this_release_is_refused(tmp_path: Path, pg_cluster: Cluster) -> None:
    SqliteStore(tmp_path / "sync.sqlite3").close()
    with sqlite3.connect(tmp_path / "sync.sqlite3") as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="schema version 99, newer"):
        open_store(data_dir=tmp_path)
    url = pg_cluster.new_database()
    PostgresStore(url).close()
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="schema version 99, newer"):
        open_store(url)


def test_a_database_that_cannot_be_opened_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match="cannot open the sync database"):
        open_store(data_dir=tmp_path / "file")
    with pytest.raises(StoreError, match=r"cannot open the sync database .*:\*\*\*@"):
        PostgresStore("postgresql://spider:secret@127.0.0.1:1/none", connect_timeout=2)
    with pytest.raises(StoreError, match="postgresql://"):
        open_store("mysql://localhost/db")
