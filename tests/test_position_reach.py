"""A position text that names its deal (``#N``) opens with the deal's code exactly when play can
reach it from that deal.

Every position reached by real play (random moves with undos, and the solver's winning lines,
which turn every card and remove every run) loads again with its code; the same positions
changed in a way no play can give are refused.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider import Game, InvalidPosition
from spider.cards import card_text, parse_card_int
from spider.moves import action_from_text
from spider.shuffle import MAX_NUMBER, shuffled_deck
from spider.solver import solve
from spider.winnable import winnable_numbers
from tests.helpers import VARIANTS

variants = st.sampled_from(VARIANTS)
numbers = st.integers(0, MAX_NUMBER)
seeds = st.integers(0, 2**32)
scorings = st.sampled_from(["standard", "reveal"])


def new_game(variant: tuple[str, int, str], number: int, scoring: str) -> Game:
    game_name, suits, rule = variant
    return Game.new(game_name, suits=suits, rule=rule, number=number, scoring=scoring)


def reloads(game: Game) -> None:
    """The position text opens again as the same position of the same deal."""
    text = game.to_text()
    again = Game.from_text(text)
    assert again.code == game.code is not None
    assert again.to_text() == text


def played(game: Game, rng: random.Random, steps: int) -> list[Game]:
    """Copies of ``game`` after each of ``steps`` random moves, deals and undos."""
    seen = []
    for _ in range(steps):
        moves = game.legal_moves()
        if game.can_undo and rng.random() < 0.15:
            game.undo()
        elif game.can_deal and (not moves or rng.random() < 0.1):
            game.deal()
        elif moves:
            game.move(*rng.choice(moves))
        else:
            break
        seen.append(game.copy(history=False))
    return seen


def won_line(game: Game) -> list[Game]:
    """Copies of ``game`` after each action of the solver's winning line (empty: none found)."""
    result = solve(game.copy(history=False), time_limit=20)
    seen = []
    for text in result.solution:
        game.push(action_from_text(text))
        seen.append(game.copy(history=False))
    return seen


@given(variants, numbers, seeds, scorings)
def test_every_position_random_play_reaches_loads_with_its_code(
    variant: tuple[str, int, str], number: int, seed: int, scoring: str
) -> None:
    for game in played(new_game(variant, number, scoring), random.Random(seed), 200):
        reloads(game)


WINNABLE = [
    (variant, number)
    for variant in VARIANTS
    if variant[1] < 4  # the solver wins these in a fraction of a second
    for number in winnable_numbers(*variant)[:8]
]


@settings(max_examples=12)
@given(st.sampled_from(WINNABLE), scorings)
def test_every_position_of_a_won_game_loads_with_its_code(
    deal: tuple[tuple[str, int, str], int], scoring: str
) -> None:
    """Every card turned, every run removed: the solver's winning line of a catalogue deal."""
    line = won_line(new_game(*deal, scoring))
    assert line and line[-1].is_won
    for game in line:
        reloads(game)


# ----------------------------------------------------------------- changed positions


def refused(text: str) -> InvalidPosition:
    with pytest.raises(InvalidPosition) as error:
        Game.from_text(text)
    return error.value


def sections(game: Game) -> list[list[str]]:
    """The sections of the position text as lists of words (an empty column or stock: [])."""
    return [[] if part == "-" else part.split() for part in game.to_text().split(" / ")]


def joined(parts: list[list[str]]) -> str:
    return " / ".join(" ".join(part) or "-" for part in parts)


def some_positions(variant: tuple[str, int, str], number: int, seed: int) -> list[Game]:
    """Positions random play reaches from the deal, its starting layout left out."""
    seen = played(new_game(variant, number, "standard"), random.Random(seed), 120)
    return [game for game in seen if game.moves] or [new_game(variant, number, "standard")]


@given(variants, numbers, seeds, st.data())
def test_another_card_on_the_face_down_cards_is_refused(
    variant: tuple[str, int, str], number: int, seed: int, data: st.DataObject
) -> None:
    """The card lying on face-down cards never moved (moving it turns the card under it), so
    swapping it with a face-up card of another value elsewhere gives no reachable position."""
    game = data.draw(st.sampled_from(some_positions(variant, number, seed)))
    parts = sections(game)
    columns = parts[2:-1]
    covering = [i for i, down in enumerate(game.face_down) if down]
    others = [
        (j, k)
        for j, column in enumerate(columns)
        for k in range(game.face_down[j], len(column))
        if (j, k) not in {(i, game.face_down[i]) for i in covering}
    ]
    if not covering or not others:
        return
    i = data.draw(st.sampled_from(covering))
    down = game.face_down[i]
    swaps = [(j, k) for j, k in others if columns[j][k] != columns[i][down]]
    if not swaps:
        return
    j, k = data.draw(st.sampled_from(swaps))
    columns[i][down], columns[j][k] = columns[j][k], columns[i][down]
    assert refused(joined(parts)).code in ("not-this-deal", "bad-column")


@given(variants, numbers, seeds, st.data())
def test_a_card_where_neither_a_move_nor_a_deal_puts_it_is_refused(
    variant: tuple[str, int, str], number: int, seed: int, data: st.DataObject
) -> None:
    """A top card put onto another column's top card one rank higher than it is not, where no
    deal of this deal number dealt such a card onto that column."""
    game = data.draw(st.sampled_from(some_positions(variant, number, seed)))
    options = game.options
    stock = shuffled_deck(options, number)[sum(options.initial_columns) :]
    dealt = options.stock_size - len(game.stock)
    parts = sections(game)
    columns = parts[2:-1]
    choices = []
    for src, column in enumerate(columns):
        if not column or (len(column) - game.face_down[src] < 2 and game.face_down[src]):
            continue  # moving its only face-up card would leave a face-down card on top
        for dst, target in enumerate(columns):
            if dst == src or not target:
                continue
            card, under = parse_card_int(column[-1]), parse_card_int(target[-1])
            dealt_there = stock[dst : dealt : options.column_count]
            if card & 15 != (under & 15) - 1 and card not in dealt_there:
                choices.append((src, dst))
    if not choices:
        return
    src, dst = data.draw(st.sampled_from(choices))
    columns[dst].append(columns[src].pop())
    assert refused(joined(parts)).code in ("not-this-deal", "bad-column")


@given(variants, numbers, seeds, st.data())
def test_a_layout_claimed_after_its_deals_alone_is_refused(
    variant: tuple[str, int, str], number: int, seed: int, data: st.DataObject
) -> None:
    """A position where a card was turned or a run removed, claimed after as many moves as
    deals (no card move at all), with the score those counters give."""
    game = data.draw(st.sampled_from(some_positions(variant, number, seed)))
    options = game.options
    deals = options.deals_left(options.stock_size) - game.deals_left
    turned = sum(size - 1 for size in options.initial_columns) - sum(game.face_down)
    if not (turned or game.completed) or deals == 0:
        return
    parts = sections(game)
    removed = "".join(game.completed) or "-"
    score = 500 - deals + 100 * len(game.completed)
    parts[1] = [f"score={score}", f"moves={deals}", f"removed={removed}"]
    assert refused(joined(parts)).code == "impossible-counters"


def test_the_card_on_face_down_cards_is_named_in_the_refusal() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    game.deal()
    parts = sections(game)
    columns = parts[2:-1]
    other = next(c for c in columns[1:] if c[5] != columns[0][5])
    columns[0][5], other[5] = other[5], columns[0][5]
    error = refused(joined(parts))
    assert error.code == "not-this-deal"
    assert f"{columns[0][5]} lies on its face-down cards" in str(error)
    assert card_text(parse_card_int(other[5])) in str(error)
