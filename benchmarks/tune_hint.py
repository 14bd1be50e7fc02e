"""Tune several of the quick hint's weights at once with CMA-ES, on tuning deals only.

    .venv/bin/python benchmarks/tune_hint.py --suits 4 --first 10000 --deals 60 \\
        --generations 10 --jobs 2 --out benchmarks/results/tune-hint-4-classic.jsonl

Each candidate is a set of weights (the fields of the quick hint's parameters named by
``--weights``, :class:`spider.solver.params.HintParams`), searched as the logarithm of its
ratio to the variant's default, so CMA-ES's steps are factors and the weights stay positive.  A
candidate plays deals ``--first`` .. ``--first + --deals - 1`` by the quick hint, as
``benchmarks/fairplay.py``'s ``hint`` player does (no undo, no peeking), and scores the mean, over
those deals, of the cards turned plus ``RUN_POINTS`` per run removed plus ``WIN_POINTS`` per win:
wins alone are too rare at 4-suit Classic (a few in a hundred) to tell candidates apart.  Every
candidate plays the same deals; that removes less of the luck than one would hope, since a small
change of weight changes one early choice and the game goes elsewhere (``lab/strength-history.md``
has the figures).

Every candidate's result goes to ``--out`` as it ends.  The optimiser's candidates depend only on
its seed and the results told to it, so running the same command again replays the recorded
results and goes on where it stopped.  Deals below 10,000 are refused: they are the deals the
benchmarks report.  At the end it prints the best candidate and the optimiser's mean as
``--set`` options for ``benchmarks/hint_weights.py``, which checks them on other tuning deals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hint_weights import TUNING_FROM, Weights, hint_constant, play

warnings.filterwarnings("ignore", message="Could not import matplotlib")
import cma  # noqa: E402  (after the filter: it warns on import when matplotlib is missing)

DEFAULT_WEIGHTS = "empty,suited,linked,breaks,cover,reveal_free,reveal_suited,reveal_loose"
RUN_POINTS = 5.0
WIN_POINTS = 20.0
FACE_DOWN_AT_START = 44
"""Cards a Spider deal leaves face down, whatever its suits."""
BOUND = 2.0
"""Each weight stays within a factor e^2 (about 7.4) of its value as it is."""


def weights_of(names: list[str], base: list[float], x: list[float]) -> Weights:
    """The weights a candidate vector stands for: ``base[i] * e^x[i]``."""
    return {name: value * math.exp(step) for name, value, step in zip(names, base, x, strict=True)}


def score(results: list[tuple[bool, int, int, float]]) -> float:
    """The tuning score of a candidate's games (higher is better): turned, runs and wins."""
    total = sum(
        (FACE_DOWN_AT_START - down) + RUN_POINTS * runs + WIN_POINTS * won
        for won, runs, down, _ in results
    )
    return total / len(results)


def key_of(x: list[float], args: argparse.Namespace) -> str:
    """What identifies a candidate's games in the output file: the variant, the deals and the
    candidate's vector (rounded)."""
    deals = f"{args.suits}-{args.rule}-{args.first}+{args.deals}"
    return deals + ":" + ",".join(f"{value:.6f}" for value in x)


def read_done(path: Path) -> dict[str, dict[str, Any]]:
    """The candidates already played, by :func:`key_of`."""
    if not path.exists():
        return {}
    done = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            done[record["key"]] = record
    return done


def evaluate(
    pool: ProcessPoolExecutor,
    candidates: list[list[float]],
    names: list[str],
    base: list[float],
    args: argparse.Namespace,
) -> list[dict[str, Any]]:
    """Play every candidate on the tuning deals (all games of the generation at once)."""
    numbers = range(args.first, args.first + args.deals)
    futures = {
        key_of(x, args): [
            pool.submit(play, (weights_of(names, base, x), args.suits, args.rule, number))
            for number in numbers
        ]
        for x in candidates
    }
    records = []
    for x in candidates:
        results = [future.result() for future in futures[key_of(x, args)]]
        records.append(
            {
                "key": key_of(x, args),
                "x": x,
                "weights": weights_of(names, base, x),
                "score": score(results),
                "wins": sum(won for won, *_ in results),
                "runs": sum(runs for _, runs, _, _ in results) / len(results),
                "down": sum(down for _, _, down, _ in results) / len(results),
                "seconds": sum(seconds for *_, seconds in results) / len(results),
                "suits": args.suits,
                "rule": args.rule,
                "first": args.first,
                "deals": args.deals,
            }
        )
    return records


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--weights", default=DEFAULT_WEIGHTS, help="comma list of fields of HintParams"
    )
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    parser.add_argument("--rule", choices=("classic", "flexible"), default="classic")
    parser.add_argument("--first", type=int, default=TUNING_FROM)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--population", type=int, default=6)
    parser.add_argument("--sigma", type=float, default=0.4, help="first step, as a log-factor")
    parser.add_argument(
        "--elitist",
        action="store_true",
        help="CMA-ES elitism for the starting point (cma's CMA_elitist='initial')",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="JSON lines; resumes")
    args = parser.parse_args()
    if args.first < TUNING_FROM:
        parser.error(f"--first must be at least {TUNING_FROM:,}: lower deals are reported")
    if not 1 <= args.deals <= 10_000 or not 1 <= args.jobs <= 64:
        parser.error("--deals from 1 to 10,000 and --jobs from 1 to 64")
    if not 1 <= args.generations <= 1000 or not 4 <= args.population <= 100:
        parser.error("--generations from 1 to 1,000 and --population from 4 to 100")
    names = [name.strip() for name in args.weights.split(",") if name.strip()]
    defaults = [hint_constant(name, args.suits, args.rule) for name in names]
    unknown = [name for name, value in zip(names, defaults, strict=True) if value is None]
    if unknown or not names:
        parser.error(f"not numeric parameters of the hint: {', '.join(unknown) or '(none)'}")
    base = [float(value) for value in defaults if value is not None]
    done = read_done(args.out)
    options = {
        "popsize": args.population,
        "seed": args.seed,
        "bounds": [-BOUND, BOUND],
        "verbose": -9,
        "CMA_elitist": "initial" if args.elitist else False,
    }
    optimiser = cma.CMAEvolutionStrategy([0.0] * len(names), args.sigma, options)
    best: dict[str, Any] | None = None
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, args.out.open("a") as sink:
        as_they_are = [0.0] * len(names)
        if key_of(as_they_are, args) not in done:
            (record,) = evaluate(pool, [as_they_are], names, base, args)
            record["generation"] = -1
            done[record["key"]] = record
            sink.write(json.dumps(record) + "\n")
            sink.flush()
        baseline = done[key_of(as_they_are, args)]
        print(
            f"the weights as they are: {baseline['score']:.2f} ({baseline['wins']} wins, "
            f"{baseline['runs']:.2f} runs, {baseline['down']:.1f} face down)",
            flush=True,
        )
        for generation in range(args.generations):
            started = time.perf_counter()
            candidates = [list(map(float, x)) for x in optimiser.ask()]
            todo = [x for x in candidates if key_of(x, args) not in done]
            for record in evaluate(pool, todo, names, base, args) if todo else []:
                record["generation"] = generation
                done[record["key"]] = record
                sink.write(json.dumps(record) + "\n")
                sink.flush()
            records = [done[key_of(x, args)] for x in candidates]
            optimiser.tell(candidates, [-record["score"] for record in records])
            for record in records:
                if best is None or record["score"] > best["score"]:
                    best = record
            scores = sorted((record["score"] for record in records), reverse=True)
            print(
                f"generation {generation}: best {scores[0]:.2f}, median "
                f"{scores[len(scores) // 2]:.2f}, {time.perf_counter() - started:.0f} s"
                f"{'' if todo else ' (read back)'}",
                flush=True,
            )
    mean = weights_of(names, base, [float(value) for value in optimiser.mean])
    assert best is not None
    print(
        f"best candidate: score {best['score']:.2f}, {best['wins']} wins, "
        f"{best['runs']:.2f} runs, {best['down']:.1f} face down"
    )
    print("  " + " ".join(f"--set {n}={v:.4g}" for n, v in best["weights"].items()))
    print("optimiser's mean:")
    print("  " + " ".join(f"--set {n}={v:.4g}" for n, v in mean.items()))


if __name__ == "__main__":
    main()
