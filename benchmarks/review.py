""" "Where did I lose it?" on real lost games: how often the review decides, and how fast.

    .venv/bin/python benchmarks/review.py --deals 10 [--time 60] [--position-time 10]

Each deal is played out by the fair hint (``fairplay.play_out``, deterministic, no undo); every
game the hint does not win is reviewed (``spider.solver.review.review``).  Prints a Markdown
table per variant: the lost games, how the review answered (lost at a move, never winnable,
probably lost: unproven, could not tell), how many losing moves it calls bad luck (the hint
played these games, so every losing move found should be the hint's: a check of the
comparison), the median number of solver runs and the median and largest time per review.  Not
a timed test.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out
from variants import add_variants_option, selected_variants

from spider import Game
from spider.solver.review import ReviewReport, review

DEFAULT_VARIANTS = "spider-1-classic,spider-2-classic,spiderette-2-classic,spider-4-classic"


def reviews(
    variant: tuple[str, int, str], first: int, deals: int, seconds: float, per_position: float
) -> list[ReviewReport]:
    """The reviews of the games among ``deals`` deals that the hint did not win."""
    game_name, suits, rule = variant
    found = []
    for number in range(first, first + deals):
        game = Game.new(game_name, suits=suits, rule=rule, number=number)
        play_out(game)
        if not game.is_won:
            found.append(
                review(
                    game, time_limit=seconds, position_time_limit=per_position, think_iterations=0
                )
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10, help="deals per variant")
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--time", type=float, default=60.0, help="seconds per review")
    parser.add_argument("--position-time", type=float, default=10.0, help="seconds per position")
    add_variants_option(parser, DEFAULT_VARIANTS)
    args = parser.parse_args()
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/review.py", *sys.argv[1:]]))
    print()
    print(
        "| variant | deals | lost | lost at a move | never winnable | probably lost "
        "| could not tell | bad luck | median runs | median s | max s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for variant in selected_variants(args.variants):
        found = reviews(variant, args.first, args.deals, args.time, args.position_time)
        statuses = Counter(report.status for report in found)
        bad_luck = sum(
            report.losing is not None and report.losing.verdict == "bad-luck" for report in found
        )
        times = sorted(report.elapsed for report in found) or [0.0]
        runs = [len(report.probes) for report in found] or [0]
        game_name, suits, rule = variant
        print(
            f"| {game_name} {suits} {rule} | {args.deals} | {len(found)} | {statuses['lost']} "
            f"| {statuses['never-winnable']} | {statuses['probably-lost']} "
            f"| {statuses['could-not-tell']} | {bad_luck} "
            f"| {statistics.median(runs):g} | {statistics.median(times):.1f} | {times[-1]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
