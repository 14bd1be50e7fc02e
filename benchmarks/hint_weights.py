"""Probe the quick hint's weights on tuning deals (not a timed test; not a public API).

    .venv/bin/python benchmarks/hint_weights.py --set empty=250 --set turn=250 \\
        --suits 4 --first 10000 --deals 200 --jobs 2

Plays deals ``--first`` .. ``--first + --deals - 1`` of Spider (``--suits``, ``--rule``) by the
quick hint, as ``benchmarks/fairplay.py``'s ``hint`` player does (no undo, no peeking), with the
fields of its parameters named by ``--set`` changed from the variant's defaults
(:class:`spider.solver.params.HintParams`, passed to every ``hint_report``), and prints one
line: wins, mean runs removed, mean cards left face down, seconds per game. With no ``--set`` it
measures the defaults, the baseline to compare with. Deals below 10,000 are refused: they are the
deals the benchmarks report (``benchmarks/fairplay.py``), never tuned on.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out

from spider import Game
from spider.solver.hint.quick import hint_report
from spider.solver.params import HintParams

TUNING_FROM = 10_000

Weights = dict[str, float]
"""Fields of :class:`HintParams` and the values they take instead of the variant's."""

_NUMERIC = {
    field.name: field.type
    for field in dataclasses.fields(HintParams)
    if field.type in {"int", "float"}
}
"""The numeric fields of :class:`HintParams`, by name, with their type (as written)."""


def hint_constant(name: str, suits: int = 4, rule: str = "classic") -> float | None:
    """The default value of the numeric field ``name`` of the quick hint's parameters in Spider
    with ``suits`` suits under ``rule`` (None when there is no such field)."""
    if name not in _NUMERIC:
        return None
    value = getattr(HintParams.for_variant("spider", suits, rule), name)
    assert isinstance(value, int | float)
    return value


def hint_params_with(weights: Weights, suits: int, rule: str, game: str = "spider") -> HintParams:
    """The variant's defaults (``game`` with ``suits`` suits under ``rule``) with ``weights``
    changed (budgets and counts stay whole numbers)."""
    changes = {
        name: int(value) if _NUMERIC.get(name) == "int" else value
        for name, value in weights.items()
    }
    unknown = sorted(set(changes) - set(_NUMERIC))
    if unknown:
        raise KeyError(f"not numeric parameters of the quick hint: {', '.join(unknown)}")
    return dataclasses.replace(HintParams.for_variant(game, suits, rule), **changes)


def _parse_weight(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    if not sep or name not in _NUMERIC:
        fields = ", ".join(sorted(_NUMERIC))
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected NAME=VALUE, NAME a numeric field of HintParams ({fields})"
        )
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {value!r} is not a number") from None


def play(task: tuple[Weights, int, str, int]) -> tuple[bool, int, int, float]:
    """One deal by the hint with ``weights`` changed: (won, runs, face-down left, seconds)."""
    weights, suits, rule, number = task
    params = hint_params_with(weights, suits, rule)
    game = Game.new("spider", suits=suits, rule=rule, number=number, undo_limit=None)
    started = time.perf_counter()
    play_out(game, ask=lambda current: hint_report(current, params=params))
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
    hint_params_with(weights, args.suits, args.rule)  # a bad field fails here, not in a worker
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
