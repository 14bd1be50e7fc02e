"""The reset/step environment for bots: integer actions, fair observations, episodes."""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spider.env
from scripts.make_golden import PLAYTHROUGHS, playthrough
from spider import DEAL, Game, IllegalMove, Move
from spider.env import DEAL_ACTION, Observation, SpiderEnv, progress_reward
from spider.solver.hint.quick import hint_action, visited_positions
from spider.solver.view import VisibleView
from tests.helpers import VARIANTS, random_game, reshuffle_hidden

GOLDEN = Path(__file__).parent / "golden" / "env_playthrough.json"

ENVS = {variant: SpiderEnv(*variant) for variant in VARIANTS}


def test_module_example_runs() -> None:
    result = doctest.testmod(spider.env)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("game", "columns", "size"), [("spider", 10, 1301), ("spiderette", 7, 638)]
)
def test_every_action_number_round_trips(game: str, columns: int, size: int) -> None:
    env = SpiderEnv(game)
    assert env.num_actions == size
    assert env.action_to_move(DEAL_ACTION) == DEAL and env.action_to_string(0) == "deal"
    moves = [env.action_to_move(action) for action in range(1, size)]
    assert len(set(moves)) == size - 1
    for action, move in enumerate(moves, start=1):
        assert isinstance(move, Move) and 1 <= move.count <= 13
        assert 0 <= move.src < columns and 0 <= move.dst < columns
        assert env.move_to_action(move) == action
        assert env.string_to_action(env.action_to_string(action)) == action
    assert env.action_to_string(env.move_to_action(Move(1, 2, 3))) == "bc3"


def test_bad_actions_and_options_are_refused_clearly() -> None:
    env = SpiderEnv("spiderette", suits=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match=r"outside 0\.\.637"):
        env.action_to_move(638)
    with pytest.raises(TypeError, match="int"):
        env.action_to_move(True)
    with pytest.raises(ValueError, match="no action number"):
        env.move_to_action(Move(0, 7, 1))
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"deal": 3})
    with pytest.raises(ValueError, match="classic rule only"):
        SpiderEnv("spiderette", suits=2, rule="flexible")
    with pytest.raises(ValueError, match="max_steps"):
        SpiderEnv(max_steps=0)
    observation, info = env.reset(options={"number": 29})
    assert info["code"] == "SD1-S4-AAAAABD"
    illegal = next(a for a in range(1, env.num_actions) if a not in info["legal_actions"])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    assert Observation.of(env.game) == observation  # nothing changed
    with pytest.raises(ValueError, match="deal number"):
        env.reset(options={"number": -1})


def test_an_episode_with_nothing_legal_left_is_over() -> None:
    # Random play of 4-suit Spiderette soon leaves no legal action (stock empty, no move).
    env = SpiderEnv("spiderette", suits=4, max_steps=500)
    rng = random.Random(3)
    for seed in range(50):
        _, info = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
        if terminated and not info["won"]:
            break
    assert terminated and not info["won"] and info["legal_actions"] == []
    assert not any(info["action_mask"]) and env.game.deals_left == 0
    with pytest.raises(RuntimeError, match="over"):
        env.step(DEAL_ACTION)


def test_same_seed_same_deal_and_episode() -> None:
    first, second = SpiderEnv("spider", suits=2), SpiderEnv("spider", suits=2)
    _, info_a = first.reset(seed=11)
    _, info_b = second.reset(seed=11)
    assert info_a["code"] == info_b["code"]
    assert first.reset()[1]["code"] == second.reset()[1]["code"]  # the generator goes on alike
    assert first.reset(seed=12)[1]["code"] != info_a["code"]


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    number=st.integers(0, 10_000),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 150),
)
def test_steps_follow_the_engine(
    variant: tuple[str, int, str], number: int, seed: int, steps: int
) -> None:
    # Each step is the engine's own action: the same legal actions, position, reward and end.
    env = ENVS[variant]
    observation, info = env.reset(options={"number": number})
    game = Game.new(variant[0], suits=variant[1], rule=variant[2], number=number)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = sorted(env.move_to_action(move) for move in game.legal_moves())
        legal += [DEAL_ACTION] if game.can_deal else []
        assert info["legal_actions"] == sorted(legal)
        assert [i for i, allowed in enumerate(info["action_mask"]) if allowed] == sorted(legal)
        assert observation == Observation.of(game)
        action = rng.choice(info["legal_actions"])
        down = sum(column.face_down for column in game.columns)
        runs = len(game.completed)
        game.push(env.action_to_move(action))
        observation, reward, terminated, truncated, info = env.step(action)
        assert reward == progress_reward(info["cards_turned"], info["runs_removed"])
        assert info["runs_removed"] == len(game.completed) - runs
        assert info["cards_turned"] == down - sum(column.face_down for column in game.columns)
        assert terminated == (game.is_won or not info["legal_actions"])
        assert not truncated
        if terminated:
            break


@settings(max_examples=30, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    number=st.integers(0, 10_000),
    steps=st.integers(0, 100),
    seed=st.integers(0, 2**32),
)
def test_observation_shows_no_hidden_card(
    variant: tuple[str, int, str], number: int, steps: int, seed: int
) -> None:
    game = random_game(variant, number, steps)
    other = reshuffle_hidden(game, random.Random(seed))
    assert Observation.of(other) == Observation.of(game)
    observation = Observation.of(game)
    for column, texts in zip(game.columns, observation.column_texts(), strict=True):
        assert texts == tuple(str(card) for card in column.face_up)


def test_an_episode_starts_from_a_position_text() -> None:
    env = SpiderEnv("spider", suits=2)
    game = Game.new("spider", suits=2, number=4)
    game.deal()
    observation, info = env.reset(options={"position": game.to_text()})
    assert observation == Observation.of(game) and info["code"] == game.code
    assert env.game.to_text() == game.to_text()
    with pytest.raises(ValueError, match="not both"):
        env.reset(options={"position": game.to_text(), "number": 3})
    with pytest.raises(ValueError, match="not of"):
        env.reset(options={"position": Game.new("spider", suits=4, number=1).to_text()})
    with pytest.raises(ValueError, match="is a text"):
        env.reset(options={"position": 7})
    with pytest.raises(ValueError):
        env.reset(options={"position": "spider 2 classic"})


def test_episode_is_truncated_at_max_steps_then_over() -> None:
    env = SpiderEnv("spider", suits=1, max_steps=3)
    _, info = env.reset(seed=5)
    results = []
    for _ in range(3):
        result = env.step(info["legal_actions"][0])
        info = result[4]
        results.append(result[2:4])
    assert results == [(False, False), (False, False), (False, True)]
    with pytest.raises(RuntimeError, match="over"):
        env.step(info["legal_actions"][0])
    assert env.reset()[0].moves == 0


def test_a_won_game_terminates_with_its_reward() -> None:
    env = SpiderEnv("spiderette", suits=1, reward="score")
    env.reset(options={"number": 3})
    # Play the game to its last move with the solver's line, then the winning move by number.
    from spider.solver import solve

    line = solve(env.game, time_limit=30).solution
    assert line
    for text in line[:-1]:
        env.step(env.string_to_action(text))
    observation, reward, terminated, truncated, info = env.step(env.string_to_action(line[-1]))
    assert terminated and not truncated and info["won"]
    assert info["runs_removed"] >= 1 and reward == 100 * info["runs_removed"] - 1
    assert len(observation.completed) == 4 and info["legal_actions"] == []
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)


def test_golden_playthroughs() -> None:
    # OpenSpiel-style transcripts pinned in tests/golden (scripts/make_golden.py writes them).
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(golden) == len(PLAYTHROUGHS)
    for seeds, expected in zip(PLAYTHROUGHS, golden, strict=True):
        header, steps = playthrough(*seeds)
        assert {**header, "steps": steps} == expected


def test_a_bot_following_hint_action_plays_the_quick_hints_game() -> None:
    # The environment's hint action is the hint player's (benchmarks/fairplay.py): the same
    # game, action for action, as hint_action played on a Game of the same deal.
    env = SpiderEnv("spiderette", suits=1)
    env.reset(options={"number": 2})
    game = Game.new("spiderette", suits=1, number=2, undo_limit=None)
    for _ in range(60):
        action = env.hint_action()
        expected = hint_action(game)
        assert action == (None if expected is None else env.move_to_action(expected))
        if action is None:
            break
        assert action in env.legal_actions()
        env.step(action)
        game.push(expected)
    assert VisibleView.from_game(env.game) == VisibleView.from_game(game)
    assert env.game.moves > 20


def test_the_hint_and_think_line_know_the_positions_passed_since_progress() -> None:
    # A bot that follows the hint or think_line must not be led back to a position it left:
    # both read those positions from the game's history, which the environment keeps.
    env = SpiderEnv("spider", suits=1)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(300):
        moves = [action for action in env.legal_actions() if action != DEAL_ACTION]
        if not moves:
            break
        before = VisibleView.from_game(env.game)
        _, _, over, _, info = env.step(rng.choice(moves))
        if info["cards_turned"] == 0 and info["runs_removed"] == 0 and not over:
            assert (before.columns, before.down) in visited_positions(env.game)
            return
    pytest.fail("no move without a card turned in 300 random steps")


def test_the_reward_is_progress_or_the_score_change_and_nothing_else() -> None:
    # One random episode played by both rewards: the score change goes dead once Spider's
    # standard score sits at its floor of 0, the progress reward never does.
    by_progress = SpiderEnv("spider", suits=1)
    by_score = SpiderEnv("spider", suits=1, reward="score")
    _, info = by_progress.reset(seed=3)
    by_score.reset(seed=3)
    rng = random.Random(3)
    progress, scores = [], []
    while True:
        action = rng.choice(info["legal_actions"])
        score = by_score.game.score
        _, reward, terminated, truncated, info = by_progress.step(action)
        progress.append(reward)
        assert reward == progress_reward(info["cards_turned"], info["runs_removed"])
        scores.append(by_score.step(action)[1])
        assert scores[-1] == by_score.game.score - score
        assert info["episode_return"] == sum(progress) == by_progress.episode_return
        if terminated or truncated:
            break
    assert info["cards_turned_total"] == 44 - sum(by_progress.game.face_down)
    assert info["runs_removed_total"] == len(by_progress.game.completed)
    assert len(progress) == 1000 and {-0.001, 0.049} <= set(progress)
    assert 0 in scores[600:] and -1 not in scores[600:]
    assert repr(by_score).endswith("reward='score')")
    with pytest.raises(ValueError, match=r"'progress' or 'score', not 'Score'"):
        SpiderEnv(reward="Score")
