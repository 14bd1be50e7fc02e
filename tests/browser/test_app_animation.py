"""Animations: every card drawn, frame by frame, between where it was and where it goes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page
from webapp import assert_shows, drag, open_app, position_url, settle

from spider import Game

pytestmark = pytest.mark.browser

# One suit: the 7 and 6 of spades leave column 1 for the 8 of spades in column 2, and the card
# they uncover, turned face up, is another 7 of spades.
TWIN_UNDER_POSITION = (
    "spider 1 classic standard / score=1000 moves=100 removed=SSSSSS / ks 7s 7S 6S / 8S / "
    "KS QS JS 10S 9S / QS JS 10S 9S 8S / 6S 5S 4S 3S 2S AS / 5S 4S 3S 2S AS / - / - / - / - / -"
)

# Samples, on every frame until stopped, where each card of the table is drawn: an id kept on
# its element, its column (null in the effects layer, where cards leave the table), face, text, box.
START_SAMPLING = """() => {
  const frames = [];
  window.__frames = frames;
  window.__sampling = true;
  const tick = () => {
    const cards = [];
    for (const el of document.querySelectorAll('#table .columns .card, #table .fx .card')) {
      const r = el.getBoundingClientRect();
      const column = el.closest('[data-column]');
      cards.push({
        el: el.__sampleId ??= Math.random().toString(36).slice(2),
        column: column ? Number(column.dataset.column) : null,
        down: el.classList.contains('back'),
        text: el.dataset.card ?? null,
        left: r.left, right: r.right, top: r.top, bottom: r.bottom,
      });
    }
    frames.push(cards);
    if (window.__sampling) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

STOP_SAMPLING = """() => {
  window.__sampling = false;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const columns = [...document.querySelectorAll('[data-column]')]
    .sort((a, b) => Number(a.dataset.column) - Number(b.dataset.column));
  return {
    frames: window.__frames,
    stock: box(document.querySelector('[data-stock]')),
    columns: columns.map(box),
    last: columns.map((c) => [...c.querySelectorAll(':scope > .card')].map((el) => el.__sampleId)),
  };
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def within_column(card_box: dict[str, float], column: dict[str, float]) -> bool:
    return card_box["left"] >= column["left"] - 1 and card_box["right"] <= column["right"] + 1


def check_flight(sampled: dict[str, Any], src: int, dst: int, landed: range) -> None:
    """Checks every sampled frame: the cards at ``landed`` in column ``dst`` start in column
    ``src`` and never show at the stock; no face-down card leaves its column."""
    frames, stock, columns = sampled["frames"], sampled["stock"], sampled["columns"]
    assert len(frames) >= 10, "too few frames were sampled"
    moving = {sampled["last"][dst][i] for i in landed}
    tracks: dict[str, list[dict[str, Any]]] = {el: [] for el in moving}
    for n, cards in enumerate(frames):
        for c in cards:
            if c["down"]:
                assert c["column"] is not None, f"frame {n}: a face-down card left the table {c}"
                assert within_column(c, columns[c["column"]]), (
                    f"frame {n}: a face-down card outside its column {c}"
                )
            if c["el"] in tracks:
                tracks[c["el"]].append(c)
                assert not overlaps(c, stock), f"frame {n}: a moved card at the stock {c}"
    for track in tracks.values():
        assert track, "a moved card was never drawn"
        assert within_column(track[0], columns[src]), (
            f"{track[0]['text']} first drawn away from column {src + 1}: {track[0]}"
        )
        assert within_column(track[-1], columns[dst]), track[-1]
    # The cards were drawn in flight, not only before and after.
    assert any(len({(c["left"], c["top"]) for c in t}) > 2 for t in tracks.values())


def test_a_move_that_turns_a_twin_flies_from_its_column(
    page: Page, profile: str, screenshot: Any
) -> None:
    # A group dropped on another column flies from where it was dropped to its place, while
    # the card it uncovered turns where it lies; undone, the group flies back and that card
    # turns face down again in place. Before, the turned 7 took the moved 7's element: the
    # moved 7 was drawn anew at the stock and flew in after the drop, and the face-down card
    # floated across the columns to the stock (and the reverse on undo).
    game = Game.from_text(TWIN_UNDER_POSITION)
    open_app(page, position_url(TWIN_UNDER_POSITION))
    assert_shows(page, game, code=False)
    settle(page)

    page.evaluate(START_SAMPLING)
    drag(page, profile, 0, -2, 1)
    game.move(0, 1, 2)
    assert_shows(page, game, code=False)
    screenshot(page, "in-flight")
    settle(page)
    page.wait_for_timeout(100)
    check_flight(page.evaluate(STOP_SAMPLING), src=0, dst=1, landed=range(1, 3))

    page.evaluate(START_SAMPLING)
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game, code=False)
    settle(page)
    page.wait_for_timeout(100)
    check_flight(page.evaluate(STOP_SAMPLING), src=1, dst=0, landed=range(2, 4))
    screenshot(page, "undone")


# One suit: the deal puts the Ace of spades on column 1's King-to-2 and completes a run there.
RUN_BY_DEAL_POSITION = (
    "spider 1 classic standard / score=900 moves=100 removed=SSSSS / "
    "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S / js KS / qs QS / ks JS / as 10S / 2s 9S / as 8S / "
    "7S / 6S / 5S 4S 3S / as 2s 3s 4s 5s 6s 7s 8s 9s 10s"
)


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_an_undone_deal_puts_the_run_back_from_the_completed_row(
    page: Page, screenshot: Any
) -> None:
    # Undoing a deal that completed a run: the run's cards come back from the completed row and
    # the dealt cards go back to the stock. Before, the dealt 2 to 10 (one suit) were taken for
    # the run's 2 to 10 and flew across the table into the run's column.
    game = Game.from_text(RUN_BY_DEAL_POSITION)
    open_app(page, position_url(RUN_BY_DEAL_POSITION))
    page.keyboard.press("d")
    game.deal()
    assert len(game.completed) == 6
    assert_shows(page, game, code=False)
    settle(page)

    page.evaluate(START_SAMPLING)
    page.keyboard.press("u")
    game.undo()
    assert_shows(page, game, code=False)
    settle(page)
    page.wait_for_timeout(100)
    sampled = page.evaluate(STOP_SAMPLING)
    first: dict[str, Any] = {}
    for cards in sampled["frames"]:
        for c in cards:
            first.setdefault(c["el"], c)
    columns_top = min(column["top"] for column in sampled["columns"])
    run = [first[el] for el in sampled["last"][0]]
    assert [c["text"] for c in run] == [str(card) for card in game.columns[0].cards]
    from_columns = [c["text"] for c in run if c["top"] >= columns_top - 1]
    assert from_columns == [], f"cards of the run flew in from other columns: {from_columns}"
    screenshot(page, "undone")
