"""Hints, "no more moves", the solver ("Is this deal winnable?", "Show solution", "Winnable deals
only") and the share link of a position, each compared with the engine's own answer in CPython."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect
from webapp import (
    NEARLY_WON_POSITION,
    NO_MOVES_POSITION,
    assert_shows,
    click_action,
    drag,
    open_app,
    position_url,
    settle,
    shown,
)

from spider import Game, Move
from spider.moves import action_from_text
from spider.solver import hint, solve
from spider.solver.hint.nomoves import no_more_moves
from spider.solver.hint.quick import visited_positions
from spider.solver.think.harder import ThinkParams, lines_of
from spider.solver.view import VisibleView
from spider.winnable import winnable_numbers

pytestmark = pytest.mark.browser

HINT_CODE = "SP1-S4C-AAAAAAH"
QUIET_CODE = "SP1-S4C-AAAAAEC"  # a new deal where no move helps

HINTED = """() => ({
  cards: [...document.querySelectorAll('.card.hinted')].map((el) => el.dataset.card),
  column: [...document.querySelectorAll('.card.hinted')].map(
    (el) => Number(el.closest('[data-column]').dataset.column))[0] ?? null,
  targets: [...document.querySelectorAll('.column.hint-target')]
    .map((el) => Number(el.dataset.column)),
})"""


def press_hint(page: Page, profile: str) -> None:
    if profile == "phone":
        click_action(page, "hint")
    else:
        page.keyboard.press("h")


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_hint_then_no_more_moves_and_share(page: Page, profile: str, screenshot: Any) -> None:
    game = Game.from_code(HINT_CODE)
    open_app(page, f"/?code={HINT_CODE}")
    assert_shows(page, game)
    # While the engine thinks, the Hint button says it is busy (recorded, however brief).
    page.evaluate(
        """() => {
          const button = document.querySelector('[data-action="hint"]');
          window.hintBusy = [];
          new MutationObserver(() => window.hintBusy.push(button.getAttribute('aria-busy')))
            .observe(button, {attributeFilter: ['aria-busy']});
        }"""
    )
    for index in (0, 1):
        expected = hint(game, index)
        assert expected.move is not None
        press_hint(page, profile)
        count, src, dst = expected.move.count, expected.move.src, expected.move.dst
        cards = [str(c) for c in game.columns[src].cards[-count:]]
        page.wait_for_function(
            "(want) => JSON.stringify([...document.querySelectorAll('.card.hinted')]"
            ".map((el) => el.dataset.card)) === JSON.stringify(want)",
            arg=cards,
        )
        marks = page.evaluate(HINTED)
        assert marks == {"cards": cards, "column": src, "targets": [dst]}
        text = page.locator("[data-message]").inner_text()
        assert f"column {dst + 1}" in text
        if expected.reason == "turns-card":
            assert "turns a card face up" in text
        if index == 0:
            screenshot(page, "hint")
    assert_shows(page, game)  # a hint never plays anything
    assert page.evaluate("window.hintBusy") == ["true", None, "true", None]

    # When no move helps, the hint leaves dealing to the player: it tells the deals left.
    click_action(page, "new")
    page.locator("#code-input").fill(QUIET_CODE)
    page.keyboard.press("Enter")
    quiet = Game.from_code(QUIET_CODE)
    assert_shows(page, quiet)
    assert hint(quiet).reason == "nothing-helps-deals-left"
    press_hint(page, profile)
    expect(page.locator("[data-message]")).to_have_text("No move seems to help. 5 deals are left.")

    # "No more moves": proven by the engine, offered with undo, restart and new game.
    dead = Game.from_text(NO_MOVES_POSITION)
    assert no_more_moves(dead) and dead.legal_moves()
    open_app(page, position_url(NO_MOVES_POSITION))
    dialog = page.locator("#dlg-nomoves")
    expect(dialog).to_be_visible(timeout=20_000)
    assert_shows(page, dead)
    screenshot(page, "no-moves")
    dialog.locator('button[value="close"]').click()
    expect(dialog).to_be_hidden()
    # H agrees with the dialog: no move is suggested, "no moves" is said.
    press_hint(page, profile)
    expect(page.locator("[data-message]")).to_have_text(
        "No moves are left. Undo a few steps, restart or start a new game."
    )
    expect(page.locator(".card.hinted")).to_have_count(0)
    expect(dialog).to_be_visible()
    dialog.locator('button[value="close"]').click()
    expect(dialog).to_be_hidden()

    # The share link of a game without a code opens the same deal (its starting position).
    page.locator('[data-action="share"]').click()
    page.wait_for_function("() => document.documentElement.dataset.shareLink")
    link = page.evaluate("() => document.documentElement.dataset.shareLink")
    start = parse_qs(urlparse(link).query)["position"][0]
    assert Game.from_text(start).to_text() == dead.start_position().to_text()

    # A useless move keeps the verdict; Undo in the dialog takes it back.
    drag(page, profile, 6, -1, 3)
    dead.move(6, 3, 1)
    assert no_more_moves(dead)
    expect(dialog).to_be_visible(timeout=20_000)
    assert_shows(page, dead)
    dialog.locator('[data-action="nomoves-undo"]').click()
    dead.undo()
    assert_shows(page, dead)
    expect(dialog).to_be_visible(timeout=20_000)  # still no moves there
    dialog.locator('button[value="close"]').click()

    # The notice can be switched off in Settings (it is on by default); H still tells.
    click_action(page, "settings")
    notice = page.locator('[data-setting="noMoves"]')
    expect(notice).to_be_checked()
    notice.uncheck()
    page.locator('#dlg-settings button[value="close"]').click()
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('spider:settings')).data")
    assert saved["noMoves"] is False  # kept with the other settings for the next visit
    # The requests the page sends its engines, in order (the worker's messages carry them).
    page.evaluate(
        """() => {
          window.engineOps = [];
          const post = Worker.prototype.postMessage;
          Worker.prototype.postMessage = function (message, ...rest) {
            const text = message?.text;
            if (typeof text === 'string') window.engineOps.push(JSON.parse(text).op);
            return post.call(this, message, ...rest);
          };
        }"""
    )
    drag(page, profile, 6, -1, 3)
    dead.move(6, 3, 1)
    assert_shows(page, dead)
    press_hint(page, profile)
    expect(dialog).to_be_visible(timeout=20_000)
    # No check after the move: the page asked only once H was pressed, and the hint's answer
    # carried the engine's proof (it agrees with "no more moves").
    ops = page.evaluate("window.engineOps")
    assert ops[:2] == ["move", "hint"], ops
    dialog.locator('[data-action="nomoves-new"]').click()
    expect(page.locator("#dlg-new")).to_be_visible()


def solver_dialog_result(page: Page) -> str:
    page.wait_for_function(
        "() => document.querySelector('#dlg-solve').dataset.phase === 'result'", timeout=90_000
    )
    result: str = page.evaluate("() => document.querySelector('#dlg-solve').dataset.result")
    return result


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_solver_check_demo_winnable_only_and_cancel(
    page: Page, profile: str, screenshot: Any
) -> None:
    game = Game.from_text(NEARLY_WON_POSITION)
    expected = solve(game)
    assert expected.status == "winnable"
    open_app(page, position_url(NEARLY_WON_POSITION))
    assert_shows(page, game)

    # "Think harder" this near the end grows no tree: the full solver chose its line, and the
    # answer says so.
    page.keyboard.press("t")
    expect(page.locator("[data-message]")).to_have_text(
        re.compile(r"^Think harder: try .+ to column \d+\. Chosen by the full solver, which knows"),
        timeout=30_000,
    )
    expect(page.locator(".card.hinted")).not_to_have_count(0)

    # "Is this deal winnable?": a spoiler warning first, then the solver's answer.
    click_action(page, "solve")
    dialog = page.locator("#dlg-solve")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-phase", "warn")
    expect(dialog.locator("[data-solve-text]")).to_contain_text("Spoiler")
    screenshot(page, "solve-warning")
    dialog.locator('[data-action="solve-start"]').click()
    assert solver_dialog_result(page) == "winnable"
    expect(dialog.locator("[data-solve-text]")).to_contain_text(
        f"in {len(expected.solution)} moves"
    )
    expect(dialog.locator("[data-solve-progress]")).to_contain_text("positions searched")
    # The time is the search as the player waited for it (the solver's worker started first),
    # never "0 s".
    expect(dialog.locator("[data-solve-progress]")).to_have_text(re.compile(r"· [1-9]\d* s$"))
    screenshot(page, "solve-winnable")

    # "Show solution" plays it through the engine, animated, to a win that is not counted.
    dialog.locator('[data-action="solve-play"]').click()
    expect(page.locator("[data-demo-bar]")).to_be_visible()
    win = page.locator("#dlg-win")
    expect(win).to_be_visible(timeout=30_000)
    expect(win.locator("[data-win-assisted]")).to_be_visible()
    for text in expected.solution:
        game.push(action_from_text(text))
    assert game.is_won
    assert_shows(page, game)
    screenshot(page, "demo-won")
    win.locator('button[value="close"]').click()
    # Every step went through the engine: undo takes the last one back.
    click_action(page, "undo")
    game.undo()
    assert_shows(page, game)

    # "Winnable deals only": the engine deals at once from its catalogue of proven deals.
    click_action(page, "new")
    new = page.locator("#dlg-new")
    new.locator("label", has_text="Spiderette").click()
    new.locator("label", has_text="Easy").click()
    new.locator("[data-winnable-only]").check()
    screenshot(page, "new-winnable")
    new.locator('[data-action="deal-new"]').click()
    # The game on the table (undone from its win) is in progress: abandoning it is confirmed.
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-code]').textContent.startsWith('SD1-S1-')"
    )
    expect(page.locator("[data-toast]")).to_contain_text("This deal can be won.")
    code = shown(page)["code"]
    dealt = Game.from_code(code)
    assert_shows(page, dealt)
    assert dealt.number in winnable_numbers("spiderette", 1)
    click_action(page, "new")
    expect(new.locator("[data-winnable-only]")).to_be_checked()  # remembered
    new.locator('[data-action="cancel"]').click()

    # Show solution on it, stopped with Esc after a few steps: what was played stays.
    click_action(page, "solution")
    expect(dialog).to_have_attribute("data-phase", "warn")
    dialog.locator('[data-action="solve-start"]').click()
    page.wait_for_function("() => Number(document.querySelector('[data-moves]').textContent) >= 3")
    page.keyboard.press("Escape")
    expect(page.locator("[data-demo-bar]")).to_be_hidden()
    settle(page)
    played = shown(page)["moves"]
    page.wait_for_timeout(600)
    assert shown(page)["moves"] == played  # stopped
    line = solve(Game.from_code(code), time_limit=30).solution
    for text in line[:played]:
        dealt.push(action_from_text(text))
    assert_shows(page, dealt)

    # A long search shows its progress and can be cancelled.
    click_action(page, "new")
    page.locator("#code-input").fill("SP1-S4C-AAAAAAD")
    page.keyboard.press("Enter")
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()  # moves were played
    assert_shows(page, Game.from_code("SP1-S4C-AAAAAAD"))
    click_action(page, "solve")
    dialog.locator('[data-action="solve-start"]').click()
    expect(dialog.locator("[data-solve-progress]")).to_contain_text(
        "positions searched", timeout=30_000
    )
    screenshot(page, "solve-progress")
    dialog.locator('[data-action="solve-cancel"]').click()
    expect(dialog).to_be_hidden()
    expect(dialog).to_have_attribute("data-result", "cancelled")
    # The page is cross-origin isolated, so Cancel interrupted the search in its worker: the
    # next search reuses the same worker (no new Pyodide start) and runs again.
    assert page.evaluate("crossOriginIsolated")
    click_action(page, "solve")
    dialog.locator('[data-action="solve-start"]').click()
    expect(dialog.locator("[data-solve-progress]")).to_contain_text(
        "positions searched", timeout=30_000
    )
    dialog.locator('[data-action="solve-cancel"]').click()
    expect(dialog).to_have_attribute("data-result", "cancelled")
    assert page.evaluate("document.documentElement.dataset.solverStarts") == "1"

    # "Think harder" (T) on this deal, at 2 s (a setting): it runs in the solver's worker with
    # its progress in a bar (play-outs, time, the best move so far), then marks the move it
    # found as the quick hint marks its move; the player plays it.
    hard = Game.from_code("SP1-S4C-AAAAAAD")
    click_action(page, "settings")
    page.locator('[data-setting="thinkSeconds"]').select_option("2")
    page.locator('#dlg-settings button[value="close"]').click()
    bar = page.locator("[data-think-bar]")
    page.keyboard.press("t")
    expect(bar).to_be_visible()
    expect(bar.locator("[data-think-text]")).to_have_text(
        re.compile(r"^Thinking: \d+ play-outs? · \d\.\d s of 2 s$"), timeout=30_000
    )
    expect(bar.locator("[data-think-best]")).to_have_text(
        re.compile(r"^Best so far: .+ to column \d+$")
    )
    screenshot(page, "think-progress")
    expect(bar).to_be_hidden(timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('.card.hinted').length > 0")
    marks = page.evaluate(HINTED)
    src, count, targets = marks["column"], len(marks["cards"]), marks["targets"]
    assert len(targets) == 1
    move = Move(src, targets[0], count)
    assert marks["cards"] == [str(c) for c in hard.columns[src].cards[-count:]]
    # It is the first move of one of the lines the search weighs (the best ones of its deeper
    # lookahead at the root).
    view, visited = VisibleView.from_game(hard), visited_positions(hard)
    lines = lines_of(view, visited, nodes=ThinkParams().lookahead_nodes)
    assert move in {line[0] for line in lines}
    expect(page.locator("[data-message]")).to_have_text(
        re.compile(rf"^Think harder: try .+ to column {move.dst + 1}\. Chosen in \d+ of \d+ ")
    )
    screenshot(page, "think-answer")
    drag(page, profile, src, -count, move.dst)
    hard.move(*move)
    assert_shows(page, hard)
    expect(page.locator(".card.hinted")).to_have_count(0)

    # Back to the deal's first position, where the search weighs several lines (after the move
    # above there may be only one, and the answer comes at once, with no progress to cancel).
    click_action(page, "undo")
    hard.undo()
    assert_shows(page, hard)

    # Cancel stops it; playing while it thinks drops its answer, and says so. Neither leaves a
    # move marked, and the worker is the same one all along.
    click_action(page, "think")
    expect(bar.locator("[data-think-text]")).to_contain_text("play-out", timeout=30_000)
    bar.locator('[data-action="think-cancel"]').click()
    expect(bar).to_be_hidden()
    expect(page.locator("[data-message]")).to_have_text("Think harder stopped.")
    page.keyboard.press("t")
    expect(bar).to_be_visible()
    click_action(page, "redo")
    hard.redo()
    expect(bar).to_be_hidden()
    expect(page.locator("[data-message]")).to_contain_text(
        "The table changed while Think harder was thinking"
    )
    assert_shows(page, hard)
    page.wait_for_timeout(2500)  # past its budget: no answer is shown after all
    expect(page.locator(".card.hinted")).to_have_count(0)
    assert page.evaluate("document.documentElement.dataset.solverStarts") == "1"
    click_action(page, "undo")  # the deal untouched again: a new one needs no confirmation
    hard.undo()
    assert_shows(page, hard)

    # The next winnable deal of the same kind is another one: deals played lately are avoided.
    click_action(page, "new")
    new.locator("label", has_text="Spiderette").click()
    new.locator("label", has_text="Easy").click()
    expect(new.locator("[data-winnable-only]")).to_be_checked()
    new.locator('[data-action="deal-new"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-code]').textContent.startsWith('SD1-S1-')"
    )
    again = Game.from_code(shown(page)["code"])
    assert again.number in winnable_numbers("spiderette", 1)
    assert again.number != dealt.number
