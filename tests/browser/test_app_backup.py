"""Back up and restore in the real app, two browser contexts as two devices: games won, lost and a
daily deal on one, its backup restored on another that has statistics and a game of its own;
restoring twice changes nothing, and a forged file is refused and changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import PROFILES, LiveServer
from playwright.sync_api import Browser, Page, expect
from test_app_daily_replay import NOON, _todays_nearly_won
from test_app_games import nearly_won_deal
from webapp import (
    SPIDER_2,
    SPIDERETTE_4,
    assert_shows,
    click_action,
    drag,
    envelope,
    seed_storage,
    settle,
    wait_ready,
)

from spider import Game
from spider.moves import Move
from spider.protocol import Session

pytestmark = pytest.mark.browser

B_KEY = "spider/2/classic/standard"
# Device B's own statistics: 3 games of 2-suit Spider, 1 won.
B_ENTRY = {
    "played": 3,
    "won": 1,
    "streak": 0,
    "bestStreak": 1,
    "bestScore": 900,
    "bestTime": 100_000,
    "fewestMoves": 150,
    "timedWins": 1,
    "wonTime": 100_000,
    "wonMoves": 150,
    "recent": "WL",
}
B_STATS = {
    "rev": 2,
    "variants": {B_KEY: B_ENTRY},
    "recent": [[B_KEY, "W"], [B_KEY, "L"]],
    "all": {"streak": 0, "bestStreak": 1},
}
# A third device's statistics, as sync or an earlier restore left them on B: two wins in a row of
# 1-suit Spider, the last at 1970-01-01T00:00:01Z.
PHONE_KEY = "spider/1/classic/standard"
PHONE_STATS = {
    "rev": 5,
    "variants": {
        PHONE_KEY: {
            "played": 2,
            "won": 2,
            "streak": 2,
            "bestStreak": 2,
            "bestScore": 1000,
            "bestTime": 200_000,
            "fewestMoves": 120,
            "timedWins": 2,
            "wonTime": 500_000,
            "wonMoves": 300,
            "recent": "WW",
            "at": 1000,
        }
    },
    "recent": [[PHONE_KEY, "W"], [PHONE_KEY, "W"]],
    "all": {"streak": 2, "bestStreak": 2, "at": 1000},
}
# Everything the app keeps, but the copies of unreadable data.
STORED = """() => Object.fromEntries(Object.keys(localStorage)
  .filter((k) => !k.startsWith('spider:set-aside:')).sort()
  .map((k) => [k, localStorage.getItem(k)]))"""


def _figures(page: Page, **figures: str) -> None:
    """The All games figures of the Statistics dialog, then closes it."""
    click_action(page, "stats")
    dialog = page.locator("#dlg-stats")
    expect(dialog).to_have_attribute("data-stats-key", "all")
    for name, text in figures.items():
        expect(dialog.locator(f'[data-stat="{name.replace("_", "-")}"]')).to_have_text(text)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def _play_on_a(page: Page) -> Game:
    """On device A: today's daily deal won, a 4-suit Spiderette deal begun and left (a loss),
    and a 2-suit Spider deal begun: 3 played, 1 won; returns the game in progress."""
    _game, last = _todays_nearly_won()
    drag(page, "desktop", last.src, -last.count, last.dst)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    win.locator('button[value="close"]').click()
    click_action(page, "new")
    page.locator("#code-input").fill(SPIDERETTE_4)
    page.keyboard.press("Enter")
    other = Game.from_code(SPIDERETTE_4)
    assert_shows(page, other)
    move = next(m for m in other.legal_moves() if isinstance(m, Move))
    settle(page)
    drag(page, "desktop", move.src, -move.count, move.dst)
    other.push(move)
    assert_shows(page, other)
    click_action(page, "new")
    page.locator("#code-input").fill(SPIDER_2)
    page.keyboard.press("Enter")
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    current = Game.from_code(SPIDER_2)
    assert_shows(page, current)
    first = current.legal_moves()[0]
    settle(page)
    drag(page, "desktop", first.src, -first.count, first.dst)
    current.push(first)
    assert_shows(page, current)
    return current


def _restore(page: Page, path: Path) -> Any:
    """Chooses ``path`` under Restore…; returns the dialog once the engine has read it."""
    with page.expect_file_chooser() as chooser:
        click_action(page, "restore")
    chooser.value.set_files(str(path))
    dialog = page.locator("#dlg-restore")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-state", re.compile("ready|refused"))
    return dialog


def _forged(path: Path, text: str, edit: Any) -> Path:
    doc = json.loads(text)
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_backup_on_one_device_restored_on_another(
    page: Page, browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    # Device A: a daily deal won, a game lost, a game in progress; then "Back up".
    game, _last = _todays_nearly_won()
    saved = game.to_json()
    state = Session().handle({"op": "load", "saved": saved})["state"]
    seed_storage(page, {"spider:game": envelope({"saved": saved, "state": state, "meta": {}})})
    page.clock.set_fixed_time(NOON)
    page.goto("/")
    wait_ready(page)
    a_game = _play_on_a(page)
    _figures(page, played="3", won="1", streak="0", best_streak="1")
    with page.expect_download() as download:
        click_action(page, "backup")
    assert download.value.suggested_filename == "spider-backup-2026-11-30.json"
    backup = tmp_path / "backup.json"
    download.value.save_as(backup)
    text = backup.read_text(encoding="utf-8")
    assert json.loads(text)["format"] == "spider-backup"

    # Device B: its own statistics, a third device's, and a game it wins (earlier that day):
    # its streak goes on from the third device's.
    b = browser.new_context(base_url=live_server.url, **PROFILES["desktop"])
    try:
        other = b.new_page()
        b_game, b_last, b_entry = nearly_won_deal()
        seed_storage(
            other,
            {
                "spider:game": b_entry,
                "spider:stats": envelope(B_STATS),
                "spider:stats-devices": envelope({"devices": {"phone": PHONE_STATS}}),
            },
        )
        other.clock.set_fixed_time("2026-11-30T08:00:00")
        other.goto("/")
        wait_ready(other)
        assert_shows(other, b_game)
        _figures(other, played="5", won="3", streak="2", best_streak="2")
        drag(other, "desktop", b_last.src, -b_last.count, b_last.dst)
        expect(other.locator("#dlg-win")).to_be_visible()
        other.locator('#dlg-win button[value="close"]').click()
        _figures(other, played="6", won="4", streak="3", best_streak="3")

        # The file is shown, with what restoring it changes; restored, B shows the sum, the
        # streak of the latest result (A's loss) and A's newer game, and is told what changed.
        dialog = _restore(other, backup)
        expect(dialog).to_have_attribute("data-state", "ready")
        expect(dialog.locator('[data-stat="stats"]')).to_have_text("played: 3 · won: 1")
        expect(dialog.locator('[data-stat="daily"]')).to_have_text("won: 1 · streak: 1")
        # (A's settings changed when it chose its games: later than B's, never changed.)
        for part in ("game", "stats", "daily", "settings"):
            expect(dialog.locator(f"[data-restore-change-{part}]")).to_be_visible()
        dialog.locator('[data-action="restore-confirm"]').click()
        expect(other.locator("[data-toast-text]")).to_have_text(
            "Restored: the game in progress, statistics, daily results, settings."
        )
        assert_shows(other, a_game)
        _figures(other, played="9", won="5", streak="0", best_streak="3")
        daily = json.loads(other.evaluate("() => localStorage.getItem('spider:daily')"))
        assert list(daily["data"]["days"]) == ["2026-11-30"]

        # The same file again: nothing to change, and nothing changes.
        before = other.evaluate(STORED)
        dialog = _restore(other, backup)
        expect(dialog.locator("[data-restore-nothing]")).to_be_visible()
        dialog.locator('[data-action="restore-confirm"]').click()
        expect(other.locator("[data-toast-text]")).to_have_text(
            "Nothing to restore: everything in this file was already here."
        )
        assert other.evaluate(STORED) == before
        _figures(other, played="9", won="5")

        # Forged files: statistics edited, a state its history does not give. Refused in
        # words; nothing changes.
        def more_wins(doc: dict[str, Any]) -> None:
            for slot in doc["stats"]["devices"].values():
                for entry in slot["variants"].values():
                    entry["won"] = entry["played"] + 5

        def moved_card(doc: dict[str, Any]) -> None:
            doc["game"]["state"]["columns"][0]["up"] = ["KS"]

        for name, edit in (("stats", more_wins), ("state", moved_card)):
            dialog = _restore(other, _forged(tmp_path / f"{name}.json", text, edit))
            expect(dialog).to_have_attribute("data-state", "refused")
            expect(dialog).to_have_attribute("data-code", "bad-backup")
            expect(dialog.locator("[data-restore-refused]")).to_have_text(
                "This backup is damaged or was edited, so it cannot be restored. "
                "Nothing was changed."
            )
            expect(dialog.locator('[data-action="restore-confirm"]')).to_be_hidden()
            dialog.locator('button[value="cancel"]').click()
            assert other.evaluate(STORED) == before
        assert_shows(other, a_game)
    finally:
        b.close()
