"""The visible form (``spider.solver.visible_form``): what the player sees, as JSON, read back
to the very view and earlier positions the game gives, in every variant; and "Think harder" on
it answers as on the game."""

from __future__ import annotations

import json
import re

import pytest

from spider.game import Game
from spider.options import Options
from spider.solver.hint.quick import hint_action
from spider.solver.think.harder import think, think_visible
from spider.solver.view import VisibleView, seen_positions
from spider.solver.visible_form import read_visible_form, visible_form


def played(options: Options, actions: int, number: int = 5) -> Game:
    """Deal ``number`` of ``options`` after up to ``actions`` of the quick hint's player."""
    game = Game.new(options.game, options.suits, options.rule, number=number)
    for _ in range(actions):
        action = hint_action(game)
        if action is None:
            break
        game.push(action)
    return game


@pytest.mark.parametrize("options", Options.variants(), ids=str)
@pytest.mark.parametrize("actions", [0, 25])
def test_the_form_reads_back_as_the_games_view(options: Options, actions: int) -> None:
    game = played(options, actions)
    form = json.loads(json.dumps(visible_form(game)))
    view, visited = read_visible_form(form)
    assert view == VisibleView.from_game(game)
    assert visited == seen_positions(game)
    # Face-down cards and the stock are counts: the only cards named are face-up or removed.
    named = sum(len(column["up"]) for column in form["columns"])
    assert named == sum(len(column) for column in view.columns)


def test_a_game_with_runs_removed_and_deals_made_reads_back() -> None:
    game = played(Options.make("spider", 1), 400, number=2)
    assert game.position().removed and len(game.position().stock) < 50
    view, visited = read_visible_form(visible_form(game))
    assert view == VisibleView.from_game(game) and visited == seen_positions(game)


def test_think_on_the_form_answers_as_think_on_the_game() -> None:
    game = played(Options.make("spider", 2, "flexible"), 12)
    view, visited = read_visible_form(visible_form(game))
    on_form = think_visible(view, visited, iterations=10, seed=4).to_json()
    on_game = think(game, iterations=10, seed=4).to_json()
    on_form.pop("elapsed")
    on_game.pop("elapsed")
    assert on_form == on_game


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rule": "flexible", "game": "spiderette"}, "classic rule only"),
        ({"stock": -1}, "stock must be a whole number"),
        ({"stock": True}, "stock must be a whole number"),
        ({"columns": []}, "columns must have 10 items"),
        ({"removed": "S"}, "removed must be a list"),
        ({"visited": [[[]] * 10] * 10_001}, "visited must have 0 to 10,000 items"),
        ({"visited": [[["XX"]] + [[]] * 9]}, "visited[0][0]: not a card"),
    ],
)
def test_a_bad_form_is_refused_with_what_is_wrong(change: dict[str, object], message: str) -> None:
    form = {**visible_form(played(Options.make("spider", 1), 0)), **change}
    with pytest.raises(ValueError, match=re.escape(message)):
        read_visible_form(form)
