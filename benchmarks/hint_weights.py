"""Probe the quick hint's weights on tuning deals (not a timed test; not a public API).

    .venv/bin/python benchmarks/hint_weights.py --set _EMPTY_FOUR_SUITS=250 --set _TURN=250 \\
        --suits 4 --first 10000 --deals 200 --jobs 2

Plays deals ``--first`` .. ``--first + --deals - 1`` of Spider (``--suits``, ``--rule``) by the
quick hint, as ``benchmarks/fairplay.py``'s ``hint`` player does (no undo, no peeking), with the
constants named by ``--set`` changed in every process (each in the module that defines it:
:mod:`spider.solver.hint.evaluation`, :mod:`spider.solver.hint.lookahead` or
:mod:`spider.solver.hint.quick`), and prints one line: wins, mean runs removed, mean cards left
face down, seconds per game. With no ``--set`` it measures the weights as they are, the baseline to
compare with. Deals below 10,000 are refused: they are the deals the benchmarks report
(``benchmarks/fairplay.py``), never tuned on.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out

from spider import Game

TUNING_FROM = 10_000
HINT_MODULES = (
    "spider.solver.hint.evaluation",
    "spider.solver.hint.lookahead",
    "spider.solver.hint.quick",
)
"""Where the quick hint's constants live: its weights, its lookahead's and its own budgets."""

Weights = dict[str, float]


def hint_constant_module(name: str) -> ModuleType | None:
    """The module of :data:`HINT_MODULES` that defines the constant ``name``, or None.

    The module itself, not a name imported from it: ``spider.solver`` exports a function named
    ``hint``, and a constant set on a module that only imported it would change nothing."""
    for module_name in HINT_MODULES:
        module = importlib.import_module(module_name)
        if name in vars(module):
            return module
    return None


def hint_constant(name: str) -> object:
    """The value of the hint constant ``name`` (None when there is none of that name)."""
    module = hint_constant_module(name)
    return None if module is None else getattr(module, name)


def set_hint_constants(weights: Weights) -> None:
    """Set each named constant in the module that defines it (budgets stay whole numbers)."""
    for name, value in weights.items():
        module = hint_constant_module(name)
        if module is None:
            raise KeyError(f"{name} is not a constant of the quick hint")
        setattr(module, name, int(value) if name.endswith("_NODES") else value)


def _parse_weight(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    if not sep or not name.lstrip("_").isupper() or hint_constant_module(name) is None:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, NAME a hint constant")
    current = hint_constant(name)
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise argparse.ArgumentTypeError(f"{name} is not a numeric weight")
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {value!r} is not a number") from None


def play(task: tuple[Weights, int, str, int]) -> tuple[bool, int, int, float]:
    """One deal by the hint with ``weights`` set: (won, runs, face-down left, seconds)."""
    weights, suits, rule, number = task
    set_hint_constants(weights)
    game = Game.new("spider", suits=suits, rule=rule, number=number, undo_limit=None)
    started = time.perf_counter()
    play_out(game)
    return game.is_won, len(game.completed), sum(game.face_down), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="weights", type=_parse_weight, action="append", default=[])
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    parser.add_argument("--rule", choices=("classic", "flexible"), default="classic")
    parser.add_argument("--first", type=int, default=TUNING_FROM)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.first < TUNING_FROM:
        parser.error(f"--first must be at least {TUNING_FROM:,}: lower deals are reported")
    if not 1 <= args.deals <= 100_000 or not 1 <= args.jobs <= 64:
        parser.error("--deals from 1 to 100,000 and --jobs from 1 to 64")
    weights: Weights = dict(args.weights)
    numbers = range(args.first, args.first + args.deals)
    tasks = [(weights, args.suits, args.rule, number) for number in numbers]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, tasks))
    wins = sum(won for won, *_ in results)
    changed = ", ".join(f"{k}={v:g}" for k, v in weights.items()) or "as they are"
    print(
        f"weights {changed}; spider {args.suits} {args.rule}, deals {args.first}-"
        f"{args.first + args.deals - 1}: wins {wins}/{args.deals}, "
        f"runs {statistics.mean(r[1] for r in results):.2f}, "
        f"face down left {statistics.mean(r[2] for r in results):.1f}, "
        f"{statistics.mean(r[3] for r in results):.1f} s/game"
    )


if __name__ == "__main__":
    main()
