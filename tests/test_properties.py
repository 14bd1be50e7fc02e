"""Hypothesis properties over random play."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from spider import Game, IllegalMove, Move, Options
from spider.cards import card_text
from spider.shuffle import MAX_NUMBER
from tests.helpers import VARIANTS, random_play

variants = st.sampled_from(VARIANTS)
numbers = st.integers(0, MAX_NUMBER)
seeds = st.integers(0, 2**32)
steps = st.integers(0, 160)
scorings = st.sampled_from(["standard", "reveal"])


def played_game(
    variant: tuple[str, int, str], number: int, seed: int, count: int, scoring: str = "standard"
) -> Game:
    game_name, suits, rule = variant
    game = Game.new(
        game_name, suits=suits, rule=rule, number=number, scoring=scoring, undo_limit=None
    )
    return random_play(game, count, random.Random(seed))


def all_cards(game: Game) -> Counter[str]:
    cards: Counter[str] = Counter(str(card) for column in game.columns for card in column.cards)
    cards.update(str(card) for card in game.stock)
    for suit in game.completed:
        cards.update(
            f"{rank}{suit}"
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        )
    return cards


@given(variants, numbers, seeds, steps)
def test_every_card_is_somewhere_exactly_once(
    variant: tuple[str, int, str], number: int, seed: int, count: int
) -> None:
    game = played_game(variant, number, seed, count)
    options = Options.make(*variant)
    expected = Counter(card_text(card) for card in options.composition())
    assert all_cards(game) == expected
    for column in game.columns:
        assert column.face_down < len(column.cards) or not column.cards


@given(variants, numbers, seeds, steps, scorings)
def test_undo_restores_the_exact_previous_state(
    variant: tuple[str, int, str], number: int, seed: int, count: int, scoring: str
) -> None:
    game = played_game(variant, number, seed, count, scoring)
    rng = random.Random(seed ^ 0x5F)
    for _ in range(10):
        before = (game.state_key(), game.to_text(), game.score, game.moves, game.deals_left)
        moves = game.legal_moves()
        if moves and (not game.can_deal or rng.random() < 0.8):
            game.move(*rng.choice(moves))
        elif game.can_deal:
            game.deal()
        else:
            return
        after = game.to_text()
        game.undo()
        assert (game.state_key(), game.to_text(), game.score, game.moves, game.deals_left) == before
        # What undo puts back (the movable groups too) is what a fresh game finds there.
        fresh = Game.from_text(game.to_text())
        assert game.legal_moves() == fresh.legal_moves()
        assert [game.movable_count(index) for index in range(len(game.columns))] == [
            fresh.movable_count(index) for index in range(len(fresh.columns))
        ]
        game.redo()
        assert game.to_text() == after


@given(variants, numbers, seeds, steps, scorings)
def test_text_and_json_round_trip(
    variant: tuple[str, int, str], number: int, seed: int, count: int, scoring: str
) -> None:
    game = played_game(variant, number, seed, count, scoring)
    for _ in range(random.Random(seed).randrange(4)):
        if game.can_undo:
            game.undo()
    text = game.to_text()
    copy = Game.from_text(text)
    assert copy.to_text() == text
    assert copy.columns == game.columns and copy.stock == game.stock
    assert copy.score == game.score and copy.moves == game.moves
    restored = Game.from_json(game.to_json())
    assert restored.to_text() == text
    assert restored.played == game.played and restored.redo_actions == game.redo_actions
    assert restored.to_json() == game.to_json()


@given(variants, numbers, seeds, steps)
def test_scores_follow_the_formulas(
    variant: tuple[str, int, str], number: int, seed: int, count: int
) -> None:
    # Reveal: 100 per run, 5 per turned card; nothing else.
    reveal = played_game(variant, number, seed, count, "reveal")
    initial_down = sum(column.face_down for column in reveal.start_position().columns)
    turned = initial_down - sum(column.face_down for column in reveal.columns)
    assert reveal.score == 100 * len(reveal.completed) + 5 * turned
    # Standard: replay the record step by step with the formula.
    standard = played_game(variant, number, seed, count, "standard")
    replay = standard.start_position()
    expected = 500
    for action in standard.played:
        runs_before = len(replay.completed)
        replay.push(action)
        expected -= 1
        if variant[0] == "spider":
            expected = max(expected, 0)
        expected += 100 * (len(replay.completed) - runs_before)
        assert replay.score == expected
    assert standard.score == expected
    assert standard.moves == len(standard.played)


@given(variants, numbers, seeds, steps)
def test_legal_moves_equal_brute_force(
    variant: tuple[str, int, str], number: int, seed: int, count: int
) -> None:
    game = played_game(variant, number, seed, count)
    size = len(game.columns)
    accepted = set()
    for src in range(size):
        for dst in range(size):
            for cards in range(0, 15):
                trial = game.copy(history=False)
                try:
                    trial.move(src, dst, cards)
                except IllegalMove:
                    continue
                accepted.add(Move(src, dst, cards))
    listed = game.legal_moves()
    assert len(listed) == len(set(listed))
    assert set(listed) == accepted
    assert all(game.is_legal(move) for move in listed)


@given(variants, numbers, scorings)
def test_a_deal_from_options_is_the_deal_of_its_fields_and_of_its_code(
    variant: tuple[str, int, str], number: int, scoring: str
) -> None:
    game_name, suits, rule = variant
    by_fields = Game.new(game_name, suits=suits, rule=rule, number=number, scoring=scoring)
    by_options = Game.from_options(by_fields.options, number)
    assert by_options.to_json() == by_fields.to_json()
    assert Game.from_code(by_options.code, scoring).to_json() == by_options.to_json()
