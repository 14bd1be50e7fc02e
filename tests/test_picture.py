"""The picture of the table (``render_mode="rgb_array"``): its size, what it hides, and the
libraries that take it (Stable-Baselines3's vector envs, Gymnasium's video recorder)."""

from __future__ import annotations

import doctest
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("PIL")

import spider.research.picture  # noqa: E402
from spider import Game  # noqa: E402
from spider.research.gym import ENV_IDS, SpiderGymEnv  # noqa: E402
from spider.research.picture import table_array, table_picture  # noqa: E402
from tests.helpers import reshuffle_hidden  # noqa: E402


def test_module_examples_run() -> None:
    result = doctest.testmod(spider.research.picture)
    assert result.attempted > 0 and result.failed == 0


def test_a_missing_pillow_names_the_extra() -> None:
    code = "import sys; sys.modules['PIL'] = None; import spider.research.picture"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    last = result.stderr.splitlines()[-1]
    assert "spider.research.picture needs Pillow" in last
    assert "pip install 'spider-solitaire[gym]'" in last


def test_the_frame_keeps_its_size_over_an_episode() -> None:
    env = SpiderGymEnv("spider", suits=4, render_mode="rgb_array")
    _, info = env.reset(options={"number": 11})
    rng = random.Random(11)
    frames = []
    for _ in range(30):
        frames.append(env.render())
        _, _, terminated, _, info = env.step(rng.choice(info["legal_actions"]))
        if terminated:
            break
    assert all(isinstance(frame, np.ndarray) for frame in frames)
    assert {(frame.shape, frame.dtype) for frame in frames} == {((600, 800, 3), np.dtype(np.uint8))}
    assert len({frame.tobytes() for frame in frames}) > 1  # the table changed, and so did the frame


def test_a_long_column_and_the_won_table_fit_the_same_frame() -> None:
    # Every card of one-suit Spiderette in column a, face up: the cards overlap more, the frame
    # stays the same; a won table (nothing left, all runs removed) too.
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    column = " ".join(f"{rank}S" for _ in range(4) for rank in ranks)
    long_column = Game.from_text(
        f"spiderette 1 classic standard / score=300 moves=200 removed=- / {column}"
        + " / -" * 6
        + " / -"
    )
    won = Game.from_text(
        "spiderette 1 classic standard / score=700 moves=200 removed=SSSS" + " / -" * 7 + " / -"
    )
    start = Game.new("spiderette", suits=1, number=1)
    shapes = {table_array(game, width=500).shape for game in (long_column, won, start)}
    assert shapes == {(376, 500, 3)}
    assert not np.array_equal(table_array(won, width=500), table_array(start, width=500))


def test_same_position_same_pixels_and_face_down_cards_never_show() -> None:
    # Two games alike but for their face-down cards and stock draw the same picture, step by
    # step, until a card turns or a deal shows the stock's cards; then the pictures differ.
    game = Game.new("spider", suits=2, number=4)
    other = reshuffle_hidden(game, random.Random(4))
    assert game.hidden_cards() != other.hidden_cards()
    games = [Game.from_text(re.sub(r" #\d+", "", start.to_text())) for start in (game, other)]
    assert table_array(games[0]).tobytes() == table_array(game).tobytes()  # deterministic
    rng = random.Random(4)
    while games[0].position().face_up == games[1].position().face_up:
        assert np.array_equal(table_array(games[0]), table_array(games[1]))
        move = rng.choice(games[0].legal_moves() or ["deal"])
        for each in games:
            each.push(move)
    assert games[0].moves > 0
    assert not np.array_equal(table_array(games[0]), table_array(games[1]))


def test_bad_arguments_are_refused() -> None:
    game = Game.new("spiderette", suits=1, number=1)
    for width in (319, 3841, 800.0, True, "800"):
        with pytest.raises(ValueError, match="width must be an int from 320 to 3840"):
            table_picture(game, width=width)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"game must be a spider\.Game or a spider\.Position"):
        table_picture("spider")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="None, 'ansi' or 'rgb_array', not 'human'"):
        SpiderGymEnv(render_mode="human")
    assert table_picture(game.position()).tobytes() == table_picture(game).tobytes()


def test_stable_baselines3_vector_envs_render_pictures() -> None:
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    envs = env_util.make_vec_env(ENV_IDS[1], n_envs=2, seed=3, env_kwargs={"suits": 2})
    observations = envs.reset()
    assert observations["face_up"].shape == (2, 7, 52)
    masks = envs.env_method("action_masks")
    envs.step_async(np.array([int(np.flatnonzero(mask)[-1]) for mask in masks]))
    _, rewards, _, _ = envs.step_wait()
    assert rewards.shape == (2,)
    frames = envs.get_images()
    assert [frame.shape for frame in frames] == [(600, 800, 3)] * 2
    envs.close()


def test_record_video_writes_an_mp4(tmp_path: Path) -> None:
    pytest.importorskip("moviepy")
    env = gymnasium.make(ENV_IDS[1], suits=1, render_mode="rgb_array", max_episode_steps=8)
    env = gymnasium.wrappers.RecordVideo(
        env, str(tmp_path / "videos"), episode_trigger=lambda episode: True, disable_logger=True
    )
    _, info = env.reset(seed=2)
    truncated = terminated = False
    while not (terminated or truncated):
        action = int(np.flatnonzero(info["action_mask"])[-1])
        _, _, terminated, truncated, info = env.step(action)
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
    assert videos[0].read_bytes()[4:8] == b"ftyp"  # an MP4 container
