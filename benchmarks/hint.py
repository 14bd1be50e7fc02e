"""Hint speed: median, p95 and max time of ``hint_report`` on mid-game positions.

    .venv/bin/python benchmarks/hint.py --deals 5 [--variants ...] [--budgets 1000,4000]

Each deal is played out by the hint itself (``fairplay.play_out``, deterministic), in a game
that keeps its history as a player's does (so the hint reads the positions passed since the last
card turned, and pays for it); every position where it is asked between actions ``--from`` and
``--to`` is timed.  By default four
variants: 1-suit and 4-suit Spider (both rules at 4 suits) and 4-suit Spiderette.  With
``--budgets`` each variant is measured once per lookahead budget (positions; ``default`` is the
variant's own, :func:`spider.solver.hint.default_node_budget`), side by side in one run; the
play-out follows the hint at that budget, so the positions differ.  Prints a Markdown table and
the command used.  Not a timed test.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out
from variants import add_variants_option, selected_variants

from spider import Game
from spider.solver.hint import HintReport, hint_report

DEFAULT_VARIANTS = "spider-1-classic,spider-4-classic,spider-4-flexible,spiderette-4-classic"


def timings(
    game_name: str, suits: int, rule: str, number: int, low: int, high: int, nodes: int | None
) -> list[float]:
    """Seconds per hint call (lookahead budget ``nodes``, None: the variant's own) at the
    mid-game positions of one deterministic play-out."""
    game = Game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=None)
    times: list[float] = []
    asked = 0

    def timed_hint(current: Game) -> HintReport:
        nonlocal asked
        started = time.perf_counter()
        report = hint_report(current, nodes)
        if asked >= low:
            times.append(time.perf_counter() - started)
        asked += 1
        return report

    play_out(game, high, timed_hint)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5, help="deals per variant")
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--from", dest="low", type=int, default=20, help="first timed action")
    parser.add_argument("--to", dest="high", type=int, default=200, help="last action + 1")
    parser.add_argument(
        "--budgets",
        default="default",
        help="comma list of lookahead budgets in positions, or 'default' (the variant's own)",
    )
    add_variants_option(parser, DEFAULT_VARIANTS)
    args = parser.parse_args()
    budgets = [_budget(text) for text in args.budgets.split(",")]
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/hint.py", *sys.argv[1:]]))
    print()
    print("| variant | budget | positions | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for game_name, suits, rule in selected_variants(args.variants):
        for nodes in budgets:
            times: list[float] = []
            for number in range(args.first, args.first + args.deals):
                times += timings(game_name, suits, rule, number, args.low, args.high, nodes)
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"| {game_name} {suits} {rule} | {nodes or 'default'} | {len(times)} "
                f"| {1000 * statistics.median(times):.1f} | {1000 * p95:.1f} "
                f"| {1000 * times[-1]:.1f} |",
                flush=True,
            )


def _budget(text: str) -> int | None:
    """A ``--budgets`` item: a positive number of positions, or None for ``default``."""
    if text.strip() == "default":
        return None
    try:
        nodes = int(text)
    except ValueError:
        raise SystemExit(f"--budgets: {text!r} is not a number of positions or 'default'") from None
    if nodes < 1:
        raise SystemExit(f"--budgets: {nodes} must be at least 1")
    return nodes


if __name__ == "__main__":
    main()
