"""Web app benchmark (not a timed test): load times, input-to-paint latency and app size.

    .venv/bin/python benchmarks/web.py [--actions 200] [--warm-runs 5]

Runs the real app (``spider.server.create_app`` with the vendored Pyodide) on uvicorn in this
process and drives Debian's Chromium, headless, through Playwright. It prints a table:

- cold (first visit: empty cache, no service worker, no saved game) and warm (a later visit:
  service worker, cached engine, saved game) time from navigation start to the first painted
  table and to engine ready, read from the page's own user-timing marks
  (``spider:first-table``, ``spider:engine-ready``);
- input-to-paint for a move (a mouse drag) and an undo (the U key): from the input handler to
  the frame that shows the new table, p50 and p95 over ``--actions`` of each
  (``spider:move`` / ``spider:undo`` measures);
- the transfer size of the app without Pyodide, gzip as served, with and without the engine's
  Python sources (``/engine.zip``).

Targets (issue 3): warm first paint <= 300 ms, engine ready <= 2.5 s, input-to-paint p95
<= 50 ms, app < 150 KB compressed.
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
from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from spider import Game  # noqa: E402
from spider.server import create_app, default_pyodide_dir  # noqa: E402

CHROMIUM = os.environ.get("SPIDER_CHROMIUM", "/usr/bin/chromium")
CODE = "SP1-S4C-AAAAAAD"
VIEWPORT = {"width": 1280, "height": 800}

MARKS = """() => Object.fromEntries(['spider:first-table', 'spider:engine-ready'].map((name) =>
  [name, performance.getEntriesByName(name)[0]?.startTime ?? null]))"""


def start_server() -> tuple[str, Any]:
    import uvicorn

    app = create_app(default_pyodide_dir())
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server


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
        "() => performance.getEntriesByName('spider:engine-timings')[0]?.detail ?? {}"
    )
    return detail


def app_size(base: str) -> tuple[int, int, int]:
    """Bytes on the wire (gzip) of the app shell, of /engine.zip, and the files counted."""
    sw = (REPO / "src" / "spider" / "web" / "sw.js").read_text(encoding="utf-8")
    block = sw[sw.index("const SHELL = [") : sw.index("];", sw.index("const SHELL = ["))]
    urls = re.findall(r'"(/[^"]*)"', block)
    shell = engine = 0
    with httpx.Client(base_url=base, headers={"Accept-Encoding": "gzip"}) as client:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=200, help="moves and undos to time")
    parser.add_argument("--warm-runs", type=int, default=5, help="warm reloads to time")
    args = parser.parse_args()

    base, server = start_server()
    rows: list[tuple[str, str, str]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox"], headless=True
            )
            context = browser.new_context(base_url=base, viewport=VIEWPORT)
            page = context.new_page()
            page.goto(f"/?code={CODE}")
            cold = wait_marks(page)
            page.wait_for_function(
                "() => navigator.serviceWorker.ready"
                ".then(() => !!navigator.serviceWorker.controller)",
                timeout=120_000,
            )
            warm: list[dict[str, float]] = []
            steps: list[dict[str, float]] = []
            for _ in range(args.warm_runs):
                page.reload()
                warm.append(wait_marks(page))
                steps.append(start_up(page))
            timings = latency(page, args.actions)
            browser.close()
        shell, engine, files = app_size(base)
    finally:
        server.should_exit = True

    def ms(v: float) -> str:
        return f"{v:,.0f} ms"

    wf = statistics.median(w["spider:first-table"] for w in warm)
    we = statistics.median(w["spider:engine-ready"] for w in warm)
    rows += [
        ("cold: navigation → first painted table", ms(cold["spider:first-table"]), "—"),
        ("cold: navigation → engine ready", ms(cold["spider:engine-ready"]), "—"),
        (f"warm: navigation → first painted table (median of {len(warm)})", ms(wf), "≤ 300 ms"),
        (f"warm: navigation → engine ready (median of {len(warm)})", ms(we), "≤ 2,500 ms"),
        (
            "warm: of which, in the worker: Pyodide / engine import",
            f"{statistics.median(s.get('pyodide', 0) for s in steps):,.0f} / "
            f"{statistics.median(s.get('engine', 0) for s in steps):,.0f} ms",
            "—",
        ),
    ]
    for kind in ("move", "undo"):
        values = timings[kind]
        rows.append(
            (
                f"input → paint, {kind} (p50 / p95 over {len(values)})",
                f"{pct(values, 0.5):.1f} / {pct(values, 0.95):.1f} ms",
                "p95 ≤ 50 ms",
            )
        )
    for key, name in (("engine", "the engine's answer"), ("render", "the DOM update")):
        values = timings[key]
        rows.append(
            (
                f"of which, {name} (p50 / p95 over {len(values)})",
                f"{pct(values, 0.5):.1f} / {pct(values, 0.95):.1f} ms",
                "—",
            )
        )
    rows += [
        (
            f"app transfer, gzip, without Pyodide and engine ({files - 1} files)",
            f"{shell / 1024:.1f} KB",
            "< 150 KB",
        ),
        ("engine sources (/engine.zip) transfer", f"{engine / 1024:.1f} KB", "—"),
        ("app + engine transfer", f"{(shell + engine) / 1024:.1f} KB", "—"),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'result':>{vwidth}}  target")
    print(f"{'-' * width}  {'-' * vwidth}  {'-' * 10}")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>{vwidth}}  {target}")
    print()
    print(
        f"Chromium {CHROMIUM} headless, viewport {VIEWPORT['width']}x{VIEWPORT['height']},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    print("command: " + " ".join(shlex.quote(a) for a in [".venv/bin/python", *sys.argv]))


if __name__ == "__main__":
    main()
