"""Environment speed, side by side: the stdlib ``SpiderEnv``, ``gymnasium.make`` and vector envs.

Usage: python benchmarks/env.py [--episodes N] [--max-steps S] [--seed S] [--rounds R]
                                [--quick] [--against REV]

Each row plays ``--episodes`` episodes of random play (a random legal action at every step,
until the episode terminates or reaches ``--max-steps``) and then times as many resets:

- ``SpiderEnv``: :class:`spider.env.SpiderEnv`, the standard library only;
- ``gymnasium.make``: ``gymnasium.make("spider_solitaire/Spider-v0", ...)`` with Gymnasium's
  wrappers (time limit, order checks), the default observation, and again ``observation="onehot"``;
- ``make_vec sync, 8 envs``: Gymnasium's ``SyncVectorEnv``, 8 environments in turn here;
- ``make_vec async, N envs``: ``gymnasium.make_vec(..., num_envs=N, vectorization_mode="async")``,
  Gymnasium's ``AsyncVectorEnv``: N environments in N processes, a round trip each a step;
- ``make_vec 8 envs, workers=W``: ``gymnasium.make_vec(..., num_envs=8, workers=W)``, the
  registered vector entry point (:class:`spider.research.vector.SpiderVectorEnv`): 8
  environments shared by W processes, one round trip a process a step (W=0: in this process).

Vector rows count environment steps, summed over the environments.

A step includes what an agent gets back: the observation, the legal actions and the mask.
Single-process rows time CPU time of this process (``time.process_time``: other load on the
machine distorts it little); vector rows time wall time (the work is in other processes).  Rows
run in turn, ``--rounds`` times, and each shows its best round: this machine's speed drifts.
``--against REV`` adds rows for the environments of git revision REV (its ``src/spider``
loaded beside this tree's, see benchmarks/engine_at.py), for before/after figures from one run.
``--quick`` is a smoke run (3 episodes of 200 steps, one round).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import gymnasium
from engine_at import engine_at  # beside this script, which Python puts on the path

import spider.research.gym  # noqa: F401 - registers the environments
from spider.env import SpiderEnv

VARIANTS = [("spider", 1, "classic"), ("spider", 4, "classic")]
"""The variants timed: Spider with one suit and with four."""

BATCH = 8
"""Environments of the vector entry point's rows (``SpiderVectorEnv``), shared by its workers."""


@dataclass
class Row:
    """One environment to time: how to make it, and its best figures so far."""

    name: str
    variant: tuple[str, int, str]
    make: Callable[[], Any]
    vector: int = 0  # environments of a vector env, 0 for a single environment
    steps_per_second: float = 0.0
    resets_per_second: float = 0.0


def play(env: Any, episodes: int, seed: int) -> tuple[int, float]:
    """(steps, CPU seconds) of random play of a single environment."""
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        while True:
            _, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
            steps += 1
            if terminated or truncated:
                break
    return steps, time.process_time() - start


def play_vector(envs: Any, episodes: int, seed: int) -> tuple[int, float]:
    """(environment steps, wall seconds) of random play of a vector env, until ``episodes``
    episodes have ended over all of its environments."""
    rng = random.Random(seed)
    steps = ended = 0
    start = time.perf_counter()
    _, info = envs.reset(seed=seed)
    while ended < episodes:
        # An environment whose episode ended resets on this step and ignores its action.
        actions = [rng.choice(legal) if len(legal) else 0 for legal in info["legal_actions"]]
        _, _, terminated, truncated, info = envs.step(actions)
        steps += len(actions)
        ended += int((terminated | truncated).sum())
    return steps, time.perf_counter() - start


def time_resets(env: Any, resets: int) -> float:
    """Resets per second (CPU time) of a single environment."""
    start = time.process_time()
    for _ in range(resets):
        env.reset()
    return resets / (time.process_time() - start)


def rows_of(variant: tuple[str, int, str], max_steps: int) -> list[Row]:
    """This tree's environments for ``variant``."""
    game, suits, rule = variant
    env_id = "spider_solitaire/Spider-v0" if game == "spider" else "spider_solitaire/Spiderette-v0"
    kwargs: dict[str, Any] = {"suits": suits, "max_episode_steps": max_steps}
    if game == "spider":
        kwargs["rule"] = rule

    def async_vector(count: int) -> Callable[[], Any]:
        return lambda: gymnasium.make_vec(
            env_id, num_envs=count, vectorization_mode="async", **kwargs
        )

    def in_turn(count: int) -> Callable[[], Any]:
        return lambda: gymnasium.make_vec(
            env_id, num_envs=count, vectorization_mode="sync", **kwargs
        )

    def batched(workers: int) -> Callable[[], Any]:
        return lambda: gymnasium.make_vec(env_id, num_envs=BATCH, workers=workers, **kwargs)

    return [
        Row("SpiderEnv", variant, lambda: SpiderEnv(game, suits, rule, max_steps=max_steps)),
        Row("gymnasium.make", variant, lambda: gymnasium.make(env_id, **kwargs)),
        Row(
            "gymnasium.make onehot",
            variant,
            lambda: gymnasium.make(env_id, observation="onehot", **kwargs),
        ),
        Row("make_vec async, 1 env", variant, async_vector(1), vector=1),
        Row("make_vec async, 2 envs", variant, async_vector(2), vector=2),
        Row(f"make_vec sync, {BATCH} envs", variant, in_turn(BATCH), vector=BATCH),
        Row(f"make_vec {BATCH} envs, workers=0", variant, batched(0), vector=BATCH),
        Row(f"make_vec {BATCH} envs, workers=1", variant, batched(1), vector=BATCH),
        Row(f"make_vec {BATCH} envs, workers=2", variant, batched(2), vector=BATCH),
    ]


def rows_at(revision: str, variant: tuple[str, int, str], max_steps: int) -> list[Row]:
    """The environments of git ``revision`` for ``variant``: its ``SpiderEnv``, and its
    Gymnasium class under Gymnasium's ``make`` (its registration would be this tree's), with
    ``observation="onehot"`` too if that revision has it."""
    package = engine_at(revision).game.__module__.rsplit(".", 1)[0]
    old_env = importlib.import_module(f"{package}.env")
    old_gym = importlib.import_module(f"{package}.research.gym")
    game, suits, rule = variant
    spec = gymnasium.envs.registration.EnvSpec(
        id=f"spider_solitaire/SpiderAt{package[-12:]}-v0",
        entry_point=old_gym.SpiderGymEnv,
        kwargs={"game": game, "suits": suits, "rule": rule},
        max_episode_steps=max_steps,
    )
    rows = [
        Row(
            f"SpiderEnv at {revision}",
            variant,
            lambda: old_env.SpiderEnv(game, suits, rule, max_steps=max_steps),
        ),
        Row(f"gymnasium.make at {revision}", variant, lambda: gymnasium.make(spec)),
    ]
    if "observation" in inspect.signature(old_gym.SpiderGymEnv).parameters:
        make_onehot = partial(gymnasium.make, spec, observation="onehot")
        rows.append(Row(f"gymnasium.make onehot at {revision}", variant, make_onehot))
    return rows


def measure(row: Row, episodes: int, seed: int) -> None:
    """Time ``row`` once and keep its best figures."""
    env = row.make()
    try:
        if row.vector:
            steps, seconds = play_vector(env, episodes, seed)
        else:
            steps, seconds = play(env, episodes, seed)
            row.resets_per_second = max(row.resets_per_second, time_resets(env, episodes * 5))
    finally:
        close = getattr(env, "close", None)  # SpiderEnv holds nothing to close
        if close is not None:
            close()
    row.steps_per_second = max(row.steps_per_second, steps / seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="3 episodes of 200 steps, 1 round")
    parser.add_argument("--against", metavar="REV", help="also time the envs of git revision REV")
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.max_steps, args.rounds = 3, 200, 1
    for name in ("episodes", "max_steps", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    rows = []
    for variant in VARIANTS:
        rows += rows_of(variant, args.max_steps)
        if args.against:
            rows += rows_at(args.against, variant, args.max_steps)
    for _ in range(args.rounds):
        for row in rows:
            measure(row, args.episodes, args.seed)
    print(f"command: python {' '.join(sys.argv)}")
    print(
        f"python {sys.version.split()[0]}, {args.episodes} episodes of at most {args.max_steps}"
        f" steps, best of {args.rounds} rounds\n"
    )
    print("| variant | environment | steps/s | vs SpiderEnv | resets/s | clock |")
    print("|---|---|---:|---:|---:|---|")
    for variant in VARIANTS:
        here = [row for row in rows if row.variant == variant]
        base = here[0].steps_per_second
        for row in here:
            resets = f"{row.resets_per_second:,.0f}" if not row.vector else "-"
            print(
                f"| {' '.join(map(str, variant))} | {row.name} | {row.steps_per_second:,.0f} | "
                f"{row.steps_per_second / base:.2f} | {resets} | "
                f"{'wall' if row.vector else 'CPU'} |"
            )


if __name__ == "__main__":
    main()
