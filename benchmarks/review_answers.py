""" "Where did I lose it?" answers: how often the review says something (proven or probable).

    .venv/bin/python benchmarks/review_answers.py --games 10 [--first 1000]
        [--time 60] [--variants spider-1-classic,spider-2-classic,spider-4-classic]
        [--out results/review_answers.jsonl]

For each variant, deals from ``--first`` on are played out by the fair quick hint
(``fairplay.play_out``: deterministic, no undo) until ``--games`` of them are lost; each lost
game is reviewed with the default budgets (``--time`` seconds in all, the review's default per
position and "Think harder" iterations).  Prints a Markdown table per variant: the deals played,
the lost games reviewed, the proven answers (lost at a move, never winnable, still winnable),
the probable ones (``probably-lost``: "probably lost at about move N", unproven, with evidence)
and how many of them name a single move, ``could-not-tell``, the answered share (proven or
probable), the median span of a probable answer (the moves the losing one can be among: from
``earliest`` to the first position proven lost, or to the end of the line) and the median and
largest seconds per review.  With ``--out`` every review is
appended to a JSON-lines file as it ends, and a run with the same file reads those back instead
of reviewing them again (a long run can be resumed).  One process; run it under ``nice``.
Not a timed test.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fairplay import play_out
from variants import Variant, add_variants_option, selected_variants

from spider import Game
from spider.solver.review import DEFAULT_TIME_LIMIT, PROVEN_STATUSES, review

DEFAULT_VARIANTS = "spider-1-classic,spider-2-classic,spider-4-classic"
MAX_DEALS_PER_GAME = 50
"""Deals tried per lost game wanted (1-suit Spider is mostly won by the hint)."""


def variant_name(variant: Variant) -> str:
    game_name, suits, rule = variant
    return f"{game_name}-{suits}-{rule}"


def read_done(path: Path | None) -> dict[tuple[str, int], dict[str, Any]]:
    """The rows already in ``path``, by (variant, deal)."""
    if path is None or not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {(row["variant"], row["deal"]): row for row in rows}


def review_row(variant: Variant, number: int, seconds: float) -> dict[str, Any] | None:
    """Play deal ``number`` with the hint; the review of the game when the hint lost it."""
    game_name, suits, rule = variant
    game = Game.new(game_name, suits=suits, rule=rule, number=number)
    play_out(game)
    if game.is_won:
        return None
    report = review(game, time_limit=seconds)
    probable = report.probable
    return {
        "variant": variant_name(variant),
        "deal": number,
        "lost": True,
        "actions": report.moves,
        "status": report.status,
        "reason": report.reason,
        "proven": report.proven,
        "number": None if probable is None else probable.number,
        "earliest": None if probable is None else probable.earliest,
        "last_winnable": report.last_winnable,
        "first_unwinnable": report.first_unwinnable,
        "runs": len(report.probes),
        "elapsed": round(report.elapsed, 2),
    }


def rows_for(
    variant: Variant, args: argparse.Namespace, done: dict[tuple[str, int], dict[str, Any]]
) -> tuple[int, list[dict[str, Any]]]:
    """The deals played and the review rows of the first ``args.games`` lost games."""
    rows: list[dict[str, Any]] = []
    played = 0
    for number in range(args.first, args.first + args.games * MAX_DEALS_PER_GAME):
        if len(rows) == args.games:
            break
        played += 1
        row = done.get((variant_name(variant), number))
        if row is None:
            row = review_row(variant, number, args.time) or {
                "variant": variant_name(variant),
                "deal": number,
                "lost": False,
            }
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
            if row["lost"]:
                print(
                    f"  {row['variant']} deal {number}: {row['status']} in {row['elapsed']} s",
                    file=sys.stderr,
                    flush=True,
                )
        if row["lost"]:
            rows.append(row)
    return played, rows


def table_row(variant: Variant, played: int, rows: list[dict[str, Any]]) -> str:
    statuses = Counter(row["status"] for row in rows)
    proven = sum(statuses[status] for status in PROVEN_STATUSES)
    probable = statuses["probably-lost"]
    pinned = sum(
        row["status"] == "probably-lost" and row["number"] == row["earliest"] for row in rows
    )
    spans = [
        (row["first_unwinnable"] or row["actions"]) - row["earliest"] + 1
        for row in rows
        if row["status"] == "probably-lost"
    ]
    span = f"{statistics.median(spans):g}" if spans else "-"
    games = len(rows)
    answered = (proven + probable) / games if games else 0.0
    times = sorted(row["elapsed"] for row in rows) or [0.0]
    game_name, suits, rule = variant
    return (
        f"| {game_name} {suits} {rule} | {played} | {games} | {proven} ({statuses['lost']} / "
        f"{statuses['never-winnable']} / {statuses['still-winnable']}) | {probable} ({pinned}) "
        f"| {statuses['could-not-tell']} | {answered:.0%} | {span} "
        f"| {statistics.median(times):.1f} | {times[-1]:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="lost games per variant")
    parser.add_argument("--first", type=int, default=1000, help="first deal number")
    parser.add_argument("--time", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per review")
    parser.add_argument("--out", type=Path, default=None, help="JSON-lines file (resumable)")
    add_variants_option(parser, DEFAULT_VARIANTS)
    args = parser.parse_args()
    done = read_done(args.out)
    print(
        "Command: "
        + shlex.join([".venv/bin/python", "benchmarks/review_answers.py", *sys.argv[1:]])
    )
    print()
    print(
        "| variant | deals played | lost games | proven (lost / never / still) "
        "| probably lost (one move) | could not tell | answered | median span | median s "
        "| max s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant in selected_variants(args.variants):
        played, rows = rows_for(variant, args, done)
        print(table_row(variant, played, rows), flush=True)


if __name__ == "__main__":
    main()
