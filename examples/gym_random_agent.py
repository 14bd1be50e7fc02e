"""A random agent that plays only legal actions, read from Gymnasium's action mask.

pip install 'spider-solitaire[gym]'
python examples/gym_random_agent.py --episodes 3 --suits 1 --seed 0
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import spider.research.gym  # noqa: F401  (registers spider_solitaire/Spider-v0 and Spiderette-v0)


def run(episodes: int, suits: int, seed: int, max_steps: int) -> list[tuple[str, float, int]]:
    """(deal code, return, steps) of each episode of the random agent."""
    env = gymnasium.make("spider_solitaire/Spider-v0", suits=suits, max_episode_steps=max_steps)
    rng = np.random.default_rng(seed)
    results = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        code, total, steps, done = info["code"], 0.0, 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        results.append((code, total, steps))
    env.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--suits", type=int, default=1, choices=(1, 2, 4))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=1000)
    args = parser.parse_args()
    for code, total, steps in run(args.episodes, args.suits, args.seed, args.max_steps):
        print(f"{code}: return {total:+.3f} in {steps} steps")


if __name__ == "__main__":
    main()
