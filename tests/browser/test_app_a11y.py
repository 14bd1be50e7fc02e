"""Accessibility: the axe-core audit of the table and the dialogs, a whole game played by keyboard
with what a screen reader reads (Chromium's accessibility tree and the live region), large cards
and four colours on a phone, and reduced motion."""

from __future__ import annotations

import re
from typing import Any

import pytest
from a11y import AXNode, ancestors, ax_tree, axe_violations, focused
from playwright.sync_api import Page, expect
from webapp import (
    EMPTY_COLUMN_POSITION,
    LONG_COLUMN_POSITION,
    SPIDER_2,
    assert_shows,
    click_action,
    open_app,
    position_url,
    set_setting,
    settle,
    wait_ready,
)

from spider import Game

SPIDER_4 = "SP1-S4C-AAAAAAD"

pytestmark = pytest.mark.browser

DIALOGS = {
    "new": "#dlg-new",
    "settings": "#dlg-settings",
    "stats": "#dlg-stats",
    "help": "#dlg-help",
}


# The controls of the open dialog a finger aims at, smaller than 44 x 44 px (a check box's and a
# radio button's target is its label).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'dialog[open] :is(button, select, input:not([type=checkbox], [type=radio]), [role=tab],'
    + ' .seg label > span, label.check)')]
  .filter((el) => el.checkVisibility())
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([el, r]) => `${el.dataset.action ?? el.dataset.i18n ?? el.outerHTML.slice(0, 60)}:`
    + ` ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def audit(page: Page, where: str) -> None:
    # Colours are measured once what opens (a dialog fading in) has settled.
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect?.getTiming().iterations === Infinity)"
    )
    found = axe_violations(page)
    assert not found, f"axe-core, {where}: {found}"


def test_axe_finds_nothing_on_the_table_and_in_the_dialogs(page: Page, profile: str) -> None:
    # An empty column, and a stock that cannot be dealt: its name says so, as D does.
    open_app(page, position_url(EMPTY_COLUMN_POSITION))
    audit(page, "the table")
    stock = page.locator("[data-stock]")
    expect(stock).to_have_attribute(
        "aria-label", "Stock: 1 deal left. Deal a row (D) No deal is possible now."
    )
    expect(page.locator('[data-column="1"]')).to_have_attribute("aria-label", "Column 2. empty")
    page.keyboard.press("d")
    expect(page.locator("[data-announce]")).to_have_text("Fill every empty column before dealing.")
    if profile == "phone":
        page.locator('[data-action="menu"]').click()
        expect(page.locator("#more")).to_be_visible()
        audit(page, "the More menu")
        page.keyboard.press("Escape")
    for action, dialog in DIALOGS.items():
        click_action(page, action)
        expect(page.locator(dialog)).to_be_visible()
        audit(page, f"the dialog {action}")
        if profile == "phone":
            assert page.evaluate(SMALL_TARGETS) == [], action
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
    set_setting(page, "fourColor", True)
    set_setting(page, "largeCards", True)
    audit(page, "the table in four colours with large cards")


# What a phone shows of every card: the rank glyph's rendered height (the tightest box around the
# glyph), the face-up cards' corners, and whether anything leaves the screen sideways.
_TABLE_FIT = """() => {
  const cards = [...document.querySelectorAll('[data-column] > .card')];
  const up = cards.filter((c) => c.dataset.face === 'up');
  const rank = up[0].querySelector('.rank');
  const range = document.createRange();
  range.selectNodeContents(rank);
  const corners = up.map((c) => {
    const card = c.getBoundingClientRect();
    const corner = c.querySelector('.corner').getBoundingClientRect();
    return corner.right <= card.right + 0.5 && corner.left >= card.left;
  });
  return {
    font: parseFloat(getComputedStyle(rank).fontSize),
    glyph: range.getBoundingClientRect().height,
    cornersInside: corners.every(Boolean),
    right: Math.max(...cards.map((c) => c.getBoundingClientRect().right)),
    bottom: Math.max(...cards.map((c) => c.getBoundingClientRect().bottom)),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


# The colour of each suit's corner, and whether the corner prints the suit's symbol.
_SUIT_COLOURS = """() => Object.fromEntries(['S', 'H', 'D', 'C'].map((suit) => {
  const card = document.querySelector(`[data-column] > .card.s-${suit}`);
  const corner = card.querySelector('.corner');
  return [suit, [getComputedStyle(corner).color, corner.textContent]];
}))"""
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BLACK, RED, BLUE, GREEN = (
    "rgb(23, 25, 28)",
    "rgb(196, 22, 28)",
    "rgb(18, 86, 176)",
    "rgb(27, 122, 47)",
)


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_large_cards_and_four_colours_on_a_phone(page: Page, screenshot: Any) -> None:
    # Four colours: spades black, hearts red, diamonds blue, clubs green; the symbol always there.
    open_app(page, f"/?code={SPIDER_4}")
    two = page.evaluate(_SUIT_COLOURS)
    assert {s: c for s, (c, _) in two.items()} == {"S": BLACK, "H": RED, "D": RED, "C": BLACK}
    set_setting(page, "fourColor", True)
    four = page.evaluate(_SUIT_COLOURS)
    assert {s: c for s, (c, _) in four.items()} == {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}
    assert all(text.endswith(SYMBOLS[s]) for s, (_, text) in four.items())
    screenshot(page, "four-colours")

    # Large cards, on the longest column of the browser tests.
    page.goto(position_url(LONG_COLUMN_POSITION))
    wait_ready(page)
    settle(page)
    normal = page.evaluate(_TABLE_FIT)
    set_setting(page, "largeCards", True)
    large = page.evaluate(_TABLE_FIT)
    screenshot(page, "large")
    # The index grows by half at least, and the long column (4 face-down, 21 face-up cards)
    # still fits: nothing leaves the screen, no corner is cut by its card's edge.
    assert large["glyph"] >= 1.5 * normal["glyph"], (normal, large)
    assert large["cornersInside"] and normal["cornersInside"]
    assert large["scrollWidth"] <= 360 and large["right"] <= 360
    assert large["bottom"] <= 640
    assert_shows(page, Game.from_text(LONG_COLUMN_POSITION), code=False)


# Counts the Web Animations started on cards (the real ones still run).
_COUNT_ANIMATIONS = """() => {
  window.cardAnimations = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.classList.contains('card')) window.cardAnimations += 1;
    return animate.apply(this, args);
  };
}"""


def animations_of(page: Page, key: str, game: Game) -> int:
    """How many card animations pressing ``key`` (a deal, an undo) starts."""
    page.evaluate("() => { window.cardAnimations = 0; }")
    page.keyboard.press(key)
    if key == "d":
        game.deal()
    else:
        game.undo()
    assert_shows(page, game)
    page.wait_for_timeout(100)
    count: int = page.evaluate("() => window.cardAnimations")
    return count


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_reduced_motion_by_the_device_and_by_the_setting(page: Page) -> None:
    # Animations turned off before the setting had three choices stay off.
    page.add_init_script(
        "localStorage.setItem('spider:settings', JSON.stringify("
        "{app: 'spider-solitaire', v: 1, data: {animations: false}}))"
    )
    open_app(page, f"/?code={SPIDER_2}")
    page.evaluate(_COUNT_ANIMATIONS)
    game = Game.from_code(SPIDER_2)
    assert animations_of(page, "d", game) == 0
    click_action(page, "settings")
    expect(page.locator('[data-setting="motion"]')).to_have_value("reduce")
    page.keyboard.press("Escape")
    # The device asks for reduced motion: the cards jump to their places, dialogs do not pop.
    page.emulate_media(reduced_motion="reduce")
    set_setting(page, "motion", "system")
    assert animations_of(page, "u", game) == 0
    click_action(page, "settings")
    duration = "() => getComputedStyle(document.querySelector('#dlg-settings')).animationDuration"
    assert page.evaluate(duration) == "1e-06s"
    page.keyboard.press("Escape")
    # The player may want animations all the same…
    set_setting(page, "motion", "full")
    assert animations_of(page, "d", game) > 0
    # …or not, whatever the device says.
    page.emulate_media(reduced_motion="no-preference")
    set_setting(page, "motion", "system")
    assert animations_of(page, "u", game) > 0
    set_setting(page, "motion", "reduce")
    assert animations_of(page, "d", game) == 0


# Spiderette, one suit, the last run to build: a refusal, a move that turns a card, the last
# deal, six moves and a group that completes the run and wins, all within a minute of play.
SHORT_GAME = (
    "spiderette 1 classic standard / score=660 moves=140 removed=SSS / "
    "4S / 8S / 7S / KS QS JS / 9s 5S / 6S / 10S / 3s 2s as"
)


class ScreenReader:
    """Plays by keyboard alone, finding cards and columns by the names Chromium's accessibility
    tree gives them and listening to the live region, as a screen reader's user does."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def tree(self) -> dict[str, AXNode]:
        return ax_tree(self.page)

    def column_of(self, tree: dict[str, AXNode], node: AXNode) -> int | None:
        """The number (1-based) of the column group holding ``node``, from the group's name."""
        for up in [node, *ancestors(tree, node)]:
            match = re.match(r"Column (\d+)\b", up.name)
            if up.role == "group" and match:
                return int(match[1])
        return None

    def column(self, n: int) -> str:
        """The accessible name of column ``n`` (1-based)."""
        names = [
            x.name
            for x in self.tree().values()
            if x.role == "group" and x.name.startswith(f"Column {n}.")
        ]
        assert len(names) == 1, names
        return names[0]

    def named(self, role: str, name: str) -> AXNode:
        found = [
            x for x in self.tree().values() if x.role == role and x.name == name and not x.ignored
        ]
        assert len(found) == 1, f"{role} {name!r}: {len(found)} found"
        return found[0]

    def focus(self, card: str) -> None:
        """Arrows to the card named ``card``: left and right to its column, up to it."""
        for _ in range(40):
            tree = self.tree()
            target = self.column_of(tree, self.named("button", card))
            now = focused(tree)
            if now is not None and now.name == card:
                return
            at = self.column_of(tree, now) if now is not None else None
            if at != target:
                self.page.keyboard.press(
                    "ArrowRight" if at is None or at < (target or 0) else "ArrowLeft"
                )
            else:
                self.page.keyboard.press("ArrowUp")
        raise AssertionError(f"the keyboard did not reach {card}")

    def focused_column(self) -> int | None:
        tree = self.tree()
        now = focused(tree)
        return None if now is None else self.column_of(tree, now)

    def move(self, card: str, to: int) -> None:
        """Picks up ``card`` (with the cards on it), takes it to column ``to`` and drops it;
        each column passed on the way is said."""
        self.focus(card)
        self.page.keyboard.press("Enter")
        self.hears(f"Picked up {card}")
        for _ in range(10):
            at = self.focused_column()
            if at == to:
                break
            self.page.keyboard.press("ArrowRight" if at is None or at < to else "ArrowLeft")
            self.hears(f"Column {self.focused_column()}, ")
        self.page.keyboard.press("Enter")

    def hears(self, text: str) -> None:
        expect(self.page.locator("[data-announce]")).to_contain_text(text)


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_a_whole_game_by_keyboard_with_a_screen_reader(page: Page) -> None:
    open_app(page, position_url(SHORT_GAME))
    game = Game.from_text(SHORT_GAME)
    sr = ScreenReader(page)
    tree = sr.tree()
    # What a screen reader finds: a live region, every button named, the menu's state, the
    # columns by position with their face-down cards, the stock with its deals, the runs.
    assert any(x.properties.get("live") == "polite" for x in tree.values())
    unnamed = [
        x for x in tree.values() if x.role == "button" and not x.ignored and not x.name.strip()
    ]
    assert not unnamed
    assert sr.named("button", "More").properties.get("expanded") is False
    assert sr.column(5) == "Column 5. 1 face-down card. 5 of spades"
    assert sr.column(4) == "Column 4. King of spades, Queen of spades, Jack of spades"
    sr.named("button", "Stock: 1 deal left. Deal a row (D)")
    sr.named("group", "Completed runs: 3 of 4")

    # The engine refuses: the reason is said, nothing moves.
    sr.move("4 of spades", 2)
    sr.hears("A card goes only on a card one rank higher, or on an empty column.")
    assert_shows(page, game, code=False)
    # A move that turns a card.
    sr.move("5 of spades", 6)
    game.move(4, 5, 1)
    sr.hears("5 of spades to column 6. 9 of spades turned up in column 5.")
    assert_shows(page, game, code=False)
    assert sr.column(5) == "Column 5. 9 of spades"
    # The last deal.
    page.keyboard.press("d")
    game.deal()
    sr.hears("A row was dealt. 0 deals left.")
    assert_shows(page, game, code=False)
    sr.named("button", "Stock: 0 deals left. Deal a row (D)")
    # Moves one card and a group at a time; the last group completes the run and wins.
    for card, src, dst in [
        ("2 of spades", 2, 1),
        ("Ace of spades", 3, 1),
        ("10 of spades", 7, 4),
        ("9 of spades", 5, 4),
        ("8 of spades", 2, 4),
        ("7 of spades", 3, 4),
    ]:
        sr.move(card, dst)
        game.move(src - 1, dst - 1, 1)
        sr.hears(f"{card} to column {dst}.")
        assert_shows(page, game, code=False)
    sr.move("6 of spades", 4)
    game.move(5, 3, 2)
    sr.hears("6 of spades and 1 card on it to column 4.")
    sr.move("4 of spades", 4)
    game.move(0, 3, 4)
    assert game.is_won
    sr.hears("4 of spades and 3 cards on it to column 4. A run of spades is complete. You won!")
    assert_shows(page, game, code=False)
    expect(page.locator("#dlg-win")).to_be_visible()
    sr.named("dialog", "You won!")
    audit(page, "the win dialog")
