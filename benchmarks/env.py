"""Environment speed: ``SpiderEnv.step`` calls per second under a random policy.

Usage: python benchmarks/env.py [--episodes N] [--max-steps S] [--seed S]

Each variant plays ``--episodes`` episodes from ``reset(seed=...)``, taking a random legal action
at every step until the episode terminates or is truncated.  A step includes what an agent gets
back: the observation, the legal actions and the action mask.  Times are CPU time of this process
(time.process_time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from spider.env import SpiderEnv

VARIANTS = [
    ("spider", 1, "classic"),
    ("spider", 4, "classic"),
    ("spider", 4, "flexible"),
    ("spiderette", 4, "classic"),
]


def play(env: SpiderEnv, episodes: int, seed: int) -> tuple[int, float, int]:
    """(steps, CPU seconds, episodes that ended before truncation) of random play."""
    rng = random.Random(seed)
    steps = ended = 0
    start = time.process_time()
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        while True:
            _, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
            steps += 1
            if terminated or truncated:
                ended += terminated
                break
    return steps, time.process_time() - start, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"python {sys.version.split()[0]}, one core, CPU time\n")
    print("| variant | episodes | steps | terminated | steps/s |")
    print("|---|---|---|---|---|")
    for game, suits, rule in VARIANTS:
        env = SpiderEnv(game, suits=suits, rule=rule, max_steps=args.max_steps)
        steps, seconds, ended = play(env, args.episodes, args.seed)
        print(
            f"| {game} {suits} {rule} | {args.episodes} | {steps:,} | {ended} | "
            f"{steps / seconds:,.0f} |"
        )


if __name__ == "__main__":
    main()
