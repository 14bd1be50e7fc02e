"""Batch analysis: solve many deals on a process pool or a Dask cluster.

Used by ``spider analyze``.  Results go to a CSV or JSON file as they arrive; running the same
command again skips the deals already in the file (resume).  Dask is imported only when an
address is given: ``local`` or ``local:N`` starts a cluster on this machine for the run, any
other address joins a scheduler already running there.
"""

from __future__ import annotations

import csv
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from spider.game import Game
from spider.progress_line import ProgressLine
from spider.shuffle import MAX_NUMBER
from spider.solver.full.search import solve

__all__ = [
    "CONNECT_TIMEOUT",
    "FIELDS",
    "Summary",
    "analyze",
    "load_results",
    "parse_dask_address",
    "parse_deals",
    "solve_deal",
    "summarize",
    "wilson_interval",
]

CONNECT_TIMEOUT = 4.0
"""Seconds to wait for a Dask scheduler to answer before giving up."""


FIELDS = ("code", "number", "status", "reason", "moves", "positions", "elapsed", "solution")


def parse_deals(text: str, limit: int = 1_000_000) -> list[int]:
    """Deal numbers from ``'0-999'``, ``'5'`` or ``'1,4,10-12'``; ``ValueError`` if bad.

    Numbers run from 0 to ``MAX_NUMBER``; more than ``limit`` of them is refused.
    """
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        shown = part if len(part) <= 30 else part[:29] + "…"
        try:
            if not part.isascii() or len(part) > 30:
                raise ValueError
            if "-" in part:
                low, high = (int(value) for value in part.split("-", 1))
            else:
                low = high = int(part)
            if not 0 <= low <= high <= MAX_NUMBER:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"bad deal range {shown!r} (expected N or N-M with 0 <= N <= M <= {MAX_NUMBER}, "
                "e.g. 0-999)"
            ) from None
        if len(numbers) + high - low + 1 > limit:
            raise ValueError(f"too many deals: at most {limit:,} in one run")
        numbers.extend(range(low, high + 1))
    if not numbers:
        raise ValueError("no deals given")
    return list(dict.fromkeys(numbers))


def parse_dask_address(text: str) -> str:
    """Check a ``--dask`` value; ``ValueError`` with a readable message if it is not one.

    ``local`` and ``local:N`` (N from 1 to 1024) come back as they are: a cluster on this
    machine. ``HOST:PORT`` and ``tcp://HOST:PORT`` come back as ``tcp://HOST:PORT``: the
    scheduler to join (an IPv6 host is written in brackets, ``[::1]:8786``).
    """
    value = text.strip()
    shown = value if len(value) <= 60 else value[:59] + "…"
    expected = (
        f"--dask must be local, local:N, HOST:PORT or tcp://HOST:PORT, not {shown!r}"
        if value
        else "--dask must be local, local:N, HOST:PORT or tcp://HOST:PORT"
    )
    if not value.isascii() or len(value) > 300:
        raise ValueError(expected)
    if value == "local":
        return value
    if value.startswith("local:"):
        count = value.removeprefix("local:")
        if not (count.isdigit() and len(count) <= 5 and 1 <= int(count) <= 1024):
            raise ValueError(f"--dask local:N needs N from 1 to 1024 workers, not {shown!r}")
        return f"local:{int(count)}"
    rest = value.removeprefix("tcp://")
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or len(port) > 5 or not 1 <= int(port) <= 65535:
        raise ValueError(expected)
    if host.startswith("[") and host.endswith("]"):
        bare = host[1:-1]
        valid = bool(bare) and all(c in "0123456789abcdefABCDEF:." for c in bare)
    else:
        valid = bool(host) and all(c.isalnum() or c in "-._" for c in host)
    if not valid:
        raise ValueError(expected)
    return f"tcp://{host}:{int(port)}"


def solve_deal(task: tuple[str, int, str, int, float, float]) -> dict[str, Any]:
    """Solve one deal (a picklable top-level function for worker processes and Dask)."""
    game_name, suits, rule, number, time_limit, memory_mb = task
    game = Game.new(game_name, suits=suits, rule=rule, number=number)
    result = solve(game, time_limit=time_limit, memory_limit_mb=memory_mb)
    return {
        "code": game.code,
        "number": number,
        "status": result.status,
        "reason": result.reason,
        "moves": len(result.solution),
        "positions": result.positions,
        "elapsed": round(result.elapsed, 3),
        "solution": " ".join(result.solution),
    }


def wilson_interval(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if total == 0:
        return (0.0, 1.0)
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts, shares and times of a batch."""

    total: int
    winnable: int
    unwinnable: int
    undecided: int
    median_time: float
    p95_time: float
    winnable_ci: tuple[float, float]

    def lines(self) -> list[str]:
        """The summary as printable lines."""
        total = max(self.total, 1)
        low, high = self.winnable_ci
        return [
            f"deals: {self.total}",
            f"winnable:   {self.winnable:6d}  {100 * self.winnable / total:6.2f}%  "
            f"(95% CI {100 * low:.2f}-{100 * high:.2f}%, Wilson)",
            f"unwinnable: {self.unwinnable:6d}  {100 * self.unwinnable / total:6.2f}%",
            f"undecided:  {self.undecided:6d}  {100 * self.undecided / total:6.2f}%",
            f"time per deal: median {self.median_time:.2f}s, p95 {self.p95_time:.2f}s",
        ]


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def summarize(rows: Iterable[dict[str, Any]]) -> Summary:
    """Summarise result rows (dicts with ``status`` and ``elapsed``)."""
    rows = list(rows)
    statuses = [row["status"] for row in rows]
    times = [float(row["elapsed"]) for row in rows]
    winnable = statuses.count("winnable")
    return Summary(
        total=len(rows),
        winnable=winnable,
        unwinnable=statuses.count("unwinnable"),
        undecided=statuses.count("undecided"),
        median_time=statistics.median(times) if times else 0.0,
        p95_time=_percentile(times, 0.95),
        winnable_ci=wilson_interval(winnable, len(rows)),
    )


def load_results(path: Path) -> list[dict[str, Any]]:
    """Rows already in a CSV or JSON output file (empty when it does not exist)."""
    if not path.exists() or path.stat().st_size == 0:
        return []
    if path.suffix.lower() == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = data.get("results", []) if isinstance(data, dict) else data
        return [dict(row) for row in rows]
    with path.open(newline="", encoding="utf-8") as handle:
        return [dict(row) for row in csv.DictReader(handle)]


class _Writer:
    """Appends rows to CSV as they arrive, or rewrites the JSON file."""

    def __init__(self, path: Path, existing: list[dict[str, Any]]) -> None:
        self.path = path
        self.rows = list(existing)
        self.json = path.suffix.lower() == ".json"
        if not self.json and not existing:
            with path.open("w", newline="", encoding="utf-8") as handle:
                csv.DictWriter(handle, FIELDS).writeheader()

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if self.json:
            temporary = self.path.with_suffix(".json.tmp")
            temporary.write_text(json.dumps({"results": self.rows}, indent=1), encoding="utf-8")
            temporary.replace(self.path)
        else:
            with self.path.open("a", newline="", encoding="utf-8") as handle:
                csv.DictWriter(handle, FIELDS).writerow({name: row[name] for name in FIELDS})


class _ProgressBar:
    """The progress of a batch on ``stream``: a bar redrawn in place on a terminal; elsewhere
    (a file, a pipe, a log) plain lines (:class:`~spider.progress_line.ProgressLine`)."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.line = ProgressLine(stream, clock)

    def show(self, done: int, total: int, counts: dict[str, int]) -> None:
        tally = (
            f"{done}/{total} win {counts['winnable']} lose {counts['unwinnable']} "
            f"? {counts['undecided']}"
        )
        if self.line.tty:
            width = 30
            filled = width * done // max(total, 1)
            self.line.update(f"[{'#' * filled}{'.' * (width - filled)}] {tally}")
        else:
            self.line.update(f"deals {tally}")

    def close(self) -> None:
        self.line.close()


def _run_local(
    tasks: list[tuple[str, int, str, int, float, float]], workers: int
) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        for task in tasks:
            yield solve_deal(task)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(solve_deal, task) for task in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _run_dask(
    tasks: list[tuple[str, int, str, int, float, float]],
    address: str,
    workers: int,
    stack: ExitStack,
) -> Iterator[dict[str, Any]]:
    """Connect to the scheduler at ``address`` now (starting a cluster on this machine for
    ``local`` or ``local:N``), closed by ``stack``; the results come from the iterator."""
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed
    except ImportError as error:
        raise RuntimeError(
            f"--dask needs Dask distributed: pip install 'spider-solitaire[dask]' ({error})"
        ) from None
    if address == "local" or address.startswith("local:"):
        count = int(address.removeprefix("local").removeprefix(":") or workers)
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=max(1, count),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        stack.callback(cluster.close)
        address = cluster.scheduler_address
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError):
        raise RuntimeError(
            f"no Dask scheduler answered at {address} within {CONNECT_TIMEOUT:g} s "
            "(start one there with 'dask scheduler', or use local)"
        ) from None
    stack.callback(client.close)
    futures = client.map(solve_deal, tasks, pure=False)

    def results() -> Iterator[dict[str, Any]]:
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()

    return results()


def analyze(
    game: str,
    suits: int,
    rule: str,
    deals: list[int],
    out: Path,
    time_limit: float = 10.0,
    workers: int = 1,
    memory_mb: float = 2048,
    dask_address: str | None = None,
    stream: TextIO | None = sys.stderr,
    runner: Callable[[list[tuple[str, int, str, int, float, float]]], Iterable[dict[str, Any]]]
    | None = None,
) -> Summary:
    """Solve ``deals`` (skipping those already in ``out``), write every result, summarise.

    ``dask_address`` runs the deals on Dask instead of a process pool: ``"local"`` starts a
    cluster of ``workers`` processes on this machine for the run (``"local:N"``, of N), any
    other address joins a scheduler already running there (``RuntimeError`` when none answers
    within ``CONNECT_TIMEOUT`` seconds). Progress goes to ``stream``: a bar on a terminal,
    plain lines elsewhere. Returns the summary of every deal of ``deals`` found in the file at
    the end.
    """
    existing = load_results(out)
    done = {int(row["number"]) for row in existing}
    todo = [number for number in deals if number not in done]
    tasks = [(game, suits, rule, number, time_limit, memory_mb) for number in todo]
    writer = _Writer(out, existing)
    counts = {"winnable": 0, "unwinnable": 0, "undecided": 0}
    for row in existing:
        if int(row["number"]) in set(deals):
            counts[row["status"]] = counts.get(row["status"], 0) + 1
    total = len(deals)
    finished = total - len(todo)
    results: Iterable[dict[str, Any]]
    with ExitStack() as stack:
        if runner is not None:
            results = runner(tasks)
        elif dask_address is not None:
            results = _run_dask(tasks, dask_address, workers, stack)
        else:
            results = _run_local(tasks, workers)
        bar = _ProgressBar(stream) if stream is not None else None
        try:
            if bar is not None:
                bar.show(finished, total, counts)
            for row in results:
                writer.add(row)
                counts[row["status"]] += 1
                finished += 1
                if bar is not None:
                    bar.show(finished, total, counts)
        finally:
            if bar is not None:
                bar.close()
    wanted = set(deals)
    return summarize(row for row in writer.rows if int(row["number"]) in wanted)
