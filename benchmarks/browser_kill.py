"""What survives Chromium being killed (SIGKILL) right after a write (not a timed test).

    .venv/bin/python benchmarks/browser_kill.py [--delays 0 500 1000 3000 6000]

Runs the app (``spider.serve.app.create_app``, vendored Pyodide) on uvicorn in this process and
Debian's Chromium, headless, as a child process on a fresh profile directory, driven over CDP.
For each delay, twice:

- **app**: a deal (the D key) is played and shown (the engine answered, the game is saved in
  localStorage), the browser is killed ``delay`` ms later, started again on the same profile,
  and the app tells whether the deal is still there;
- **probe**: a value is written to localStorage and, in the same task, to IndexedDB with
  ``durability: "strict"`` (its ``complete`` awaited), the browser is killed ``delay`` ms later,
  and the value each holds after the restart is printed.

Closing a tab keeps localStorage (the browser process holds it): the app's pending-action log
covers that case (tests/browser/test_app_durable.py). A killed browser loses what localStorage
had not yet written to disk, which Chromium does in batches, seconds later.

Measured here (Debian's Chromium, headless, Linux, two busy cores; delays 0 0 250 500 1000 2000
3000 5000 8000 ms): with localStorage alone the app's deal was kept 4 times in 9, then 1 in 9;
the probe's second localStorage value was lost 9 times in 9, even 8 s after it was written (its
first value, written 6 s earlier, was on disk), while IndexedDB with strict durability kept it 9
times in 9, from 0 ms after its `complete`. With every value copied to IndexedDB (mirror.js) and
put back at start-up, the app's deal was kept 9 times in 9 in each of two runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright, sync_playwright

from spider.serve.app import create_app, default_pyodide_dir

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.killable_chromium import KillableChromium  # noqa: E402

CHROMIUM = os.environ.get("SPIDER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run")
READY = (
    "() => document.documentElement.dataset.engine === 'ready'"
    " && localStorage.getItem('spider:pending') === null"
)
DEALS = "() => Number(document.querySelector('[data-stock]').dataset.dealsLeft)"
OPEN_DB = """() => new Promise((ok, ko) => {
  const r = indexedDB.open('probe', 1);
  r.onupgradeneeded = () => r.result.createObjectStore('kv');
  r.onsuccess = () => ok(r.result);
  r.onerror = ko;
})"""
WRITE = f"""async (v) => {{
  localStorage.setItem('probe', v);
  const db = await ({OPEN_DB})();
  await new Promise((ok, ko) => {{
    const tx = db.transaction('kv', 'readwrite', {{durability: 'strict'}});
    tx.objectStore('kv').put(v, 'probe');
    tx.oncomplete = ok;
    tx.onerror = ko;
  }});
}}"""
READ = f"""async () => {{
  const db = await ({OPEN_DB})();
  const idb = await new Promise((ok) => {{
    const get = db.transaction('kv').objectStore('kv').get('probe');
    get.onsuccess = () => ok(get.result ?? null);
  }});
  return {{localStorage: localStorage.getItem('probe'), indexedDB: idb}};
}}"""


@contextmanager
def serve() -> Iterator[str]:
    """The app on a free loopback port (memory snapshot off)."""
    import uvicorn

    app = create_app(default_pyodide_dir(), snapshot=False)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Browser(KillableChromium):
    """Chromium on ``profile`` (killed whole, and started again on the same profile)."""

    def __init__(self, pw: Playwright, profile: Path) -> None:
        super().__init__(pw, CHROMIUM, CHROMIUM_ARGS, profile)

    def page(self, url: str) -> Page:
        page = self.new_page()
        page.goto(url)
        return page


def app_trial(pw: Playwright, base: str, profile: Path, delay_ms: int) -> bool:
    """Whether a deal shown ``delay_ms`` before the browser was killed is there after it."""
    browser = Browser(pw, profile)
    page = browser.page(base + "/?code=SP1-S1C-AAAAAAB")
    page.wait_for_function(READY, timeout=60_000)
    before: int = page.evaluate(DEALS)
    page.keyboard.press("d")
    page.wait_for_function(f"() => ({DEALS})() === {before - 1}")
    time.sleep(delay_ms / 1000)
    browser.kill()
    browser = Browser(pw, profile)
    page = browser.page(base + "/")
    page.wait_for_function(READY, timeout=60_000)
    time.sleep(0.3)
    kept: bool = page.evaluate(DEALS) == before - 1
    browser.kill()
    return kept


def probe_trial(pw: Playwright, base: str, profile: Path, delay_ms: int) -> dict[str, Any]:
    """What localStorage and IndexedDB hold after a kill ``delay_ms`` after the second write."""
    browser = Browser(pw, profile)
    page = browser.page(base + "/engine.json")
    page.evaluate(WRITE, "first")
    time.sleep(6)  # long enough for the first value to be on disk everywhere
    page.evaluate(WRITE, "second")
    time.sleep(delay_ms / 1000)
    browser.kill()
    browser = Browser(pw, profile)
    held: dict[str, Any] = browser.page(base + "/engine.json").evaluate(READ)
    browser.kill()
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--delays", type=int, nargs="+", default=[0, 500, 1000, 3000, 6000])
    args = parser.parse_args()
    with serve() as base, sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        for delay in args.delays:
            profile = Path(tmp) / f"app-{delay}"
            kept = app_trial(pw, base, profile, delay)
            shutil.rmtree(profile, ignore_errors=True)
            held = probe_trial(pw, base, Path(tmp) / f"probe-{delay}", delay)
            second = {k: v == "second" for k, v in held.items()}
            print(
                f"killed {delay:>5} ms after: app deal {'kept' if kept else 'LOST'};"
                f" probe kept by localStorage {second['localStorage']},"
                f" by IndexedDB (strict) {second['indexedDB']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
