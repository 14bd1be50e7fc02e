"""The game survives reloads (with its history), input before the engine is ready is refused, and
after one visit the app loads and plays offline."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from webapp import SPIDER_2, assert_shows, drag, open_app, wait_ready

import spider
from spider import Game

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "src" / "spider" / "web"


# Holds back every message of the page's workers while sessionStorage says so: the engine
# starts, but the page hears nothing from it until the test lets it (the worker begins in the
# page's first script, before any route could hold its downloads).
HOLD_ENGINE = """(() => {
  if (!sessionStorage.getItem("hold-engine")) return;
  const Real = window.Worker;
  const held = (window.heldEngineMessages = []);
  window.releaseEngine = () => {
    sessionStorage.removeItem("hold-engine");
    for (const [worker, data] of held.splice(0)) {
      worker.dispatchEvent(new MessageEvent("message", { data }));
    }
  };
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (!sessionStorage.getItem("hold-engine") || !event.isTrusted) return;
        event.stopImmediatePropagation();
        held.push([this, event.data]);
      });
    }
  };
})()"""


def test_reload_keeps_the_game_and_its_history(page: Page, profile: str, screenshot: Any) -> None:
    # No service worker here: the reload loads everything afresh.
    page.route("**/sw.js*", lambda route: route.abort())
    page.add_init_script(HOLD_ENGINE)
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    drag(page, profile, 1, -1, 4)
    game.move(1, 4, 1)
    page.keyboard.press("d")
    game.deal()
    assert_shows(page, game)

    # Hold the engine back: the table must appear from the saved game before it is ready, and
    # input made meanwhile must be refused, not applied later.
    page.evaluate("() => sessionStorage.setItem('hold-engine', '1')")
    page.reload()
    page.wait_for_selector('[data-column="9"] > [data-face="up"]')
    assert page.evaluate("() => document.documentElement.dataset.engine") != "ready"
    assert_shows(page, game)
    expect(page.locator("[data-engine-status]")).to_have_attribute("data-status", "loading")
    # The table says so in words at every size, and its cards are dimmed: it looks like what it
    # is, not yet playable.
    starting = page.locator("[data-starting]")
    expect(starting).to_be_visible()
    expect(starting).to_contain_text("Starting the game engine")
    box, size = starting.bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    assert float(page.locator("#columns").evaluate("(el) => getComputedStyle(el).opacity")) < 1
    screenshot(page, "before-engine")
    # Input before the engine is ready is refused with a message, never applied seconds later.
    page.keyboard.press("u")
    expect(page.locator("[data-message]")).to_contain_text("still starting")
    screenshot(page, "refused-before-engine")
    # The engine did start meanwhile (it said it was ready): only the page was kept from hearing.
    page.wait_for_function("() => window.heldEngineMessages.length > 0", timeout=120_000)
    assert page.evaluate("() => document.documentElement.dataset.engine") != "ready"
    page.evaluate("() => window.releaseEngine()")
    wait_ready(page)
    page.wait_for_timeout(300)
    assert_shows(page, game)
    expect(starting).to_be_hidden()
    assert page.locator("#columns").evaluate("(el) => getComputedStyle(el).opacity") == "1"
    # The whole history came back: undo the deal and the move, then redo both.
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game)
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, Game.from_code(SPIDER_2))
    page.keyboard.press("Control+y")
    page.keyboard.press("Control+y")
    game.redo()
    game.redo()
    assert_shows(page, game)


def _shell_list() -> list[str]:
    text = (WEB / "sw.js").read_text(encoding="utf-8")
    block = text[text.index("const SHELL = [") : text.index("];", text.index("const SHELL = ["))]
    return re.findall(r'"(/[^"]*)"', block)


def test_service_worker_caches_every_app_file() -> None:
    files = {
        "/" + p.relative_to(WEB).as_posix()
        for p in WEB.rglob("*")
        if p.is_file() and p.name not in {"sw.js", "index.html"}
    }
    shell = set(_shell_list())
    assert files <= shell, f"not cached by the service worker: {sorted(files - shell)}"
    assert {"/", "/engine.zip", "/engine.json"} <= shell


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_offline_reload_still_plays(page: Page, profile: str, screenshot: Any) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    # The service worker has installed (shell, engine and Pyodide cached) and controls the page.
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
        timeout=60_000,
    )
    # Its cache is named after the release, as /engine.json and the package say.
    assert f"spider-{spider.__version__}" in page.evaluate("() => caches.keys()")
    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        assert_shows(page, game)
        drag(page, profile, 1, -1, 4)
        game.move(1, 4, 1)
        assert_shows(page, game)
        screenshot(page, "offline")
    finally:
        page.context.set_offline(False)


SNAPSHOT_STATE = """() => caches.open('spider-snapshot').then(async (cache) => {
  const keys = await cache.keys();
  const size = async (k) => (await (await cache.match(k)).arrayBuffer()).byteLength;
  const sizes = await Promise.all(keys.map(size));
  return {keys: keys.map((k) => new URL(k.url).pathname), sizes};
})"""
HOW_STARTED = (
    "() => performance.getEntriesByName('spider:engine-timings')[0]?.detail?.snapshot ?? null"
)


def _snapshot_written(page: Page) -> dict[str, Any]:
    """What the snapshot cache holds, once the worker has written a snapshot into it."""
    deadline = time.monotonic() + 60
    while True:
        state: dict[str, Any] = page.evaluate(SNAPSHOT_STATE)
        if (state["sizes"] and state["sizes"][0] > 1e6) or time.monotonic() > deadline:
            return state
        page.wait_for_timeout(100)


@pytest.mark.snapshot
@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_memory_snapshot_restores_and_falls_back(page: Page, profile: str) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    # A first start has none to restore; a helper makes one once the page is quiet.
    assert page.evaluate(HOW_STARTED) == "none"
    made = _snapshot_written(page)
    assert len(made["keys"]) == 1 and made["keys"][0].startswith("/snapshot/")
    # The next start restores it, and plays.
    page.reload()
    wait_ready(page)
    assert page.evaluate(HOW_STARTED) == "restored"
    drag(page, profile, 1, -1, 4)
    game.move(1, 4, 1)
    assert_shows(page, game)
    # A broken snapshot (as one of another build would be) is refused: a plain start, after
    # which the helper makes a good one again.
    page.evaluate(
        "(key) => caches.open('spider-snapshot')"
        ".then((c) => c.put(key, new Response(new Uint8Array(4096))))",
        made["keys"][0],
    )
    page.reload()
    wait_ready(page)
    assert page.evaluate(HOW_STARTED) == "refused"
    assert_shows(page, game)
    assert _snapshot_written(page)["sizes"] == made["sizes"]
    # None at all (evicted, storage full): a plain start, then one is made again.
    page.evaluate("() => caches.delete('spider-snapshot')")
    page.reload()
    wait_ready(page)
    assert page.evaluate(HOW_STARTED) == "none"
    assert _snapshot_written(page)["sizes"] == made["sizes"]
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game)


STORED_GAME = "() => JSON.parse(localStorage.getItem('spider:game')).data"
# Before the app's own listener: while `window.muted`, this tab does not hear other tabs' saves
# (as when a save lands between two of its actions).
MUTE_OTHER_TABS = (
    "addEventListener('storage', (e) => { if (window.muted) e.stopImmediatePropagation(); })"
)
FULL_STORAGE = (
    "Storage.prototype.setItem = function () {"
    " throw new DOMException('full', 'QuotaExceededError'); }"
)


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_two_tabs_and_full_storage_lose_nothing(
    context: BrowserContext, page: Page, profile: str, screenshot: Any
) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    drag(page, profile, 1, -1, 4)
    game.move(1, 4, 1)
    assert_shows(page, game)
    other = context.new_page()
    other.add_init_script(MUTE_OTHER_TABS)
    open_app(other, "/")
    assert_shows(other, game)

    # Each tab takes up what the other plays, and says so.
    other.keyboard.press("d")
    game.deal()
    assert_shows(other, game)
    assert_shows(page, game)
    expect(page.locator("[data-toast]")).to_contain_text("another tab")
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game)
    assert_shows(other, game)

    # A tab that is behind (it has not heard of the other's last save) never overwrites it: its
    # next action is not saved, and it takes up the newer game instead.
    other.evaluate("() => { window.muted = true; }")
    saves = page.evaluate(STORED_GAME)["rev"]
    page.keyboard.press("d")
    game.deal()
    assert_shows(page, game)
    page.wait_for_function(f"() => ({STORED_GAME})().rev > {saves}")
    other.keyboard.press("u")
    assert_shows(other, game)
    expect(other.locator("[data-toast]")).to_contain_text("another tab")
    assert page.evaluate(STORED_GAME)["state"]["moves"] == game.moves
    screenshot(other, "took-up")

    # Statistics are merged: each tab's records add to the other's.
    record = "(k) => import('/stats.js').then((s) => { s.recordStart(k); return s.get(k).played; })"
    key = "spiderette/4/classic/standard"
    assert page.evaluate(record, key) == 1
    # Tabs run in separate processes: a write reaches the other tab's localStorage a moment later.
    other.wait_for_function(
        "(k) => (localStorage.getItem('spider:stats') ?? '').includes(k)", arg=key
    )
    assert other.evaluate(record, key) == 2

    # Storage full at start-up: the saved game is still shown, and the player is told at once,
    # lastingly, that progress cannot be saved.
    other.set_viewport_size({"width": 360, "height": 640})
    other.add_init_script(FULL_STORAGE)
    other.reload()
    wait_ready(other)
    shown_at = time.monotonic()
    assert_shows(other, game)
    notice = other.locator("[data-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("not keeping saved games")
    screenshot(other, "storage-full")
    other.keyboard.press("u")
    game.undo()
    assert_shows(other, game)
    # Still there after any toast would have gone (5 s).
    other.wait_for_timeout(max(0.0, 5.2 - (time.monotonic() - shown_at)) * 1000)
    expect(notice).to_be_visible()
