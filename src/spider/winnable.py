"""Deals proven winnable: the catalogue behind "Winnable deals only".

The solver proved every deal listed in :mod:`spider.winnable_deals` winnable ahead of time
(``scripts/make_winnable.py``), and the tests replay each solution through the engine.  So
dealing a winnable game costs nothing at play time, works offline and in the browser, and is
as trustworthy as the engine itself.

The flexible rule allows every move of the classic rule, so a deal winnable under the classic
rule is winnable under the flexible rule as well: both rules share one list.

Examples:
    >>> from spider.winnable import random_winnable_number, winnable_numbers
    >>> number = random_winnable_number("spiderette", suits=1)
    >>> number in winnable_numbers("spiderette", suits=1)
    True
"""

from __future__ import annotations

import random
from collections.abc import Container

from spider.options import Options
from spider.winnable_deals import WINNABLE_DEALS

__all__ = ["random_winnable_number", "winnable_numbers"]


def winnable_numbers(
    game: str = "spider", suits: int = 1, rule: str = "classic"
) -> tuple[int, ...]:
    """The deal numbers of the catalogue for these options (``ValueError`` if they are bad)."""
    options = Options.make(game, suits, rule)
    return WINNABLE_DEALS.get((options.game, options.suits), ())


def random_winnable_number(
    game: str = "spider",
    suits: int = 1,
    rule: str = "classic",
    avoid: Container[int] = (),
    rng: random.Random | None = None,
) -> int:
    """A deal number from the catalogue, at random, preferring numbers not in ``avoid``
    (for example the deals already played); every number is allowed again once all are."""
    numbers = winnable_numbers(game, suits, rule)
    if not numbers:
        raise LookupError(f"no deal of {game} with {suits} suits is known to be winnable")
    choose = (rng or random).choice
    fresh = [number for number in numbers if number not in avoid]
    return choose(fresh or list(numbers))
