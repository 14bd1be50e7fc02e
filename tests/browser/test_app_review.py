""" "Where did I lose it?" in the page: the review runs in the solver's worker and its answer,
shown on a timeline, is the engine's own in CPython; practice from the last winnable position
counts in no statistics; a long review shows progress and can be cancelled."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from a11y import axe_violations
from playwright.sync_api import Page, expect
from webapp import assert_shows, click_action, drag, open_app, position_url, settle

from spider import Game
from spider.moves import Move
from spider.solver import hint
from spider.solver.review import review

pytestmark = pytest.mark.browser

# Spiderette, two suits, no stock: winnable, but the fair hint's move (db: it turns a card) makes
# it unwinnable, which the solver proves at once (tests/solver/test_review.py).
HINT_LOSES = (
    "spiderette 2 classic standard / score=600 moves=100 removed=SH / 9S / 2h AH 3S / "
    "KS KH 5H 10S 7H / 8s qh 7s 2S / 6S 9H / 4h 10h 3H JS QS 5S JH / as 8h 6h 4S / -"
)
HARD_CODE = "SP1-S4C-AAAAAAD"  # a 4-suit deal the solver takes long over

STORED = """() => ({
  stats: localStorage.getItem('spider:stats'),
  meta: JSON.parse(localStorage.getItem('spider:game') ?? 'null')?.data?.meta ?? null,
})"""


def play(page: Page, profile: str, game: Game, move: Move) -> None:
    """Plays ``move`` by dragging, on the page and on ``game``."""
    column = game.columns[move.src]
    settle(page)  # cards in flight (a deal being laid out) take no pointer
    drag(page, profile, move.src, len(column) - move.count, move.dst)
    game.push(move)
    settle(page)
    assert_shows(page, game)


def test_review_timeline_and_practice(page: Page, profile: str, screenshot: Any) -> None:
    game = Game.from_text(HINT_LOSES)
    open_app(page, position_url(HINT_LOSES))
    assert_shows(page, game)
    play(page, profile, game, Move(3, 1, 1))  # what the hint suggests, and it loses
    play(page, profile, game, game.legal_moves()[0])
    expected = review(game, time_limit=None, node_limit=5_000, think_iterations=0)
    assert expected.status == "lost" and expected.losing is not None
    assert expected.losing.number == 1 and expected.losing.verdict == "bad-luck"
    before = page.evaluate(STORED)
    # This server offers no solver API (/engine.json says "api": null): nothing goes to /api/.
    api_requests: list[str] = []
    page.on("request", lambda request: "/api/" in request.url and api_requests.append(request.url))

    # The menu entry: a spoiler warning first, then the review in the solver's worker.
    click_action(page, "review")
    dialog = page.locator("#dlg-review")
    expect(dialog).to_have_attribute("data-phase", "warn")
    expect(dialog.locator("[data-review-text]")).to_contain_text("Spoiler")
    dialog.locator('[data-action="review-start"]').click()
    expect(dialog).to_have_attribute("data-phase", "result", timeout=60_000)
    expect(dialog).to_have_attribute("data-status", "lost")
    expect(dialog).to_have_attribute("data-losing", "1")
    expect(dialog.locator("[data-review-text]")).to_contain_text("lost at move 1")
    detail = dialog.locator("[data-review-detail]")
    expect(detail).to_contain_text("Move 1 put 2 of spades on column 2.")
    expect(detail).to_contain_text(
        "the hint suggested 2 of spades to column 2. It turns a card face up."
    )
    expect(detail).to_contain_text("Bad luck")
    expect(dialog.locator("[data-review-note]")).to_contain_text("which you could not see")
    steps = dialog.locator("[data-review-timeline] .step")
    expect(steps).to_have_count(2)
    assert steps.evaluate_all("(els) => els.map((el) => el.className)") == [
        "step lost losing",
        "step lost",
    ]
    screenshot(page, "review-lost")
    assert api_requests == []
    assert page.evaluate("document.documentElement.dataset.solverStarts") == "1"

    # Practice from the last winnable position: the game in progress is left (confirmed), the
    # position before the losing move is on the table, the losing move is said (the fair hint
    # would advise it again, so none is shown unasked), and nothing of it reaches the statistics.
    dialog.locator('[data-action="review-practice"]').click()
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    practice = Game.from_text(HINT_LOSES)
    assert_shows(page, practice)
    expect(page.locator("html")).to_have_attribute("data-practice", "true")
    expect(page.locator("[data-toast]")).to_contain_text("Practice game")
    expect(page.locator("[data-toast]")).to_contain_text(
        "Playing 2 of spades to column 2 lost the game: try another move."
    )
    assert hint(practice).move == Move(3, 1, 1)
    settle(page)
    expect(page.locator(".card.hinted")).to_have_count(0)
    screenshot(page, "review-practice")
    play(page, profile, practice, Move(3, 1, 1))
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('spider:game') ?? 'null')?.data?.meta?.started"
    )
    stored = page.evaluate(STORED)
    assert stored["meta"]["practice"] is True and stored["meta"]["counted"] is False
    assert stored["stats"] == before["stats"]
    if profile != "desktop":
        return

    # Leaving the practice game for a new deal offers its review (never runs it unasked).
    click_action(page, "new")
    page.locator("#code-input").fill(HARD_CODE)
    page.keyboard.press("Enter")
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    assert_shows(page, Game.from_code(HARD_CODE))
    expect(page.locator("html")).to_have_attribute("data-practice", "false")
    toast = page.locator("[data-toast]")
    expect(toast).to_contain_text("Game left unfinished.")
    expect(toast.locator("[data-toast-action]")).to_have_text("Where did I lose it?")
    toast.locator("[data-toast-action]").click()
    expect(dialog).to_have_attribute("data-phase", "warn")
    dialog.locator('[data-action="review-cancel"]').click()
    expect(dialog).to_be_hidden()

    # Nothing to review before the first move; a long review shows its progress and is
    # cancelled at once.
    page.locator("[data-action='menu']").click()
    expect(page.locator("[data-action='review']")).to_be_disabled()
    page.keyboard.press("Escape")
    hard = Game.from_code(HARD_CODE)
    play(page, profile, hard, hard.legal_moves()[0])
    click_action(page, "review")
    dialog.locator('[data-action="review-start"]').click()
    expect(dialog.locator("[data-review-progress]")).to_contain_text(
        "Position 1 of 1", timeout=30_000
    )
    dialog.locator('[data-action="review-cancel"]').click()
    expect(dialog).to_be_hidden()
    expect(dialog).to_have_attribute("data-phase", "cancelled")
    assert (
        json.loads(page.evaluate("JSON.stringify(document.documentElement.dataset)"))[
            "solverStarts"
        ]
        == "1"
    )


# Spiderette 2-suit deal 4 after three moves: a win is found within 1,000 positions; after ba2
# none is within 4,000 (tests/solver/test_review.py), so the answer is unproven.
EARLY = (
    "spiderette 2 classic standard #4 / score=497 moves=3 removed=- / - / 10s 5S 4S / js 7h AH / "
    "3h qs JH 10H 9H / jh 8s qh 10s AH / 8h 9s 6s 8h 8s 5S / 2h ks 2h 3h 5h AS / "
    "as 9h 3s 3s 5h kh kh 4s 2s 7s qh 4h 6h 4h 2s 7h 6s 9s 7s js 10h ks qs 6h"
)

OPEN_WITH_BUDGET = """async (nodeLimit) => {
  const review = await import('/review.js');
  review.open({
    getSaved: () => JSON.parse(localStorage.getItem('spider:game')).data.saved,
    practice: (position, lost) => { window.practiced = {position, lost}; },
    budget: {timeLimit: 60, positionTimeLimit: 10, nodeLimit},
  });
}"""


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_review_probably_lost_is_marked_unproven(page: Page, profile: str, screenshot: Any) -> None:
    """A budget of positions too small to prove the loss: the page says "probably", marks the
    answer not proven, lists the evidence, and draws the move hollow on the timeline."""
    game = Game.from_text(EARLY)
    open_app(page, position_url(EARLY))
    assert_shows(page, game)
    play(page, profile, game, Move(1, 0, 2))  # ba2
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('spider:game') ?? 'null')?.data?.meta?.started"
    )
    expected = review(game, time_limit=None, node_limit=1_000, think_iterations=0)
    assert expected.status == "probably-lost" and expected.probable is not None
    assert (expected.probable.earliest, expected.probable.number) == (1, 1)

    page.evaluate(OPEN_WITH_BUDGET, 1_000)
    dialog = page.locator("#dlg-review")
    dialog.locator('[data-action="review-start"]').click()
    expect(dialog).to_have_attribute("data-phase", "result", timeout=60_000)
    expect(dialog).to_have_attribute("data-status", "probably-lost")
    expect(dialog).to_have_attribute("data-proven", "false")
    expect(dialog.locator("[data-review-text]")).to_contain_text("Probably lost at about move 1")
    expect(dialog.locator("[data-review-unproven]")).to_be_visible()
    expect(dialog.locator("[data-review-unproven]")).to_contain_text("Not proven")
    evidence = dialog.locator("[data-review-evidence] li")
    expect(evidence).to_have_text(
        [
            "What this rests on:",
            re.compile(r"^At the start: a win found in \d+\.\d s \(proven\)\.$"),
            re.compile(r"^After move 1: no win found in \d+\.\d s of search \(not a proof\)\.$"),
        ]
    )
    expect(dialog.locator("[data-review-detail]")).to_contain_text("Move 1 put")
    steps = dialog.locator("[data-review-timeline] .step")
    assert steps.evaluate_all("(els) => els.map((el) => el.className)") == ["step unknown probable"]
    expect(steps.first).to_have_attribute("title", "Move 1: the game was probably lost here")
    expect(dialog.locator('[data-action="review-practice"]')).to_be_visible()
    screenshot(page, "review-probable")
    found = axe_violations(page)  # the badge, the evidence list and the hollow marker
    assert not found, f"axe-core: {found}"

    # Practice from the last position proven winnable; the move is said to have probably lost.
    dialog.locator('[data-action="review-practice"]').click()
    expect(dialog).to_be_hidden()
    assert page.evaluate("window.practiced") == {
        "position": EARLY,
        "lost": "Playing 5 of spades to column 1 probably lost the game: try another move.",
    }
