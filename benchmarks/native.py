"""The compiled engine kernel against pure Python, from one run: legal_moves()/s, move+undo/s
(as benchmarks/engine.py), the solver's positions/s, the quick hint's p50 and p95 and a "Think
harder" search, for each build, with the ratio.

Usage: python benchmarks/native.py [--rounds R] [--games N]

Each build runs in its own processes: the compiled one as installed (``make setup`` builds it),
the pure one from a copy of the package's ``.py`` files first on PYTHONPATH. The rounds alternate
between the two (pure, compiled, pure, ...) so that the machine's drift falls on both; each
figure is the median over the rounds. Times are CPU time of the measuring process
(time.process_time). The work is the same in both builds (deterministic: the same positions,
the same node limits and seeds), which tests/test_native.py checks answer the same.
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
    return {
        "build": native.build(),
        "legal_moves()/s": calls / seconds,
        "move+undo/s": pairs / pair_seconds,
        "solver positions/s": stored / solver_seconds,
        "hint p50 ms": 1000 * hint_times[len(hint_times) // 2],
        "hint p95 ms": 1000 * hint_times[min(len(hint_times) - 1, int(0.95 * len(hint_times)))],
        f"think {THINK_ITERATIONS} iterations s": think_seconds,
    }


def run_round(pure_root: Path | None, games: int) -> dict[str, object]:
    env = dict(os.environ)
    if pure_root is not None:
        env["PYTHONPATH"] = str(pure_root)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per build (median shown)")
    parser.add_argument("--games", type=int, default=60, help="mid-game positions dealt")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.games)))
        return
    print(f"command: python {' '.join(sys.argv)}")
    print(f"python {sys.version.split()[0]}, one core per process, CPU time\n")
    with tempfile.TemporaryDirectory() as temporary:
        pure_root = Path(temporary)
        shutil.copytree(
            PACKAGE_DIR,
            pure_root / "spider",
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".native-stamp"),
        )
        rounds: dict[str, list[dict[str, object]]] = {"pure": [], "compiled": []}
        for _ in range(args.rounds):
            for name, root in (("pure", pure_root), ("compiled", None)):
                result = run_round(root, args.games)
                if result["build"] != name:
                    raise SystemExit(f"expected the {name} build, ran {result['build']}")
                rounds[name].append(result)
    keys = [key for key in rounds["pure"][0] if key != "build"]
    print(f"| {'measure':<28} | {'pure':>12} | {'compiled':>12} | {'ratio':>6} |")
    print(f"|{'-' * 30}|{'-' * 14}|{'-' * 14}|{'-' * 8}|")
    for key in keys:
        pure = statistics.median(float(str(r[key])) for r in rounds["pure"])
        compiled = statistics.median(float(str(r[key])) for r in rounds["compiled"])
        # The ratio is always "how many times faster": a rate over a rate, a time over a time.
        ratio = compiled / pure if key.endswith("/s") else pure / compiled
        print(f"| {key:<28} | {pure:>12,.2f} | {compiled:>12,.2f} | {ratio:>5.2f}x |")
    print(
        f"\nsolver: 4-suit classic Spider deals {', '.join(map(str, SOLVER_DEALS))}, "
        f"{SOLVER_NODES:,} positions each; hint: the first {HINT_POSITIONS} positions; "
        f"think: {THINK_ITERATIONS} iterations on the first position"
    )


if __name__ == "__main__":
    main()
