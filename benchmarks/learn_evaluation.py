"""Learn the quick hint's evaluation weights from games (not a timed test; not a public API).

    .venv/bin/python benchmarks/learn_evaluation.py --suits 2 --first 20000 --deals 400 \\
        --jobs 2 --out /tmp/games-2-suits.jsonl

Plays deals ``--first`` .. ``--first + --deals - 1`` by the quick hint, as
``benchmarks/fairplay.py``'s ``hint`` player does (no undo, no peeking), and records the visible
facts the evaluation counts at each position the hint was asked about, with the game's outcome.
Then it fits a logistic regression of the outcome (won or not) on those facts, over every
``--every``-th position, and prints the weights scaled so that a turned card is worth 150 (the
hint's ``turn``), under the names of the fields of the hint's parameters
(:class:`spider.solver.params.HintParams`) for 2-suit Spider.

The facts: runs removed, cards face down, empty columns, one-suit links, any-suit links, breaks,
face-up cards over face-down ones, breaks over face-down cards, and deals left (a covariate: it
is the same for every position of one lookahead, so it has no weight in the hint).  Links,
breaks and face-up cards add up to the cards on the table less its non-empty columns, so one
direction of the weights is not identified; a small ridge (``--ridge``) picks the shortest
weights, and any other choice orders the positions of a lookahead the same way.

``--set NAME=VALUE`` plays with a field of the hint's parameters changed, as
``benchmarks/hint_weights.py`` does.
The weights in the hint were learned from games played with the 2-suit weights equal to the
other variants' (the hint before them, which did not yet weigh turned cards:
``--lookahead-only``)::

    .venv/bin/python benchmarks/learn_evaluation.py --suits 2 --first 20000 --deals 400 \\
        --jobs 2 --lookahead-only --out /tmp/games-2-suits.jsonl --set run=1000 \\
        --set empty=120 --set suited=20 --set linked=3 --set breaks=5 --set cover=2 \\
        --set covered_breaks=5

``--out`` keeps one line per game and resumes: run the same command again to add the deals still
missing.  Deals below 10,000 are refused: they are the deals the benchmarks report.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out
from hint_weights import Weights, _parse_weight, hint_params_with

from spider import Game
from spider.solver.hint.quick import HintReport, hint_report, link_counts
from spider.solver.view import VisibleView

TUNING_FROM = 10_000
FACTS = (
    "runs",
    "down",
    "empty",
    "suited",
    "linked",
    "breaks",
    "cover",
    "covered_breaks",
    "deals_left",
)
CONSTANTS = {
    "runs": "run",
    "empty": "empty",
    "suited": "suited",
    "linked": "linked",
    "breaks": "breaks (negated)",
    "cover": "cover (negated)",
    "covered_breaks": "covered_breaks (negated)",
}
"""Which field of ``HintParams`` each learned weight goes to (the hint subtracts the last
three)."""


def facts(view: VisibleView) -> list[int]:
    """The visible facts of one position, in the order of :data:`FACTS`."""
    suited = linked = breaks = cover = covered_breaks = 0
    for column, down in zip(view.columns, view.down, strict=True):
        column_suited, column_linked, column_breaks = link_counts(column)
        suited += column_suited
        linked += column_linked
        breaks += column_breaks
        if down:
            cover += len(column)
            covered_breaks += column_breaks
    deals_left = view.stock_cards // view.column_count
    empty = view.columns.count(())
    return [view.removed, sum(view.down), empty, suited, linked, breaks, cover, covered_breaks,
            deals_left]  # fmt: skip


def play(task: tuple[Weights, bool, str, int, str, int]) -> dict[str, Any]:
    """Play one deal by the quick hint (with ``weights`` changed, and its lines weighed over the
    cards they turn unless ``lookahead_only``); its outcome and the facts of every position it
    was asked about."""
    weights, lookahead_only, game_name, suits, rule, number = task
    params = hint_params_with(weights, suits, rule, game_name)
    game = Game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=None)
    rows: list[list[int]] = []

    def recorded_hint(current: Game) -> HintReport:
        rows.append(facts(VisibleView.from_game(current)))
        return hint_report(current, params=params, weigh_cards=False if lookahead_only else None)

    play_out(game, ask=recorded_hint)
    return {"deal": number, "won": game.is_won, "runs": len(game.completed), "rows": rows}


def fit(rows: Sequence[Sequence[float]], outcomes: Sequence[float], ridge: float) -> list[float]:
    """Logistic regression by Newton's method on standardised facts; the weights of the raw
    facts (intercept left out)."""
    count, width = len(rows), len(rows[0])
    means = [sum(row[j] for row in rows) / count for j in range(width)]
    spreads = [
        math.sqrt(sum((row[j] - means[j]) ** 2 for row in rows) / count) or 1.0
        for j in range(width)
    ]
    data = [[1.0] + [(row[j] - means[j]) / spreads[j] for j in range(width)] for row in rows]
    weights = [0.0] * (width + 1)
    for _ in range(50):
        gradient = [-ridge * weight for weight in weights]
        hessian = [[ridge if i == k else 0.0 for k in range(width + 1)] for i in range(width + 1)]
        for z, outcome in zip(data, outcomes, strict=True):
            score = max(-30.0, min(30.0, sum(w * x for w, x in zip(weights, z, strict=True))))
            chance = 1 / (1 + math.exp(-score))
            slope = chance * (1 - chance)
            for i, zi in enumerate(z):
                gradient[i] += (outcome - chance) * zi
                row = hessian[i]
                for k, zk in enumerate(z):
                    row[k] += slope * zi * zk
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(map(abs, step)) < 1e-7:
            break
    return [weights[j + 1] / spreads[j] for j in range(width)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gauss-Jordan elimination with partial pivoting."""
    size = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                for k in range(col, size + 1):
                    rows[r][k] -= factor * rows[col][k]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set",
        dest="weights",
        type=_parse_weight,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="play with this field of HintParams changed (to learn from another policy's games)",
    )
    parser.add_argument(
        "--lookahead-only",
        action="store_true",
        help="play the lookahead's best move, not weighed over the cards it turns (the hint "
        "the shipped 2-suit weights were learned from)",
    )
    parser.add_argument("--game", choices=("spider", "spiderette"), default="spider")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=2)
    parser.add_argument("--rule", choices=("classic", "flexible"), default="classic")
    parser.add_argument("--first", type=int, default=20_000, help="first deal (10,000 and up)")
    parser.add_argument("--deals", type=int, default=400, help="deals to play")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--every", type=int, default=3, help="fit on every N-th position")
    parser.add_argument("--ridge", type=float, default=1.0, help="ridge on standardised weights")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per game; resumes")
    args = parser.parse_args()
    if args.first < TUNING_FROM or args.deals < 1 or args.jobs < 1 or args.every < 1:
        parser.error(f"deals start at {TUNING_FROM:,} or more; --deals, --jobs, --every >= 1")
    done = set()
    if args.out.exists():
        done = {json.loads(line)["deal"] for line in args.out.read_text().splitlines() if line}
    tasks = [
        (dict(args.weights), args.lookahead_only, args.game, args.suits, args.rule, number)
        for number in range(args.first, args.first + args.deals)
        if number not in done
    ]
    with ProcessPoolExecutor(args.jobs) as pool, args.out.open("a") as out:
        for record in pool.map(play, tasks):
            out.write(json.dumps(record) + "\n")
            out.flush()
    games = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    rows, outcomes = [], []
    for record in games:
        for row in record["rows"][:: args.every]:
            rows.append(row)
            outcomes.append(1.0 if record["won"] else 0.0)
    weights = dict(zip(FACTS, fit(rows, outcomes, args.ridge), strict=True))
    scale = 150 / -weights["down"]
    won = sum(record["won"] for record in games)
    print(f"{len(games)} games ({won} won), {len(rows)} positions fitted")
    print("| fact | logistic weight | scaled (a turned card = 150) | HintParams field |")
    print("|---|---|---|---|")
    for name, weight in weights.items():
        constant = CONSTANTS.get(name, "turn" if name == "down" else "(covariate)")
        print(f"| {name} | {weight:+.5f} | {weight * scale:+.1f} | {constant} |")


if __name__ == "__main__":
    main()
