"""Fair play benchmark: always take the hint, deal when it has nothing; no undo, no peeking.

    .venv/bin/python benchmarks/fairplay.py --deals 200 --workers 2 [--first N] [--variants ...]

Reports the win rate per variant with a 95% Wilson interval, the mean runs removed and face-down
cards left at the end (denser measures of strength than wins), and the command used.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from variants import add_variants_option, selected_variants

from spider import Game
from spider.solver.analyze import wilson_interval
from spider.solver.hint import HintReport, hint_report

MAX_ACTIONS = 1500


def act(game: Game, report: HintReport) -> bool:
    """Do what the hint says, as a player pressing H would: play its first move (a fill when the
    deal needs one), or deal when it offers no move; False when it has nothing left to suggest."""
    if report.options:
        game.move(*report.options[0].move)
        return True
    if game.can_deal():
        game.deal()
        return True
    return False


def play_out(
    game: Game,
    max_actions: int = MAX_ACTIONS,
    ask: Callable[[Game], HintReport] = hint_report,
) -> int:
    """Play ``game`` by the hint (``ask`` gives the report) until it is won, nothing is left to
    do or ``max_actions`` actions were played; returns the number of actions played.  The game
    must keep its history (the hint reads the positions since the last deal from it, so it
    never leads back to one)."""
    actions = 0
    while not game.is_won and actions < max_actions:
        if not act(game, ask(game)):
            break
        actions += 1
    return actions


def play(task: tuple[str, int, str, int]) -> tuple[bool, int, int, float, int]:
    """Play one deal by the hint; returns (won, runs removed, actions, seconds, face-down cards
    left at the end)."""
    game_name, suits, rule, number = task
    game = Game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=None)
    started = time.perf_counter()
    actions = play_out(game)
    elapsed = time.perf_counter() - started
    down = sum(column.face_down for column in game.columns)
    return game.is_won, len(game.completed), actions, elapsed, down


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="deals per variant")
    parser.add_argument(
        "--first", type=int, default=0, help="first deal number (tune on deals >= 200)"
    )
    parser.add_argument("--workers", type=int, default=1)
    add_variants_option(parser)
    args = parser.parse_args()
    variants = selected_variants(args.variants)
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/fairplay.py", *sys.argv[1:]]))
    print()
    print(
        "| variant | deals | wins | win % | 95% CI | mean runs | mean down left "
        "| median s/game | mean s/game |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for game_name, suits, rule in variants:
            tasks = [
                (game_name, suits, rule, n) for n in range(args.first, args.first + args.deals)
            ]
            results = list(pool.map(play, tasks))
            wins = sum(result[0] for result in results)
            low, high = wilson_interval(wins, len(results))
            print(
                f"| {game_name} {suits} {rule} | {len(results)} | {wins} "
                f"| {100 * wins / len(results):.1f}% | {100 * low:.1f}-{100 * high:.1f}% "
                f"| {statistics.mean(result[1] for result in results):.2f} "
                f"| {statistics.mean(result[4] for result in results):.1f} "
                f"| {statistics.median(result[3] for result in results):.1f} "
                f"| {statistics.mean(result[3] for result in results):.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
