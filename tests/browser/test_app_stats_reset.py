"""Resetting statistics resets them on every device: two browser contexts as two devices that
have each other's statistics. A resets one game, and B, restoring A's backup, drops its own
statistics of that game; A resets every game and wins one, and B, restoring A's backup, shows
only that game. A backup from before a reset, restored after it, changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PROFILES, LiveServer
from playwright.sync_api import Browser, Page, expect
from test_app_backup import B_KEY, B_STATS, PHONE_STATS, _figures, _restore
from test_app_games import nearly_won_deal
from webapp import click_action, drag, envelope, seed_storage, wait_ready

pytestmark = pytest.mark.browser

A_ID, B_ID = "device-a", "device-b"


def _device(
    page: Page, own: str, own_stats: object, other: str, other_stats: object, **more: str
) -> None:
    seed_storage(
        page,
        {
            "spider:device": envelope(own),
            "spider:stats": envelope(own_stats),
            "spider:stats-devices": envelope({"devices": {other: other_stats}}),
            **more,
        },
    )
    page.goto("/")
    wait_ready(page)


def _back_up(page: Page, path: Path) -> Path:
    with page.expect_download() as download:
        click_action(page, "backup")
    download.value.save_as(path)
    return path


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_a_reset_on_one_device_resets_the_others(
    page: Page, browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    # A has its own 2 games and B's 3; B has its own 3 and A's 2 (an earlier sync or restore).
    b_context = browser.new_context(base_url=live_server.url, **PROFILES["desktop"])
    try:
        b = b_context.new_page()
        _device(b, B_ID, B_STATS, A_ID, PHONE_STATS)
        _figures(b, played="5", won="3")
        before_reset = _back_up(b, tmp_path / "b-before.json")

        _game, last, entry = nearly_won_deal()
        _device(page, A_ID, PHONE_STATS, B_ID, B_STATS, **{"spider:game": entry})
        _figures(page, played="5", won="3")

        # A resets the statistics of 2-suit Spider, which only B played: they no longer count
        # on A, and B drops its own once it restores A's backup.
        click_action(page, "stats")
        stats = page.locator("#dlg-stats")
        stats.locator("[data-stats-game]").select_option("spider/2")
        expect(stats).to_have_attribute("data-stats-key", B_KEY)
        expect(stats.locator('[data-stat="played"]')).to_have_text("3")
        stats.locator("[data-action='reset-stats']").click()
        confirm = page.locator("#dlg-confirm")
        expect(confirm).to_contain_text("here and on your other devices")
        confirm.locator('[data-action="confirm-ok"]').click()
        expect(stats.locator('[data-stat="played"]')).to_have_text("0")
        page.keyboard.press("Escape")
        _figures(page, played="2", won="2")
        dialog = _restore(b, _back_up(page, tmp_path / "a-game-reset.json"))
        dialog.locator('[data-action="restore-confirm"]').click()
        _figures(b, played="2", won="2")

        # A resets every game's statistics, then wins a game.
        click_action(page, "stats")
        stats.locator("[data-action='reset-stats']").click()
        expect(stats).to_have_attribute("data-stats-key", "all")
        expect(confirm).to_contain_text("every game will be deleted, here and on your other")
        confirm.locator('[data-action="confirm-ok"]').click()
        expect(stats.locator('[data-stat="played"]')).to_have_text("0")
        page.keyboard.press("Escape")
        drag(page, "desktop", last.src, -last.count, last.dst)
        expect(page.locator("#dlg-win")).to_be_visible()
        page.locator('#dlg-win button[value="close"]').click()
        _figures(page, played="1", won="1")

        # B's backup from before the reset brings none of its statistics back on A.
        dialog = _restore(page, before_reset)
        expect(dialog.locator("[data-restore-change-stats]")).to_be_hidden()
        dialog.locator('[data-action="restore-confirm"]').click()
        _figures(page, played="1", won="1")

        # B restores A's backup: only the game won after the reset counts, on B too; restoring
        # its own old backup then changes nothing either.
        after_reset = _back_up(page, tmp_path / "a-after.json")
        dialog = _restore(b, after_reset)
        expect(dialog.locator("[data-restore-change-stats]")).to_have_text(
            "reset your statistics, as they were reset on another device "
            "(since then: played 1, won 1)"
        )
        dialog.locator('[data-action="restore-confirm"]').click()
        _figures(b, played="1", won="1")
        dialog = _restore(b, before_reset)
        expect(dialog.locator("[data-restore-change-stats]")).to_be_hidden()
        dialog.locator('[data-action="restore-confirm"]').click()
        _figures(b, played="1", won="1")
        stored = json.loads(b.evaluate("() => localStorage.getItem('spider:stats')"))["data"]
        assert stored["epoch"]["n"] == 1 and stored["variants"] == {}
    finally:
        b_context.close()
