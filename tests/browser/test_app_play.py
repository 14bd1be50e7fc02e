"""Playing: drag and drop, double-click and tap, refusals, undo and redo, keyboard only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from webapp import (
    EMPTY_COLUMN_POSITION,
    SPIDER_2,
    assert_shows,
    card,
    click_action,
    drag,
    key_to_column,
    message,
    open_app,
    overlapping,
    position_url,
    settle,
    shown,
)

from spider import Game, Move
from spider.autoplace import best_destination

pytestmark = pytest.mark.browser


def test_drag_and_drop(page: Page, profile: str, screenshot: Any) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    src, dst = 1, 4  # 3 of hearts onto the 4 of spades
    assert any(m.src == src and m.dst == dst and m.count == 1 for m in game.legal_moves())
    accepting = sorted(m.dst for m in game.legal_moves() if m.src == src and m.count == 1)

    seen: dict[str, Any] = {}

    def while_dragging(p: Page) -> None:
        seen["accepts"] = p.evaluate(
            "() => [...document.querySelectorAll('[data-column].accepts')]"
            ".map((c) => Number(c.dataset.column))"
        )
        screenshot(p, "dragging")

    drag(page, profile, src, -1, dst, hold=while_dragging)
    assert seen["accepts"] == accepting
    game.move(src, dst, 1)
    assert_shows(page, game)
    expect(page.locator("[data-announce]")).to_contain_text("3 of hearts to column 5")
    # No column stays highlighted after the drop.
    assert page.locator("[data-column].accepts").count() == 0

    # A drop lands where it is dropped, as the Spider and Spiderette apps do: the column the
    # cards overlap most decides. The 7 of spades released 70% over the 3 of spades is refused
    # with the rule, though the 8 of spades beside it would take it.
    assert [m.dst for m in game.legal_moves() if m.src == 3] == [6]
    settle(page)
    drag(page, profile, 3, -1, 5, to=overlapping(page, 3, -1, over=5, beside=6), hold=marked(5))
    assert message(page) == "A card goes only on a card one rank higher, or on an empty column."
    assert_shows(page, game)
    # Released 30% over a column that takes it and 70% over its own: it stays where it was.
    drag(page, profile, 7, -1, 9)  # the Jack of hearts onto the Queen of spades: a card turns
    game.move(7, 9, 1)
    assert_shows(page, game)
    assert Move(8, 7, 1) in game.legal_moves()
    settle(page)
    drag(page, profile, 8, -1, 8, to=overlapping(page, 8, -1, over=8, beside=7), hold=marked(8))
    # 70% over the column that takes it: it goes there (a move after the one above, so the
    # engine has answered both in order when the page shows it).
    settle(page)
    drag(page, profile, 8, -1, 7, to=overlapping(page, 8, -1, over=7, beside=8), hold=marked(7))
    game.move(8, 7, 1)
    assert_shows(page, game)

    # With automatic placement on (off by default), a drop is forgiving: released over a column
    # that refuses it, the card goes to the best column.
    click_action(page, "settings")
    auto_place = page.locator('[data-setting="autoPlace"]')
    expect(auto_place).not_to_be_checked()
    auto_place.check()
    page.locator('#dlg-settings button[value="close"]').click()
    best = best_destination(game, 3, 1)
    assert best is not None and best.dst == 6
    settle(page)
    drag(page, profile, 3, -1, 5, to=overlapping(page, 3, -1, over=5, beside=4))
    game.move(3, 6, 1)
    assert_shows(page, game)


def marked(column: int) -> Callable[[Page], None]:
    """A ``hold`` for :func:`drag`: waits until ``column`` is the one marked as the drop target
    (the only one), so a test sees where the cards would land before they are released."""

    def hold(page: Page) -> None:
        page.wait_for_function(
            "(want) => JSON.stringify([...document.querySelectorAll('[data-column].over')]"
            ".map((c) => Number(c.dataset.column))) === JSON.stringify([want])",
            arg=column,
            timeout=5_000,
        )

    return hold


def test_double_click_and_tap(page: Page, profile: str) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    src = 7  # the Jack of hearts: two sevens... the engine picks the best column
    target = best_destination(game, src, 1)
    assert target is not None
    if profile == "phone":
        # On touch screens a single tap sends the card (on by default).
        card(page, src).tap()
    else:
        # On desktops a single click does nothing…
        card(page, src).click()
        page.wait_for_timeout(500)
        assert_shows(page, Game.from_code(SPIDER_2))
        # …and a double-click sends the card to the best column.
        card(page, src).dblclick()
    game.move(target.src, target.dst, target.count)
    assert_shows(page, game)
    # Next, a card no column takes: the engine says so, nothing moves.
    lonely = next(
        i for i in range(10) if best_destination(game, i, 1) is None and game.columns[i].cards
    )
    if profile == "phone":
        card(page, lonely).tap()
    else:
        card(page, lonely).dblclick()
    assert message(page) == "No column can take these cards."
    assert_shows(page, game)


def test_refused_move_and_refused_deal(page: Page, profile: str, screenshot: Any) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    # The Ace of hearts on the Queen of spades: not one rank lower.
    drag(page, profile, 0, -1, 2)
    assert message(page) == "A card goes only on a card one rank higher, or on an empty column."
    assert_shows(page, game)
    # The card went back to its column, in place.
    settle(page)
    box = card(page, 0).bounding_box()
    column = page.locator('[data-column="0"]').bounding_box()
    assert box is not None and column is not None
    assert abs(box["x"] - column["x"]) < 1.5
    screenshot(page, "refused-move")

    position = Game.from_text(EMPTY_COLUMN_POSITION)
    open_app(page, position_url(EMPTY_COLUMN_POSITION))
    assert_shows(page, position)
    page.locator("[data-stock]").click()
    assert message(page) == "Fill every empty column before dealing."
    assert_shows(page, position)
    settle(page)
    screenshot(page, "refused-deal")


def test_undo_and_redo(page: Page, profile: str) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    expect(page.locator('[data-action="undo"]')).to_be_disabled()
    drag(page, profile, 1, -1, 4)
    game.move(1, 4, 1)
    assert_shows(page, game)
    page.keyboard.press("d")
    game.deal()
    assert_shows(page, game)
    after_deal = Game.from_text(game.to_text())

    click_action(page, "undo")
    game.undo()
    assert_shows(page, game)
    page.keyboard.press("Control+z")
    game.undo()
    assert_shows(page, game)
    assert_shows(page, Game.from_code(SPIDER_2))
    expect(page.locator('[data-action="undo"]')).to_be_disabled()

    click_action(page, "redo")
    game.redo()
    assert_shows(page, game)
    page.keyboard.press("Control+Shift+z")
    game.redo()
    assert_shows(page, after_deal)
    expect(page.locator('[data-action="redo"]')).to_be_disabled()
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game)
    page.keyboard.press("Control+y")
    game.redo()
    assert_shows(page, after_deal)


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_keyboard_only_play(page: Page, screenshot: Any) -> None:
    game = Game.from_code(SPIDER_2)
    open_app(page, f"/?code={SPIDER_2}")
    for _ in range(3):
        move = game.legal_moves()[0]
        key_to_column(page, move.src)
        # Up arrows choose how many cards to lift: count - 1 presses from the top card.
        for _ in range(move.count - 1):
            page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
        held = page.locator(".card.held").count()
        assert held == move.count
        key_to_column(page, move.dst)
        page.keyboard.press("Space")
        game.move(move.src, move.dst, move.count)
        assert_shows(page, game)
        # The focus stays on the table, with a visible ring.
        assert page.evaluate("() => !!document.activeElement.closest('[data-column]')")
    # Escape puts a lifted group back; D deals.
    key_to_column(page, 0)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(".card.held").count() == 0
    page.keyboard.press("d")
    game.deal()
    assert_shows(page, game)
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    settle(page)
    screenshot(page, "keyboard")
    assert shown(page)["moves"] == 4
