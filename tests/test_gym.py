"""The Gymnasium environments (the ``gym`` extra): Gymnasium's checker, vector envs, fairness."""

from __future__ import annotations

import doctest
import random
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import spider.research.arrays  # noqa: E402
import spider.research.gym  # noqa: E402
import spider.research.observe  # noqa: E402
import spider.research.vector as vector  # noqa: E402
from spider import Game  # noqa: E402
from spider.env import MAX_STEPS, SpiderEnv, progress_reward  # noqa: E402
from spider.research.gym import ENV_IDS, SpiderGymEnv  # noqa: E402
from spider.research.observe import Layout, VisibleRows  # noqa: E402
from spider.research.vector import SpiderVectorEnv  # noqa: E402
from tests.helpers import reshuffle_hidden  # noqa: E402


def test_module_examples_run() -> None:
    modules = (spider.research.gym, spider.research.observe, spider.research.arrays, vector)
    for module in modules:
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        (ENV_IDS[0], {"suits": 4, "rule": "flexible"}),
        (ENV_IDS[1], {"suits": 2}),
    ],
)
def test_gymnasium_env_checker_passes(env_id: str, kwargs: dict[str, object]) -> None:
    env = gymnasium.make(env_id, render_mode="ansi", **kwargs)
    check_env(env.unwrapped)
    assert env.spec is not None and env.spec.max_episode_steps == 1000


def test_registered_spaces_and_the_module_prefix() -> None:
    env = gymnasium.make("spider.research.gym:spider_solitaire/Spider-v0", suits=2)
    assert env.action_space == gymnasium.spaces.Discrete(1301)
    space = env.observation_space
    assert space["face_up"].shape == (10, 78) and space["face_down"].shape == (10,)
    assert space["deals_left"] == gymnasium.spaces.Discrete(6)
    assert space["completed"].shape == (8,)
    with pytest.raises(ValueError, match="render_mode"):
        SpiderGymEnv(render_mode="human")
    with pytest.raises(ValueError, match="reward must be 'progress' or 'score'"):
        gymnasium.make(ENV_IDS[0], reward="win")
    with pytest.raises(ValueError, match="classic rule only"):
        gymnasium.make(ENV_IDS[1], suits=2, rule="flexible")


def test_reset_with_a_seed_is_reproducible() -> None:
    first, second = SpiderGymEnv(suits=2), SpiderGymEnv(suits=2)
    observation_a, info_a = first.reset(seed=11)
    observation_b, info_b = second.reset(seed=11)
    assert info_a["code"] == info_b["code"]
    assert all(np.array_equal(observation_a[key], observation_b[key]) for key in observation_a)
    assert first.reset()[1]["code"] == second.reset()[1]["code"]  # the generator goes on alike
    assert first.reset(seed=12)[1]["code"] != info_a["code"]
    assert first.reset(options={"number": 3})[1]["code"] == "SP1-S2C-AAAAAAD"


def test_masks_illegal_actions_and_rendering() -> None:
    env = SpiderGymEnv("spiderette", suits=1, render_mode="ansi")
    observation, info = env.reset(options={"number": 4})
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (638,)
    assert np.array_equal(env.action_masks(), mask.astype(bool))
    assert list(np.flatnonzero(mask)) == info["legal_actions"]
    after, reward, terminated, truncated, info = env.step(1)  # "aa": column a onto itself
    assert info["illegal"] == "same-column" and reward == -1.0 and not (terminated or truncated)
    assert all(np.array_equal(after[key], observation[key]) for key in after)
    with pytest.raises(ValueError, match="not in Discrete"):
        env.step(638)
    text = env.render()
    assert text is not None and "[##]" in text and "Deals left" in text
    legal = info["legal_actions"][-1]
    _, reward, _, _, info = env.step(legal)
    assert info["illegal"] is None and info["moves"] == 1
    assert reward == progress_reward(info["cards_turned"], info["runs_removed"])


def test_a_vector_env_runs_with_masks() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_IDS[1], suits=4) for _ in range(3)]
    )
    _, info = envs.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(25):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        observations, rewards, terminated, truncated, info = envs.step(actions)
        assert observations["face_up"].shape == (3, 7, 52) and rewards.shape == (3,)
        assert not (terminated.any() or truncated.any())
        assert not any(info["illegal"])
    envs.close()


@pytest.mark.parametrize("number", [1, 2, 3])
def test_observation_holds_only_what_a_player_sees(number: int) -> None:
    # Two deals alike but for their face-down cards and stock (as positions of no known deal
    # number): the same observations, step by step, until a card turns or a deal shows the
    # stock's cards; then they differ.
    game = Game.new("spider", suits=4, number=number)
    other = reshuffle_hidden(game, random.Random(number))
    assert game.hidden_cards() != other.hidden_cards()
    envs = SpiderGymEnv(suits=4), SpiderGymEnv(suits=4)
    (seen, info), (seen_other, _) = (
        env.reset(options={"position": re.sub(r" #\d+", "", start.to_text())})
        for env, start in zip(envs, (game, other), strict=True)
    )
    rng = random.Random(number)
    while True:
        assert all(np.array_equal(seen[key], seen_other[key]) for key in seen)
        action = rng.choice(info["legal_actions"])
        seen, _, _, _, info = envs[0].step(action)
        seen_other, _, _, _, _ = envs[1].step(action)
        if info["cards_turned"] or action == 0:
            break
    assert not np.array_equal(seen["face_up"], seen_other["face_up"])


def test_every_environment_truncates_after_the_same_number_of_steps() -> None:
    # The stdlib environment, and Gymnasium's through its spec.
    assert SpiderEnv().max_steps == MAX_STEPS == 1000
    spec = gymnasium.make(ENV_IDS[0]).spec
    assert spec is not None and spec.max_episode_steps == MAX_STEPS


def test_the_score_reward_is_the_score_change() -> None:
    env = gymnasium.make(ENV_IDS[1], suits=1, reward="score")
    _, info = env.reset(seed=2)
    _, reward, _, _, info = env.step(info["legal_actions"][-1])
    assert reward == -1.0 and info["score"] == 499


def test_cumulative_counters_are_the_sums_of_the_per_step_ones() -> None:
    # A random 1,000-step episode, now and then an action the rules refuse.
    env = gymnasium.make(ENV_IDS[0], suits=1)
    _, info = env.reset(seed=4)
    assert (info["cards_turned_total"], info["runs_removed_total"]) == (0, 0)
    assert info["episode_return"] == 0.0
    rng = np.random.default_rng(4)
    rewards, turned, runs = [], 0, 0
    while True:
        if len(rewards) % 50 == 49:
            action = int(rng.integers(1301))
        else:
            action = int(rng.choice(info["legal_actions"]))
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        turned += info["cards_turned"]
        runs += info["runs_removed"]
        assert (info["cards_turned_total"], info["runs_removed_total"]) == (turned, runs)
        assert info["episode_return"] == pytest.approx(sum(rewards))
        if terminated or truncated:
            break
    assert len(rewards) == 1000 and turned > 0
    assert {-0.001, 0.049, -1.0} <= set(rewards)  # never one value: progress pays, refusals cost
    assert env.unwrapped.spider_env.cards_turned_total == turned
    _, info = env.reset()
    assert (info["cards_turned_total"], info["episode_return"]) == (0, 0.0)


def one_hot(rows: VisibleRows, layout: Layout) -> dict[str, np.ndarray]:
    """The one-hot observation of ``rows``, built from scratch: each column's chains of
    descending ranks, top first, as suit-by-rank grids."""
    suits = layout.options.suits
    face_up = np.zeros((layout.columns, 1 + layout.deals, suits, 13), np.uint8)
    for column, row in enumerate(rows.face_up):
        cards = [divmod(index - 1, 13) for index in row if index]  # (suit, rank - 1)
        chain = 0
        for place, (suit, rank) in enumerate(reversed(cards)):
            if place and rank != cards[len(cards) - place][1] + 1:
                chain += 1
            face_up[column, chain, suit, rank] = 1
    completed = np.zeros((layout.runs, suits), np.uint8)
    for run, suit in enumerate(rows.completed):
        if suit:
            completed[run, suit - 1] = 1
    return {
        "face_up": face_up.ravel(),
        "face_down": np.eye(layout.max_face_down + 1, dtype=np.uint8)[rows.face_down].ravel(),
        "deals_left": np.eye(layout.deals + 1, dtype=np.uint8)[rows.deals_left],
        "completed": completed.ravel(),
    }


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(
        [("spider", 1, "classic"), ("spider", 4, "flexible"), ("spiderette", 2, "classic")]
    ),
    number=st.integers(0, 10**6),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 400),
)
def test_observations_kept_column_by_column_equal_ones_built_from_scratch(
    variant: tuple[str, int, str], number: int, seed: int, steps: int
) -> None:
    # Random play, now and then an action the rules refuse: each observation, of either kind,
    # is the one built from the whole position (Layout.visible), and stays as it was handed out.
    envs = [SpiderGymEnv(*variant, observation=kind) for kind in ("indices", "onehot")]
    (seen, info), (seen_onehot, _) = (env.reset(options={"number": number}) for env in envs)
    first, first_onehot = seen["face_up"].copy(), seen_onehot["face_up"].copy()
    layout, game = envs[0].layout, envs[0].spider_env.game
    rng = random.Random(seed)
    for _ in range(steps):
        rows = layout.visible(game)
        assert np.array_equal(seen["face_up"], rows.face_up)
        assert np.array_equal(seen["face_down"], rows.face_down)
        assert seen["deals_left"] == rows.deals_left
        assert np.array_equal(seen["completed"], rows.completed)
        expected = one_hot(rows, layout)
        assert all(np.array_equal(seen_onehot[key], expected[key]) for key in expected)
        assert envs[1].observation_space.contains(seen_onehot)
        if rng.random() < 0.1:
            action = rng.randrange(layout.num_actions)
        else:
            action = rng.choice(info["legal_actions"])
        (seen, _, terminated, _, info), (seen_onehot, *_) = (env.step(action) for env in envs)
        if terminated:
            break
    assert np.array_equal(envs[0].reset(options={"number": number})[0]["face_up"], first)
    assert np.array_equal(envs[1].reset(options={"number": number})[0]["face_up"], first_onehot)


def test_the_onehot_observation_is_flat_and_bad_keywords_are_refused() -> None:
    env = gymnasium.make(ENV_IDS[0], suits=2, observation="onehot")
    space = env.observation_space
    shapes = {key: space[key].shape for key in ("face_up", "face_down", "deals_left", "completed")}
    assert shapes == {
        "face_up": (10 * 6 * 2 * 13,),  # columns x chains x suits x ranks
        "face_down": (10 * 6,),
        "deals_left": (6,),
        "completed": (8 * 2,),
    }
    assert all(space[key].dtype == np.uint8 for key in shapes)
    check_env(env.unwrapped)
    with pytest.raises(ValueError, match="observation must be 'indices' or 'onehot', not 'image'"):
        gymnasium.make(ENV_IDS[1], observation="image")


def test_stable_baselines3_takes_the_onehot_observation_without_a_warning() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(ENV_IDS[1], suits=1, observation="onehot")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_checker.check_env(env.unwrapped)


def test_the_onehot_parts_end_to_end_are_openspiels_observation_tensor() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import spider.research.openspiel  # noqa: F401 - registers the game

    state = pyspiel.load_game("spider_solitaire", {"game": "spiderette", "suits": 2})
    state = state.new_initial_state()
    rng = random.Random(1)
    while state.move_number() < 60:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    env = SpiderGymEnv("spiderette", suits=2, observation="onehot")
    seen, _ = env.reset(options={"position": state.game.to_text()})
    # OpenSpiel's tensor is the four parts end to end, then the moves played over max_moves.
    parts = [seen[key] for key in ("face_down", "face_up", "deals_left", "completed")]
    tensor = np.array(state.observation_tensor(0))
    assert np.array_equal(np.concatenate(parts), tensor[:-1])
    assert tensor[-1] == pytest.approx(state.game.moves / MAX_STEPS) and tensor[-1] > 0
    assert seen["face_up"].sum() == sum(len(cards) for cards in state.game.position().face_up)


def test_an_async_vector_env_steps_in_processes_with_batched_masks() -> None:
    envs = gymnasium.make_vec(
        ENV_IDS[0], num_envs=2, vectorization_mode="async", suits=1, observation="onehot"
    )
    try:
        _, info = envs.reset(seed=3)
        rng = np.random.default_rng(3)
        for _ in range(20):
            assert info["action_mask"].shape == (2, 1301) and info["action_mask"].dtype == np.int8
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
            observations, rewards, terminated, _, info = envs.step(actions)
            assert observations["face_up"].shape == (2, 10 * 6 * 13) and rewards.shape == (2,)
            assert not any(info["illegal"]) and not terminated.any()
        assert list(info["episode_return"]) == pytest.approx(
            [0.05 * turned - 0.001 * 20 for turned in info["cards_turned_total"]]
        )
    finally:
        envs.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_the_vector_entry_point_steps_as_single_environments_do(workers: int) -> None:
    # Three environments, two workers or none, episodes of 6 steps so that they reset: each
    # row of every batch is what a single environment gives for the same seed and actions.
    kwargs = {"suits": 2, "observation": "onehot", "max_episode_steps": 6}
    envs = gymnasium.make_vec(ENV_IDS[1], num_envs=3, workers=workers, **kwargs)
    singles = [gymnasium.make(ENV_IDS[1], **kwargs) for _ in range(3)]
    try:
        assert isinstance(envs.unwrapped, SpiderVectorEnv)
        observations, info = envs.reset(seed=9)
        expected = [env.reset(seed=9 + index) for index, env in enumerate(singles)]
        ended, episodes_ended = [False] * 3, 0
        rng = random.Random(9)
        for _ in range(14):
            for index, (seen, seen_info) in enumerate(expected):
                assert all(np.array_equal(observations[key][index], seen[key]) for key in seen)
                for key in ("action_mask", "legal_actions", "code", "cards_turned_total"):
                    assert np.array_equal(info[key][index], seen_info[key])
                assert info["_action_mask"][index]
            actions = [rng.choice(legal) if len(legal) else 0 for legal in info["legal_actions"]]
            observations, rewards, terminated, truncated, info = envs.step(actions)
            for index, env in enumerate(singles):
                if ended[index]:  # the vector env resets it now, and ignores its action
                    expected[index] = env.reset()
                    reward, done = 0.0, (False, False)
                else:
                    seen, reward, *done, seen_info = env.step(actions[index])
                    expected[index] = seen, seen_info
                assert (rewards[index], terminated[index], truncated[index]) == (reward, *done)
                ended[index] = any(done)
                episodes_ended += ended[index]
        assert episodes_ended >= 6  # each environment reset at least twice
    finally:
        envs.close()


def test_the_vector_env_refuses_bad_counts_and_actions() -> None:
    with pytest.raises(ValueError, match="workers must be an int from 0 to num_envs"):
        SpiderVectorEnv(2, workers=3)
    with pytest.raises(ValueError, match="num_envs must be an int of at least 1"):
        SpiderVectorEnv(0)
    with pytest.raises(ValueError, match="observation must be"):
        SpiderVectorEnv(2, observation="pixels")
    with pytest.raises(ValueError, match="render_mode must be None here, not 'rgb_array'"):
        gymnasium.make_vec(ENV_IDS[0], num_envs=2, render_mode="rgb_array")
    envs = SpiderVectorEnv(2, game="spiderette", workers=1)
    try:
        envs.reset(seed=1)
        with pytest.raises(ValueError, match="step needs 2 actions, not 3"):
            envs.step([0, 0, 0])
        with pytest.raises(ValueError, match="not in Discrete"):  # raised in the worker
            envs.step([0, 638])
    finally:
        envs.close()
