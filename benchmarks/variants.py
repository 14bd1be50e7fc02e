"""The seven variants the solver benchmarks measure, and the --variants option."""

from __future__ import annotations

import argparse

Variant = tuple[str, int, str]

VARIANTS: list[Variant] = [
    ("spider", 1, "classic"),
    ("spider", 2, "classic"),
    ("spider", 4, "classic"),
    ("spider", 4, "flexible"),
    ("spiderette", 1, "classic"),
    ("spiderette", 2, "classic"),
    ("spiderette", 4, "classic"),
]


def add_variants_option(parser: argparse.ArgumentParser, default: str = "all") -> None:
    """Add ``--variants`` (``all`` or a comma list like ``spider-4-classic``)."""
    parser.add_argument("--variants", default=default, help="comma list like spider-4-classic")


def selected_variants(option: str) -> list[Variant]:
    """The variants named by the ``--variants`` option, in the standard order."""
    if option == "all":
        return list(VARIANTS)
    wanted = set(option.split(","))
    unknown = wanted - {f"{game}-{suits}-{rule}" for game, suits, rule in VARIANTS}
    if unknown:
        raise SystemExit(f"unknown variants: {', '.join(sorted(unknown))}")
    return [v for v in VARIANTS if f"{v[0]}-{v[1]}-{v[2]}" in wanted]
