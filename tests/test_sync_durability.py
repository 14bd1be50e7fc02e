"""A ``spider serve`` killed (SIGKILL) or stopped while devices sync loses no acknowledged
write, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.postgres_cluster import Cluster
from tests.static_host import free_port
from tests.sync_fixtures import BACKENDS, new_key, pg_cluster
from tests.sync_serve import kill, start_serve, stop

__all__ = ["pg_cluster"]  # fixture

KEYS = 2
WRITERS_PER_KEY = 3
#: Acknowledged writes before the kill (the writers go on until it).
BEFORE_KILL = 40


@pytest.fixture(params=BACKENDS)
def sync_args(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """The options of ``spider serve`` that keep its data in each backend (no rate limit)."""
    limits = ["--sync-key-writes", "0", "--sync-client-writes", "0"]
    if request.param == "sqlite":
        yield ["--data-dir", str(tmp_path / "data"), *limits]
    else:
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        yield ["--database", cluster.new_database(), *limits]


class Device:
    """Appends its markers to a key's blob: read, modify, compare and set, retry."""

    def __init__(self, base: str, key: str, name: str, acked: list[str], lock: threading.Lock):
        self.url = f"{base}/api/sync/{key}"
        self.name = name
        self.acked = acked
        self.lock = lock
        self.stopped = threading.Event()
        self.running = True
        #: What stopped this device other than the server going away (an unexpected answer).
        self.failure: str | None = None

    def run(self) -> None:
        try:
            self._run()
        except Exception as error:  # kept for the test to assert on: a thread cannot fail it
            self.failure = repr(error)
        finally:
            self.running = False

    def _run(self) -> None:
        with httpx.Client(timeout=10) as client:
            n = 0
            while not self.stopped.is_set():
                marker = f"{self.name}.{n};"
                try:
                    self._append(client, marker)
                except httpx.HTTPError:
                    return  # the server is gone
                with self.lock:
                    self.acked.append(marker)
                n += 1

    def _append(self, client: httpx.Client, marker: str) -> None:
        got = client.get(self.url)
        rev, data = (0, b"") if got.status_code == 404 else _blob(got.json())
        while True:
            body = {"rev": rev, "data": base64.urlsafe_b64encode(data + marker.encode()).decode()}
            put = client.put(self.url, json=body)
            if put.status_code == 200:
                return
            assert put.status_code == 409, put.text
            rev, data = _blob(put.json())


def _blob(body: dict[str, object]) -> tuple[int, bytes]:
    rev, data = body["rev"], body["data"]
    assert isinstance(rev, int) and isinstance(data, str)
    return rev, base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


def _sync_until(base: str, keys: list[str], acked: list[str], count: int) -> list[Device]:
    """Devices syncing on ``keys`` until ``count`` more writes are acknowledged (they go on)."""
    lock = threading.Lock()
    start = len(acked)
    devices = [
        Device(base, key, f"{k}{w}-{start}", acked, lock)
        for k, key in enumerate(keys)
        for w in range(WRITERS_PER_KEY)
    ]
    threads = [threading.Thread(target=d.run, daemon=True) for d in devices]
    for thread in threads:
        thread.start()
    while len(acked) < start + count and any(t.is_alive() for t in threads):
        threading.Event().wait(0.01)
    return devices


def _stored(base: str, keys: list[str]) -> set[str]:
    found: set[str] = set()
    with httpx.Client(timeout=10) as client:
        for key in keys:
            _, data = _blob(client.get(f"{base}/api/sync/{key}").json())
            found.update(m + ";" for m in data.decode().split(";")[:-1])
    return found


def test_a_killed_or_restarted_server_loses_no_acknowledged_write(
    sync_args: list[str], tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    keys = [new_key() for _ in range(KEYS)]
    acked: list[str] = []
    server = start_serve(port, sync_args, log)
    try:
        where = "sqlite " + sync_args[1] if sync_args[0] == "--data-dir" else "postgresql "
        assert f"spider serve: sync at /api/sync, data in {where}" in log.read_text()
        devices = _sync_until(base, keys, acked, BEFORE_KILL)
        kill(server)  # while the devices are writing
        for device in devices:
            device.stopped.set()
        killed_at = len(acked)
        assert killed_at >= BEFORE_KILL
        server = start_serve(port, sync_args, log)
        assert set(acked) <= _stored(base, keys)
        # Writing again after the restart, then a plain stop and start.
        devices = _sync_until(base, keys, acked, 20)
        for device in devices:
            device.stopped.set()
        assert [d.failure for d in devices if d.failure] == []
        stop(server)
        server = start_serve(port, sync_args, log)
        assert set(acked) <= _stored(base, keys)
        assert len(acked) >= killed_at + 20
    finally:
        stop(server)


def test_worker_processes_share_one_sqlite_database(tmp_path: Path) -> None:
    """With --workers 2, writes to one key through both processes: compare and set holds."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    keys = [new_key()]
    acked: list[str] = []
    args = ["--workers", "2", "--data-dir", str(tmp_path / "data")]
    args += ["--sync-key-writes", "0", "--sync-client-writes", "0"]
    server = start_serve(port, args, tmp_path / "serve.log")
    try:
        devices = _sync_until(base, keys, acked, 40)
        for device in devices:
            device.stopped.set()
        while any(device.running for device in devices):
            threading.Event().wait(0.01)
        assert [d.failure for d in devices if d.failure] == []
        stored = _stored(base, keys)
        assert set(acked) <= stored
        assert len(stored) >= 40
    finally:
        stop(server)
