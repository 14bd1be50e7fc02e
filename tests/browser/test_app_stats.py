"""Statistics a player would rather look at, the win's celebration and the replay's speed, in the
real app: totals across games, averages of won games and a chart of recent results (from real
games won and abandoned, beside statistics stored before these existed), confetti that never
crosses the win dialog's words, and a replay speed that is kept."""

from __future__ import annotations

import itertools
import json
import statistics
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from test_app_daily_replay import _replayed
from test_app_games import nearly_won_deal
from test_app_touch import CUT_OPTIONS, CUT_TEXTS, set_setting
from webapp import (
    SET_ASIDE,
    SPIDERETTE_4,
    WIN_POSITION,
    assert_shows,
    click_action,
    drag,
    envelope,
    open_app,
    position_url,
    seed_storage,
    settle,
    shown,
    wait_ready,
)

from spider import Game
from spider.moves import Move
from spider.replay import encode_replay

pytestmark = pytest.mark.browser

DASH = "—"
# An entry as statistics were stored before the sums of won games and the recent results.
OLD_KEY = "spider/2/classic/standard"
OLD_ENTRY = {
    "played": 3,
    "won": 1,
    "streak": 0,
    "bestStreak": 1,
    "bestScore": 900,
    "bestTime": 100000,
    "fewestMoves": 150,
}


def _expect_figures(dialog: Locator, **figures: str) -> None:
    """Each ``data-stat`` figure of the open statistics (``best_streak`` for ``best-streak``)."""
    for name, text in figures.items():
        expect(dialog.locator(f'[data-stat="{name.replace("_", "-")}"]')).to_have_text(text)


def _chart(dialog: Locator) -> list[str]:
    bars = dialog.locator("[data-stats-chart] [data-result]")
    return [bars.nth(i).get_attribute("data-result") or "" for i in range(bars.count())]


def _show(page: Page, group: str, rule: str = "", scoring: str = "") -> None:
    """Shows the statistics of ``group`` ("all", or game/suits), with that rule and scoring."""
    page.locator("[data-stats-game]").select_option(group)
    for name, value in (("stats-rule", rule), ("stats-scoring", scoring)):
        if value:
            page.locator(f'#dlg-stats label:has(input[name="{name}"][value="{value}"])').click()


def _inside(page: Page, inner: str, outer: str) -> bool:
    a, b = page.locator(inner).bounding_box(), page.locator(outer).bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert a is not None and b is not None
    return (
        a["x"] >= b["x"] - 0.5
        and a["x"] + a["width"] <= min(b["x"] + b["width"], width) + 0.5
        and a["y"] >= b["y"] - 0.5
    )


def test_totals_averages_and_recent_results_of_real_games(
    page: Page, profile: str, screenshot: Any
) -> None:
    game, last, entry = nearly_won_deal()
    seed_storage(
        page,
        {"spider:game": entry, "spider:stats": envelope({"variants": {OLD_KEY: OLD_ENTRY}})},
    )
    open_app(page)
    assert_shows(page, game)

    # Statistics stored before averages and recent results existed: they load, and what they
    # cannot tell is unknown rather than zero.
    click_action(page, "stats")
    dialog = page.locator("#dlg-stats")
    expect(dialog).to_have_attribute("data-stats-key", "all")
    _expect_figures(dialog, played="3", won="1", rate="33%", streak=DASH, best_streak=DASH)
    _expect_figures(dialog, avg_time=DASH, avg_moves=DASH)
    expect(dialog.locator('[data-stat="avg-time"]')).to_have_attribute(
        "aria-label", "not known yet"
    )
    expect(dialog.locator("[data-stats-trend-text]")).to_have_text(
        "No finished games yet: each game you win or leave unfinished shows here."
    )
    expect(dialog.locator("[data-stats-chart]")).to_be_hidden()
    _show(page, "spider/2")
    expect(dialog).to_have_attribute("data-stats-key", OLD_KEY)
    expect(dialog.locator("[data-stats-rule-field]")).to_be_visible()
    _expect_figures(dialog, played="3", best_score="900", best_time="1:40", avg_time=DASH)
    page.keyboard.press("Escape")

    # A win in 1-suit Spider (the last move of a deal played from its start)...
    drag(page, profile, last.src, -last.count, last.dst)
    game.push(last)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    time_text = win.locator('[data-stat="time"]').inner_text()
    win.locator('button[value="close"]').click()

    # ...then a 4-suit Spiderette deal, one move played, and left for another game: a loss.
    click_action(page, "new")
    page.locator("#code-input").fill(SPIDERETTE_4)
    page.keyboard.press("Enter")
    other = Game.from_code(SPIDERETTE_4)
    assert_shows(page, other)
    move = next(m for m in other.legal_moves() if isinstance(m, Move))
    settle(page)
    drag(page, profile, move.src, -move.count, move.dst)
    other.push(move)
    assert_shows(page, other)
    page.locator('[data-action="suits"]').click()
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-code]').textContent.startsWith('SD1-S1-')"
    )

    # All games: the old entry and both new games together, the averages of the one win, and
    # the two results in the chart and in words.
    click_action(page, "stats")
    expect(dialog).to_have_attribute("data-stats-key", "all")
    _expect_figures(dialog, played="5", won="2", rate="40%", streak="0", best_streak="1")
    _expect_figures(dialog, avg_time=time_text, avg_moves=f"{game.moves:,}")
    words = "You won 1 of your last 2 games."
    expect(dialog.locator("[data-stats-trend-text]")).to_have_text(words)
    assert _chart(dialog) == ["W", "L"]
    expect(page.get_by_role("img", name=words)).to_be_visible()
    assert _inside(page, "#dlg-stats [data-stats-chart]", "#dlg-stats")
    assert page.evaluate(CUT_TEXTS) == []
    screenshot(page, "all")

    # Each game on its own: the rule is asked only where the game has two.
    _show(page, "spiderette/4")
    expect(dialog).to_have_attribute("data-stats-key", "spiderette/4/classic/standard")
    expect(dialog.locator("[data-stats-rule-field]")).to_be_hidden()
    expect(dialog.locator("[data-stats-scoring-field]")).to_be_visible()
    _expect_figures(dialog, played="1", won="0", streak="0", avg_time=DASH, avg_moves=DASH)
    assert _chart(dialog) == ["L"]
    expect(dialog.locator("[data-stats-trend-text]")).to_have_text(
        "You did not win your last game."
    )
    _show(page, "spider/1")
    expect(dialog).to_have_attribute("data-stats-key", "spider/1/classic/standard")
    _expect_figures(dialog, played="1", won="1", avg_time=time_text, avg_moves=f"{game.moves:,}")
    assert _chart(dialog) == ["W"]
    screenshot(page, "variant")
    page.keyboard.press("Escape")

    # Kept across a reload; the old entry is stored as it was, nothing was set aside.
    page.reload()
    wait_ready(page)
    stored = json.loads(page.evaluate("() => localStorage.getItem('spider:stats')"))["data"]
    assert stored["variants"][OLD_KEY] == OLD_ENTRY
    assert stored["recent"] == [
        ["spider/1/classic/standard", "W"],
        ["spiderette/4/classic/standard", "L"],
    ]
    streaks = dict(stored["all"])
    assert isinstance(streaks.pop("at"), int)  # when the last result was recorded
    assert streaks == {"streak": 0, "bestStreak": 1}
    assert page.evaluate(SET_ASIDE) == []
    click_action(page, "stats")
    _expect_figures(dialog, played="5", won="2", avg_moves=f"{game.moves:,}")


# The statistics of a 4-suit Flexible game with Reveal scoring: eight results, rising.
RISING = {
    "played": 9,
    "won": 5,
    "streak": 3,
    "bestStreak": 3,
    "bestScore": 120,
    "bestTime": 600000,
    "fewestMoves": 300,
    "timedWins": 4,
    "wonTime": 3000000,
    "wonMoves": 1400,
    "recent": "LWLLLWWW",
}


@pytest.mark.parametrize("profile", ["phone"], indirect=True)
def test_statistics_fit_and_stay_strict_at_360_px(page: Page, screenshot: Any) -> None:
    key = "spider/4/flexible/reveal"
    seed_storage(
        page,
        {
            "spider:stats": envelope(
                {
                    "variants": {
                        key: RISING,
                        # Results that no game can leave: set aside, the others kept.
                        "spiderette/1/classic/standard": {**OLD_ENTRY, "recent": "WWX"},
                    },
                    "recent": [[key, r] for r in RISING["recent"]],
                    "all": {"streak": 3, "bestStreak": 3},
                }
            )
        },
    )
    open_app(page, position_url(WIN_POSITION))
    assert [c["key"] for c in page.evaluate(SET_ASIDE)] == ["stats/spiderette/1/classic/standard"]
    click_action(page, "stats")
    dialog = page.locator("#dlg-stats")
    _show(page, "spider/4", "flexible", "reveal")
    expect(dialog).to_have_attribute("data-stats-key", key)
    _expect_figures(dialog, played="9", avg_time="12:30", avg_moves="350", best_score="120")
    expect(dialog.locator("[data-stats-trend-text]")).to_have_text(
        "You won 4 of your last 8 games. Rising: you won 3 of the latest 4 and 1 of the 4 before."
    )
    page.keyboard.press("Escape")

    # Every language: the dialog's texts, its menu and its chart fit the phone.
    for lang in ("es", "ca", "it", "fr", "de", "pt", "nl", "en"):
        set_setting(page, "lang", lang)
        click_action(page, "stats")
        expect(dialog).to_be_visible()
        for group, rule, scoring in (("all", "", ""), ("spider/4", "flexible", "reveal")):
            _show(page, group, rule, scoring)
            expect(dialog.locator("[data-stats-chart]")).to_be_visible()
            assert page.evaluate(CUT_TEXTS) == [], (lang, group)
            assert page.evaluate(CUT_OPTIONS) == [], (lang, group)
            assert _inside(page, "#dlg-stats [data-stats-chart]", "#dlg-stats"), (lang, group)
        screenshot(page, lang)
        page.keyboard.press("Escape")

    # The recent results stay bounded: thirty in the list of every game, thirty in each entry.
    lengths = page.evaluate(
        """(k) => import('/stats.js').then((s) => {
          for (let i = 0; i < 40; i++) { s.recordStart(k); s.recordLoss(k); }
          const data = JSON.parse(localStorage.getItem('spider:stats')).data;
          return [data.recent.length, data.variants[k].recent.length, s.get(k).played];
        })""",
        key,
    )
    assert lengths == [30, 30, 49]


# The text parts of the win dialog, each compared pixel for pixel during the celebration.
WIN_TEXTS = ("h2", "[data-win-table]", ".dlg-actions .btn >> nth=0", ".dlg-actions .btn >> nth=1")
# Stops every animation running when the dialog opened at `t` ms from its start (kept in a list:
# an animation that has finished is no longer among the document's).
FREEZE = """(t) => {
  window.frozen ??= document.getAnimations();
  window.frozen.forEach((a) => { a.pause(); a.currentTime = t; });
}"""


def test_confetti_is_never_drawn_over_the_win_dialogs_words(page: Page, profile: str) -> None:
    open_app(page, position_url(WIN_POSITION))
    drag(page, profile, 1, -1, 0)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    page.evaluate(FREEZE, 60_000)  # every animation over: the dialog as it stays
    settled = {part: win.locator(part).screenshot() for part in WIN_TEXTS}
    box = win.bounding_box()
    assert box is not None and box["y"] > 40
    above = {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": box["y"] - 4}  # type: ignore[index]
    table_then = page.screenshot(clip=above)
    around = 0
    # Frame by frame through the celebration (after the title's own bounce, 0.7 s).
    for t in range(800, 3600, 200):
        page.evaluate(FREEZE, t)
        for part in WIN_TEXTS:
            assert win.locator(part).screenshot() == settled[part], (part, t)
        around += page.screenshot(clip=above) != table_then
    assert around > 0  # the celebration is there: on the table around the dialog


def _step_times(page: Page, steps: int) -> list[float]:
    """Plays the replay from its start for ``steps`` steps; the times (ms) between them."""
    view = page.locator("#dlg-replay")
    view.locator("[data-replay-slider]").fill("0")
    page.wait_for_function("() => document.querySelector('#dlg-replay').dataset.step === '0'")
    page.evaluate(
        """() => {
          const dlg = document.querySelector('#dlg-replay');
          window.stepTimes = [];
          window.stepWatch?.disconnect();
          window.stepWatch = new MutationObserver(() => window.stepTimes.push(performance.now()));
          window.stepWatch.observe(dlg, {attributes: true, attributeFilter: ['data-step']});
        }"""
    )
    view.locator("[data-replay-play]").click()
    page.wait_for_function(f"() => window.stepTimes.length >= {steps}", timeout=20_000)
    view.locator("[data-replay-play]").click()
    expect(view).to_have_attribute("data-playing", "false")
    times: list[float] = page.evaluate("() => window.stepTimes")
    return [b - a for a, b in itertools.pairwise(times[:steps])]


def test_replay_speed_is_chosen_and_kept(page: Page, profile: str, screenshot: Any) -> None:
    link = encode_replay(_replayed())
    page.goto("/" + link)
    wait_ready(page)
    view = page.locator("#dlg-replay")
    expect(view).to_be_visible()
    speed = page.get_by_role("combobox", name="Speed")
    expect(speed).to_have_value("1")
    times = "\N{MULTIPLICATION SIGN}"
    assert [o.strip() for o in speed.locator("option").all_inner_texts()] == [
        f"{n}{times}" for n in ("0.5", "1", "2", "4")
    ]
    assert _inside(page, "#dlg-replay [data-replay-speed]", "#dlg-replay")
    normal = _step_times(page, 5)

    # Twice as fast: by the keyboard on a desktop, by a tap on a phone's menu.
    if profile == "desktop":
        speed.focus()
        page.keyboard.press("ArrowDown")
    else:
        speed.select_option("2")
    expect(speed).to_have_value("2")
    fast = _step_times(page, 5)
    ratio = statistics.median(fast) / statistics.median(normal)
    assert 0.35 < ratio < 0.7, (normal, fast)
    screenshot(page, "fast")

    # Remembered: the next replay plays twice as fast too.
    view.locator("[data-replay-close]").click()
    expect(view).to_be_hidden()
    settings = json.loads(page.evaluate("() => localStorage.getItem('spider:settings')"))
    assert settings["data"]["replaySpeed"] == 2
    page.reload()
    wait_ready(page)
    page.evaluate(f"() => {{ location.hash = {json.dumps(link.split('#', 1)[-1])}; }}")
    expect(view).to_be_visible()
    expect(speed).to_have_value("2")
    assert shown(page)["code"]  # the player's own game is still on the table underneath
