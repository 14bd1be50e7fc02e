"""Web app benchmark (not a timed test): start-up, bytes of a first visit, input latency, size.

    .venv/bin/python benchmarks/web.py [--actions 200] [--warm-runs 5] [--cold-runs 3]

Runs the real app (``spider.serve.app.create_app`` with the vendored Pyodide) three times on
uvicorn in this process, the plain start (``fast_start=False``: Pyodide's stdlib of sources, the
engine as sources, no ``/start.json``), the new one (the bytecode built by ``make``,
``/start.json``, Brotli, the worker's memory snapshot) and the new one without the snapshot
(``snapshot=False``), and drives Debian's Chromium, headless, through Playwright. They take
turns, so the ratios are measured under the same load. It prints a table, side by side:

- first visit (empty cache, no service worker, no saved game; ``?code=``) and warm (a same-tab
  reload: service worker, cached files, saved game) time from navigation start to the first
  painted table and to engine ready, read from the page's own user-timing marks
  (``spider:first-table``, ``spider:engine-ready``); the bytes a first visit transfers (every
  response of the server, counted by it, until the service worker has cached the app);
- input-to-paint for a move (a mouse drag) and an undo (the U key), new start only: from the
  input handler to the frame that shows the new table, p50 and p95 over ``--actions`` of each
  (``spider:move`` / ``spider:undo`` measures);
- the transfer size of the app without Pyodide and of ``/engine.zip``, Brotli as served;
- the floor, measured in turn with the starts above: a bare page (``benchmarks/pyodide_floor``)
  whose worker only starts Pyodide with the same bytecode standard library, plainly on a first
  visit and from a memory snapshot of itself on a reload. No start of the app can be faster.

Targets: warm engine ready <= 800 ms, first visit engine ready <= 2.5 s, first visit first
table <= 1 s; warm first paint <= 300 ms, input-to-paint p95 <= 50 ms,
app < 150 KB compressed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from spider import Game  # noqa: E402
from spider.serve.app import create_app, default_pyodide_dir  # noqa: E402

CHROMIUM = os.environ.get("SPIDER_CHROMIUM", "/usr/bin/chromium")
CODE = "SP1-S4C-AAAAAAD"
VIEWPORT = {"width": 1280, "height": 800}

MARKS = """() => Object.fromEntries(['spider:first-table', 'spider:engine-ready'].map((name) =>
  [name, performance.getEntriesByName(name)[0]?.startTime ?? null]))"""


class ByteCounter:
    """ASGI wrapper: counts the bytes of every response (status line, headers, body)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.bytes = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def counting(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                self.bytes += 17 + sum(len(k) + len(v) + 4 for k, v in headers)
            elif message["type"] == "http.response.body":
                self.bytes += len(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, counting)


FLOOR_DIR = Path(__file__).resolve().parent / "pyodide_floor"
FLOOR_READY = "() => performance.getEntriesByName('floor:ready').length > 0"
FLOOR_TIME = "() => performance.getEntriesByName('floor:ready')[0].startTime"


def start_server(fast: bool, snapshot: bool) -> tuple[str, Any, ByteCounter]:
    """The app on a free loopback port: the new start (``fast``) or the plain one; the floor's
    pages (``/_floor/``) beside it."""
    import uvicorn

    app = create_app(
        default_pyodide_dir(),
        fast_start=fast,
        snapshot=snapshot,
        extra_static={"_floor/": FLOOR_DIR},
    )
    counter = ByteCounter(app)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(counter, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, counter


def wait_marks(page: Page) -> dict[str, float]:
    page.wait_for_function(
        "() => performance.getEntriesByName('spider:first-table').length"
        " && performance.getEntriesByName('spider:engine-ready').length",
        timeout=120_000,
    )
    marks: dict[str, float] = page.evaluate(MARKS)
    return marks


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def centre(page: Page, selector: str, top: bool = False) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + (8 if top else box["height"] / 2)


def settle(page: Page) -> None:
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def latency(page: Page, actions: int) -> dict[str, list[float]]:
    """Plays a legal move by mouse drag and undoes it with U, ``actions`` times each."""
    game = Game.from_code(CODE)
    move = next(m for m in game.legal_moves() if m.count == 1)
    src = f'[data-column="{move.src}"] > [data-face]:last-child'
    page.evaluate("() => performance.clearMeasures()")
    for n in range(1, actions + 1):
        settle(page)  # locate the card where it rests, not where an animation carries it
        x0, y0 = centre(page, src, top=True)
        x1, y1 = centre(page, f'[data-column="{move.dst}"] > [data-face]:last-child')
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x1, y1, steps=3)
        page.mouse.up()
        page.wait_for_function(
            "(n) => performance.getEntriesByName('spider:move').length >= n", arg=n
        )
        settle(page)
        page.keyboard.press("u")
        page.wait_for_function(
            "(n) => performance.getEntriesByName('spider:undo').length >= n", arg=n
        )
    result: dict[str, list[float]] = page.evaluate(
        "() => Object.fromEntries(['move', 'undo', 'engine', 'render'].map((k) => [k,"
        " performance.getEntriesByName('spider:' + k).map((e) => e.duration)]))"
    )
    return result


def start_up(page: Page) -> dict[str, float]:
    """Where the worker's start-up time went (Pyodide, engine import), from its own report."""
    detail: dict[str, float] = page.evaluate(
        """() => {
          const detail = performance.getEntriesByName('spider:engine-timings')[0]?.detail ?? {};
          return {...detail, begun: (detail.origin ?? 0) - performance.timeOrigin};
        }"""
    )
    return detail


def app_size(base: str) -> tuple[int, int, int]:
    """Bytes on the wire (Brotli) of the app shell, of /engine.zip, and the files counted."""
    sw = (REPO / "src" / "spider" / "web" / "sw.js").read_text(encoding="utf-8")
    block = sw[sw.index("const SHELL = [") : sw.index("];", sw.index("const SHELL = ["))]
    urls = re.findall(r'"(/[^"]*)"', block)
    shell = engine = 0
    with httpx.Client(base_url=base, headers={"Accept-Encoding": "br, gzip"}) as client:
        for url in [*urls, "/sw.js"]:
            with client.stream("GET", url) as response:
                response.raise_for_status()
                for _ in response.iter_raw():
                    pass
                size = response.num_bytes_downloaded
            if url == "/engine.zip":
                engine += size
            else:
                shell += size
    return shell, engine, len(urls)


SW_READY = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
SNAPSHOT_STORED = (
    "() => caches.open('spider-snapshot').then((c) => c.keys()).then((k) => k.length > 0)"
)


class Variant:
    """One start (plain or new): its server, its page, its figures."""

    def __init__(self, name: str, fast: bool, snapshot: bool = True) -> None:
        self.name = name
        self.snapshot = fast and snapshot
        self.base, self.server, self.counter = start_server(fast, snapshot)
        self.cold: list[dict[str, float]] = []
        self.cold_bytes = 0
        self.warm: list[dict[str, float]] = []
        self.steps: list[dict[str, float]] = []
        self.page: Page | None = None

    def first_visit(self, browser: Browser, keep: bool) -> None:
        """A first visit: empty cache, no service worker, no saved game; counts the bytes."""
        context = browser.new_context(base_url=self.base, viewport=VIEWPORT)
        page = context.new_page()
        before = self.counter.bytes
        page.goto(f"/?code={CODE}")
        self.cold.append(wait_marks(page))
        page.wait_for_function(SW_READY, timeout=120_000)
        if self.snapshot:  # a returning player's start restores the snapshot made meanwhile
            page.wait_for_function(SNAPSHOT_STORED, timeout=120_000)
        page.wait_for_timeout(300)  # the service worker's last cache writes
        self.cold_bytes = self.counter.bytes - before
        if keep:
            self.page = page
        else:
            context.close()

    def reload(self) -> None:
        assert self.page is not None
        self.page.reload()
        self.warm.append(wait_marks(self.page))
        self.steps.append(start_up(self.page))


class Floor:
    """The least any page can do: a worker that starts Pyodide with the same bytecode standard
    library, nothing of the app; served by the new start's server, measured in turn with it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cold: list[float] = []
        self.warm: list[float] = []
        self.page: Page | None = None

    def first_visit(self, browser: Browser) -> None:
        context = browser.new_context(base_url=self.base, viewport=VIEWPORT)
        page = context.new_page()
        page.goto("/_floor/index.html?nosnap")
        page.wait_for_function(FLOOR_READY, timeout=120_000)
        self.cold.append(page.evaluate(FLOOR_TIME))
        context.close()

    def reload(self, browser: Browser) -> None:
        if self.page is None:  # a first start that makes the snapshot
            self.page = browser.new_context(base_url=self.base, viewport=VIEWPORT).new_page()
            self.page.goto("/_floor/index.html")
            self.page.wait_for_function(FLOOR_READY, timeout=120_000)
        self.page.reload()
        self.page.wait_for_function(FLOOR_READY, timeout=120_000)
        self.warm.append(self.page.evaluate(FLOOR_TIME))


def median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=200, help="moves and undos to time")
    parser.add_argument("--warm-runs", type=int, default=5, help="warm reloads to time")
    parser.add_argument("--cold-runs", type=int, default=3, help="first visits to time")
    args = parser.parse_args()

    plain, new = Variant("plain", fast=False), Variant("new", fast=True)
    bytecode = Variant("new without snapshot", fast=True, snapshot=False)
    variants = (plain, bytecode, new)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox"], headless=True
            )
            # Plain and new take turns, so that both run under the same load.
            floor = Floor(new.base)
            for run in range(args.cold_runs):
                for variant in variants:
                    variant.first_visit(browser, keep=run == args.cold_runs - 1)
                floor.first_visit(browser)
            for _ in range(args.warm_runs):
                for variant in variants:
                    variant.reload()
                floor.reload(browser)
            assert new.page is not None
            timings = latency(new.page, args.actions) if args.actions else {}
            browser.close()
        shell, engine, files = app_size(new.base)
    finally:
        for variant in variants:
            variant.server.should_exit = True
    print_table(args, plain, bytecode, new, timings, (shell, engine, files))
    print(
        f"floor, in turn with the above: a page whose worker only starts Pyodide with the same "
        f"bytecode standard library: first visit → ready {statistics.median(floor.cold):,.0f} ms "
        f"(median of {len(floor.cold)}), warm reload with its snapshot → ready "
        f"{statistics.median(floor.warm):,.0f} ms (median of {len(floor.warm)})"
    )


def print_table(
    args: argparse.Namespace,
    plain: Variant,
    bytecode: Variant,
    new: Variant,
    timings: dict[str, list[float]],
    size: tuple[int, int, int],
) -> None:
    def ms(v: float) -> str:
        return f"{v:,.0f} ms"

    Row = tuple[str, str, str, str, str, str]

    def three(label: str, target: str, value: Any, text: Any = ms) -> Row:
        a, b, c = (value(v) for v in (plain, bytecode, new))
        return (label, text(a), text(b), text(c), f"{c / a:.2f}", target)

    cold_n, warm_n = len(new.cold), len(new.warm)
    rows: list[Row] = [
        three(
            f"first visit: navigation → first painted table (median of {cold_n})",
            "≤ 1,000 ms",
            lambda v: median(v.cold, "spider:first-table"),
        ),
        three(
            f"first visit: navigation → engine ready (median of {cold_n})",
            "≤ 2,500 ms",
            lambda v: median(v.cold, "spider:engine-ready"),
        ),
        three(
            "first visit: bytes transferred (page, worker, service worker)",
            "—",
            lambda v: v.cold_bytes / 1e6,
            lambda mb: f"{mb:.2f} MB",
        ),
        three(
            f"warm: navigation → first painted table (median of {warm_n})",
            "≤ 300 ms",
            lambda v: median(v.warm, "spider:first-table"),
        ),
        three(
            f"warm: navigation → engine ready (median of {warm_n})",
            "≤ 800 ms",
            lambda v: median(v.warm, "spider:engine-ready"),
        ),
    ]
    for key, label in (
        ("begun", "navigation → worker running"),
        ("meta", "worker start → /engine.json read"),
        ("files", "worker start → pyodide.mjs, snapshot read"),
        ("pyodide", "worker start → Pyodide loaded"),
        ("engine", "then the engine's import"),
    ):
        rows.append(
            three(
                f"warm: {label}",
                "—",
                lambda v, key=key: statistics.median(s.get(key, 0) for s in v.steps),
            )
        )
    for kind in ("move", "undo") if timings else ():
        values = timings[kind]
        rows.append(
            (
                f"input → paint, {kind} (p50 / p95 over {len(values)})",
                "",
                "",
                f"{pct(values, 0.5):.1f} / {pct(values, 0.95):.1f} ms",
                "",
                "p95 ≤ 50 ms",
            )
        )
    shell, engine, files = size
    rows += [
        (
            f"app transfer, Brotli, without Pyodide and engine ({files - 1} files)",
            "",
            "",
            f"{shell / 1024:.1f} KB",
            "",
            "< 150 KB",
        ),
        (
            "engine (/engine.zip, bytecode) transfer, Brotli",
            "",
            "",
            f"{engine / 1024:.1f} KB",
            "",
            "—",
        ),
    ]
    head: Row = ("measure", "plain", "no snapshot", "new", "new/plain", "target")
    widths = [max(len(r[i]) for r in [*rows, head]) for i in range(6)]
    line = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths[:5]))
    print(line.format(*head[:5]) + "  " + head[5])
    print(line.format(*("-" * w for w in widths[:5])) + "  " + "-" * 10)
    for row in rows:
        print(line.format(*row[:5]) + "  " + row[5])
    print()
    print(
        "plain: Pyodide's python_stdlib.zip of sources, the engine as sources, no /start.json;"
        " new: bytecode stdlib (stdLibURL) and engine, /start.json, Brotli, memory snapshot;"
        " no snapshot: new without the memory snapshot."
    )
    print(
        f"Chromium {CHROMIUM} headless, viewport {VIEWPORT['width']}x{VIEWPORT['height']},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    print("command: " + " ".join(shlex.quote(a) for a in [".venv/bin/python", *sys.argv]))


if __name__ == "__main__":
    main()
