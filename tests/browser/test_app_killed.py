"""Progress survives the browser being killed (SIGKILL) right after it is made, and the app works
when IndexedDB does not.

Chromium runs here as a child process on a profile directory of its own, driven over CDP, so
that it can be killed as a crash, a power loss or the system ending it would, and started again
on the same directory. A killed Chromium loses what localStorage had not written to disk yet (it
writes in batches, seconds later); the app's copy in IndexedDB, written with strict durability,
is put back at the next start.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer
from playwright.sync_api import Browser, Page, Playwright, expect
from test_app_games import nearly_won_deal
from test_app_storage import SET_ASIDE, TOLD
from webapp import assert_shows, click_action, drag, open_app, settle

from spider import Game
from spider.moves import Move
from tests.killable_chromium import KillableChromium

pytestmark = pytest.mark.browser

CODE = "SP1-S1C-AAAAAAB"
SAVED = "() => localStorage.getItem('spider:pending') === null"
NAMED = "() => typeof JSON.parse(localStorage.getItem('spider:game')).data.id === 'string'"
# Whether the app is at rest: the game it shows saved, no action waiting, and the copy in
# IndexedDB holding the same game as localStorage.
AT_REST = """async () => {
  const text = (sel) => document.querySelector(sel).textContent;
  const saved = localStorage.getItem('spider:game');
  const state = saved && JSON.parse(saved).data.state;
  if (!state || state.code !== text('[data-code]') || String(state.moves) !== text('[data-moves]')
      || localStorage.getItem('spider:pending') !== null) return false;
  const db = await new Promise((ok, ko) => {
    const r = indexedDB.open('spider-solitaire', 1);
    r.onsuccess = () => ok(r.result);
    r.onerror = ko;
  });
  const copy = await new Promise((ok) => {
    const get = db.transaction('mirror').objectStore('mirror').get('spider:game');
    get.onsuccess = () => ok(get.result?.text);
  });
  db.close();
  return copy === saved;
}"""
# Notes when the page receives an input (before the app's own handlers).
MARK_INPUT = """() => {
  window.inputAt = undefined;
  for (const type of ['pointerup', 'click']) {
    addEventListener(type, () => (window.inputAt ??= performance.now()), true);
  }
}"""
# Whether a write to disk begun since the input has completed (performance entries, mirror.js).
WRITTEN = """() => window.inputAt !== undefined
  && performance.getEntriesByName("spider:mirror-write")
  .some((e) => e.startTime >= window.inputAt)"""


class Durable:
    """With the app at rest, waits after an action for the first write to disk begun since the
    page received it: the action's log, written at input time, is on disk one disk flush after
    the input (30 to 140 ms here), while the game's save may still be on its way. The kill
    comes at once."""

    def __init__(self, page: Page) -> None:
        self.page = page
        deadline = time.monotonic() + 10
        while not page.evaluate(AT_REST):
            assert time.monotonic() < deadline, "the app did not come to rest"
            time.sleep(0.05)
        page.evaluate(MARK_INPUT)

    def wait(self) -> None:
        self.page.wait_for_function(WRITTEN)


class Chromium(KillableChromium):
    """The test's Chromium on ``profile``, opening the app served at ``base``."""

    def __init__(self, pw: Playwright, profile: Path, base: str) -> None:
        super().__init__(pw, CHROMIUM, CHROMIUM_ARGS, profile)
        self.base = base

    def open(self, path: str) -> Page:
        page = self.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        open_app(page, self.base + path)
        return page


@pytest.fixture
def chromium(playwright: Playwright, live_server: LiveServer, tmp_path: Path) -> Iterator[Any]:
    """Starts Chromium on one profile directory, each call after killing the one before."""
    running: list[Chromium] = []

    def start() -> Chromium:
        for old in running:
            old.kill()
        running.append(Chromium(playwright, tmp_path / "profile", live_server.url))
        return running[-1]

    yield start
    for old in running:
        old.kill()


def _stats(page: Page) -> tuple[str, str]:
    """The number of games played and won, as the statistics of all games show them."""
    click_action(page, "stats")
    dialog = page.locator("#dlg-stats")
    expect(dialog).to_have_attribute("data-stats-key", "all")
    played = dialog.locator('[data-stat="played"]').inner_text()
    won = dialog.locator('[data-stat="won"]').inner_text()
    page.keyboard.press("Escape")
    return played, won


def test_a_killed_browser_keeps_the_last_move_deal_and_won_game(chromium: Any) -> None:
    # A game won by its last move: the browser is killed as soon as the move is on disk.
    browser = chromium()
    page = browser.cdp.contexts[0].new_page()
    page.goto(browser.base + "/engine.json")
    won, last, entry = nearly_won_deal()
    page.evaluate("(entry) => localStorage.setItem('spider:game', entry)", entry)
    page = browser.open("/")
    assert_shows(page, won)
    # Stored without a name, the game is saved under the page's name for it, which the log of
    # the winning move names: the move is played again if the kill comes before its save.
    page.wait_for_function(NAMED)
    durable = Durable(page)
    drag(page, "desktop", last.src, -last.count, last.dst)
    durable.wait()

    browser = chromium()
    page = browser.open("/")
    page.wait_for_function(SAVED)
    assert _stats(page) == ("1", "1")

    # A move of a new game, then a deal: each killed as soon as it is on disk.
    page.goto(browser.base + f"/?code={CODE}")
    game = Game.from_code(CODE)
    assert_shows(page, game)
    settle(page)
    move = next(m for m in game.legal_moves() if isinstance(m, Move) and game.columns[m.dst].cards)
    durable = Durable(page)
    drag(page, "desktop", move.src, -move.count, move.dst)
    durable.wait()
    game.push(move)

    browser = chromium()
    page = browser.open("/")
    page.wait_for_function(SAVED)
    assert_shows(page, game)

    settle(page)
    durable = Durable(page)
    page.locator("[data-stock]").click()
    durable.wait()
    game.deal()

    browser = chromium()
    page = browser.open("/")
    page.wait_for_function(SAVED)
    assert_shows(page, game)
    assert _stats(page)[1] == "1"


# IndexedDB as a browser may refuse it (blocked by its settings), and as one that never answers.
THROWING = """Object.defineProperty(window, 'indexedDB', {
  get() { throw new DOMException('blocked', 'SecurityError'); }
});"""
SILENT = "IDBFactory.prototype.open = function () { return {}; };"


def test_the_app_plays_and_saves_without_indexeddb(
    browser: Browser, live_server: LiveServer
) -> None:
    for script, reload in ((THROWING, True), (SILENT, False)):
        context = browser.new_context(base_url=live_server.url)
        try:
            page = context.new_page()
            page.add_init_script(script)
            open_app(page, f"/?code={CODE}")
            game = Game.from_code(CODE)
            page.locator("[data-stock]").click()
            game.deal()
            assert_shows(page, game)
            page.wait_for_function(SAVED)
            if reload:
                open_app(page, "/")
                assert_shows(page, game)
        finally:
            context.close()


# Records of the IndexedDB copy as a damaged or foreign database may hold them: a value that is
# not JSON (written later than localStorage's, so it is put back), a good game where
# localStorage's is damaged, records of another shape, a key of another app.
DAMAGE_MIRROR = """async (game) => {
  const db = await new Promise((ok, ko) => {
    const r = indexedDB.open('spider-solitaire', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('mirror');
    r.onsuccess = () => ok(r.result);
    r.onerror = ko;
  });
  await new Promise((ok, ko) => {
    const tx = db.transaction('mirror', 'readwrite');
    const store = tx.objectStore('mirror');
    store.put({seq: Date.now(), text: 'not json'}, 'spider:stats');
    store.put({seq: Date.now(), text: game}, 'spider:game');
    store.put('garbage', 'spider:settings');
    store.put({seq: 1e300, text: 'x'}, 'spider:daily');
    store.put({seq: 1, text: 'x'}, 'other');
    tx.oncomplete = ok;
    tx.onerror = ko;
  });
  db.close();
  localStorage.setItem('spider:game', 'damaged');
}"""


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_a_damaged_copy_is_checked_like_any_stored_value(page: Page) -> None:
    game, _, entry = nearly_won_deal()
    page.goto("/engine.json")
    page.evaluate(DAMAGE_MIRROR, entry)
    open_app(page, "/")
    assert_shows(page, game)
    toast = page.locator("[data-toast]")
    expect(toast).to_contain_text(TOLD["stats"])
    expect(toast).to_contain_text(TOLD["game"])
    copies = page.evaluate(SET_ASIDE)
    assert sorted((c["key"], c["raw"]) for c in copies) == [
        ("game", "damaged"),
        ("stats", "not json"),
    ]
