"""Layout at the sizes players use: controls a finger can hit, a menu wholly in sight, bars and
messages that leave the cards free, and a top row no taller than its content needs."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from webapp import (
    EMPTY_COLUMN_POSITION,
    LONG_COLUMN_POSITION,
    assert_shows,
    click_action,
    message,
    open_app,
    position_url,
    settle,
)

from spider import Game

pytestmark = pytest.mark.browser

TAP_PX = 44

# Every control in sight (under `root`, else the page) smaller than a finger: [name, w, h].
# Cards are the table itself, not controls: ten columns of them share 360 px.
SMALL_CONTROLS = """([root, least]) => {
  const scope = root ? document.querySelector(root) : document;
  const controls = scope.querySelectorAll(
    'button, select, input:not([type="radio"], [type="checkbox"], [type="hidden"]),'
    + ' .seg label > span, label.check');
  const out = [];
  for (const el of controls) {
    if (!el.checkVisibility() || el.closest('.sr-only')) continue;
    if (el.closest('.more') && !el.closest('.more.open')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < least - 0.5 || r.height < least - 0.5) {
      const name = el.dataset.action ?? el.dataset.setting ?? el.getAttribute('name')
        ?? el.className ?? el.tagName;
      out.push([name, Math.round(r.width), Math.round(r.height)]);
    }
  }
  return out;
}"""

# Every card of the table lies inside the window.
CARDS_OUTSIDE = """() => [...document.querySelectorAll('[data-column] > .card')].filter((c) => {
  const r = c.getBoundingClientRect();
  return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
}).length"""

# The cards of the table that `selector`'s box overlaps.
CARDS_UNDER = """(selector) => {
  const b = document.querySelector(selector).getBoundingClientRect();
  return [...document.querySelectorAll('[data-column] > .card')].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
  }).map((c) => c.dataset.card ?? '#');
}"""

# Waits for a dialog's opening animation (it grows from 96 %).
POPPED = "(d) => Promise.all(d.getAnimations().map((a) => a.finished))"


def small_controls(page: Page, root: str | None = None) -> list[Any]:
    found: list[Any] = page.evaluate(SMALL_CONTROLS, [root, TAP_PX])
    return found


@pytest.mark.parametrize("profile", ["phone", "landscape"], indirect=True)
def test_every_control_takes_a_finger(page: Page, profile: str, screenshot: Any) -> None:
    # Header buttons, the stock and the code's copy button were 34 to 38 px tall (the copy
    # button 19 px), the stock 35 x 37 px in portrait: all are now 44 x 44 px at least, while
    # ten columns of cards with a 25-card one still fit the window.
    game = Game.from_text(LONG_COLUMN_POSITION)
    open_app(page, position_url(LONG_COLUMN_POSITION))
    assert_shows(page, game)
    settle(page)
    screenshot(page)
    assert small_controls(page) == []
    stock = page.locator("[data-stock]").bounding_box()
    assert stock is not None and min(stock["width"], stock["height"]) >= TAP_PX - 0.5
    assert page.locator("[data-column]").count() == 10
    assert page.evaluate(CARDS_OUTSIDE) == 0

    # The More menu: every item a finger's size and in sight at once, none under the fold
    # (in landscape it holds two columns of six).
    page.locator('[data-action="menu"]').click()
    menu = page.locator("#more")
    expect(menu).to_be_visible()
    assert small_controls(page, "#more") == []
    size = page.viewport_size
    assert size is not None
    items = page.evaluate(
        "() => [...document.querySelectorAll('#more .btn')].map((b) => {"
        " const r = b.getBoundingClientRect(); return [b.dataset.action, r.top, r.bottom]; })"
    )
    assert len(items) == 12
    below = [name for name, top, bottom in items if top < 0 or bottom > size["height"]]
    assert below == [], f"menu items out of sight: {below}"
    assert menu.evaluate("(m) => m.scrollHeight <= m.clientHeight + 1")
    screenshot(page, "menu")
    page.keyboard.press("Escape")

    # The dialogs' controls too (measured once the dialog has popped up to its full size).
    for action, dialog in (("new", "#dlg-new"), ("settings", "#dlg-settings")):
        click_action(page, action)
        expect(page.locator(dialog)).to_be_visible()
        page.locator(dialog).evaluate(POPPED)
        assert small_controls(page, dialog) == [], action
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()


@pytest.mark.parametrize("profile", ["phone", "landscape", "desktop"], indirect=True)
def test_think_harder_leaves_the_cards_free(page: Page, profile: str, screenshot: Any) -> None:
    # The bar sat over the bottom of the table, on the long column's last cards: now the table
    # gives up its height and the cards fit above it.
    open_app(page, position_url(LONG_COLUMN_POSITION))
    click_action(page, "settings")
    page.locator('[data-setting="thinkSeconds"]').select_option("30")  # it stays in sight
    page.locator('#dlg-settings button[value="close"]').click()
    settle(page)
    page.keyboard.press("t")
    bar = page.locator("[data-think-bar]")
    expect(bar).to_be_visible()
    # The table gives up the bar's height in the next frames.
    with contextlib.suppress(PlaywrightTimeoutError):
        free = f"() => ({CARDS_UNDER})('[data-think-bar]').length === 0"
        page.wait_for_function(free, timeout=3000)
    expect(bar).to_be_visible()
    assert page.evaluate(CARDS_UNDER, "[data-think-bar]") == []
    assert page.evaluate(CARDS_OUTSIDE) == 0
    assert small_controls(page, "[data-think-bar]") == []
    screenshot(page)
    bar.locator('[data-action="think-cancel"]').click()
    expect(bar).to_be_hidden()


def test_message_and_top_row_fit_their_content(page: Page, profile: str, screenshot: Any) -> None:
    # A refusal of one line was a box as tall as a card of the top row (160 px on desktop):
    # it is now as large as its text and its padding.
    open_app(page, position_url(EMPTY_COLUMN_POSITION))
    settle(page)
    page.locator("[data-stock]").click()
    assert message(page) == "Fill every empty column before dealing."
    fit = page.evaluate(
        """() => {
          const box = document.querySelector('[data-message]');
          const range = document.createRange();
          range.selectNodeContents(box);
          const text = range.getBoundingClientRect();
          const lines = new Set([...range.getClientRects()].map((l) => Math.round(l.top))).size;
          const r = box.getBoundingClientRect();
          return {width: r.width - text.width, height: r.height - text.height, lines};
        }"""
    )
    # Its padding around the text, no more (a wrapped text takes the width there is).
    assert fit["height"] <= 12, fit
    assert fit["lines"] > 1 or fit["width"] <= 32, fit
    screenshot(page, "message")

    # The top row (completed runs, stock) takes little more than half a card's height, and no
    # less than a finger's: the columns get the rest.
    open_app(page, position_url(LONG_COLUMN_POSITION))
    settle(page)
    top = page.locator("#table .top-row").bounding_box()
    card_box = page.locator('[data-column="0"] > .card').first.bounding_box()
    assert top is not None and card_box is not None
    assert TAP_PX - 0.5 <= top["height"] <= max(TAP_PX, 0.6 * card_box["height"]) + 0.5, (
        top,
        card_box,
    )
    screenshot(page, "long-column")
