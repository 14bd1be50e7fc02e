"""Solver benchmark: decided %, median and p95 time, positions per second, per variant.

    .venv/bin/python benchmarks/solver.py --deals 100 --time-limit 10 --workers 2 [--first N]

Deals FIRST..FIRST+N-1 of each variant (``--first``, default 0: tune on other deals than the
reported 0..99).  Prints a Markdown table and the command used (``--show-undecided`` also lists
the undecided deal numbers).  Not a timed test.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from variants import add_variants_option, selected_variants

from spider import Game
from spider.solver import solve


def run_one(task: tuple[str, int, str, int, float]) -> tuple[str, float, int]:
    game_name, suits, rule, number, limit = task
    result = solve(Game.new(game_name, suits=suits, rule=rule, number=number), time_limit=limit)
    return result.status, result.elapsed, result.positions


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="deals per variant")
    parser.add_argument(
        "--first", type=int, default=0, help="first deal number (deals FIRST..FIRST+N-1)"
    )
    parser.add_argument(
        "--show-undecided", action="store_true", help="list the undecided deal numbers"
    )
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1)
    add_variants_option(parser)
    args = parser.parse_args()
    variants = selected_variants(args.variants)
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/solver.py", *sys.argv[1:]]))
    print()
    print(
        "| variant | deals | winnable | unwinnable | undecided | decided % | median s "
        "| p95 s | positions/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for game_name, suits, rule in variants:
            numbers = range(args.first, args.first + args.deals)
            tasks = [(game_name, suits, rule, n, args.time_limit) for n in numbers]
            results = list(pool.map(run_one, tasks))
            statuses = [status for status, _, _ in results]
            times = [elapsed for _, elapsed, _ in results]
            positions = sum(count for _, _, count in results)
            decided = len(results) - statuses.count("undecided")
            print(
                f"| {game_name} {suits} {rule} | {len(results)} | {statuses.count('winnable')} "
                f"| {statuses.count('unwinnable')} | {statuses.count('undecided')} "
                f"| {100 * decided / len(results):.0f}% | {statistics.median(times):.2f} "
                f"| {percentile(times, 0.95):.2f} | {positions / max(sum(times), 1e-9):,.0f} |",
                flush=True,
            )
            if args.show_undecided:
                undecided = [
                    n for n, status in zip(numbers, statuses, strict=True) if status == "undecided"
                ]
                print(f"<!-- undecided: {undecided} -->", flush=True)


if __name__ == "__main__":
    main()
