"""The OpenSpiel game (the ``openspiel`` extra): OpenSpiel's own checks, chance, a golden deal."""

from __future__ import annotations

import doctest
import json
import random
import runpy
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts  # noqa: E402

from scripts.make_golden import OPENSPIEL_DEAL, openspiel_playthrough  # noqa: E402
from spider import Game  # noqa: E402
from spider.env import MAX_STEPS  # noqa: E402
from spider.research import openspiel  # noqa: E402
from spider.research.observe import card_index  # noqa: E402
from spider.research.openspiel import (  # noqa: E402
    GAME_NAME,
    ProgressEvaluator,
    make_bot,
    play_deal,
    true_outcome,
)
from tests.helpers import VARIANTS  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "openspiel_playthrough.json"


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, params)


@pytest.mark.parametrize(
    "params",
    [
        {"game": "spiderette", "suits": 4, "max_moves": 150},
        {"game": "spider", "suits": 2, "rule": "flexible", "max_moves": 40},
    ],
)
def test_openspiel_random_simulation(params: dict[str, object]) -> None:
    # OpenSpiel's own checks: legal actions, chance sums, clones, serialisation, observations,
    # returns.
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_game_type_and_sizes() -> None:
    game = load(game="spiderette", suits=2)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert not kind.provides_information_state_tensor
    assert game.num_players() == 1 and game.num_distinct_actions() == 638
    # face down, face-up chains (columns x (1 + deals) x suits x 13), deals left, runs, moves
    assert game.observation_tensor_size() == 7 * 7 + 7 * 5 * 2 * 13 + 5 + 4 * 2 + 1
    sizes = [load(suits=suits).observation_tensor_size() for suits in (1, 2, 4)]
    assert sizes == [10 * 6 + 10 * 6 * s * 13 + 6 + 8 * s + 1 for s in (1, 2, 4)]
    assert sizes == [855, 1643, 3219]
    assert load().num_distinct_actions() == 1301
    with pytest.raises(ValueError, match="max_moves"):
        load(max_moves=0)
    with pytest.raises(ValueError, match="classic rule only"):
        load(game="spiderette", suits=2, rule="flexible")


def test_bad_parameters_and_budgets_are_refused_clearly() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        load(colour=1)
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter suits"):
        load(suits="2")
    with pytest.raises(ValueError, match="spider_solitaire parameters: suits must be 1, 2 or 4"):
        load(suits=3)
    with pytest.raises(ValueError, match="game must be 'spider' or 'spiderette', not 'klondike'"):
        pyspiel.load_game("spider_solitaire(game=klondike)")
    with pytest.raises(ValueError, match="rule must be 'classic' or 'flexible'"):
        load(rule="loose")
    spiel = load(game="spiderette")
    with pytest.raises(ValueError, match="simulations"):
        make_bot(spiel, "mcts", 0, 4, 1)
    with pytest.raises(ValueError, match="play-out length"):
        make_bot(spiel, "ismcts", 4, -1, 1)
    moved = Game.new("spiderette", number=1)
    moved.deal()
    with pytest.raises(ValueError, match="at its start"):
        play_deal(moved, "mcts", 4, 4)
    state = spiel.new_initial_state()
    with pytest.raises(ValueError, match="not an unseen card"):
        state.apply_action(0)
    with pytest.raises(ValueError, match="not a chance node"):
        play_random(spiel, random.Random(1), until=7).chance_place()


def play_random(game: pyspiel.Game, rng: random.Random, until: int) -> pyspiel.State:
    state = game.new_initial_state()
    for _ in range(until):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_chance_deals_each_card_from_the_cards_not_yet_seen() -> None:
    game = load(game="spiderette", suits=4)
    deck = game.deck()
    state = game.new_initial_state()
    rng = random.Random(5)
    chance_nodes = 0
    while chance_nodes < 60:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            chance_nodes += 1
            outcomes = dict(state.chance_outcomes())
            assert abs(sum(outcomes.values()) - 1) < 1e-9
            unseen = state.unseen()
            assert outcomes == {i: n / sum(unseen.values()) for i, n in unseen.items()}
            # The unseen cards are the deck less every card shown so far.
            seen = [card_index(c) for cards in _face_up(state) for c in cards]
            for suit in [] if state.game is None else state.game.position().removed:
                seen += [suit * 13 + rank for rank in range(1, 14)]
            assert unseen + _counter(seen) + _counter(_drawn(state)) == deck
            state.apply_action(rng.choice(list(outcomes)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def _face_up(state: pyspiel.State) -> tuple[tuple[int, ...], ...]:
    return () if state.game is None else state.game.position().face_up


def _drawn(state: pyspiel.State) -> list[int]:
    drawn = state.dealt_tops if state.game is None else state._p.drawn  # noqa: SLF001
    return [card_index(card) for card in drawn]


def _counter(values: list[int]) -> object:
    from collections import Counter

    return Counter(values)


def test_a_deal_is_dealt_by_chance_and_a_bad_outcome_is_refused() -> None:
    game = load(game="spiderette", suits=1)
    state = play_random(game, random.Random(2), until=7)  # the seven cards of the start
    assert state.current_player() == 0 and 0 in state.legal_actions()
    down = sum(state.game.face_down)
    lowest = sorted(state.unseen().elements())[:7]  # chance's first outcome is the lowest card
    state.apply_action(0)  # deal: chance deals the stock's cards, one per column, in order
    with pytest.raises(ValueError, match="not an unseen card"):
        state.apply_action(14)  # the ace of hearts: not in a one-suit deck
    for column in range(7):
        assert state.is_chance_node() and state.chance_place() == ("hidden", down + column)
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and state.game.deals_left == 3
    assert [card_index(cards[-1]) for cards in state.game.position().face_up] == lowest


@settings(max_examples=15, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    number=st.integers(0, 10_000),
    seed=st.integers(0, 2**32),
)
def test_a_numbered_deal_is_played_through_its_own_cards(
    variant: tuple[str, int, str], number: int, seed: int
) -> None:
    # With chance given the deal's cards (true_outcome), the state shows what the deal shows
    # after every action, and the engine's game and the state end alike.
    game_name, suits, rule = variant
    spiel = load(game=game_name, suits=suits, rule=rule, max_moves=80)
    deal = Game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=0)
    state = spiel.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(true_outcome(state, deal))
            continue
        assert state.legal_actions() == spiel.layout.legal_actions(deal)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        while state.is_chance_node():
            state.apply_action(true_outcome(state, deal))
        deal.push(spiel.layout.action_to_move(action))
        assert spiel.layout.visible(state.game) == spiel.layout.visible(deal)
        assert state.game.score == deal.score
    assert state.returns() == [state.progress()] and 0 <= state.returns()[0] <= 1
    assert (state.returns()[0] == 1) == deal.is_won


def test_observation_shows_only_what_the_player_sees() -> None:
    # The state never holds the deal's face-down cards: two deals with the same face-up cards
    # give the same states, strings and tensors whatever lies face down.
    spiel = load(game="spiderette", suits=2)
    state = play_random(spiel, random.Random(8), until=7)
    assert state.game is not None and not state.is_chance_node()
    text = state.observation_string(0)
    assert text.startswith("moves 0 deals 4 runs - | ") and text.count("#") == 21
    tensor = state.observation_tensor(0)
    assert sum(tensor) == 7 + 7 + 1  # one face-up card and one face-down count per column


def decode(spiel: pyspiel.Game, tensor: list[float]) -> tuple[object, ...]:
    """The visible position an observation tensor holds: face-up cards (engine ints, bottom to
    top), face-down counts, deals left, suits of the runs removed, moves played; and the most
    chains a column held."""
    parts, start = {}, 0
    for name, shape in spiel.make_py_observer().pieces.items():
        size = int(np.prod(shape))
        parts[name] = np.asarray(tensor[start : start + size]).reshape(shape)
        start += size
    assert start == len(tensor)
    columns, most_chains = [], 0
    for grids in parts["face_up"]:
        cards: list[int] = []
        chains = [grid for grid in grids if grid.any()]
        assert not any(grid.any() for grid in grids[len(chains) :])  # top chains first
        for grid in reversed(chains):  # from the bottom chain
            suits, ranks = np.nonzero(grid)
            assert len(set(ranks)) == len(ranks)  # a rank at most once
            assert max(ranks) - min(ranks) == len(ranks) - 1  # consecutive ranks
            cards += [
                int(s) << 4 | int(r) + 1
                for s, r in sorted(zip(suits, ranks, strict=True), key=_rank)
            ]
        columns.append(tuple(cards))
        most_chains = max(most_chains, len(chains))
    one_hot = [int(np.argmax(row)) for row in parts["face_down"]]
    assert all(row.sum() == 1 for row in parts["face_down"])
    runs = [int(np.argmax(row)) for row in parts["completed"] if row.any()]
    moves = round(float(parts["moves"][0]) * spiel.max_moves)
    deals_left = int(np.argmax(parts["deals_left"]))
    return tuple(columns), tuple(one_hot), deals_left, tuple(runs), moves, most_chains


def _rank(suit_rank: tuple[int, int]) -> int:
    return -suit_rank[1]  # bottom to top: ranks descend


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v)))
def test_observation_tensor_holds_the_whole_visible_position(variant: tuple[str, int, str]) -> None:
    # Decoding the tensor gives back every face-up card in its place, the face-down counts,
    # the deals left, the runs removed and the moves: the encoding loses nothing the player sees.
    game_name, suits, rule = variant
    spiel = load(game=game_name, suits=suits, rule=rule, max_moves=400)
    rng, most_chains, player_nodes = random.Random(suits), 0, 0
    state = spiel.new_initial_state()
    while player_nodes < 300:  # a game or more, played at random
        if state.is_terminal():
            state = spiel.new_initial_state()
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        game = state.game
        position = game.position()
        *seen, chains = decode(spiel, state.observation_tensor(0))
        assert seen == [
            tuple(tuple(cards) for cards in position.face_up),
            tuple(position.face_down),
            game.deals_left,
            tuple(position.removed),
            game.moves,
        ]
        most_chains, player_nodes = max(most_chains, chains), player_nodes + 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert most_chains >= 3  # deals stacked chains on a column


def test_a_column_over_its_chains_is_refused() -> None:
    observer = load(game="spiderette").make_py_observer()
    zigzag = [0x05, 0x01] * 3  # six chains of one card: five deals, where spiderette has four
    with pytest.raises(RuntimeError, match="holds 6 chains, over 5"):
        observer.encoding.chain_places(zigzag)


def test_information_state_recalls_what_the_observation_forgets() -> None:
    # Two moves played in either order reach the same position: the same observation, but
    # two information states (the history of actions and cards seen: perfect recall).
    spiel = load(game="spiderette", suits=1)
    for seed in range(50):
        state = play_random(spiel, random.Random(seed), until=7 + seed % 5)
        pair = _commuting_moves(state)
        if pair is not None:
            break
    assert pair is not None
    first, second = pair
    assert first.observation_string(0) == second.observation_string(0)
    assert first.observation_tensor(0) == second.observation_tensor(0)
    assert first.information_state_string(0) != second.information_state_string(0)
    assert first.information_state_string(0).endswith(" ".join(map(str, first.history())))
    assert first.information_state_tensor(0) == []  # the game provides none
    # ISMCTS keyed by the information state string plays too.
    bot = ismcts.ISMCTSBot(
        spiel, ProgressEvaluator(3), 2.0, 8, random_state=np.random.RandomState(0)
    )
    assert bot.step(first) in first.legal_actions()


def _commuting_moves(state: pyspiel.State) -> tuple[pyspiel.State, pyspiel.State] | None:
    """``state`` after two moves played in both orders, turning no card, when two reach the same
    position."""
    if state.is_chance_node() or state.is_terminal():
        return None
    for a in state.legal_actions():
        for b in state.legal_actions():
            ends = [_play_without_chance(state, a, b), _play_without_chance(state, b, a)]
            if a != b and None not in ends and ends[0].game.position() == ends[1].game.position():
                return ends[0], ends[1]
    return None


def _play_without_chance(state: pyspiel.State, *actions: int) -> pyspiel.State | None:
    after = state.clone()
    for action in actions:
        if after.is_terminal() or action not in after.legal_actions():
            return None
        after.apply_action(action)
        if after.is_chance_node():
            return None
    return after


def test_resample_and_clone_keep_the_information_state() -> None:
    state = play_random(load(game="spiderette", suits=2), random.Random(4), until=40)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.history() == state.history()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0] if not copy.is_chance_node() else 1)
    assert state.history() != copy.history()


@pytest.mark.parametrize("bot", ["ismcts", "mcts"])
def test_openspiel_bots_play_the_game(bot: str) -> None:
    spiel = load(game="spiderette", suits=1, max_moves=6)
    state = play_random(spiel, random.Random(0), until=7)
    player = make_bot(spiel, bot, simulations=8, rollout=4, seed=1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            action = player.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.returns()[0] >= 0
    with pytest.raises(ValueError, match="a bot is one of"):
        make_bot(spiel, "alphazero", 8, 4, 1)


def test_golden_playthrough() -> None:
    # One deal played through OpenSpiel, every state pinned (scripts/make_golden.py writes it).
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert openspiel_playthrough(*OPENSPIEL_DEAL) == expected


def test_docstring_examples() -> None:
    result = doctest.testmod(openspiel)
    assert result.attempted >= 6 and result.failed == 0


def test_max_moves_defaults_to_the_environments_episode_length() -> None:
    assert load().get_parameters()["max_moves"] == MAX_STEPS


@pytest.mark.parametrize("bot", ["mcts", "ismcts"])
def test_the_examples_print_a_table_beside_the_hint(
    bot: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(__file__).parent.parent / "examples" / "openspiel_vs_hint.py"
    args = ["--bot", bot, "--deals", "2", "--simulations", "3", "--rollout", "3"]
    args += ["--max-actions", "12"]
    monkeypatch.setattr(sys, "argv", [str(path), *args])
    runpy.run_path(str(path), run_name="__main__")
    header, rule, *rows = capsys.readouterr().out.splitlines()
    assert header.split(" | ")[2:] == [
        "won",
        "runs removed",
        "cards turned",
        "seconds",
        "actions |",
    ]
    assert rule == "|---" * 7 + "|"
    cells = [row.strip("| ").split(" | ") for row in rows]
    assert [row[:2] for row in cells] == [["SP1-S1C-AAAAAAC", bot], ["SP1-S1C-AAAAAAC", "hint"]]
    assert cells[0][2:4] == ["no", "0"] and 0 <= int(cells[0][4]) <= 44  # won, runs, turned
    assert cells[0][6] == cells[1][6] == "12"  # both stopped after their 12 actions
    assert all(float(row[5]) >= 0 for row in cells)
    monkeypatch.setattr(sys, "argv", [str(path), "--simulations", "0"])
    with pytest.raises(SystemExit):
        runpy.run_path(str(path), run_name="__main__")
    assert "--simulations and --max-actions must be at least 1" in capsys.readouterr().err
