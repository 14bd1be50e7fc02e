"""Summarise fair-play results: the JSON-lines files ``benchmarks/fairplay.py --out`` writes.

    .venv/bin/python benchmarks/summarize.py benchmarks/results/hint-0-499.jsonl \\
        benchmarks/results/think10-*.jsonl [--pairs] [--svg docs/strength.svg] [--commands]

Prints a Markdown table with one row per player, budget and variant: the deals played, wins,
win rate with its 95% Wilson interval, mean runs removed, mean face-down cards left and the
median seconds a game.  A game that appears in several files (the same player, budget, variant
and deal) counts once, as the last file has it.  ``FILE:VARIANT,...`` reads only those variants
of a file (``spider-4-classic``, as ``--variants`` names them).

- ``--pairs``: for every two rows of one variant, on the deals both played: the deals won only by
  each, and the two-sided exact sign test on them (the chance of a split at least that uneven if
  both were equally strong).
- ``--svg PATH``: the win rates and their intervals as a chart (a small SVG, no dependency).
- ``--commands``: the ``fairplay.py`` command that plays each row's games again.

Records without ``won`` (``benchmarks/tune_hint.py``'s candidates) are skipped.  The interval is
``spider.solver.full.analyze.wilson_interval``, as ``fairplay.py`` prints it.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spider.solver.full.analyze import wilson_interval


def sign_test(only_a: int, only_b: int) -> float:
    """The two-sided exact sign test: how likely a split at least this uneven is by chance."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class Key:
    """What one row of the table is: a variant, a player and its budget."""

    game: str
    suits: int
    rule: str
    player: str
    iterations: int | None
    hint_nodes: int | None
    trees: int | None

    @property
    def variant(self) -> str:
        """The variant as ``--variants`` names it: ``spider-4-classic``."""
        return f"{self.game}-{self.suits}-{self.rule}"

    @property
    def label(self) -> str:
        """The player and its budget, in words."""
        words = {"hint": "quick hint", "think": "Think harder", "think-first": "Think harder"}
        text = words.get(self.player, self.player)
        if self.hint_nodes:
            text += f", {self.hint_nodes:,} positions"
        if self.iterations is not None:
            text += f", {self.iterations} play-outs"
        if self.player == "think-first":
            text += ", first move only"
        if self.trees:
            text += f", {self.trees} trees"
        return text


@dataclass
class Row:
    """The games of one :class:`Key`, by deal number, and the files they came from."""

    key: Key
    games: dict[int, dict[str, Any]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


def key_of(record: dict[str, Any]) -> Key:
    """The row a fair-play record belongs to."""
    return Key(
        game=record["game"],
        suits=record["suits"],
        rule=record["rule"],
        player=record["player"],
        iterations=record.get("iterations"),
        hint_nodes=record.get("hint_nodes"),
        trees=record.get("trees"),
    )


def read(sources: Iterable[str]) -> dict[Key, Row]:
    """Every fair-play game in ``sources`` (``FILE`` or ``FILE:VARIANT,...``), by row."""
    rows: dict[Key, Row] = {}
    for source in sources:
        path_text, _, only = source.partition(":")
        wanted = set(only.split(",")) if only else None
        path = Path(path_text)
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line torn by an interrupted run, as fairplay.py reads it
            if not isinstance(record, dict) or "won" not in record:
                continue
            key = key_of(record)
            if wanted is not None and key.variant not in wanted:
                continue
            row = rows.setdefault(key, Row(key))
            row.games[record["deal"]] = record
            if path.name not in row.files:
                row.files.append(path.name)
    return dict(sorted(rows.items(), key=lambda item: sort_key(item[0])))


def sort_key(key: Key) -> tuple[Any, ...]:
    """Rows in order: by variant, then player, then budget (no budget first)."""
    budget = (key.iterations or 0, key.hint_nodes or 0, key.trees or 0)
    return (key.game, key.suits, key.rule, key.player, budget)


def deal_ranges(deals: Iterable[int]) -> str:
    """Deal numbers as ranges: ``0-199``, ``0-88, 90``."""
    ordered = sorted(deals)
    parts: list[str] = []
    start = previous = ordered[0]
    for deal in [*ordered[1:], None]:
        if deal is not None and deal == previous + 1:
            previous = deal
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if deal is not None:
            start = previous = deal
    return ", ".join(parts)


def summary(row: Row) -> dict[str, Any]:
    """The figures of one row."""
    games = list(row.games.values())
    wins = sum(bool(game["won"]) for game in games)
    low, high = wilson_interval(wins, len(games))
    return {
        "games": len(games),
        "wins": wins,
        "rate": wins / len(games),
        "low": low,
        "high": high,
        "runs": statistics.mean(game["runs"] for game in games),
        "down": statistics.mean(game["down"] for game in games),
        "seconds": statistics.median(game["seconds"] for game in games),
    }


def table(rows: dict[Key, Row]) -> list[str]:
    """The Markdown table, one line per row."""
    lines = [
        "| variant | player | deals | wins | win % | 95% CI | mean runs | mean down left "
        "| median s/game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, row in rows.items():
        s = summary(row)
        lines.append(
            f"| {key.variant} | {key.label} | {deal_ranges(row.games)} | {s['wins']} "
            f"| {100 * s['rate']:.1f}% | {100 * s['low']:.1f}-{100 * s['high']:.1f}% "
            f"| {s['runs']:.2f} | {s['down']:.1f} | {s['seconds']:.1f} |"
        )
    return lines


def pairs(rows: dict[Key, Row]) -> list[str]:
    """Every two rows of one variant, compared deal by deal on the deals both played (no lines
    when no two rows share a variant and a deal)."""
    lines = [
        "| variant | A | B | deals both played | wins A | wins B | won only by A "
        "| won only by B | sign test p |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (key_a, row_a), (key_b, row_b) in combinations(rows.items(), 2):
        common = sorted(row_a.games.keys() & row_b.games.keys())
        if key_a.variant != key_b.variant or not common:
            continue
        won_a = {deal for deal in common if row_a.games[deal]["won"]}
        won_b = {deal for deal in common if row_b.games[deal]["won"]}
        only_a, only_b = len(won_a - won_b), len(won_b - won_a)
        lines.append(
            f"| {key_a.variant} | {key_a.label} | {key_b.label} | {deal_ranges(common)} "
            f"| {len(won_a)} | {len(won_b)} | {only_a} | {only_b} "
            f"| {sign_test(only_a, only_b):.3f} |"
        )
    return lines if len(lines) > 2 else []


def commands(rows: dict[Key, Row]) -> list[str]:
    """The ``fairplay.py`` command that plays each row's games again (contiguous deals)."""
    lines = []
    for key, row in rows.items():
        first, last = min(row.games), max(row.games)
        options = [f"--players {key.player}", f"--variants {key.variant}"]
        if first:
            options.append(f"--first {first}")
        options.append(f"--deals {last - first + 1}")
        if key.iterations is not None:
            options.append(f"--iterations {key.iterations}")
        if key.hint_nodes:
            options.append(f"--hint-nodes {key.hint_nodes}")
        if key.trees:
            options.append(f"--think-jobs {key.trees}")
        out = f"benchmarks/results/{row.files[-1]}"
        lines.append(
            f".venv/bin/python benchmarks/fairplay.py {' '.join(options)} --jobs 2 --out {out}"
        )
    return lines


def svg(rows: dict[Key, Row]) -> str:
    """The win rate of every row with its 95% interval, one line each, as an SVG document."""
    label_width, plot_width, row_height, top = 330, 420, 24, 34
    width = label_width + plot_width + 60  # room for the last figure
    height = top + row_height * len(rows) + 30

    def x(rate: float) -> float:
        return label_width + rate * plot_width

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="#fff"/>',
        f'<text x="{label_width}" y="16" font-weight="bold">Games won, with the 95% interval'
        "</text>",
    ]
    for percent in range(0, 101, 20):
        at = x(percent / 100)
        parts.append(
            f'<line x1="{at:.1f}" y1="{top - 8}" x2="{at:.1f}" y2="{height - 26}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{at:.1f}" y="{height - 10}" text-anchor="middle">{percent}%</text>')
    for index, (key, row) in enumerate(rows.items()):
        s = summary(row)
        y = top + index * row_height + row_height / 2
        colour = "#1f6fb4" if key.player == "hint" else "#c0492b"
        label = f"{key.variant}: {key.label} ({s['games']} deals)"
        parts += [
            f'<text x="{label_width - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>',
            f'<line x1="{x(s["low"]):.1f}" y1="{y:.1f}" x2="{x(s["high"]):.1f}" y2="{y:.1f}" '
            f'stroke="{colour}" stroke-width="2"/>',
            f'<circle cx="{x(s["rate"]):.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>',
            f'<text x="{x(s["high"]) + 6:.1f}" y="{y + 4:.1f}" fill="#444">'
            f"{100 * s['rate']:.1f}%</text>",
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", help="JSON-lines files, FILE or FILE:VARIANT,...")
    parser.add_argument("--pairs", action="store_true", help="compare rows deal by deal")
    parser.add_argument("--svg", type=Path, default=None, help="write the chart here")
    parser.add_argument("--commands", action="store_true", help="print the commands")
    args = parser.parse_args(argv)
    rows = read(args.files)
    if not rows:
        print("no fair-play games in these files", file=sys.stderr)
        return 1
    print("\n".join(table(rows)))
    compared = pairs(rows) if args.pairs else []
    if compared:
        print()
        print("\n".join(compared))
    if args.commands:
        print()
        print("\n".join(commands(rows)))
    if args.svg is not None:
        args.svg.write_text(svg(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
