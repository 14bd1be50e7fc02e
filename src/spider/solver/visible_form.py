"""What the player sees, as JSON: the input of "Think harder" for a caller that holds no game.

:func:`visible_form` writes a game's :class:`~spider.solver.view.VisibleView` and the positions the
player went through since the last card turned (:func:`~spider.solver.view.seen_positions`);
:func:`read_visible_form` reads them back, checked. Nothing in the form is a face-down card or
the order of the stock: those are counts. The protocol's ``visible`` operation answers with it,
and ``spider serve``'s ``/api/think`` takes it, so the server searches from the visible cards
alone, with the same function (:func:`spider.solver.think.harder.think_visible`) as the page's
worker.

The form::

    {"game": "spider", "suits": 4, "rule": "classic",
     "columns": [{"down": 5, "up": ["QS"]}, ...],   # bottom to top
     "stock": 50, "removed": ["S"],                 # cards left to deal; suits of runs removed
     "visited": [[["KS", "QS"], ...], ...]}         # face-up cards of each earlier position

The reader refuses, with a :class:`ValueError` that says what is wrong: a field missing, of the
wrong type or out of range; a card that is not one of the variant's, or more copies of one than
its deck holds; counts that do not add up to its deck; a column with face-down cards and no
face-up card on top; more than :data:`MAX_VISITED` earlier positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from spider.cards import SUITS, card_text, parse_card_int
from spider.game import Game
from spider.limits import excerpt
from spider.options import Options
from spider.rules import RUN_LENGTH
from spider.solver.view import Columns, VisibleView, seen_positions

__all__ = ["FIELDS", "MAX_VISITED", "Visited", "form_of", "read_visible_form", "visible_form"]

Visited = frozenset[tuple[Columns, tuple[int, ...]]]
"""Earlier positions as ``(columns, down)``, as :func:`~spider.solver.view.seen_positions`."""

MAX_VISITED: Final = 10_000
"""The most earlier positions a form may list (a game's own are far fewer: they end at the
last card turned)."""

FIELDS: Final = ("game", "suits", "rule", "columns", "stock", "removed", "visited")
"""The fields of a form, every one required."""


def visible_form(game: Game) -> dict[str, Any]:
    """What the player of ``game`` sees, as the JSON form of the module's description."""
    view = VisibleView.from_game(game)
    return form_of(view, seen_positions(game))


def form_of(view: VisibleView, visited: Visited) -> dict[str, Any]:
    """The JSON form of ``view`` and ``visited`` (earlier positions in a stable order)."""
    return {
        "game": view.game,
        "suits": view.suits,
        "rule": "flexible" if view.flexible else "classic",
        "columns": [
            {"down": down, "up": [card_text(card) for card in column]}
            for column, down in zip(view.columns, view.down, strict=True)
        ],
        "stock": view.stock_cards,
        "removed": [SUITS[suit] for suit in view.removed_suits],
        "visited": sorted(
            [[card_text(card) for card in column] for column in columns]
            for columns, _down in visited
        ),
    }


def read_visible_form(form: object) -> tuple[VisibleView, Visited]:
    """The view and earlier positions of a JSON ``form``; ``ValueError`` when it is not one."""
    if not isinstance(form, dict):
        raise ValueError("the visible position must be a JSON object")
    missing = [name for name in FIELDS if name not in form]
    extra = sorted(name for name in form if name not in FIELDS)
    if missing or extra:
        raise ValueError(
            f"the visible position must have exactly the fields {', '.join(FIELDS)} "
            f"(missing: {', '.join(missing) or 'none'}; unknown: {excerpt(extra)})"
        )
    options = _options(form)
    columns_form = _list(form["columns"], "columns", options.column_count, options.column_count)
    down = tuple(_column_down(column, index) for index, column in enumerate(columns_form))
    columns = tuple(
        _cards(column["up"], f"columns[{index}].up", options)
        for index, column in enumerate(columns_form)
    )
    for index, (face_up, hidden) in enumerate(zip(columns, down, strict=True)):
        if hidden and not face_up:
            raise ValueError(f"columns[{index}] has face-down cards and no face-up card on top")
    stock = _count(form["stock"], "stock", options.card_count)
    removed = tuple(
        _suit(suit, f"removed[{index}]", options)
        for index, suit in enumerate(_list(form["removed"], "removed", 0, options.runs_to_win))
    )
    view = VisibleView(
        game=options.game,
        suits=options.suits,
        flexible=options.flexible,
        columns=columns,
        down=down,
        stock_cards=stock,
        removed=len(removed),
        runs_to_win=options.runs_to_win,
        removed_suits=removed,
    )
    _check_deck(view, options)
    return view, _visited(form["visited"], options, down)


def _options(form: dict[str, Any]) -> Options:
    game, suits, rule = form["game"], form["suits"], form["rule"]
    if not isinstance(game, str) or not isinstance(rule, str):
        raise ValueError("game and rule must be text")
    if isinstance(suits, bool) or not isinstance(suits, int):
        raise ValueError(f"suits must be a whole number, not {excerpt(suits)}")
    return Options.make(game, suits, rule)


def _list(value: object, name: str, low: int, high: int) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list")
    if not low <= len(value) <= high:
        size = str(low) if low == high else f"{low} to {high:,}"
        raise ValueError(f"{name} must have {size} items, not {len(value):,}")
    return value


def _count(value: object, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ValueError(f"{name} must be a whole number from 0 to {high}, not {excerpt(value)}")
    return value


def _column_down(column: object, index: int) -> int:
    if not isinstance(column, dict) or sorted(column) != ["down", "up"]:
        raise ValueError(f"columns[{index}] must be an object with exactly 'down' and 'up'")
    return _count(column["down"], f"columns[{index}].down", 104)


def _cards(value: object, name: str, options: Options) -> tuple[int, ...]:
    cards = _list(value, name, 0, options.card_count)
    try:
        parsed = tuple(parse_card_int(card) for card in cards)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    for card in parsed:
        if card >> 4 >= options.suits:
            raise ValueError(f"{name}: {card_text(card)} is not a card of {options.suits}-suit")
    return parsed


def _suit(value: object, name: str, options: Options) -> int:
    if value not in SUITS[: options.suits]:
        suits = ", ".join(SUITS[: options.suits])
        raise ValueError(f"{name} must be a suit of this game ({suits}), not {excerpt(value)}")
    return SUITS.index(str(value))


def _check_deck(view: VisibleView, options: Options) -> None:
    """Refuse a view whose cards are not those of the variant's deck."""
    deck = Counter(options.composition())
    seen = Counter(card for column in view.columns for card in column)
    for suit in view.removed_suits:
        seen.update(suit << 4 | rank for rank in range(1, RUN_LENGTH + 1))
    over = sorted(card for card in seen if seen[card] > deck[card])
    if over:
        raise ValueError(f"more copies of {card_text(over[0])} than the deck holds")
    total = sum(seen.values()) + sum(view.down) + view.stock_cards
    if total != options.card_count:
        raise ValueError(f"the cards add up to {total}, not to the deck's {options.card_count}")


def _visited(value: object, options: Options, down: tuple[int, ...]) -> Visited:
    positions = _list(value, "visited", 0, MAX_VISITED)
    visited: set[tuple[Columns, tuple[int, ...]]] = set()
    for index, position in enumerate(positions):
        name = f"visited[{index}]"
        columns: Sequence[object] = _list(
            position, name, options.column_count, options.column_count
        )
        visited.add(
            (
                tuple(
                    _cards(column, f"{name}[{place}]", options)
                    for place, column in enumerate(columns)
                ),
                down,
            )
        )
    return frozenset(visited)
