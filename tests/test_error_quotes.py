"""Errors of the Python API quote what they were given shortened, never whole:
``Game.new(game="x" * 10**6)`` must not answer with a megabyte of text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spider import Card, Game, Move, Options, best_destination, format_code, parse_code
from spider.env import SpiderEnv
from spider.limits import MAX_MESSAGE_CHARS, excerpt
from spider.shuffle import shuffled_deck

HUGE_TEXT = "x" * 10**6
HUGE_LIST = list(range(10**6))
HUGE_INT = 10**5000


def game() -> Game:
    return Game.from_code("SP1-S1C-AAAAAAD")


CALLS: dict[str, Callable[[object], object]] = {
    "Game.new game": lambda value: Game.new(game=value),  # type: ignore[arg-type]
    "Game.new suits": lambda value: Game.new(suits=value),  # type: ignore[arg-type]
    "Game.new rule": lambda value: Game.new(rule=value),  # type: ignore[arg-type]
    "Game.new scoring": lambda value: Game.new(scoring=value),  # type: ignore[arg-type]
    "Game.new number": lambda value: Game.new(number=value),  # type: ignore[arg-type]
    "Game.new undo_limit": lambda value: Game.new(undo_limit=value),  # type: ignore[arg-type]
    "Game.from_code": lambda value: Game.from_code(value),  # type: ignore[arg-type]
    "Game.from_text": lambda value: Game.from_text(value),  # type: ignore[arg-type]
    "Game.from_json": lambda value: Game.from_json(value),  # type: ignore[arg-type]
    "Game.from_options": lambda value: Game.from_options(
        Options(value, 1, "classic", "standard"),  # type: ignore[arg-type]
        3,
    ),
    "Game.move": lambda value: game().move(value, 1),  # type: ignore[arg-type]
    "Game.move count": lambda value: game().move(0, 1, value),  # type: ignore[arg-type]
    "Game.push": lambda value: game().push(value),  # type: ignore[arg-type]
    "Game.movable_count": lambda value: game().movable_count(value),  # type: ignore[arg-type]
    "best_destination": lambda value: best_destination(game(), value, 1),  # type: ignore[arg-type]
    "Options.make": lambda value: Options.make(value),  # type: ignore[arg-type]
    "Move.from_text": lambda value: Move.from_text(value),  # type: ignore[arg-type]
    "Card": lambda value: Card(value, "S"),  # type: ignore[arg-type]
    "Card suit": lambda value: Card(1, value),  # type: ignore[arg-type]
    "Card.parse": lambda value: Card.parse(value),  # type: ignore[arg-type]
    "parse_code": lambda value: parse_code(value),  # type: ignore[arg-type]
    "format_code": lambda value: format_code(Options(), value),  # type: ignore[arg-type]
    "shuffled_deck": lambda value: shuffled_deck(Options(), value),  # type: ignore[arg-type]
    "SpiderEnv max_steps": lambda value: SpiderEnv(
        max_steps=-value if isinstance(value, int) else value  # type: ignore[arg-type]
    ),
}


VALUES = [HUGE_TEXT, HUGE_LIST, HUGE_INT, HUGE_TEXT.encode()]


@pytest.mark.parametrize("value", VALUES, ids=["text", "list", "int", "bytes"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_error_never_repeats_a_huge_argument(name: str, value: object) -> None:
    with pytest.raises((ValueError, TypeError)) as error:
        CALLS[name](value)
    assert len(str(error.value)) <= MAX_MESSAGE_CHARS, (name, str(error.value)[:300])


def test_excerpt_shortens_every_kind_of_value() -> None:
    assert excerpt("ad") == "'ad'"
    assert excerpt(HUGE_TEXT).endswith("(1000000 characters)")
    assert excerpt(HUGE_LIST) == "[0, 1, 2, 3, ...]"
    assert excerpt(HUGE_INT) == f"a {HUGE_INT.bit_length()}-bit integer"
    assert excerpt(HUGE_TEXT.encode()).endswith("(1000000 bytes)")
    assert excerpt({"a": HUGE_TEXT}).startswith("{'a': 'xxx")
    assert len(excerpt({"a": HUGE_TEXT})) <= 40
    assert excerpt(Move(0, 1, 2)) == "Move(src=0, dst=1, count=2)"
