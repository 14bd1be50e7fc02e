"""Game links and the New game dialog's options: a link never replaces a game in progress
without asking, a link that cannot be read is said, and every game can be dealt from New game
whatever was played before."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from webapp import SPIDER_2, SPIDERETTE_4, assert_shows, card, drag, message, open_app

from spider import Game

pytestmark = pytest.mark.browser

# The statistics as stored ({app, v, data: {variants}}): each variant's entry.
STATS = "() => JSON.parse(localStorage.getItem('spider:stats'))?.data.variants ?? {}"
PLAYED = f"() => Object.values(({STATS})()).reduce((sum, entry) => sum + entry.played, 0)"


def play_first_move(page: Page, profile: str, game: Game) -> None:
    move = game.legal_moves()[0]
    drag(page, profile, move.src, -move.count, move.dst)
    game.move(move.src, move.dst, move.count)
    assert_shows(page, game)


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_spiderette_after_a_flexible_game(page: Page, profile: str) -> None:
    """The rule field is Spider's: a Spiderette deal never carries the Flexible rule, also from
    options remembered before a reload."""
    open_app(page, "/?code=SP1-S2F-AAAAAAD")
    for attempt in range(2):
        page.keyboard.press("n")
        dialog = page.locator("#dlg-new")
        dialog.locator("label:has(input[name='game'][value='spiderette'])").click()
        dialog.locator("label:has(input[name='suits'][value='2'])").click()
        expect(dialog.locator("[data-rule-field]")).to_be_hidden()
        dialog.locator("[data-action='deal-new']").click()
        expect(page.locator("[data-code]")).to_have_text(re.compile(r"^SD1-S2-"))
        if attempt == 0:  # again after a reload, from the remembered options
            page.evaluate(
                "() => { const s = JSON.parse(localStorage.getItem('spider:settings'));"
                " s.data.options.rule = 'flexible'; localStorage.setItem('spider:settings',"
                " JSON.stringify(s)); }"
            )
            page.reload()
            page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    assert page.locator("[data-message]:not([hidden])").count() == 0


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_a_link_asks_before_leaving_a_game_in_progress(page: Page, profile: str) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    play_first_move(page, profile, game)
    page.wait_for_timeout(600)  # saved (the pagehide save also covers it)

    # Declined: the game in progress stays, and nothing is counted.
    page.goto(f"/?code={SPIDERETTE_4}")
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_be_visible(timeout=60_000)
    assert_shows(page, game)
    confirm.locator("button[value='cancel']").click()
    assert_shows(page, game)
    assert page.evaluate(PLAYED) == 1  # the game in progress, counted from its first move
    assert "code=" not in page.url

    # Accepted: the link's game is dealt, and the game left counts as played, not won.
    page.goto(f"/?code={SPIDERETTE_4}")
    expect(confirm).to_be_visible(timeout=60_000)
    confirm.locator("[data-confirm-ok]").click()
    assert_shows(page, Game.from_code(SPIDERETTE_4))
    assert page.evaluate(PLAYED) == 1
    assert page.evaluate(STATS)["spider/2/classic/standard"]["won"] == 0


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
@pytest.mark.parametrize(
    "link", ["/?code=SP1-S2C-AAAAA", "/?code=XX", "/?position=spider%201%20classic%20%2F"]
)
def test_a_broken_link_is_said(page: Page, profile: str, link: str) -> None:
    # Without a game in progress: said once the table shows the game played instead.
    open_app(page, link)
    assert "could not be opened" in message(page)
    assert card(page, 0).count() == 1

    # Over a game in progress: asked first, then said; the game stays.
    game = Game.from_code(SPIDER_2)
    page.goto(f"/?code={SPIDER_2}")
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    play_first_move(page, profile, game)
    page.wait_for_timeout(600)
    page.goto(link)
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_be_visible(timeout=60_000)
    confirm.locator("[data-confirm-ok]").click()
    assert "could not be opened" in message(page)
    assert_shows(page, game)
