"""One rules kernel: every move generator offers the moves the engine allows, and leads where the
engine leads.

The engine (:meth:`Game.legal_moves`), the player's visible view, the hint's pruned generator,
automatic placement and the solver's generator at each pruning level are compared on random
positions of every variant.  A move missing from a generator, or a position it builds wrongly,
would make the hint blind to it or the solver answer "unwinnable" falsely.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider import DEAL, Game, Move, best_destination, rules
from spider.solver.full.encoding import action_of, canonical_key, start_state
from spider.solver.full.generate import LOOSE, SOUND, STRICT, Solver
from spider.solver.hint.lookahead import useful_moves
from spider.solver.view import UNKNOWN, VisibleView, apply_visible, visible_moves
from tests.helpers import VARIANTS, random_game


def _digging_game(variant: tuple[str, int, str], number: int, steps: int, dig: float) -> Game:
    """Random play that, with chance ``dig``, prefers moves that lift a column's whole face-up
    part (turning a card or emptying the column), so empty columns and the end game come up."""
    rng = random.Random(number)
    game = random_game(variant, number, 0)
    for _ in range(steps):
        moves = game.legal_moves()
        columns = game.columns
        digging = [move for move in moves if move.count == len(columns[move.src].face_up)]
        if game.can_deal and (not moves or rng.random() < 0.1):
            game.deal()
        elif digging and rng.random() < dig:
            game.push(rng.choice(digging))
        elif moves:
            game.push(rng.choice(moves))
        else:
            break
    return game


positions = st.builds(
    _digging_game,
    st.sampled_from(VARIANTS),
    st.integers(0, 10_000),
    st.integers(0, 300),
    st.sampled_from([0.0, 0.5, 0.9]),
)


def _key(game: Game) -> tuple[object, ...]:
    """The solver's transposition key of the game's position."""
    return canonical_key(start_state(game.position()), len(game.columns))


def _after(game: Game, actions: list[Move] | list[object]) -> Game:
    child = game.copy(history=False)
    for action in actions:
        child.push(action)  # type: ignore[arg-type]
    return child


@settings(max_examples=150, deadline=None)
@given(positions)
def test_the_visible_view_offers_the_engine_moves_and_plays_them_alike(game: Game) -> None:
    view = VisibleView.from_game(game)
    assert visible_moves(view.columns, view.flexible) == game.legal_moves()
    assert view.can_deal == game.can_deal
    assert view.deal_blocked_forever == game.deal_blocked_forever()
    for move in game.legal_moves():
        applied = apply_visible(view.columns, view.down, move)
        child = VisibleView.from_game(_after(game, [move]))
        assert applied.down == child.down
        for seen, real in zip(applied.columns, child.columns, strict=True):
            # A card the move turned is unknown to the view, and only that card.
            assert seen == real or (seen == (UNKNOWN,) and len(real) == 1)


@settings(max_examples=150, deadline=None)
@given(positions)
def test_the_sound_solver_generator_reaches_what_the_engine_reaches(game: Game) -> None:
    solver = Solver(game)
    children = solver.children(solver.start, 0, SOUND)
    if game.deal_blocked_forever():
        assert children == []  # no deal can ever come again: the solver drops the position
        return
    reached = {_key(_after(game, [move])) for move in game.legal_moves()}
    if game.can_deal:
        reached.add(_key(_after(game, [DEAL])))
    # A move that only permutes columns no deal reaches again leads back to the same key, which
    # the search has seen already (whether or not a generator offers it).
    offered = {solver.key(child) for _, _, child in children}
    assert offered - {_key(game)} == reached - {_key(game)}


@settings(max_examples=100, deadline=None)
@given(positions)
def test_pruned_generators_offer_only_legal_lines(game: Game) -> None:
    solver = Solver(game)
    for prune in (LOOSE, STRICT):
        for _, code, child in solver.children(solver.start, 0, prune):
            codes = [code] if isinstance(code, int) else list(code)
            # Each child, supermoves included, is what the engine gives for the same actions.
            assert _key(_after(game, [action_of(part) for part in codes])) == solver.key(child)


@settings(max_examples=150, deadline=None)
@given(positions)
def test_hint_and_autoplace_choose_among_legal_moves(game: Game) -> None:
    legal = set(game.legal_moves())
    view = VisibleView.from_game(game)
    assert set(useful_moves(view.columns, view.down, view.flexible)) <= legal
    for src in range(len(game.columns)):
        for count in range(1, game.movable_count(src) + 1):
            chosen = best_destination(game, src, count)
            assert chosen is None or chosen in legal


@settings(max_examples=30, deadline=None)
@given(positions)
def test_a_view_pickles_and_copies_as_itself(game: Game) -> None:
    # Think harder's worker processes receive the player's view pickled.
    view = VisibleView.from_game(game)
    assert pickle.loads(pickle.dumps(view)) == view
    assert copy.copy(view) == view and copy.deepcopy(view) == view
    assert visible_moves(pickle.loads(pickle.dumps(view)).columns, view.flexible) == visible_moves(
        view.columns, view.flexible
    )


def test_the_rules_list_moves_of_at_most_ten_columns() -> None:
    game = Game.new("spider", suits=1, number=4)
    columns = [list(cards) for cards in game.position().columns]
    lengths = [game.movable_count(index) for index in range(len(columns))]
    assert rules.legal_moves(columns, lengths) == game.legal_moves()
    with pytest.raises(ValueError, match="at most 10 columns, not 11"):
        rules.legal_moves([*columns, [1]], [*lengths, 1])
