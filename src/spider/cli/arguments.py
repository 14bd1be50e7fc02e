"""What the subcommands' arguments share: the parser class, checked number types, the options
that choose a deal."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn, TypeAlias

from spider.limits import excerpt
from spider.shuffle import MAX_NUMBER

__all__ = [
    "DEAL_NUMBER",
    "CommandParser",
    "Commands",
    "add_deal_options",
    "add_variant_options",
    "int_type",
    "positive_number",
]


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``spider COMMAND: error: ...``.

    Every subcommand's parser is one too (``add_parser`` makes them of its parent's class).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# argparse names the type of its subcommands only privately.
Commands: TypeAlias = "argparse._SubParsersAction[CommandParser]"  # noqa: SLF001
"""The ``spider`` command's subcommands, to which each family of commands adds its own."""


def positive_number(high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a finite number greater than 0 and at most ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{excerpt(text)} is not {what}") from None
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"{what} must be greater than 0 and at most {high:,.0f}, not {excerpt(text)}"
            )
        return value

    return parse


def int_type(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        stripped = text.strip()
        if not (stripped.isascii() and stripped.removeprefix("-").isdigit()):
            raise argparse.ArgumentTypeError(f"{excerpt(text)} is not {what}")
        # A whole number of any length is out of range, not "not a number"; only short ones
        # are converted (int() of a huge string is slow and refused by Python over 4,300 digits).
        value = int(stripped) if len(stripped) < 20 else None
        if value is None or not low <= value <= high:
            shown = excerpt(stripped) if value is None else value
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, not {shown}")
        return value

    return parse


DEAL_NUMBER = int_type(0, MAX_NUMBER, "a deal number")


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """The options that choose a variant: game, suits and rule."""
    parser.add_argument(
        "--game",
        choices=("spider", "spiderette"),
        default="spider",
        help="spider: two decks, ten columns; spiderette: one deck, seven columns "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--suits", type=int, choices=(1, 2, 4), default=1, help="number of suits (default: 1)"
    )
    parser.add_argument(
        "--rule",
        choices=("classic", "flexible"),
        default="classic",
        help="classic: only one-suit runs move together; flexible: any descending run "
        "(spider only; default: %(default)s)",
    )


def add_deal_options(parser: argparse.ArgumentParser) -> None:
    """The options of a new deal: the variant, the scoring, and which deal."""
    add_variant_options(parser)
    parser.add_argument(
        "--scoring",
        choices=("standard", "reveal"),
        default="standard",
        help="standard: 500 to start, -1 a move or deal, +100 a run; reveal: 0 to start, "
        "+5 a turned card, +100 a run (default: %(default)s)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--number",
        type=DEAL_NUMBER,
        default=None,
        help=f"deal number, 0 to {MAX_NUMBER} (random if omitted)",
    )
    which.add_argument(
        "--winnable",
        action="store_true",
        help="a random deal from the catalogue of deals the solver proved winnable",
    )
