"""New games (by code, by dialog, by the S key) and a won game in the statistics (only a game
played from its deal's start counts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from webapp import (
    SPIDER_2,
    SPIDERETTE_4,
    WIN_POSITION,
    assert_shows,
    card,
    click_action,
    drag,
    open_app,
    position_url,
    shown,
)

from spider import Game
from spider.moves import Move, action_from_text
from spider.protocol import Session

pytestmark = pytest.mark.browser

WINNABLE = Path(__file__).parents[1] / "golden" / "winnable.json"


def nearly_won_deal() -> tuple[Game, Move, str]:
    """A 1-suit spider deal of the winnable catalogue played to one move before the win: the
    game, its last move, and the page's stored-game entry (``spider:game``) holding it."""
    number, line = next(iter(json.loads(WINNABLE.read_text())["spider-1"]["deals"].items()))
    game = Game.new("spider", suits=1, number=int(number))
    *played, last = (action_from_text(token) for token in line.split())
    for action in played:
        game.push(action)
    assert isinstance(last, Move)
    saved = game.to_json()
    state = Session().handle({"op": "load", "saved": saved})["state"]
    assert state["from_deal_start"] is True
    data = {"saved": saved, "state": state, "meta": {}}
    entry = json.dumps({"app": "spider-solitaire", "v": 1, "data": data})
    return game, last, entry


def test_new_game_by_code_and_by_dialog(page: Page, screenshot: Any) -> None:
    open_app(page)
    click_action(page, "new")
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    screenshot(page, "dialog")

    # A bad code is explained, and the dialog stays open.
    page.locator("#code-input").fill("SP1-S3C-AAAAAAD")
    page.locator('[data-action="open-code"]').click()
    expect(page.locator("[data-code-error]")).to_contain_text("That is not a game code")
    expect(dialog).to_be_visible()
    screenshot(page, "bad-code")

    page.locator("#code-input").fill(SPIDERETTE_4.lower())
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    assert_shows(page, Game.from_code(SPIDERETTE_4))
    assert page.locator("[data-column]").count() == 7

    # The dialog: Spider, Medium (2 suits), Flexible rule, Reveal scoring.
    click_action(page, "new")
    rule = page.locator("[data-rule-field]")
    page.locator("#dlg-new label", has_text="Spider").first.click()
    page.locator("#dlg-new label", has_text="Easy").click()
    expect(rule).to_be_hidden()  # one suit: the rule does not matter
    page.locator("#dlg-new label", has_text="Medium").click()
    expect(rule).to_be_visible()
    page.locator("#dlg-new label", has_text="Flexible").click()
    page.locator("#dlg-new label", has_text="Reveal").click()
    page.locator('[data-action="deal-new"]').click()
    expect(dialog).to_be_hidden()
    page.wait_for_function(
        "() => document.querySelector('[data-code]').textContent.startsWith('SP1-S2F-')"
    )
    code = shown(page)["code"]
    game = Game.from_code(code, scoring="reveal")
    assert (game.game, game.suits, game.rule, game.scoring) == ("spider", 2, "flexible", "reveal")
    assert_shows(page, game)
    assert shown(page)["score"] == 0  # reveal scoring starts at 0

    # The choice is remembered for the next visit's New game dialog.
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    click_action(page, "new")
    expect(page.locator('#dlg-new input[name="suits"][value="2"]')).to_be_checked()
    expect(page.locator('#dlg-new input[name="rule"][value="flexible"]')).to_be_checked()
    expect(page.locator('#dlg-new input[name="scoring"][value="reveal"]')).to_be_checked()


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_s_key_cycles_suits_and_deals(page: Page) -> None:
    open_app(page, f"/?code={SPIDER_2}")
    for suits, prefix in ((4, "SP1-S4C-"), (1, "SP1-S1C-"), (2, "SP1-S2C-")):
        before = shown(page)["code"]
        page.keyboard.press("s")
        page.wait_for_function(
            "(prefix) => document.querySelector('[data-code]').textContent.startsWith(prefix)",
            arg=prefix,
        )
        code = shown(page)["code"]
        assert code != before
        game = Game.from_code(code)
        assert game.suits == suits
        assert_shows(page, game)
    # The suit count is remembered.
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    assert Game.from_code(shown(page)["code"]).suits == 2


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_won_game_is_recorded(page: Page, profile: str, screenshot: Any) -> None:
    # A position opened from text is celebrated, but it is not a deal's start: no statistics.
    game = Game.from_text(WIN_POSITION)
    open_app(page, position_url(WIN_POSITION))
    assert_shows(page, game)
    drag(page, profile, 1, -1, 0)
    game.move(1, 0, 1)
    assert game.is_won
    assert_shows(page, game)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(win.locator('[data-stat="score"]')).to_have_text(f"{game.score:,}")
    expect(win.locator("[data-win-record]")).to_be_hidden()
    win.locator('button[value="close"]').click()
    click_action(page, "stats")
    stats = page.locator("#dlg-stats")
    expect(stats).to_have_attribute("data-stats-key", "all")
    expect(stats.locator('[data-stat="streak"]')).to_have_text("0")  # no game yet, no streak
    # The menu: all games, then each of the engine's games (state.variants) by suit count.
    expect(page.locator("[data-stats-game] option")).to_have_count(7)
    page.locator("[data-stats-game]").select_option("spider/1")
    expect(stats).to_have_attribute("data-stats-key", "spider/1/classic/standard")
    expect(stats.locator('[data-stat="played"]')).to_have_text("0")
    expect(stats.locator('[data-stat="won"]')).to_have_text("0")
    page.keyboard.press("Escape")

    # A deal played from its start (stored one move before the win) is counted and recorded.
    game, last, entry = nearly_won_deal()
    page.add_init_script(
        "((entry) => { if (sessionStorage.getItem('stored')) return;"
        " sessionStorage.setItem('stored', '1'); localStorage.setItem('spider:game', entry); })"
        f"({json.dumps(entry)})"
    )
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    assert_shows(page, game)
    drag(page, profile, last.src, -last.count, last.dst)
    game.push(last)
    assert game.is_won
    assert_shows(page, game)
    expect(win).to_be_visible()
    expect(win.locator('[data-stat="score"]')).to_have_text(f"{game.score:,}")
    expect(win.locator('[data-stat="moves"]')).to_have_text(f"{game.moves:,}")
    expect(win.locator("[data-win-record]")).to_be_visible()
    screenshot(page, "win")
    win.locator('button[value="close"]').click()
    expect(win).to_be_hidden()

    click_action(page, "stats")
    expect(stats).to_be_visible()
    page.locator("[data-stats-game]").select_option("spider/1")
    expect(stats).to_have_attribute("data-stats-key", "spider/1/classic/standard")
    expect(stats.locator('[data-stat="played"]')).to_have_text("1")
    expect(stats.locator('[data-stat="won"]')).to_have_text("1")
    expect(stats.locator('[data-stat="rate"]')).to_have_text("100%")
    expect(stats.locator('[data-stat="streak"]')).to_have_text("1")
    expect(stats.locator('[data-stat="best-score"]')).to_have_text(f"{game.score:,}")
    expect(stats.locator('[data-stat="fewest-moves"]')).to_have_text(f"{game.moves:,}")
    screenshot(page, "stats")

    # Statistics survive a reload, and Reset clears this variant.
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    click_action(page, "stats")
    expect(stats.locator('[data-stat="won"]')).to_have_text("1")
    stats.locator('[data-action="reset-stats"]').click()
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    expect(stats.locator('[data-stat="won"]')).to_have_text("0")
    assert card(page, 0).count() == 0  # the won table is empty


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_open_menu_stays_above_cards_dealt_under_it(page: Page) -> None:
    # On a phone the "More" menu drops over the table. Cards flying to their columns during a
    # deal must pass under it: a tap on a menu item in that moment belongs to the menu.
    open_app(page)
    page.locator('[data-action="menu"]').click()
    item = page.locator('#more [data-action="solve"]')
    expect(item).to_be_visible()
    # Sample what lies on top of the item, frame by frame, while S deals a new game.
    page.evaluate(
        """() => {
          const item = document.querySelector('#more [data-action="solve"]');
          const box = item.getBoundingClientRect();
          const points = [0.1, 0.5, 0.9].flatMap((fx) => [0.2, 0.8].map((fy) =>
            [box.left + box.width * fx, box.top + box.height * fy]));
          const probe = { covered: new Set(), sawFlight: false, done: false };
          window.menuProbe = probe;
          const end = performance.now() + 2500;
          const frame = () => {
            probe.sawFlight ||= document.querySelector('.card.in-flight') !== null;
            for (const [x, y] of points) {
              const hit = document.elementFromPoint(x, y);
              if (!item.contains(hit)) probe.covered.add(hit?.className ?? String(hit));
            }
            if (performance.now() < end) requestAnimationFrame(frame);
            else probe.done = true;
          };
          requestAnimationFrame(frame);
        }"""
    )
    page.keyboard.press("s")
    page.wait_for_function("() => window.menuProbe.done")
    assert page.evaluate("window.menuProbe.sawFlight")
    covered = page.evaluate("[...window.menuProbe.covered]")
    assert covered == []
    expect(item).to_be_visible()
