"""The daily deals and replay links in the real app: one test each, at phone and
desktop size (four page loads in all)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from webapp import assert_shows, click_action, drag, envelope, expected, seed_storage, wait_ready

from spider import Game
from spider.daily import daily_deals
from spider.moves import Move, action_from_text
from spider.protocol import Session
from spider.replay import decode_replay, encode_replay

WINNABLE = Path(__file__).parents[1] / "golden" / "winnable.json"
TODAY = date(2026, 11, 30)
# Noon: the same calendar date in any time zone the test machine may have.
NOON = "2026-11-30T12:00:00"


def _stored(game: Game) -> str:
    """The page's stored-game entry (``spider:game``) holding ``game``."""
    saved = game.to_json()
    state = Session().handle({"op": "load", "saved": saved})["state"]
    return envelope({"saved": saved, "state": state, "meta": {}})


def _todays_nearly_won() -> tuple[Game, Move]:
    """Today's 1-suit spider daily deal, played from its start to one move before the win."""
    deal = daily_deals(TODAY)[0]
    assert deal.code.startswith("SP1-S1C-")
    line = json.loads(WINNABLE.read_text())["spider-1"]["deals"][str(deal.number)]
    game = Game.from_code(deal.code)
    *played, last = (action_from_text(token) for token in line.split())
    for action in played:
        game.push(action)
    assert isinstance(last, Move)
    return game, last


def test_daily_deals_wins_and_streak(page: Page, profile: str, screenshot: Any) -> None:
    game, last = _todays_nearly_won()
    # Daily deals won the two days before: a streak of 2 that today's win makes 3.
    before = {
        day: {daily_deals(date.fromisoformat(day))[5].code: {"score": 600, "moves": 80, "time": 1}}
        for day in ("2026-11-28", "2026-11-29")
    }
    seed_storage(page, {"spider:game": _stored(game), "spider:daily": envelope({"days": before})})
    page.clock.set_fixed_time(NOON)
    page.goto("/")
    wait_ready(page)
    assert_shows(page, game)

    # The Daily dialog lists the engine's deals of the day, none won yet.
    click_action(page, "daily")
    dialog = page.locator("#dlg-daily")
    expect(dialog).to_be_visible()
    rows = dialog.locator("[data-daily-code]")
    expect(rows).to_have_count(8)
    codes = [deal.code for deal in daily_deals(TODAY)]
    assert [rows.nth(i).get_attribute("data-daily-code") for i in range(8)] == codes
    expect(dialog.locator('[data-won="true"]')).to_have_count(0)
    expect(dialog.locator("[data-daily-streak]")).to_have_attribute("data-streak", "2")
    expect(dialog.locator("[data-daily-streak]")).to_contain_text("Streak: 2 days")
    screenshot(page, "before")
    dialog.locator('button[value="close"]').click()

    # Winning today's 1-suit deal (resumed from the saved game, played from its start).
    drag(page, profile, last.src, -last.count, last.dst)
    game.push(last)
    assert game.is_won
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    win.locator('button[value="close"]').click()

    # The Daily entry of the New game dialog opens the same list: won, with score and moves.
    click_action(page, "new")
    page.locator('#dlg-new [data-action="daily"]').click()
    expect(page.locator("#dlg-new")).to_be_hidden()
    won = dialog.locator(f'[data-daily-code="{codes[0]}"]')
    expect(won).to_have_attribute("data-won", "true")
    expect(won).to_contain_text(f"{game.score:,} points · {game.moves} moves")
    expect(dialog.locator('[data-won="true"]')).to_have_count(1)
    expect(dialog.locator("[data-daily-streak]")).to_have_attribute("data-streak", "3")
    screenshot(page, "won")
    stored = json.loads(page.evaluate("() => localStorage.getItem('spider:daily')"))
    assert stored["data"]["days"]["2026-11-30"][codes[0]]["score"] == game.score
    assert stored["data"]["days"]["2026-11-29"] == before["2026-11-29"]  # nothing lost

    # Play opens another daily deal (the won game is over: no question asked).
    dialog.locator(f'[data-daily-play="{codes[5]}"]').click()
    expect(dialog).to_be_hidden()
    assert_shows(page, Game.from_code(codes[5]))


def _players_game() -> Game:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    game.push(action_from_text("be"))
    return game


def _replayed() -> Game:
    """A game of another deal, 12 actions long, with a deal among them."""
    game = Game.from_code("SD1-S1-AAAAABD")
    for token in ["de", "cg", "fc", "deal", "bg"]:
        game.push(action_from_text(token))
    while len(game.played) < 12:
        game.push(game.legal_moves()[0])
    return game


def _at(game: Game, step: int) -> Game:
    replay = Game.from_code(game.code or "")
    for action in game.played[:step]:
        replay.push(action)
    return replay


READ_REPLAY = """() => {
  const root = document.querySelector('#dlg-replay');
  const cols = [...root.querySelectorAll('[data-column]')]
    .sort((a, b) => Number(a.dataset.column) - Number(b.dataset.column));
  return {
    columns: cols.map((c) => [...c.children].map((x) =>
      x.dataset.face === 'up' ? x.dataset.card : x.dataset.face === 'down' ? '#' : '?')),
    moves: Number(root.querySelector('[data-replay-moves]').textContent),
    step: Number(root.dataset.step),
  };
}"""


def _expect_replay_at(page: Page, game: Game, step: int) -> None:
    """Waits for the replay view to show step ``step`` of ``game``, and compares the table."""
    page.wait_for_function(f"() => document.querySelector('#dlg-replay').dataset.step === '{step}'")
    want = expected(_at(game, step))
    got = page.evaluate(READ_REPLAY)
    assert got == {"columns": want["columns"], "moves": want["moves"], "step": step}


def test_replay_link_plays_without_touching_the_players_game(
    page: Page, profile: str, screenshot: Any
) -> None:
    mine = _players_game()
    other = _replayed()
    link = encode_replay(other)
    stats = envelope(
        {
            "variants": {
                "spider/2/classic/standard": {
                    "played": 3,
                    "won": 1,
                    "streak": 1,
                    "bestStreak": 1,
                    "bestScore": 900,
                    "bestTime": 100000,
                    "fewestMoves": 150,
                }
            }
        }
    )
    seed_storage(page, {"spider:game": _stored(mine), "spider:stats": stats})
    page.goto("/" + link)
    wait_ready(page)
    view = page.locator("#dlg-replay")
    expect(view).to_be_visible()
    assert page.evaluate("() => location.hash") == ""  # a reload shows the player's own game
    saved_before = page.evaluate("() => localStorage.getItem('spider:game')")
    _expect_replay_at(page, other, 0)
    expect(view.locator("[data-replay-code]")).to_have_text(other.code or "")

    # Step forward and back, then the slider, then play to the end.
    view.locator("[data-replay-forward]").click()
    _expect_replay_at(page, other, 1)
    view.locator("[data-replay-forward]").click()
    view.locator("[data-replay-forward]").click()
    _expect_replay_at(page, other, 3)
    view.locator("[data-replay-back]").click()
    _expect_replay_at(page, other, 2)
    view.locator("[data-replay-slider]").fill("9")
    _expect_replay_at(page, other, 9)
    expect(view.locator("[data-replay-step]")).to_have_text("Move 9 of 12")
    screenshot(page, "replay")
    view.locator("[data-replay-play]").click()
    expect(view).to_have_attribute("data-playing", "true")
    page.wait_for_function("() => document.querySelector('#dlg-replay').dataset.step === '12'")
    expect(view).to_have_attribute("data-playing", "false", timeout=5000)
    _expect_replay_at(page, other, 12)
    view.locator("[data-replay-play]").click()  # at the end, Play starts over
    page.wait_for_function("() => Number(document.querySelector('#dlg-replay').dataset.step) < 12")
    view.locator("[data-replay-play]").click()  # pause
    expect(view).to_have_attribute("data-playing", "false")

    # Closing shows the player's own game, as it was: saved game and statistics untouched.
    view.locator("[data-replay-close]").click()
    expect(view).to_be_hidden()
    # No replay table left behind (the view empties its table on the dialog's "close" event,
    # which the browser fires a task after the dialog hides).
    expect(page.locator("[data-column]")).to_have_count(10)
    assert_shows(page, mine)
    assert page.evaluate("() => localStorage.getItem('spider:game')") == saved_before
    assert page.evaluate("() => localStorage.getItem('spider:stats')") == stats

    # A link changed by one letter, or cut short, is refused with a clear message.
    tampered = link[:-1] + ("A" if link[-1] != "A" else "B")
    page.evaluate(f"() => {{ location.hash = {json.dumps(tampered)}; }}")
    expect(page.locator("[data-message]")).to_contain_text("changed or cut short")
    expect(view).to_be_hidden()
    assert_shows(page, mine)

    # Share replay copies the link of the player's own game, which the engine reads back.
    click_action(page, "share-replay")
    page.wait_for_function("() => document.documentElement.dataset.replayLink !== undefined")
    shared = page.evaluate("() => document.documentElement.dataset.replayLink")
    assert shared.startswith(page.evaluate("() => location.origin") + "/#replay=")
    assert decode_replay(shared).actions == mine.played
    assert page.evaluate("() => localStorage.getItem('spider:stats')") == stats
