"""Engine, hint and solver speed of two source trees, side by side, from one run.

Usage: python benchmarks/before_after.py BEFORE_SRC AFTER_SRC [--rounds N]

Each ``*_SRC`` is a directory holding the ``spider`` package (for example a checkout of an older
commit's ``src``: ``git worktree add /tmp/before HEAD~3`` then ``/tmp/before/src``).  The same
fixed work runs on both trees in child processes, alternating, ``--rounds`` times; the table
shows the median CPU time of each (``time.process_time``, so other load on the machine distorts
it little) and the ratio.  Work: ``legal_moves`` and move+undo on mid-game positions, quick
hints along random games, and node-limited solves (deterministic: the same positions are
searched on both trees when their generators agree).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_WORK = r"""
import json, random, time
from spider import Game
from spider.solver import hint, solve

def positions(count, seed):
    rng = random.Random(seed)
    out = []
    for index in range(count):
        rule = ("classic", "flexible")[index % 2]
        game = Game.new("spider", suits=4, rule=rule, number=rng.randrange(10**6), undo_limit=None)
        for _ in range(rng.randrange(20, 120)):
            moves = game.legal_moves()
            if game.can_deal() and (not moves or rng.random() < 0.08):
                game.deal()
            elif moves:
                game.push(rng.choice(moves))
        if game.legal_moves():
            out.append(game.copy(history=False))
    return out

games = positions(200, 7)
clock = time.process_time
start = clock()
for _ in range(50):
    for game in games:
        game.legal_moves()
legal = clock() - start
start = clock()
for _ in range(20):
    for game in games:
        for move in game.legal_moves()[:4]:
            game.push(move)
            game.undo()
move_undo = clock() - start
start = clock()
for game in games[:60]:
    hint(game)
hints = clock() - start
start = clock()
for number in range(6):
    for name, suits in (("spider", 2), ("spider", 4), ("spiderette", 4)):
        solve(Game.new(name, suits=suits, number=number), time_limit=None, node_limit=40_000)
solves = clock() - start
print(json.dumps({"legal_moves x10000": legal, "move+undo x~16000": move_undo,
                  "60 hints": hints, "18 solves (40k nodes)": solves}))
"""


def run(source: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=source)
    output = subprocess.run(
        [sys.executable, "-c", _WORK], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="directory holding the 'spider' package before")
    parser.add_argument("after", help="directory holding the 'spider' package after")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        runs["before"].append(run(args.before))
        runs["after"].append(run(args.after))
    print(f"Command: python benchmarks/before_after.py {args.before} {args.after}")
    print(f"Median CPU seconds of {args.rounds} alternating runs per tree.")
    print()
    print("| work | before s | after s | after / before |")
    print("|---|---|---|---|")
    for name in runs["before"][0]:
        before = statistics.median(result[name] for result in runs["before"])
        after = statistics.median(result[name] for result in runs["after"])
        print(f"| {name} | {before:.3f} | {after:.3f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
