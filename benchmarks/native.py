"""The compiled engine kernel against pure Python, from one run: legal_moves()/s, move+undo/s
(as benchmarks/engine.py), the solver's positions/s, the quick hint's p50 and p95, a "Think
harder" search and Gymnasium steps/s, for each build, with the ratio.

Usage: python benchmarks/native.py [--rounds R] [--games N] [--against DIR]

Each build runs in its own processes: the compiled one as installed (``make setup`` builds it),
the pure one from a copy of the package's ``.py`` files first on PYTHONPATH. The rounds alternate
between the two (pure, compiled, pure, ...) so that the machine's drift falls on both; each
figure is the median over the rounds. Times are CPU time of the measuring process
(time.process_time). The work is the same in both builds (deterministic: the same positions,
the same node limits and seeds), which tests/test_native.py checks answer the same.

``--against DIR`` adds a third build to the same alternation: the ``spider`` package in DIR
(say a copy of another checkout's ``src/spider`` with its compiled modules), with the ratio of
this tree's compiled build to it, for before/after figures from one run. The Gymnasium row
plays random legal actions through ``gymnasium.make("spider_solitaire/Spider-v0")`` (4 suits),
as benchmarks/env.py does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "src" / "spider"
SOLVER_DEALS = (0, 1, 2)
SOLVER_NODES = 20_000
HINT_POSITIONS = 30
THINK_ITERATIONS = 8
GYM_EPISODES = 4
GYM_MAX_STEPS = 500


def gym_steps(episodes: int, max_steps: int) -> tuple[int, float]:
    """(steps, CPU seconds) of random legal actions through Gymnasium's ``make``, 4 suits."""
    import random

    import gymnasium

    import spider.research.gym  # noqa: F401 - registers the environments

    env = gymnasium.make("spider_solitaire/Spider-v0", suits=4, max_episode_steps=max_steps)
    rng = random.Random(1)
    steps = 0
    start = time.process_time()
    for episode in range(episodes):
        _, info = env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            action = rng.choice(info["legal_actions"])
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
    seconds = time.process_time() - start
    env.close()
    return steps, seconds


def measure(games: int) -> dict[str, object]:
    """Every figure of one round, in this process (whichever build it imports)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from engine import bench_legal_moves, bench_move_undo, mid_game_positions

    from spider import Game, native
    from spider.solver import hint_report, solve, think

    clock = time.process_time
    positions = mid_game_positions(games, 1, "classic")
    calls, seconds = bench_legal_moves(positions, 10)
    pairs, pair_seconds = bench_move_undo(positions, 3)

    stored = 0
    start = clock()
    for number in SOLVER_DEALS:
        game = Game.new("spider", suits=4, rule="classic", number=number)
        stored += solve(game, time_limit=None, node_limit=SOLVER_NODES).positions
    solver_seconds = clock() - start

    hint_times = []
    for game in positions[:HINT_POSITIONS]:
        start = clock()
        hint_report(game)
        hint_times.append(clock() - start)
    hint_times.sort()

    start = clock()
    think(positions[0].copy(), iterations=THINK_ITERATIONS, seed=0)
    think_seconds = clock() - start
    steps, gym_seconds = gym_steps(GYM_EPISODES, GYM_MAX_STEPS)
    return {
        "build": native.build(),
        "legal_moves()/s": calls / seconds,
        "move+undo/s": pairs / pair_seconds,
        "solver positions/s": stored / solver_seconds,
        "hint p50 ms": 1000 * hint_times[len(hint_times) // 2],
        "hint p95 ms": 1000 * hint_times[min(len(hint_times) - 1, int(0.95 * len(hint_times)))],
        f"think {THINK_ITERATIONS} iterations s": think_seconds,
        "gymnasium steps/s": steps / gym_seconds,
    }


def run_round(root: Path | None, games: int) -> dict[str, object]:
    """One round in a child process, importing ``spider`` from ``root`` (None: this tree)."""
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = str(root)
    completed = subprocess.run(
        [sys.executable, __file__, "--worker", "--games", str(games)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(completed.stdout.splitlines()[-1])
    return result


def faster(key: str, new: float, old: float) -> float:
    """How many times faster ``new`` is than ``old``: a rate over a rate, a time over a time."""
    return new / old if key.endswith("/s") else old / new


def print_table(rounds: dict[str, list[dict[str, object]]]) -> None:
    """The medians of every build, compiled against pure (and against the other build)."""
    builds = list(rounds)
    keys = [key for key in rounds["pure"][0] if key != "build"]
    other = "against" in rounds
    header = f"| {'measure':<28} |" + "".join(f" {name:>12} |" for name in builds)
    header += f" {'ratio':>6} |" + (f" {'vs against':>10} |" if other else "")
    print(header)
    rule = f"|{'-' * 30}|" + f"{'-' * 14}|" * len(builds) + f"{'-' * 8}|"
    print(rule + (f"{'-' * 12}|" if other else ""))
    for key in keys:
        median = {
            name: statistics.median(float(str(r[key])) for r in rounds[name]) for name in builds
        }
        line = f"| {key:<28} |" + "".join(f" {median[name]:>12,.2f} |" for name in builds)
        line += f" {faster(key, median['compiled'], median['pure']):>5.2f}x |"
        if other:
            line += f" {faster(key, median['compiled'], median['against']):>9.2f}x |"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per build (median shown)")
    parser.add_argument("--games", type=int, default=60, help="mid-game positions dealt")
    parser.add_argument(
        "--against", type=Path, metavar="DIR", help="also time the spider package in DIR"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.games)))
        return
    if args.against is not None and not (args.against / "spider" / "__init__.py").is_file():
        raise SystemExit(f"--against: {args.against} holds no spider package")
    print(f"command: python {' '.join(sys.argv)}")
    print(f"python {sys.version.split()[0]}, one core per process, CPU time")
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}\n")
    with tempfile.TemporaryDirectory() as temporary:
        pure_root = Path(temporary)
        shutil.copytree(
            PACKAGE_DIR,
            pure_root / "spider",
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".native-stamp"),
        )
        builds: list[tuple[str, Path | None]] = [("pure", pure_root), ("compiled", None)]
        if args.against is not None:
            builds.insert(1, ("against", args.against.resolve()))
        rounds: dict[str, list[dict[str, object]]] = {name: [] for name, _ in builds}
        for _ in range(args.rounds):
            for name, root in builds:
                result = run_round(root, args.games)
                if name != "against" and result["build"] != name:
                    raise SystemExit(f"expected the {name} build, ran {result['build']}")
                rounds[name].append(result)
    print_table(rounds)
    print(f"\nload average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(
        f"solver: 4-suit classic Spider deals {', '.join(map(str, SOLVER_DEALS))}, "
        f"{SOLVER_NODES:,} positions each; hint: the first {HINT_POSITIONS} positions; "
        f"think: {THINK_ITERATIONS} iterations on the first position; gymnasium: "
        f"{GYM_EPISODES} episodes of 4-suit Spider, at most {GYM_MAX_STEPS} steps each"
    )


if __name__ == "__main__":
    main()
