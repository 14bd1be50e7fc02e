"""Hint speed: median, p95 and max time of ``hint_report`` on mid-game positions.

    .venv/bin/python benchmarks/hint.py --deals 5 [--variants ...] [--budgets 1000,4000]
        [--against REVISION]

Each deal is played out by the hint itself (``fairplay.act``, deterministic), in a game that
keeps its history as a player's does (so the hint reads the positions passed since the last
card turned, and pays for it); every position where it is asked between actions ``--from`` and
``--to`` is timed.  By default four variants: 1-suit and 4-suit Spider (both rules at 4 suits)
and 4-suit Spiderette.  With ``--budgets`` each variant is measured once per lookahead budget
(positions; ``default`` is the variant's own, ``spider.solver.hint_params(game).nodes``),
side by side in one run; the play-out follows the hint at that budget, so the positions differ.

With ``--against REVISION`` the engine of that git revision (``engine_at.py``) plays the same
deals beside this tree's, one hint of each in turn (the order alternating), so that a speed-up
is shown before and after from one run: this machine's speed drifts too much for two runs to
compare.  Each engine plays its own hint, so the positions are the same only while the two
agree.  Prints a Markdown table and the command used.  Not a timed test.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from engine_at import Engine, engine_at, this_engine
from fairplay import act
from variants import add_variants_option, selected_variants

DEFAULT_VARIANTS = "spider-1-classic,spider-4-classic,spider-4-flexible,spiderette-4-classic"


def timings(
    engines: list[Engine],
    variant: tuple[str, int, str],
    number: int,
    actions: tuple[int, int],
    nodes: int | None,
) -> list[list[float]]:
    """Seconds per hint call of each engine (lookahead budget ``nodes``, None: the variant's
    own) at the positions between ``actions`` (first, last + 1) of its deterministic
    play-out of deal ``number``; the engines take turns, one hint each."""
    game_name, suits, rule = variant
    low, high = actions
    games = [
        engine.game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=None)
        for engine in engines
    ]
    times: list[list[float]] = [[] for _ in engines]
    playing = set(range(len(engines)))
    for step in range(high):
        order = range(len(engines)) if step % 2 == 0 else reversed(range(len(engines)))
        for index in order:
            game = games[index]
            if index not in playing or game.is_won:
                playing.discard(index)
                continue
            started = time.perf_counter()
            report = engines[index].hint_report(game, nodes)
            if step >= low:
                times[index].append(time.perf_counter() - started)
            if not act(game, report):
                playing.discard(index)
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
    parser.add_argument(
        "--against",
        metavar="REVISION",
        help="also time the engine of this git revision, hint for hint beside this tree's",
    )
    add_variants_option(parser, DEFAULT_VARIANTS)
    args = parser.parse_args()
    budgets = [_budget(text) for text in args.budgets.split(",")]
    engines = [this_engine()]
    if args.against:
        engines.append(engine_at(args.against))
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/hint.py", *sys.argv[1:]]))
    print()
    print("| variant | engine | budget | positions | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|---|---|")
    for variant in selected_variants(args.variants):
        for nodes in budgets:
            times: list[list[float]] = [[] for _ in engines]
            for number in range(args.first, args.first + args.deals):
                played = timings(engines, variant, number, (args.low, args.high), nodes)
                for kept, new in zip(times, played, strict=True):
                    kept += new
            for engine, measured in zip(engines, times, strict=True):
                _print_row(variant, engine.name, nodes, sorted(measured))


def _print_row(
    variant: tuple[str, int, str], engine: str, nodes: int | None, times: list[float]
) -> None:
    """One line of the table: the times of one engine at one budget, sorted."""
    game_name, suits, rule = variant
    if not times:
        print(f"| {game_name} {suits} {rule} | {engine} | {nodes or 'default'} | 0 | | | |")
        return
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"| {game_name} {suits} {rule} | {engine} | {nodes or 'default'} | {len(times)} "
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
