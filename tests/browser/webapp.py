"""Helpers for the web-app tests: read the table through the test hooks, compare it with the
engine's own state (computed here, in CPython, from the same code or position text), and play
with the mouse, a finger (CDP touch events) or the keyboard."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

from playwright.sync_api import Page

from spider import Game

SPIDER_2 = "SP1-S2C-AAAAAAD"
SPIDERETTE_4 = "SD1-S4-AAAAABD"

# One move from a win: the Ace of spades goes onto the 2 to complete the eighth run.
WIN_POSITION = (
    "spider 1 classic standard / score=1100 moves=60 removed=SSSSSSS / "
    "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S / AS / - / - / - / - / - / - / - / - / -"
)
# An empty column while the stock still holds a row: dealing is refused.
EMPTY_COLUMN_POSITION = (
    "spider 1 classic standard / score=600 moves=60 removed=SSSSSS / "
    "KS QS JS 10S 9S 8S 7S 6S / - / 5S / 4S / 3S / 2S / AS / KS / QS / JS / "
    "10s 9s 8s 7s 6s 5s 4s 3s 2s as"
)

READ_TABLE = """() => {
  const cols = [...document.querySelectorAll('[data-column]')]
    .sort((a, b) => Number(a.dataset.column) - Number(b.dataset.column));
  const text = (sel) => document.querySelector(sel)?.textContent.trim() ?? null;
  return {
    columns: cols.map((c) => [...c.children].map((x) =>
      x.dataset.face === 'up' ? x.dataset.card : x.dataset.face === 'down' ? '#' : '?')),
    deals_left: Number(document.querySelector('[data-stock]').dataset.dealsLeft),
    completed: Number(document.querySelector('[data-completed]').dataset.completed),
    score: Number(text('[data-score]')),
    moves: Number(text('[data-moves]')),
    code: text('[data-code]'),
  };
}"""


def position_url(text: str, **params: str) -> str:
    extra = "".join(f"&{k}={quote(v)}" for k, v in params.items())
    return f"/?position={quote(text)}{extra}"


def expected(game: Game) -> dict[str, Any]:
    """What the page must show for ``game``: face-down cards as '#', face-up ones by text."""
    return {
        "columns": [
            ["#"] * col.face_down + [str(card) for card in col.cards[col.face_down :]]
            for col in game.columns
        ],
        "deals_left": game.deals_left,
        "completed": len(game.completed),
        "score": game.score,
        "moves": game.moves,
        "code": game.code,
    }


def shown(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(READ_TABLE)
    return data


def assert_shows(page: Page, game: Game, timeout: float = 10.0, code: bool = True) -> None:
    """Waits until the page shows exactly ``game`` (the engine's state), or fails with a diff."""
    want = expected(game)
    if not code or game.code is None:
        want.pop("code")
    deadline = time.monotonic() + timeout
    while True:
        got = shown(page)
        if not code or game.code is None:
            got.pop("code")
        if got == want:
            return
        if time.monotonic() > deadline:
            diff = {k: (got[k], want[k]) for k in want if got.get(k) != want[k]}
            raise AssertionError(f"the page does not show the engine's state: {diff}")
        time.sleep(0.05)


def wait_ready(page: Page, timeout: float = 60_000) -> None:
    """Waits for ``data-engine="ready"`` on the root element (the test hook of section 9)."""
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=timeout
    )


def open_app(page: Page, path: str = "/") -> None:
    page.goto(path)
    wait_ready(page)


def card(page: Page, col: int, idx: int = -1) -> Any:
    cards = page.locator(f'[data-column="{col}"] > [data-face]')
    if idx < 0:
        idx = cards.count() + idx
    return cards.nth(idx)


def grab_point(page: Page, col: int, idx: int = -1) -> tuple[float, float]:
    """A point on the visible strip of a card (its top edge area, never covered)."""
    box = card(page, col, idx).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(8.0, box["height"] / 4)


def drop_point(page: Page, col: int) -> tuple[float, float]:
    column = page.locator(f'[data-column="{col}"]')
    cards = column.locator("> [data-face]")
    box = (cards.nth(cards.count() - 1) if cards.count() else column).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(30.0, box["height"] / 2)


def overlapping(
    page: Page, src: int, idx: int, over: int, beside: int, share: float = 0.7
) -> tuple[float, float]:
    """Where to release the card at ``idx`` of column ``src`` (grabbed at :func:`grab_point`) so
    that ``share`` of its width lies over column ``over`` and the rest over its neighbour
    ``beside``, level with the last card of ``over``."""
    box = card(page, src, idx).bounding_box()
    column = page.locator(f'[data-column="{over}"]').bounding_box()
    assert box is not None and column is not None
    width = box["width"]
    if beside > over:
        left = column["x"] + column["width"] - share * width
    else:
        left = column["x"] - (1 - share) * width
    x0, _ = grab_point(page, src, idx)
    return x0 + left - box["x"], drop_point(page, over)[1]


def drag(
    page: Page,
    profile: str,
    src: int,
    idx: int,
    dst: int,
    hold: Any = None,
    to: tuple[float, float] | None = None,
) -> None:
    """Drags the card at ``idx`` of column ``src`` (with the cards on it) onto column ``dst``,
    released at the point ``to`` when given (see :func:`overlapping`).

    With the mouse on desktop, with touch events on the phone. ``hold(page)`` runs while the
    cards are over the destination, before they are dropped."""
    x0, y0 = grab_point(page, src, idx)
    x1, y1 = to if to is not None else drop_point(page, dst)
    steps = 10
    if profile == "phone":
        cdp = page.context.new_cdp_session(page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", x0, y0)
        for i in range(1, steps + 1):
            touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        if hold:
            hold(page)
        touch("touchEnd", x1, y1)
        cdp.detach()
    else:
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x1, y1, steps=steps)
        if hold:
            hold(page)
        page.mouse.up()


def click_action(page: Page, action: str) -> None:
    """Clicks a ``data-action`` button, opening the "More" menu first when it is folded."""
    button = page.locator(f'[data-action="{action}"]').first
    if not button.is_visible():
        page.locator('[data-action="menu"]').click()
    button.click()


def settle(page: Page) -> None:
    """Waits until no card animation is running."""
    page.wait_for_function(
        "() => document.getAnimations().filter((a) => a.playState === 'running'"
        " && a.effect?.target?.classList?.contains('card')).length === 0"
    )


def message(page: Page) -> str:
    box = page.locator("[data-message]")
    box.wait_for(state="visible")
    return box.inner_text().strip()


def focused_column(page: Page) -> int | None:
    value = page.evaluate(
        "() => document.activeElement?.closest('[data-column]')?.dataset.column ?? null"
    )
    return None if value is None else int(value)


def key_to_column(page: Page, col: int) -> None:
    """Moves the keyboard focus to column ``col`` with the arrow keys."""
    for _ in range(12):
        now = focused_column(page)
        if now == col:
            return
        page.keyboard.press("ArrowRight" if now is None or now < col else "ArrowLeft")
    raise AssertionError(f"could not reach column {col} with the arrow keys")


def key_to_card(page: Page, col: int, idx: int) -> None:
    """Moves the focus along column ``col`` to its card at ``idx`` with the arrow keys."""
    for _ in range(30):
        at = page.evaluate(
            """() => {
              const el = document.activeElement;
              const col = el?.closest('[data-column]');
              return col && el !== col ? [...col.children].indexOf(el) : -1;
            }"""
        )
        if at == idx:
            return
        page.keyboard.press("ArrowUp" if at > idx else "ArrowDown")
    raise AssertionError(f"could not reach card {idx} of column {col} with the arrow keys")


# Spiderette, one suit, stock empty: no card can turn and no run can complete, whatever is played,
# though a few useless moves remain (7S onto 8S, 10S onto a Jack).
NO_MOVES_POSITION = (
    "spiderette 1 classic standard / score=400 moves=100 removed=SS / 2s 6s 3s 7S 5S 7S / "
    "ks qs 10S KS / 4s 2S / 9s 8s JS / 3s as 4s 8S / as 9s JS / 6s qs 5S 10S / -"
)
# Spiderette, one suit, a few moves from a win: the solver proves it at once.
NEARLY_WON_POSITION = (
    "spiderette 1 classic standard / score=400 moves=100 removed=SSS / "
    "KS QS JS 10S 9S 8S 7S / 3s 6S 5S / 2S / 4S / AS / - / - / -"
)

# Spider, two suits, late in a game: column 7 holds 4 face-down cards and 21 face-up ones.
LONG_COLUMN_POSITION = (
    "spider 2 classic standard #5 / score=588 moves=112 removed=HS / 4H 3H 2H AH KH / 5H / KH / "
    "AS 8S 7H 6S 5S 4S / KH QH JH AS QS JS 10H 9H 8H 7H 6H / 4H 3S 2S 4S 3H 2S AH / "
    "ah 2h 3s qs KS QS JH 8H 7S 6H 5S 4S 3S 10S 9S 8S 7S 6S JH 10H 9H 8S 7S 6S 5S / "
    "10s 2h 2s KS QH JS / 9s 9s KS QH JS 10S / 10H 9H 8H 7H 6H 5H 4H 3H AS 5H / -"
)


def set_setting(page: Page, name: str, value: str | bool) -> None:
    """Changes one setting in the Settings dialog and closes it."""
    click_action(page, "settings")
    field = page.locator(f'#dlg-settings [data-setting="{name}"]')
    if isinstance(value, bool):
        field.set_checked(value)
    else:
        field.select_option(value)
    page.locator('#dlg-settings button[value="close"]').click()
    page.locator("#dlg-settings").wait_for(state="hidden")


def envelope(data: object) -> str:
    """A stored value as the page writes it (``storage.js``: app, version, data)."""
    return json.dumps({"app": "spider-solitaire", "v": 1, "data": data})


def seed_storage(page: Page, entries: dict[str, str]) -> None:
    """Puts ``entries`` in localStorage before the app's first load (not again on a reload)."""
    page.add_init_script(
        "((entries) => { if (sessionStorage.getItem('seeded')) return;"
        " sessionStorage.setItem('seeded', '1');"
        " for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v); })"
        f"({json.dumps(entries)})"
    )


def open_menu_action(page: Page, action: str) -> None:
    """Clicks a button of the "More" menu."""
    click_action(page, action)


# The copies of unreadable data the app set aside ({key, reason, time, raw}), oldest first.
SET_ASIDE = """() => Object.keys(localStorage)
  .filter((k) => k.startsWith('spider:set-aside:'))
  .sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]) || a.localeCompare(b))
  .map((k) => JSON.parse(localStorage.getItem(k)))"""


# Keeps the time of every pointerup in window.tapTimes (the page's own clock).
RECORD_TAPS = """() => {
  window.tapTimes = [];
  window.addEventListener('pointerup', (e) => window.tapTimes.push(e.timeStamp), true);
}"""


def forget_everything(page: Page) -> None:
    """Leaves the app for a page of its origin without it and clears what the app stored."""
    page.goto("/engine.json")
    page.evaluate(
        """() => new Promise((done) => {
          localStorage.clear();
          const request = indexedDB.deleteDatabase('spider-solitaire');
          request.onsuccess = request.onerror = request.onblocked = () => done(null);
        })"""
    )
