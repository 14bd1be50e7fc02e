"""What a play-out to the end of the game costs, and whether it ever wins (not a timed test).

    .venv/bin/python benchmarks/playouts.py --variants spider-4-classic --deals 10 --per-deal 3 \\
        --nodes 100,4000

The measurement behind "Think harder"'s budget (docs/strength.md, "Aims").  From the
opening of each deal, ``--per-deal`` play-outs go through every deal to the win or the end, the
way "Think harder" plays the unknown: each card turned or dealt is drawn from the cards the
player has not seen (:class:`spider.solver.worlds.World`, seeded by the play-out's number),
each step plays the quick hint's best line at a lookahead of ``N`` positions (no weighing, as
"Think harder"'s play-outs), cut at its first card turned, and the deal when the hint offers
nothing.  Prints a Markdown table, one row per variant and lookahead: CPU seconds per play-out
(median, mean), lines per play-out, runs removed, wins, and what the Klondike study's smallest
budget, 1,000 play-outs a decision, would cost a game (one decision per line) and 100 deals on
this machine's cores.  Deal numbers default to the tuning deals (10,000 and up).
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from variants import Variant, add_variants_option, selected_variants

from spider import Game
from spider.solver.think.tree import lines_of
from spider.solver.view import VisibleView
from spider.solver.worlds import World

PLAYOUTS_A_DECISION = 1000
"""The smallest budget of the Klondike study (Bjarnason, Fern & Tadepalli 2009) that reached 34%."""


@dataclass(frozen=True)
class PlayOut:
    """One play-out: CPU seconds, lines played, runs removed, and whether it won."""

    seconds: float
    lines: int
    runs: int
    won: bool


def play_to_end(view: VisibleView, nodes: int, rng: random.Random) -> PlayOut:
    """Play from ``view`` to the win or the end by the quick hint's best lines at ``nodes``."""
    start = time.process_time()
    world = World.from_view(view, frozenset())
    lines = 0
    while not world.is_won:
        # The line a node of "Think harder" would try first: the hint's best, else the deal.
        best = lines_of(world.view(), world.visited, width=1, nodes=nodes)
        if not best:
            break
        world.play(best[0], rng)
        lines += 1
    seconds = time.process_time() - start
    return PlayOut(seconds, lines, len(world.removed), world.is_won)


def measure(variant: Variant, numbers: range, per_deal: int, nodes: int) -> list[PlayOut]:
    """``per_deal`` play-outs from the opening of each deal of ``numbers``."""
    game_name, suits, rule = variant
    results = []
    for number in numbers:
        view = VisibleView.from_game(Game.new(game_name, suits=suits, rule=rule, number=number))
        for index in range(per_deal):
            results.append(play_to_end(view, nodes, random.Random(f"{number}/{index}")))
    return results


def row(variant: Variant, nodes: int, playouts: list[PlayOut], cores: int) -> str:
    """The table's row for one variant and lookahead."""
    seconds = [p.seconds for p in playouts]
    mean_seconds = statistics.mean(seconds)
    mean_lines = statistics.mean(p.lines for p in playouts)
    game_hours = mean_lines * PLAYOUTS_A_DECISION * mean_seconds / 3600
    days = 100 * game_hours / 24 / cores
    return (
        f"| {'-'.join(map(str, variant))} | {nodes:,} | {len(playouts)} "
        f"| {statistics.median(seconds):.2f} | {mean_seconds:.2f} | {mean_lines:.0f} "
        f"| {statistics.mean(p.runs for p in playouts):.2f} | {sum(p.won for p in playouts)} "
        f"| {game_hours:.1f} | {days:.1f} |"
    )


def _budgets(text: str) -> list[int]:
    try:
        budgets = [int(part) for part in text.split(",")]
    except ValueError:
        budgets = []
    if not budgets or min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"a comma list of positive whole numbers, not {text!r}")
    return budgets


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=10, help="deals per variant")
    parser.add_argument("--first", type=int, default=10_000, help="first deal number")
    parser.add_argument("--per-deal", type=int, default=3, help="play-outs from each opening")
    parser.add_argument(
        "--nodes", type=_budgets, default=[100, 4000], help="comma list of lookahead budgets"
    )
    parser.add_argument(
        "--cores", type=int, default=os.cpu_count() or 1, help="cores for the days column"
    )
    add_variants_option(parser, default="spider-4-classic")
    args = parser.parse_args()
    if min(args.deals, args.per_deal, args.cores) < 1 or args.first < 0:
        parser.error("--deals, --per-deal and --cores must be at least 1, --first at least 0")
    numbers = range(args.first, args.first + args.deals)
    print("Command: .venv/bin/python benchmarks/playouts.py " + shlex.join(sys.argv[1:]))
    print()
    print(
        "| variant | lookahead | play-outs | median CPU s | mean CPU s | lines | runs removed "
        f"| won | CPU h a game at {PLAYOUTS_A_DECISION:,} a decision | days for 100 deals "
        f"on {args.cores} cores |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant in selected_variants(args.variants):
        for nodes in args.nodes:
            playouts = measure(variant, numbers, args.per_deal, nodes)
            print(row(variant, nodes, playouts, args.cores), flush=True)


if __name__ == "__main__":
    main()
