"""Fixtures of the sync tests: one private PostgreSQL server per test session (per xdist
worker), and a store of each backend."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from spider.serve.syncstore import SyncStore
from spider.serve.syncstore.postgres import PostgresStore
from spider.serve.syncstore.sqlite import SqliteStore
from tests.postgres_cluster import Cluster, postgres_cluster

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of the session's own (Debian's package)."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def pg_url(pg_cluster: Cluster) -> str:
    """One database of that server, shared by the tests (each uses keys of its own)."""
    return pg_cluster.new_database()


def open_backend(backend: str, directory: Path, pg_url: str) -> SyncStore:
    """A store of ``backend``: SQLite in ``directory``, or PostgreSQL at ``pg_url``."""
    if backend == "sqlite":
        return SqliteStore(directory / "sync.sqlite3")
    return PostgresStore(pg_url)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncStore]:
    """A store of each backend (PostgreSQL only started when a test asks for it)."""
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else ""
    opened = open_backend(request.param, tmp_path, url)
    try:
        yield opened
    finally:
        opened.close()


def new_key() -> str:
    """A key id no other test uses."""
    return secrets.token_hex(32)
