"""Engine, hint and solver speed of two source trees, side by side, from one run.

Usage: python benchmarks/before_after.py BEFORE_SRC AFTER_SRC [--rounds N] [--instructions]

Each ``*_SRC`` is a directory holding the ``spider`` package (for example a checkout of an older
commit's ``src``: ``git worktree add /tmp/before HEAD~3`` then ``/tmp/before/src``).  The same
fixed work runs on both trees in child processes, alternating, ``--rounds`` times; the table
shows the median CPU time of each (``time.process_time``, so other load on the machine distorts
it little) and the ratio.  Work: ``legal_moves`` and move+undo on mid-game positions, quick
hints along random games, and node-limited solves (deterministic: the same positions are
searched on both trees when their generators agree).

With ``--instructions`` each piece of work runs once per tree under ``valgrind --tool=callgrind``
and the table shows instructions executed instead of seconds: the same count for the same code
and inputs, whatever else the machine is doing (valgrind comes from Debian's packages).
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
            if game.can_deal and (not moves or rng.random() < 0.08):
                game.deal()
            elif moves:
                game.push(rng.choice(moves))
        if game.legal_moves():
            out.append(game.copy(history=False))
    return out

import sys
only = sys.argv[1] if len(sys.argv) > 1 else None
games = positions(200, 7)
clock = time.process_time
results = {}
start = clock()
for _ in range(50 if only is None else 5 * (only == "legal")):
    for game in games:
        game.legal_moves()
results["legal_moves"] = clock() - start
start = clock()
for _ in range(20 if only is None else 2 * (only == "move")):
    for game in games:
        for move in game.legal_moves()[:4]:
            game.push(move)
            game.undo()
results["move+undo"] = clock() - start
start = clock()
for game in games[:60 if only is None else 15 * (only == "hint")]:
    hint(game)
results["hints"] = clock() - start
start = clock()
for number in range(6 if only is None else 1 * (only == "solve")):
    for name, suits in (("spider", 2), ("spider", 4), ("spiderette", 4)):
        limit = 40_000 if only is None else 8_000
        solve(Game.new(name, suits=suits, number=number), time_limit=None, node_limit=limit)
results["solves"] = clock() - start
print(json.dumps(results))
"""

_PARTS = ("legal", "move", "hint", "solve")
_TITLES = {
    "legal_moves": "legal_moves, 200 positions x 50",
    "move+undo": "move+undo, 200 positions x 4 moves x 20",
    "hints": "quick hint on 60 positions",
    "solves": "18 solves of 40,000 positions",
}
_INSTRUCTION_TITLES = {
    "legal": "legal_moves, 200 positions x 5",
    "move": "move+undo, 200 positions x 4 moves x 2",
    "hint": "quick hint on 15 positions",
    "solve": "3 solves of 8,000 positions",
}


def run(source: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=source)
    output = subprocess.run(
        [sys.executable, "-c", _WORK], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def instructions(source: str, part: str | None) -> int:
    """Instructions executed by the work (``part`` alone, or only the set-up when None)."""
    env = dict(os.environ, PYTHONPATH=source, PYTHONHASHSEED="0")  # the same sets, the same order
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, "-c", _WORK, *([part] if part else ["none"])]
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stderr
    for line in output.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    raise RuntimeError("valgrind printed no instruction count")


def main_instructions(before: str, after: str, parts: list[str]) -> None:
    print(f"Command: python benchmarks/before_after.py {before} {after} --instructions")
    print("Instructions executed (valgrind callgrind), set-up subtracted; exact, not sampled.")
    print()
    print("| work | before | after | after / before |")
    print("|---|---|---|---|")
    base = {tree: instructions(tree, None) for tree in (before, after)}
    for part in parts:
        first = instructions(before, part) - base[before]
        second = instructions(after, part) - base[after]
        print(f"| {_INSTRUCTION_TITLES[part]} | {first:,} | {second:,} | {second / first:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="directory holding the 'spider' package before")
    parser.add_argument("after", help="directory holding the 'spider' package after")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under valgrind instead"
    )
    parser.add_argument(
        "--parts",
        default=",".join(_PARTS),
        help=f"with --instructions: which work to count, comma-separated ({','.join(_PARTS)})",
    )
    args = parser.parse_args()
    if args.instructions:
        parts = args.parts.split(",")
        unknown = sorted(set(parts) - set(_PARTS))
        if unknown:
            parser.error(f"unknown part(s) {', '.join(unknown)}: choose from {', '.join(_PARTS)}")
        main_instructions(args.before, args.after, parts)
        return
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
        print(f"| {_TITLES[name]} | {before:.3f} | {after:.3f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
