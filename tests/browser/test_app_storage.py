"""No stored value, of any key, in any state, stops the app from starting: it plays, the
unreadable data is kept (a set-aside copy, or left untouched under its key when it cannot be
copied, until the player chooses), and the player is told once, at start-up, in words that say
what was kept."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from webapp import (
    SPIDER_2,
    assert_shows,
    drag,
    envelope,
    open_app,
    seed_storage,
    shown,
    wait_ready,
)

from spider import Game
from spider.protocol import Session

pytestmark = pytest.mark.browser

APP = "spider-solitaire"
# What the player is told, by the key of the data that could not be read.
TOLD = {
    "game": "Your saved game could not be read; a copy is set aside",
    "stats": "Your statistics could not be read; a copy is set aside",
    "daily": "Your daily deal results could not be read; a copy is set aside",
    "settings": "Some of your settings could not be read and are back to their defaults",
    "recent-winnable": "Some saved data could not be read; a copy is set aside",
    "pending": "Some saved data could not be read; a copy is set aside",
}
# The set-aside copies, oldest first; a copy that is not JSON as its text.
SET_ASIDE = """() => Object.keys(localStorage)
  .filter((k) => k.startsWith('spider:set-aside:'))
  .sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]) || a.localeCompare(b))
  .map((k) => { try { return JSON.parse(localStorage.getItem(k)); } catch { return k; } })"""
GOOD_ENTRY = {"played": 3, "won": 1, "streak": 0, "bestStreak": 1}


def _stored_game(rev: int = 3, game_id: str = "stored-game") -> dict[str, Any]:
    """The game of ``SPIDER_2`` as the page stores it, from the engine's own reply."""
    reply = Session().handle({"op": "open", "code": SPIDER_2})
    meta = {"elapsed": 0, "started": False, "counted": False, "won": False, "assisted": False}
    return {
        "saved": reply["saved"],
        "state": reply["state"],
        "meta": meta,
        "rev": rev,
        "id": game_id,
        "updated": 0,
    }


@dataclass(frozen=True)
class Damage:
    """One kind of damage: ``raw`` stored under ``spider:<key>``; how it must be kept
    (``aside``: a set-aside copy holds it; ``part:<name>``: the copy of that part of the
    statistics; ``repaired``: a copy, and a repaired value under the key; ``untouched``: still
    under its key; ``dropped``: readable but stale, removed unsaid)."""

    name: str
    key: str
    raw: str
    kept: str = "aside"


def _cut(text: str) -> str:
    return text[: len(text) // 2]


GAME = envelope(_stored_game())
FAKE_VIEW = {"columns": [{"down": 0, "up": ["AS"], "dests": []}], "completed": [], "deals_left": 0}
BATCHES: dict[str, list[Damage]] = {
    "not-json": [
        Damage("game not JSON", "game", "not json either"),
        Damage("stats not JSON", "stats", "{not json"),
        Damage("daily not JSON", "daily", "daily?"),
        Damage("settings not JSON", "settings", "{'sound': true}"),
        Damage("recent not JSON", "recent-winnable", "[1, 2"),
        Damage("pending log not JSON", "pending", "move 1 4"),
        Damage("set-aside copy not JSON", "set-aside:1:0", "not json", "untouched"),
        Damage("other devices' statistics not JSON", "stats-devices", "{devices"),
        Damage("device id not JSON", "device", "phone 1"),
    ],
    "wrong-shape": [
        Damage("game truncated", "game", _cut(GAME)),
        Damage("stats an array", "stats", envelope([1, 2, 3])),
        Damage("daily bad day", "daily", envelope({"days": {"yesterday": 5}})),
        Damage(
            "settings of the wrong types",
            "settings",
            envelope({"sound": "loud", "undoLimit": 7, "options": {"suits": "lots"}}),
            "repaired",
        ),
        Damage("recent bad list", "recent-winnable", envelope({"spider/1": "abc"})),
        Damage(
            "another device's statistics of the wrong shape",
            "stats-devices",
            envelope({"devices": {"laptop": {"rev": "new"}}}),
        ),
        Damage("set-aside copy null", "set-aside:2:0", "null", "untouched"),
        Damage(
            "pending log of another game",
            "pending",
            envelope({"id": "gone", "rev": 1, "actions": [{"op": "deal"}]}),
            "dropped",
        ),
    ],
    "foreign-and-versions": [
        Damage("game null", "game", "null"),
        Damage(
            "a bad statistics entry",
            "stats",
            envelope(
                {"variants": {"spider/1/classic/standard": GOOD_ENTRY, "x/y": {"played": "many"}}}
            ),
            "part:x/y",
        ),
        Damage("daily an array", "daily", envelope([])),
        Damage("settings of an older version", "settings", json.dumps({"app": APP, "v": 0})),
        Damage("recent of another app", "recent-winnable", json.dumps({"app": "other", "v": 1})),
        Damage(
            "a copy of a copy",
            "set-aside:3:0",
            json.dumps(
                {
                    "key": "set-aside:1:0",
                    "reason": "corrupt",
                    "time": "2026-01-01T00:00:00Z",
                    "raw": json.dumps({"key": "game", "raw": "x"}),
                }
            ),
            "untouched",
        ),
        Damage("pending log of the wrong shape", "pending", envelope({"id": 5})),
    ],
    "arrays-and-newer": [
        Damage("game an array", "game", "[1, 2, 3]"),
        Damage(
            "stats streaks impossible",
            "stats",
            envelope({"variants": {}, "all": {"streak": 9}}),
            "part:all",
        ),
        Damage("daily of a newer version", "daily", json.dumps({"app": APP, "v": 99, "data": {}})),
        Damage("settings an array", "settings", envelope([])),
        Damage("recent a string", "recent-winnable", json.dumps("spider")),
        Damage("pending log of a newer version", "pending", json.dumps({"app": APP, "v": 2})),
    ],
    "game-bad-types": [
        Damage("game with a bad saved field", "game", envelope({"saved": 5, "state": {}})),
    ],
    "game-huge-view": [
        Damage(
            "game with a view of a billion cards",
            "game",
            envelope(
                {
                    **_stored_game(),
                    "state": {**FAKE_VIEW, "columns": [{"down": 10**9, "up": [], "dests": []}]},
                }
            ),
        ),
    ],
    "game-engine-refuses": [
        Damage(
            "game the engine cannot read",
            "game",
            envelope(
                {**_stored_game(), "saved": '{"format": "something else"}', "state": FAKE_VIEW}
            ),
        ),
    ],
}


def _kept(page: Page, damage: Damage) -> None:
    """The damaged value is kept as its kind requires."""
    copies = page.evaluate(SET_ASIDE)
    under_key = page.evaluate("(k) => localStorage.getItem(k)", f"spider:{damage.key}")
    if damage.kept == "untouched":
        assert under_key == damage.raw, damage.name
        return
    if damage.kept == "dropped":
        assert under_key is None, damage.name
        return
    if damage.kept.startswith("part:"):
        key = "stats/" + damage.kept.removeprefix("part:")
        assert key in [c.get("key") for c in copies if isinstance(c, dict)], (damage.name, copies)
        return
    mine = [c for c in copies if isinstance(c, dict) and c.get("raw") == damage.raw]
    assert mine and mine[0]["key"] == damage.key, (damage.name, copies)
    if damage.kept == "repaired":
        assert mine[0]["reason"] == "repaired"
        assert json.loads(under_key)["app"] == APP, damage.name  # the repaired settings
    else:
        assert under_key is None or under_key != damage.raw, damage.name


def _play_a_move(page: Page) -> Game:
    """The table shows a game of the engine's, and a move of it is played (a deal, on the rare
    new deal where no card can move); returns the game."""
    game = Game.from_code(shown(page)["code"])
    assert_shows(page, game)
    moves = game.legal_moves()
    if moves:
        move = moves[0]
        drag(page, "desktop", move.src, len(game.columns[move.src].cards) - move.count, move.dst)
        game.move(move.src, move.dst, move.count)
    else:
        page.locator("[data-stock]").click()
        game.deal()
    assert_shows(page, game)
    return game


# The batches whose next start is checked too (the copies are out of their keys in every batch, so
# no next start can find them again; these check it, and that the game played was saved).
RELOADED = {"not-json", "wrong-shape"}


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
@pytest.mark.parametrize("batch", list(BATCHES))
def test_damaged_storage_is_kept_and_told_once(
    page: Page, page_log: Any, profile: str, batch: str
) -> None:
    damages = BATCHES[batch]
    # Damage the storage before the app's first script runs (the copies need something to set
    # aside next to them: the game's damage, or a bad value of another key).
    seed_storage(page, {f"spider:{d.key}": d.raw for d in damages})
    open_app(page, "/")
    toast = page.locator("[data-toast]")
    told = {TOLD[d.key] for d in damages if d.key in TOLD and d.kept != "dropped"}
    if told:
        expect(toast).to_be_visible()
    for words in told:
        expect(toast).to_contain_text(words)
    for damage in damages:
        _kept(page, damage)
    game = _play_a_move(page)
    assert not page_log.errors, page_log.errors
    if batch not in RELOADED:
        return
    # Told once: the next start is clean, and the game played is the one saved.
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(300)
    expect(toast).to_be_hidden()
    assert_shows(page, game)
    expect(page.locator("[data-held]")).to_be_hidden()
    assert not page_log.errors, page_log.errors


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_a_pending_log_is_checked_before_it_is_played(page: Page, profile: str) -> None:
    # Actions logged after the stored game: an illegal one (refused by the engine, unsaid) and a
    # legal one, which is played again.
    log = {
        "id": "stored-game",
        "rev": 3,
        "actions": [
            {"op": "move", "src": 0, "dst": 0, "count": 99},
            {"op": "move", "src": 1, "dst": 4, "count": 1},
        ],
    }
    seed_storage(page, {"spider:game": envelope(_stored_game()), "spider:pending": envelope(log)})
    open_app(page, "/")
    game = Game.from_code(SPIDER_2)
    game.move(1, 4, 1)
    assert_shows(page, game)
    page.wait_for_function("() => localStorage.getItem('spider:pending') === null")
    assert json.loads(page.evaluate("() => localStorage.getItem('spider:game')"))["data"]["rev"] > 3
    expect(page.locator("[data-toast]")).to_be_hidden()
    expect(page.locator("[data-message]")).to_be_hidden()
    # A log that a later save covers (an older revision) is dropped, never played twice.
    page.evaluate(
        "(log) => localStorage.setItem('spider:pending', log)",
        envelope({**log, "rev": 3, "actions": [{"op": "deal"}]}),
    )
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => localStorage.getItem('spider:pending') === null")
    assert_shows(page, game)


HUGE = 3_000_000
HELD_GAME = f"""(() => {{ if (sessionStorage.getItem('huge')) return;
  sessionStorage.setItem('huge', '1');
  localStorage.setItem('spider:game', '{{"not json' + 'x'.repeat({HUGE}));
}})()"""
HELD_INTACT = f"() => localStorage.getItem('spider:game')?.length === {HUGE} + 10"


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_data_too_big_to_copy_waits_for_the_players_choice(
    page: Page, page_log: Any, profile: str, screenshot: Any
) -> None:
    page.add_init_script(HELD_GAME)
    open_app(page, "/")
    held = page.locator("[data-held]")
    expect(held).to_be_visible()
    expect(held).to_contain_text("your saved game")
    expect(held).to_contain_text("nothing you play is saved until you choose")
    screenshot(page, "held")
    # The app plays (in memory); the unreadable game is never overwritten meanwhile.
    game = _play_a_move(page)
    page.wait_for_timeout(200)
    assert page.evaluate(HELD_INTACT)
    # Asked again at the next start, as long as the player has not chosen.
    page.reload()
    wait_ready(page)
    expect(held).to_be_visible()
    assert page.evaluate(HELD_INTACT)
    game = _play_a_move(page)
    with page.expect_download() as info:
        held.get_by_role("button", name="Download the unreadable data").click()
    path = info.value.path()
    with open(path, encoding="utf-8") as f:
        assert json.load(f)["game"] == '{"not json' + "x" * HUGE
    assert page.evaluate(HELD_INTACT)
    held.get_by_role("button", name="Discard it and save again").click()
    expect(held).to_be_hidden()
    expect(page.locator("[data-toast]")).to_contain_text("saved again")
    # The game played meanwhile is the one saved now; the next start is clean.
    page.reload()
    wait_ready(page)
    assert_shows(page, game)
    page.wait_for_timeout(300)
    expect(held).to_be_hidden()
    assert not page_log.errors, page_log.errors


# storage.js and pending.js on their own, in a page of the app's origin without the app.
UNITS = """async () => {
  localStorage.clear();
  localStorage.setItem('spider:set-aside:1:0', 'not json');
  localStorage.setItem('spider:set-aside:2:0', 'null');
  const storage = await import('/storage.js');
  const out = {};
  // Copies that are not copies never stop a new one; an identical value of a key is kept (and
  // told) once, the same value of another key again.
  out.kept = ['a', 'a', 'b'].map((k) => storage.setAside(k, 'bad', 'corrupt'));
  out.told = storage.takeProblems().length;
  // Too big to copy: held under its key; the app's writes go to memory until it is released.
  const huge = 'x'.repeat(storage.SET_ASIDE_BUDGET + 1);
  localStorage.setItem('spider:big', huge);
  out.read = storage.read('big', () => 1, 'fallback');
  out.write = storage.write('big', {n: 1});
  out.untouched = localStorage.getItem('spider:big') === huge;
  out.again = storage.read('big', (d) => d.n, 0);
  out.problems = storage.takeProblems().map((p) => [p.key, p.reason, p.kept]);
  out.heldData = storage.heldData().big === huge;
  out.released = storage.release();
  out.after = JSON.parse(localStorage.getItem('spider:big')).data;
  out.held = storage.heldKeys();
  // Repaired: the stored value is set aside and the repaired one written in its place.
  localStorage.setItem('spider:r', JSON.stringify({app: storage.APP, v: 1, data: {n: 'one'}}));
  out.repaired = storage.read('r', (d, repaired) => { repaired(); return {n: 1}; }, null);
  out.rewritten = JSON.parse(localStorage.getItem('spider:r')).data;
  out.repairs = storage.takeProblems().map((p) => p.reason);
  // A pending-action log: only known actions with count fields are ever played.
  const pending = await import('/pending.js');
  const log = (actions) =>
    JSON.stringify({app: storage.APP, v: 1, data: {id: 'g', rev: 1, actions}});
  localStorage.setItem('spider:pending', log([{op: 'move', src: 1, dst: 2, count: 1, extra: 'x'}]));
  out.log = pending.readLog();
  localStorage.setItem('spider:pending', log([{op: 'new', code: 'x'}]));
  out.badLog = pending.readLog();
  localStorage.setItem('spider:pending', log([{op: 'move', src: -1, dst: 2, count: 1}]));
  out.negative = pending.readLog();
  out.copies = storage.setAsideNames().length;
  return out;
}"""


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_storage_units(page: Page, profile: str) -> None:
    page.goto("/engine.json")
    out = page.evaluate(UNITS)
    assert out["kept"] == [True, True, True] and out["told"] == 2
    assert out["read"] == "fallback" and out["write"] is True and out["untouched"]
    assert out["again"] == 1  # the app reads back what it wrote meanwhile, in memory
    assert out["problems"] == [["big", "corrupt", False]]
    assert out["heldData"] and out["released"] and out["after"] == {"n": 1}
    assert out["held"] == []
    assert out["repaired"] == {"n": 1} and out["rewritten"] == {"n": 1}
    assert out["repairs"] == ["repaired"]
    assert out["log"] == {
        "id": "g",
        "rev": 1,
        "actions": [{"op": "move", "src": 1, "dst": 2, "count": 1}],
    }
    assert out["badLog"] is None and out["negative"] is None
    # The two copies that were there, "bad" of a and b, the repaired value and the two bad logs.
    assert out["copies"] == 2 + 2 + 1 + 2
