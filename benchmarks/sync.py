"""The sync service of ``spider serve`` under many devices, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/sync.py [--devices 1000] [--per-key 10] [--writes 3]
                                        [--workers 1] [--backends sqlite,postgresql]

For each backend, starts this checkout's ``spider serve`` as its own process (SQLite in a new
data directory; PostgreSQL in a private server that this script starts with Debian's package,
as the tests do), with no rate limit (every device here shares one address). Then
``--devices`` simulated devices, each on its own keep-alive connection (asyncio, plain
HTTP/1.1), all at once: devices share a key ``--per-key`` at a time, so their writes conflict.
Each device makes ``--writes`` writes: read the blob (``GET``), append its own marker (the blob
starts with 4 KiB, about a backup document's size), write it over the revision read (``PUT``);
on a conflict (409), append the marker to the blob the answer carries and write again. At the
end every key's blob is read back: every acknowledged marker must be in it (lost updates: 0),
and its revision must be the number of acknowledged writes.

Printed per backend: devices, keys, acknowledged writes, conflicts, throughput (acknowledged
writes per second, from the first request to the last answer), p50/p99 latency of one request
(GET or PUT) and of one acknowledged write (read, conflicts and retries included), errors,
lost updates. The client shares the machine's cores with the server (and with anything else
running: ``uptime`` is printed): read the figures with the load beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.postgres_cluster import postgres_cluster  # noqa: E402
from tests.static_host import free_port  # noqa: E402
from tests.sync_serve import start_serve, stop  # noqa: E402

#: Bytes every key's blob starts with (an encrypted backup document is a few KiB).
BASE_BYTES = 4096
NO_LIMITS = ["--sync-key-writes", "0", "--sync-client-writes", "0"]


@dataclass
class Figures:
    """What the devices of one run saw."""

    acked: dict[str, list[str]] = field(default_factory=dict)
    conflicts: int = 0
    errors: int = 0
    connected: int = 0
    request_ms: list[float] = field(default_factory=list)
    write_ms: list[float] = field(default_factory=list)


class Connection:
    """One keep-alive HTTP/1.1 connection that sends JSON requests and reads JSON answers."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def request(
        self, method: str, path: str, body: dict[str, object] | None = None
    ) -> tuple[int, dict[str, object]]:
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n"
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        self.writer.write(head + data)
        line = await self.reader.readline()
        status = int(line.split()[1])
        length = 0
        while (header := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = header.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        self.writer.close()


def _decode(text: object) -> bytes:
    assert isinstance(text, str)
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


async def _write_once(
    conn: Connection, path: str, marker: bytes, figures: Figures
) -> tuple[int, bytes]:
    """Read, append ``marker``, compare and set until acknowledged; the revision written."""
    started = time.perf_counter()
    status, body = await conn.request("GET", path)
    figures.request_ms.append((time.perf_counter() - started) * 1000)
    rev, data = (0, b"") if status == 404 else (int(body["rev"]), _decode(body["data"]))  # type: ignore[call-overload]
    while True:
        sent = time.perf_counter()
        status, body = await conn.request("PUT", path, {"rev": rev, "data": _encode(data + marker)})
        figures.request_ms.append((time.perf_counter() - sent) * 1000)
        if status == 200:
            figures.write_ms.append((time.perf_counter() - started) * 1000)
            return int(body["rev"]), data + marker  # type: ignore[call-overload]
        if status != 409:
            raise RuntimeError(f"PUT answered {status}: {body}")
        figures.conflicts += 1
        rev, data = int(body["rev"]), _decode(body["data"])  # type: ignore[call-overload]


async def _device(
    port: int, name: str, key: str, writes: int, figures: Figures, go: asyncio.Event
) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    except OSError:
        figures.errors += 1
        return
    conn = Connection(reader, writer)
    figures.connected += 1
    await go.wait()
    path = f"/api/sync/{key}"
    try:
        for n in range(writes):
            marker = f"{name}.{n};"
            await _write_once(conn, path, marker.encode(), figures)
            figures.acked[key].append(marker)
    except (OSError, RuntimeError, ValueError, asyncio.IncompleteReadError):
        figures.errors += 1
    finally:
        conn.close()


async def _seed(port: int, keys: list[str]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = Connection(reader, writer)
    for key in keys:
        status, _ = await conn.request(
            "PUT", f"/api/sync/{key}", {"rev": 0, "data": _encode(secrets.token_bytes(BASE_BYTES))}
        )
        assert status == 200, status
    conn.close()


async def _run(port: int, args: argparse.Namespace) -> tuple[Figures, float, dict[str, bytes]]:
    keys = [secrets.token_hex(32) for _ in range(max(1, args.devices // args.per_key))]
    await _seed(port, keys)
    figures = Figures(acked={key: [] for key in keys})
    go = asyncio.Event()
    devices = [
        asyncio.create_task(_device(port, f"d{i}", keys[i % len(keys)], args.writes, figures, go))
        for i in range(args.devices)
    ]
    # Every device connected first, then all start at once.
    while figures.connected + figures.errors < args.devices:
        await asyncio.sleep(0.05)
    started = time.perf_counter()
    go.set()
    await asyncio.gather(*devices)
    seconds = time.perf_counter() - started
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    conn = Connection(reader, writer)
    final: dict[str, bytes] = {}
    for key in keys:
        status, body = await conn.request("GET", f"/api/sync/{key}")
        assert status == 200, status
        final[key] = _decode(body["data"])
        expected = 1 + len(figures.acked[key])
        if body["rev"] != expected:
            print(f"  key {key[:8]}: rev {body['rev']}, expected {expected}", file=sys.stderr)
    conn.close()
    return figures, seconds, final


def _lost(figures: Figures, final: dict[str, bytes]) -> int:
    lost = 0
    for key, markers in figures.acked.items():
        stored = set(final[key][BASE_BYTES:].decode().split(";"))
        lost += sum(1 for m in markers if m[:-1] not in stored)
    return lost


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextmanager
def _backend(name: str, work: Path) -> Iterator[list[str]]:
    if name == "sqlite":
        yield ["--data-dir", str(work / "data")]
        return
    with postgres_cluster() as cluster:
        yield ["--database", cluster.new_database()]


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--devices",
        type=int,
        default=1000,
        help="simulated devices, all at once (default: %(default)s)",
    )
    parser.add_argument(
        "--per-key",
        type=int,
        default=10,
        help="devices sharing one sync key (default: %(default)s)",
    )
    parser.add_argument(
        "--writes",
        type=int,
        default=3,
        help="acknowledged writes per device (default: %(default)s)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="spider serve --workers (default: %(default)s)"
    )
    parser.add_argument(
        "--backends", default="sqlite,postgresql", help="comma-separated (default: %(default)s)"
    )
    args = parser.parse_args()
    _raise_fd_limit()  # the devices' connections, here and (inherited) in the server
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    rows = []
    for backend in args.backends.split(","):
        with tempfile.TemporaryDirectory(prefix="spider-sync-bench-") as tmp:
            work = Path(tmp)
            with _backend(backend, work) as options:
                port = free_port()
                server_args = [*options, *NO_LIMITS, "--workers", str(args.workers)]
                server = start_serve(port, server_args, work / "serve.log")
                try:
                    figures, seconds, final = asyncio.run(_run(port, args))
                finally:
                    stop(server)
        writes = sum(len(m) for m in figures.acked.values())
        rows.append(
            (
                backend,
                args.devices,
                len(figures.acked),
                writes,
                figures.conflicts,
                writes / seconds,
                _pct(figures.request_ms, 0.5),
                _pct(figures.request_ms, 0.99),
                _pct(figures.write_ms, 0.5),
                _pct(figures.write_ms, 0.99),
                figures.errors,
                _lost(figures, final),
            )
        )
    print(
        f"{'backend':<11}{'devices':>8}{'keys':>6}{'writes':>8}{'conflicts':>10}"
        f"{'writes/s':>10}{'req p50':>9}{'req p99':>9}{'write p50':>10}{'write p99':>10}"
        f"{'errors':>7}{'lost':>6}"
    )
    for row in rows:
        print(
            f"{row[0]:<11}{row[1]:>8}{row[2]:>6}{row[3]:>8}{row[4]:>10}{row[5]:>10.0f}"
            f"{row[6]:>7.0f}ms{row[7]:>7.0f}ms{row[8]:>8.0f}ms{row[9]:>8.0f}ms"
            f"{row[10]:>7}{row[11]:>6}"
        )
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    if any(row[11] or row[10] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
