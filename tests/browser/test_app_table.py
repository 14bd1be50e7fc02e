"""The table: loading, languages, and recovery from bad storage (on phone and desktop)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import PROFILES
from playwright.sync_api import Browser, Page, expect
from webapp import (
    LONG_COLUMN_POSITION,
    SET_ASIDE,
    SPIDER_2,
    SPIDERETTE_4,
    assert_shows,
    click_action,
    open_app,
    position_url,
    settle,
    shown,
)

from spider import Game

pytestmark = pytest.mark.browser


def test_loading_shows_the_engine_state(
    page: Page, page_log: Any, screenshot: Any, profile: str
) -> None:
    open_app(page, f"/?code={SPIDER_2}")
    game = Game.from_code(SPIDER_2)
    assert_shows(page, game)
    # The address no longer carries the code: a reload keeps the game being played.
    assert "code=" not in page.url
    # The hooks the tests read: stock, completed row, buttons.
    stock = page.locator("[data-stock]")
    expect(stock).to_have_attribute("data-deals-left", "5")
    expect(page.locator("[data-completed]")).to_have_attribute("data-completed", "0")
    for action in ("new", "undo", "redo", "restart", "stats"):
        assert page.locator(f'[data-action="{action}"]').count() == 1, action
    # Face-down cards are counted, face-up cards named, for assistive technology.
    label = page.locator('[data-column="0"]').get_attribute("aria-label") or ""
    assert "Column 1" in label and "5 face-down cards" in label and "Ace of hearts" in label
    assert page.locator('[data-column="0"] > [data-face="up"]').get_attribute("aria-label") == (
        "Ace of hearts"
    )
    # Every card is on screen and the face-up ones are readable.
    viewport = page.viewport_size
    assert viewport is not None
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('[data-column] > .card')].map((c) => {"
        " const r = c.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, r.width]; })"
    )
    assert boxes and all(
        b[0] >= 0 and b[1] >= 0 and b[2] <= viewport["width"] and b[3] <= viewport["height"]
        for b in boxes
    )
    assert min(b[4] for b in boxes) >= 30
    font = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector("
        "'[data-face=\"up\"] .corner')).fontSize)"
    )
    assert font >= 11
    screenshot(page, "spider")
    assert not page_log.errors, page_log.errors


def test_spiderette_long_columns_stay_on_screen(page: Page, screenshot: Any) -> None:
    # Play every card the engine lets us onto column 0 to make it long, then check it fits.
    game = Game.from_code(SPIDERETTE_4)
    open_app(page, f"/?code={SPIDERETTE_4}")
    assert_shows(page, game)
    while game.deals_left:
        game.deal()
        page.keyboard.press("d")
    assert_shows(page, game)
    settle(page)
    viewport = page.viewport_size
    assert viewport is not None
    bottom = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-column] > .card')]"
        ".map((c) => c.getBoundingClientRect().bottom))"
    )
    assert bottom <= viewport["height"]
    screenshot(page, "spiderette-dealt")


def test_long_column_keeps_every_corner_readable(page: Page, screenshot: Any) -> None:
    # A 25-card column (21 face up) late in a 2-suit game: every face-up card still shows its
    # whole corner (rank and suit) above the next card, and the column stays on screen.
    game = Game.from_text(LONG_COLUMN_POSITION)
    open_app(page, position_url(LONG_COLUMN_POSITION))
    assert_shows(page, game)
    settle(page)
    measured = page.evaluate(
        """() => [...document.querySelectorAll('[data-column]')].map((column) => {
          const cards = [...column.querySelectorAll(':scope > [data-face="up"]')];
          return cards.map((card, i) => {
            const corner = card.querySelector('.corner').getBoundingClientRect();
            const next = cards[i + 1]?.getBoundingClientRect().top ?? Infinity;
            const bottom = card.getBoundingClientRect().bottom;
            return { shown: next - corner.top, needed: corner.height, bottom };
          });
        })"""
    )
    viewport = page.viewport_size
    assert viewport is not None
    assert len(measured[6]) == 21
    for column, cards in enumerate(measured):
        for index, card_box in enumerate(cards):
            assert card_box["shown"] >= card_box["needed"], (column, index, card_box)
            assert card_box["bottom"] <= viewport["height"], (column, index, card_box)
    screenshot(page, "long-column")


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_language_switch(page: Page, screenshot: Any) -> None:
    open_app(page, f"/?code={SPIDER_2}&lang=ca")
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    expect(page.locator('[data-action="new"]')).to_have_attribute("title", "Partida nova (N)")
    label = page.locator('[data-column="0"]').get_attribute("aria-label") or ""
    assert "Columna 1" in label and "5 cartes tapades" in label and "as de cors" in label
    screenshot(page, "catalan")

    # Switch to Italian in Settings: everything follows, and the choice is remembered.
    click_action(page, "settings")
    page.locator('[data-setting="lang"]').select_option("it")
    expect(page.locator("#dlg-settings h2")).to_have_text("Impostazioni")
    page.keyboard.press("Escape")
    expect(page.locator('[data-action="new"]')).to_have_attribute("title", "Nuova partita (N)")
    label = page.locator('[data-column="0"]').get_attribute("aria-label") or ""
    assert "Colonna 1" in label and "asso di cuori" in label
    click_action(page, "help")
    expect(page.locator("[data-help-body] h3").first).to_have_text("Lo scopo")
    screenshot(page, "help-italian")
    page.keyboard.press("Escape")

    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    assert_shows(page, Game.from_code(SPIDER_2))

    # A refused action is explained in the player's language.
    page.keyboard.press("Control+y")
    expect(page.locator("[data-message]")).to_have_text("Non c'è niente da ripetere.")


# The languages of the Settings picker, each in its own name ("" follows the browser).
PICKER = [
    ("", ""),
    ("en", "English"),
    ("ca", "Català"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("fr", "Français"),
    ("it", "Italiano"),
    ("nl", "Nederlands"),
    ("pt", "Português"),
]

# What the page's own i18n module makes of a count of 0 and 1 and of a large number, in the
# language it shows.
PLURALS_AND_NUMBERS = """async () => {
  const i18n = await import('/i18n.js');
  return [i18n.t('stock.label', {n: 0}), i18n.t('stock.label', {n: 1}),
          i18n.t('stock.label', {n: 2}), i18n.formatNumber(1234567), i18n.formatDecimal(2.5, 1),
          i18n.formatPercent(0.4), i18n.formatLongDate(new Date(2026, 11, 4))];
}"""


def test_the_new_languages(
    browser: Browser, live_server: Any, page_log: Any, screenshot: Any
) -> None:
    # A Brazilian browser gets Portuguese with nothing chosen.
    context = browser.new_context(base_url=live_server.url, locale="pt-BR", **PROFILES["desktop"])
    context.on("weberror", lambda web_error: page_log.on_error(web_error.error))
    try:
        page = context.new_page()
        open_app(page, f"/?code={SPIDER_2}")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.locator('[data-action="new"]')).to_have_attribute("title", "Novo jogo (N)")
        label = page.locator('[data-column="0"]').get_attribute("aria-label") or ""
        assert "Coluna 1" in label and "5 cartas viradas para baixo" in label, label
        # Portuguese puts 0 in "one": the text reads right for 0, 1 and 2.
        assert page.evaluate(PLURALS_AND_NUMBERS) == [
            "Monte, distribuições restantes: 0. Distribuir uma fileira (D)",
            "Monte, distribuições restantes: 1. Distribuir uma fileira (D)",
            "Monte, distribuições restantes: 2. Distribuir uma fileira (D)",
            "1.234.567",
            "2,5",
            "40%",
            "Sexta-feira, 4 de dezembro de 2026",
        ]
        click_action(page, "settings")
        picker = page.locator('[data-setting="lang"] option')
        found = picker.evaluate_all("(os) => os.map((o) => [o.value, o.lang, o.textContent])")
        assert [(value, name) for value, _, name in found][1:] == PICKER[1:]
        assert [lang for _, lang, _ in found] == [code for code, _ in PICKER]
        expect(picker.first).to_have_text("Automático")
        page.keyboard.press("Escape")
        # The day of the daily deals in Portuguese: a capital for the first letter only.
        click_action(page, "daily")
        date = page.locator("[data-daily-date]")
        expect(date).to_have_text(
            re.compile(r"^[A-ZÁ][a-zá]+(-feira)?, \d{1,2} de [a-zç]+ de \d{4}$")
        )
        assert date.evaluate("(el) => el.innerText === el.textContent")  # no text-transform
        page.keyboard.press("Escape")
        click_action(page, "settings")

        # Each language from the picker: the page, its plurals and its numbers follow.
        expected = {
            "fr": (
                "Nouvelle partie (N)",
                "Le but",
                "Talon\u00a0: 0 donne",
                "1\u202f234\u202f567",
                "0\u202f%",
                "Vendredi 4 décembre 2026",
            ),
            "de": (
                "Neues Spiel (N)",
                "Das Ziel",
                "Talon: noch 0 Reihen",
                "1.234.567",
                "0\u00a0%",
                "Freitag, 4. Dezember 2026",
            ),
            "nl": (
                "Nieuw spel (N)",
                "Het doel",
                "Stapel: nog 0 rijen",
                "1.234.567",
                "0%",
                "Vrijdag 4 december 2026",
            ),
        }
        for lang, (title, goal, none_left, number, no_wins, day) in expected.items():
            page.locator('[data-setting="lang"]').select_option(lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.keyboard.press("Escape")
            expect(page.locator('[data-action="new"]')).to_have_attribute("title", title)
            texts = page.evaluate(PLURALS_AND_NUMBERS)
            assert texts[0].startswith(none_left) and texts[3] == number, (lang, texts)
            assert texts[6] == day, (lang, texts)
            click_action(page, "stats")
            expect(page.locator('#dlg-stats [data-stat="rate"]')).to_have_text(no_wins)
            page.keyboard.press("Escape")
            click_action(page, "help")
            expect(page.locator("[data-help-body] h3").first).to_have_text(goal)
            screenshot(page, f"help-{lang}")
            page.keyboard.press("Escape")
            click_action(page, "settings")
        page.keyboard.press("Escape")
        # French: 1 in the singular, 2 in the plural.
        page.goto("/?lang=fr")
        page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        one, two = page.evaluate(PLURALS_AND_NUMBERS)[1:3]
        assert one.startswith("Talon\u00a0: 1 donne restante."), one
        assert two.startswith("Talon\u00a0: 2 donnes restantes."), two
    finally:
        context.close()
    assert page_log.errors == []


GOOD_STATS = {
    "played": 5,
    "won": 2,
    "streak": 1,
    "bestStreak": 2,
    "bestScore": 900,
    "bestTime": 300000,
    "fewestMoves": 150,
}


def _set_aside_copies_are_kept(page: Page, before: int) -> None:
    """A second corruption never overwrites the first copy; the copies stay within their budget,
    the oldest dropped first."""
    kept = page.evaluate(
        """async (room) => {
          const storage = await import('/storage.js');
          storage.setAside('game', 'second damage', 'corrupt');
          storage.setAside('game', 'third damage', 'corrupt');
          const names = () => storage.setAsideNames();
          const copies = () => names().map((n) => JSON.parse(localStorage.getItem(n)));
          const three = copies().map((c) => c.raw);
          storage.setAside('game', 'x'.repeat(storage.SET_ASIDE_BUDGET - room), 'corrupt');
          const after = copies();
          const used = names().reduce((n, k) => n + localStorage.getItem(k).length, 0);
          const budget = storage.SET_ASIDE_BUDGET;
          return {three, after: after.map((c) => c.raw.slice(0, 20)), used, budget};
        }""",
        300,
    )
    assert kept["three"][-2:] == ["second damage", "third damage"], kept["three"]
    assert len(kept["three"]) == before + 2
    assert kept["used"] <= kept["budget"]
    # A copy that needs nearly the whole budget: all older copies but the newest make room.
    assert kept["after"] == ["third damage", "x" * 20], kept["after"]


# One kind of damage at each size: the set-aside logic does not depend on the size.
@pytest.mark.parametrize(
    ("profile", "damage"),
    [("phone", "unreadable"), ("desktop", "engine-refuses")],
    indirect=["profile"],
)
def test_corrupt_storage_is_set_aside(
    page: Page, page_log: Any, screenshot: Any, damage: str
) -> None:
    open_app(page, f"/?code={SPIDER_2}")
    if damage == "unreadable":
        # Not JSON, another app's data, an older version's, and one bad statistics entry beside
        # a good one: one of each.
        entries = {
            "spider/1/classic/standard": GOOD_STATS,
            "spider/2/classic/standard": {"won": -1},
        }
        bad = {
            "spider:game": "{not json",
            "spider:recent-winnable": json.dumps({"hello": 1}),
            "spider:settings": json.dumps({"app": "spider-solitaire", "v": 0, "data": {}}),
            "spider:stats": json.dumps(
                {"app": "spider-solitaire", "v": 1, "data": {"variants": entries}}
            ),
        }
    else:
        # A well-formed envelope whose saved game the engine cannot read.
        page.wait_for_function("() => localStorage.getItem('spider:game') !== null")
        stored = json.loads(page.evaluate("() => localStorage.getItem('spider:game')"))
        stored["data"]["saved"] = '{"format": "something else"}'
        # Written without a write order, as an earlier version writes: it is not replaced by
        # the copy in IndexedDB of the game the leaving page saves.
        del stored["seq"]
        bad = {"spider:game": json.dumps(stored)}
    # Damage the storage before the app's scripts run (the leaving page saves its game on the
    # way out, so writing it from the old page would be undone).
    page.add_init_script(
        "((items) => { if (sessionStorage.getItem('damaged')) return;"
        " sessionStorage.setItem('damaged', '1');"
        " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); })"
        f"({json.dumps(bad)})"
    )
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    toast = page.locator("[data-toast]")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("set aside")
    screenshot(page, "recovered")
    # A fresh game is on the table, and it is exactly the engine's game of the code shown.
    code = shown(page)["code"]
    assert_shows(page, Game.from_code(code))
    kept = page.evaluate(SET_ASIDE)
    assert "game" in [copy["key"] for copy in kept], kept
    if damage == "unreadable":
        # Each statistics entry stands alone: the bad one is set aside, the good one stays.
        assert "stats/spider/2/classic/standard" in [copy["key"] for copy in kept], kept
        stats = page.evaluate("() => JSON.parse(localStorage.getItem('spider:stats'))")
        assert stats["data"]["variants"]["spider/1/classic/standard"] == GOOD_STATS
        _set_aside_copies_are_kept(page, len(kept))
    # The player is told once: the next load is clean.
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    page.wait_for_timeout(300)
    expect(toast).to_be_hidden()
    assert_shows(page, Game.from_code(code))
    assert not page_log.errors, page_log.errors
