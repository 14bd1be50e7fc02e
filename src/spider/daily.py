"""The daily deal: one deal per variant per calendar day, the same for every player, offline too.

The deal of a day is a pure function of the date and the variant (see ``docs/shuffle.md``):

1. the key is the ISO date, a slash and the code's variant prefix, in ASCII:
   ``"2026-11-30/SP1-S2C"`` (spider, 2 suits, classic) or ``"2026-11-30/SD1-S4"``;
2. the SHA-256 of the key, its first 8 bytes read as a big-endian integer ``h``;
3. the deal is ``sorted(catalogue)[h % len(catalogue)]``, where the catalogue is the list of
   deals the solver proved winnable for that game and suit count (:mod:`spider.winnable`).

So every daily deal can be won.  The date is the player's own calendar date: the app sends its
local date, ``spider daily`` uses the computer's.  The catalogue is part of the definition: the
test vectors of ``docs/shuffle.md`` pin it, and a test checks them against this module.

Examples:
    >>> [deal.code for deal in daily_deals(date(2026, 11, 30))][:1]
    ['SP1-S1C-GZJHIZH']
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from typing import Final

from spider.codes import format_code
from spider.limits import excerpt
from spider.options import Options
from spider.winnable import winnable_numbers

__all__ = ["DailyDeal", "daily_deals", "daily_number", "parse_day"]

_DAY_RE: Final = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$", re.ASCII)


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The deal of one variant on one day."""

    day: date
    options: Options
    number: int

    @property
    def code(self) -> str:
        """The game code of the deal, such as ``SP1-S2C-FYLUWXF``."""
        return format_code(self.options, self.number)

    def to_json(self) -> dict[str, object]:
        """The deal as the protocol sends it."""
        return {
            "game": self.options.game,
            "suits": self.options.suits,
            "rule": self.options.rule,
            "code": self.code,
            "number": self.number,
        }


def parse_day(text: object) -> date:
    """A date written ``YYYY-MM-DD`` (a real calendar date); ``ValueError`` otherwise."""
    match = _DAY_RE.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{excerpt(text)} is not a date: expected YYYY-MM-DD, such as 2026-11-30")
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError as error:
        raise ValueError(f"{excerpt(text)} is not a date: {error}") from None


def _prefix(options: Options) -> str:
    """The variant part of a code: ``SP1-S2C`` or ``SD1-S4``."""
    return format_code(options, 0).rsplit("-", 1)[0]


def daily_number(day: date, options: Options) -> int:
    """The deal number of ``options``' daily deal on ``day`` (see the module docstring)."""
    catalogue = sorted(winnable_numbers(options.game, options.suits, options.rule))
    if not catalogue:
        raise LookupError(
            f"no deal of {options.game} with {options.suits} suits is proven winnable"
        )
    key = f"{day.isoformat()}/{_prefix(options)}".encode("ascii")
    digest = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    return catalogue[digest % len(catalogue)]


def daily_deals(day: date) -> list[DailyDeal]:
    """The daily deal of every variant the player can choose, in menu order."""
    return [DailyDeal(day, options, daily_number(day, options)) for options in Options.variants()]
