"""Accessibility: the axe-core audit of the table and the dialogs, a whole game played by keyboard
with what a screen reader reads (Chromium's accessibility tree and the live region), large cards
and four colours on a phone, and reduced motion."""

from __future__ import annotations

import pytest
from a11y import axe_violations
from playwright.sync_api import Page, expect
from webapp import SPIDER_2, click_action, open_app

pytestmark = pytest.mark.browser

DIALOGS = {
    "new": "#dlg-new",
    "settings": "#dlg-settings",
    "stats": "#dlg-stats",
    "help": "#dlg-help",
}


def audit(page: Page, where: str) -> None:
    # Colours are measured once what opens (a dialog fading in) has settled.
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect?.getTiming().iterations === Infinity)"
    )
    found = axe_violations(page)
    assert not found, f"axe-core, {where}: {found}"


def test_axe_finds_nothing_on_the_table_and_in_the_dialogs(page: Page, profile: str) -> None:
    open_app(page, f"/?code={SPIDER_2}")
    audit(page, "the table")
    if profile == "phone":
        page.locator('[data-action="menu"]').click()
        expect(page.locator("#more")).to_be_visible()
        audit(page, "the More menu")
        page.keyboard.press("Escape")
    for action, dialog in DIALOGS.items():
        click_action(page, action)
        expect(page.locator(dialog)).to_be_visible()
        audit(page, f"the dialog {action}")
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
