"""The quick hint's lookahead: its best gain, and the refill it judges positions by."""

from __future__ import annotations

import importlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider import Game
from spider.solver import HintReport, hint_report
from spider.solver.hint.column_table import ColumnTable
from spider.solver.hint.evaluation import Evaluation
from spider.solver.hint.lookahead import best_fill, lookahead_gain, refill_move, useful_moves
from spider.solver.hint.pruned_moves import pack, unpack
from spider.solver.params import hint_params
from spider.solver.view import UNKNOWN, VisibleView, apply_visible
from tests.helpers import GOLDEN, VARIANTS, position, random_game, replayed

HINT_REPORTS: list[dict[str, Any]] = json.loads((GOLDEN / "hint_reports.json").read_text())[
    "positions"
]


def _spider(suits: int, columns: list[str]) -> Game:
    """A hand-made classic Spider position with one deal left in the stock."""
    return position("spider", suits, columns, stock="as " * 10)


def test_lookahead_gain_is_the_best_gain_under_the_weights_given() -> None:
    game = _spider(2, ["5s 9H", "10H", "10S", "8S", "KS", "QS", "JS", "2H", "3H", "4H"])
    view = VisibleView.from_game(game)
    report = hint_report(view, 300, weigh_cards=False)
    assert lookahead_gain(view, 300) == report.options[0].gain
    # A tuning run asks with a weight changed: the gain follows it (and is cached apart).
    defaults = hint_params(view)
    turned = replace(defaults, turn=10 * defaults.turn)
    changed = hint_report(view, 300, params=turned, weigh_cards=False).options[0].gain
    assert lookahead_gain(view, 300, params=turned) == changed
    assert lookahead_gain(view, 300, params=turned) > report.options[0].gain
    assert lookahead_gain(view, 300) == report.options[0].gain


@given(
    st.sampled_from(VARIANTS),
    st.integers(0, 10_000),
    st.integers(0, 120),
    st.sets(st.integers(0, 9), min_size=1, max_size=4),
)
def test_the_quick_refill_fills_as_the_general_one(
    variant: tuple[str, int, str], number: int, steps: int, emptied: set[int]
) -> None:
    # The lookahead judges a position with its empty columns filled again (while a deal is to
    # come) by a quick fill of its own; it must pick what fill_move's general search picks.
    view = VisibleView.from_game(random_game(variant, number, steps))
    columns = tuple(() if index in emptied else cards for index, cards in enumerate(view.columns))
    down = tuple(0 if index in emptied else count for index, count in enumerate(view.down))
    roots = (sum(map(len, columns)) + sum(down), sum(down))
    evaluation = Evaluation(view)
    general = best_fill(columns, down, view.flexible, *roots, evaluation, frozenset())
    quick = refill_move(columns, down, view.flexible, evaluation, roots)
    assert quick == (None if general is None else general[1])


@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 150))
def test_the_column_table_plays_moves_as_the_view_does(
    variant: tuple[str, int, str], number: int, steps: int
) -> None:
    # Inside the search a column is an id of a ColumnTable; a move looked up there must leave
    # the columns apply_visible leaves (before a card turns) and remove the same run.
    view = VisibleView.from_game(random_game(variant, number, steps))
    table = ColumnTable(view.flexible)
    ids = tuple(map(table.intern, view.columns))
    assert table.columns(ids) == view.columns
    assert tuple(map(table.intern, view.columns)) == ids  # a column keeps its id
    for move in useful_moves(view.columns, view.down, view.flexible):
        assert unpack(pack(*move)) == move
        applied = apply_visible(view.columns, view.down, move)
        left, after, run_suit = table.move(ids[move.src], ids[move.dst], move.count)
        assert run_suit == applied.run_suit
        for column_id, played in (
            (left, applied.columns[move.src]),
            (after, applied.columns[move.dst]),
        ):
            # Where apply_visible turned a card (unknown), the table leaves the column empty:
            # the search turns it.
            assert table.cards[column_id] == (() if played == (UNKNOWN,) else played)


def test_hints_in_several_threads_answer_as_one_thread_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Threads share the column table: a column must keep one id whichever thread met it first.
    games = [replayed(record) for record in HINT_REPORTS[::5]]
    alone = [_report_lines(hint_report(game)) for game in games]
    # Fresh caches, so that the threads meet every column for the first time together.
    monkeypatch.setattr(importlib.import_module("spider.solver.hint.column_table"), "_tables", {})
    monkeypatch.setattr(importlib.import_module("spider.solver.hint.lookahead"), "_gains_seen", {})
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda game: _report_lines(hint_report(game)), games))
    assert together == alone


def _report_lines(report: HintReport) -> list[tuple[str, ...]]:
    return [tuple(move.text() for move in option.line) for option in report.options]


@pytest.mark.parametrize(
    "record",
    HINT_REPORTS,
    ids=[
        f"{r['game']}-{r['suits']}-{r['rule']}-{r['deal']}-{len(r['actions'])}"
        for r in HINT_REPORTS
    ],
)
def test_the_quick_hint_gives_its_golden_reports(record: dict[str, Any]) -> None:
    """The reports the quick hint gave along its own play-outs, pinned: the lookahead's data
    structures may change for speed, its answers may not."""
    report = hint_report(replayed(record))
    assert report.reason == record["reason"]
    assert report.positions == record["positions"]
    options = [
        {"line": [move.text() for move in option.line], "gain": round(option.gain, 6)}
        for option in report.options
    ]
    assert options == record["options"]
