"""``spider serve`` under load, before and after, side by side (not a timed test).

    .venv/bin/python benchmarks/serve.py [--before 0a0c883] [--connections 1000] [--seconds 5]
                                         [--rounds 3] [--workers 2] [--clients 2] [--watch 20]

Starts three servers on free loopback ports, each as its own process: ``before`` is the
server of commit ``--before`` (its ``src/`` taken with ``git archive``, serving this checkout's
vendored Pyodide and bytecode), ``after`` is this checkout's ``spider serve``, and
``after --workers N`` the same with N worker processes. Against each, only on loopback and
bounded in time:

- **load**: ``--connections`` keep-alive connections request one URL over and over for
  ``--seconds``, from Debian's ``wrk`` (C; ``apt-get install wrk``) where it is installed, else
  from ``--clients`` processes of asyncio raw sockets here (which on two cores saturate before
  the server does: the figures are then the client's), as a browser would
  (``Accept-Encoding: br, gzip``): a static file (``/main.js``) and ``/engine.zip``; the servers
  take turns for ``--rounds`` rounds, so a machine whose load changes affects all alike.
  Printed: requests/s, p50 and p99 latency, errors (failed connections, resets, statuses other
  than 200), and the server's CPU time per request (all its processes), which depends less on
  what else the machine runs;
- **slow clients**: 300 connections each that send nothing, half a request line, or headers a
  line a second, watched for ``--watch`` seconds: how many the server closed and when;
- **slow readers**: 100 connections that ask for a gzipped file (``pyodide.asm.wasm``, 3.5 MB
  gzipped) and read nothing: the growth of the server's resident memory (all its processes).

Targets (a first probe of the served app measured 1,124 requests/s, p50 1.0 s, p99 2.5 s for
static files at 1,000 connections): at least three times the throughput, p99 under 500 ms, no
errors. The load generator shares the machine's cores with the server: read the columns as a
ratio under the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOAD_PATHS = ("/main.js", "/engine.zip")
SLOW_READER_PATH = "/pyodide/pyodide.asm.wasm"
SLOW_GROUP = 300
SLOW_READERS = 100
ACCEPT = "br, gzip"
HEAD_END = b"\r\n\r\n"


# ---------------------------------------------------------------------------- the servers


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _before_tree(rev: str, work: Path) -> Path:
    """The ``src/`` of commit ``rev``, unpacked under ``work``."""
    archive = work / "before.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(REPO), "archive", rev, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(work / "before", filter="data")
    return work / "before" / "src"


def _server_command(src: Path, port: int, workers: int | None) -> list[str]:
    if workers is None:  # the old server: serve(host, port)
        code = f"from spider.serve.app import serve; serve('127.0.0.1', {port})"
        return [sys.executable, "-c", code]
    args = ["serve", "--port", str(port), "--workers", str(workers)]
    code = "import sys; from spider.cli import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", code, *args]


@contextmanager
def running(src: Path, workers: int | None) -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    """A server from the sources ``src`` on a free port: (base URL, port, process)."""
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "SPIDER_PYODIDE_DIR": str(REPO / "vendor" / "pyodide"),
        "SPIDER_BYTECODE_DIR": str(REPO / "vendor" / "bytecode"),
    }
    process = subprocess.Popen(
        _server_command(src, port, workers),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server from {src} did not start")
            time.sleep(0.2)
        yield base, port, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _warm(base: str) -> None:
    """Fetch every benchmarked URL once, so each server has read and compressed them."""
    for path in (*LOAD_PATHS, SLOW_READER_PATH):
        for accept in (ACCEPT, "gzip"):
            request = urllib.request.Request(base + path, headers={"Accept-Encoding": accept})
            with urllib.request.urlopen(request, timeout=120) as answer:
                answer.read()


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (the worker processes of ``--workers``)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def _rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, KiB."""
    total = 0
    for member in _tree(pid):
        try:
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by ``pid`` and its descendants."""
    ticks = 0
    for member in _tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------------------ the load


@dataclass
class LoadResult:
    requests: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)


async def _one_connection(port: int, request: bytes, deadline: float, out: LoadResult) -> None:
    writer: asyncio.StreamWriter | None = None
    while time.monotonic() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            start = time.monotonic()
            writer.write(request)
            head = await reader.readuntil(HEAD_END)
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            out.latencies.append(time.monotonic() - start)
            out.requests += 1
            if status != 200:
                out.errors += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            out.errors += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.05)
    if writer is not None:
        writer.close()


def _client(port: int, path: str, connections: int, seconds: float, start_at: float) -> LoadResult:
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: {ACCEPT}\r\n\r\n"
    ).encode()
    out = LoadResult()

    async def run() -> None:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            *(_one_connection(port, request, deadline, out) for _ in range(connections))
        )

    asyncio.run(run())
    return out


@dataclass
class Totals:
    """One server's load runs on one URL, added up over the rounds."""

    requests: int = 0
    errors: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)

    def row(self, path: str) -> dict[str, str]:
        lat = sorted(self.latencies)
        p50 = f"{statistics.median(lat) * 1000:,.0f} ms" if lat else "-"
        p99 = f"{lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000:,.0f} ms" if lat else "-"
        per = f"{self.cpu / self.requests * 1e6:,.0f} us" if self.requests else "-"
        return {
            f"{path} req/s": f"{self.requests / max(self.seconds, 1e-9):,.0f}",
            f"{path} p50": p50,
            f"{path} p99": p99,
            f"{path} errors": f"{self.errors:,}",
            f"{path} server CPU/request": per,
        }


WRK = shutil.which("wrk")
WRK_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def _wrk_seconds(text: str) -> float:
    number = text.rstrip("umsh")
    return float(number) * WRK_UNITS[text[len(number) :]]


def load_wrk(port: int, pid: int, path: str, args: argparse.Namespace, totals: Totals) -> None:
    """One load run with wrk (Debian's ``wrk``, in C): its p50 and p99 stand for the run's
    latencies (two samples each, enough for the medians printed over the rounds)."""
    assert WRK is not None
    command = [
        WRK,
        f"-t{args.clients}",
        f"-c{args.connections}",
        f"-d{args.seconds:.0f}s",
        "--latency",
        "--timeout",
        "10s",
        "-H",
        f"Accept-Encoding: {ACCEPT}",
        f"http://127.0.0.1:{port}{path}",
    ]
    cpu = _cpu_seconds(pid)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    totals.cpu += _cpu_seconds(pid) - cpu
    totals.seconds += args.seconds
    for line in out.splitlines():
        words = line.split()
        if line.strip().startswith("50%") or line.strip().startswith("99%"):
            totals.latencies.append(_wrk_seconds(words[1]))
        elif " requests in " in line:
            totals.requests += int(words[0])
        elif line.startswith("  Socket errors:"):
            totals.errors += sum(int(w.rstrip(",")) for w in words[3::2])
        elif line.startswith("  Non-2xx"):
            totals.errors += int(words[-1])


def load(port: int, pid: int, path: str, args: argparse.Namespace, totals: Totals) -> None:
    """One load run of ``args.seconds`` on ``path``, added to ``totals``."""
    if WRK is not None and not args.python_client:
        load_wrk(port, pid, path, args, totals)
        return
    clients = args.clients
    shares = [
        args.connections // clients + (i < args.connections % clients) for i in range(clients)
    ]
    start_at = time.time() + 1.0
    with multiprocessing.get_context("spawn").Pool(clients) as pool:
        cpu = _cpu_seconds(pid)
        parts = pool.starmap(_client, [(port, path, n, args.seconds, start_at) for n in shares])
        totals.cpu += _cpu_seconds(pid) - cpu
    totals.seconds += args.seconds
    totals.requests += sum(p.requests for p in parts)
    totals.errors += sum(p.errors for p in parts)
    for part in parts:
        totals.latencies += part.latencies


# ------------------------------------------------------------------------- slow clients


async def _watch(port: int, sends: list[bytes], gap: float, watch: float) -> float | None:
    """Seconds until the server closed the connection, or None if open after ``watch``."""
    start = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0.0

    async def feed() -> None:
        for data in sends:
            writer.write(data)
            await asyncio.sleep(gap)

    feeder = asyncio.ensure_future(feed())
    try:
        while True:
            left = watch - (time.monotonic() - start)
            if left <= 0:
                return None
            data = await asyncio.wait_for(reader.read(65536), timeout=left)
            if not data:
                return time.monotonic() - start
    except TimeoutError:
        return None
    except OSError:
        return time.monotonic() - start
    finally:
        feeder.cancel()
        writer.close()


def slow_clients(port: int, watch: float) -> dict[str, str]:
    slow_headers = [b"GET / HTTP/1.1\r\n", *[b"X-Slow: 1\r\n"] * int(watch + 5)]
    cases = {
        "idle connections": ([], 0.0),
        "half request line": ([b"GET /ind"], 0.0),
        "headers 1 line/s": (slow_headers, 1.0),
    }

    async def run() -> list[list[float | None]]:
        groups = [
            asyncio.gather(*(_watch(port, s, g, watch) for _ in range(SLOW_GROUP)))
            for s, g in cases.values()
        ]
        return list(await asyncio.gather(*groups))

    out = {}
    for name, times in zip(cases, asyncio.run(run()), strict=True):
        closed = sorted(t for t in times if t is not None)
        if not closed:
            out[name] = f"0/{SLOW_GROUP} closed in {watch:.0f} s"
        else:
            median = statistics.median(closed)
            out[name] = f"{len(closed)}/{SLOW_GROUP} closed, median {median:.1f} s"
    return out


def slow_readers(port: int, pid: int) -> dict[str, str]:
    before = _rss_kib(pid)
    socks = []
    request = (
        f"GET {SLOW_READER_PATH} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
    ).encode()
    for _ in range(SLOW_READERS):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(request)
        socks.append(sock)
    time.sleep(3.0)
    after = _rss_kib(pid)
    for sock in socks:
        sock.close()
    return {f"{SLOW_READERS} slow readers, RSS": f"+{(after - before) / 1024:,.0f} MB"}


# ------------------------------------------------------------------------------- report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="0a0c883", help="commit of the 'before' server")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5.0, help="per load run")
    parser.add_argument("--rounds", type=int, default=3, help="load runs per server and URL")
    parser.add_argument("--workers", type=int, default=2, help="for the third column")
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--watch", type=float, default=20.0, help="seconds to watch slow clients")
    parser.add_argument(
        "--python-client",
        action="store_true",
        help="load with this script's asyncio client even where wrk is installed",
    )
    args = parser.parse_args()
    if not 1 <= args.connections <= 5000 or not 0 < args.seconds <= 60 or args.rounds < 1:
        parser.error("--connections from 1 to 5000, --seconds up to 60, --rounds at least 1")
    work = Path(tempfile.mkdtemp(prefix="spider-bench-serve-"))
    try:
        before_src = _before_tree(args.before, work)
        servers = {
            f"before ({args.before})": (before_src, None),
            "after": (REPO / "src", 1),
            f"after --workers {args.workers}": (REPO / "src", args.workers),
        }
        columns: dict[str, dict[str, str]] = {name: {} for name in servers}
        with ExitStack() as stack:
            up = {name: stack.enter_context(running(*server)) for name, server in servers.items()}
            for base, _, _ in up.values():
                _warm(base)
            # The servers take turns, round after round, so each sees the same changing load
            # of the machine.
            for path in LOAD_PATHS:
                totals = {name: Totals() for name in servers}
                for _ in range(args.rounds):
                    for name, (_, port, process) in up.items():
                        load(port, process.pid, path, args, totals[name])
                for name in servers:
                    columns[name].update(totals[name].row(path))
            for name, (_, port, process) in up.items():
                columns[name].update(slow_readers(port, process.pid))
            for name, (_, port, _) in up.items():
                columns[name].update(slow_clients(port, args.watch))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    names = list(next(iter(columns.values())))
    width = max(len(n) for n in names)
    cells = {c: max(len(c), *(len(v.get(n, "")) for n in names)) for c, v in columns.items()}
    load_avg = os.getloadavg()[0]
    generator = (
        f"wrk ({args.clients} threads)"
        if WRK is not None and not args.python_client
        else f"{args.clients} asyncio client processes"
    )
    print(
        f"\n{args.connections} connections, {args.rounds} rounds of {args.seconds:.0f} s per "
        f"server and URL, load by {generator}, {os.cpu_count()} cores shared with "
        f"the clients (load average {load_avg:.1f} at the end)\n"
    )
    print(" " * width + "  " + "  ".join(c.rjust(cells[c]) for c in columns))
    for name in names:
        row = "  ".join(columns[c].get(name, "").rjust(cells[c]) for c in columns)
        print(f"{name.ljust(width)}  {row}")


if __name__ == "__main__":
    main()
