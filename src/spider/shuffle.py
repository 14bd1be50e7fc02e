"""The documented shuffle: SplitMix64 seeded from the game, then Fisher-Yates.

See ``docs/shuffle.md`` for the algorithm in words and test vectors.
"""

from __future__ import annotations

from typing import Final

from spider.limits import excerpt
from spider.options import Options

__all__ = ["MAX_NUMBER", "SplitMix64", "seed_for", "shuffled_deck"]

MAX_NUMBER: Final = 26**7 - 1
"""Largest deal number: seven base-26 letters."""

_MASK64: Final = (1 << 64) - 1
_GAME_IDS: Final = {"spider": 1, "spiderette": 2}


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014), 64-bit outputs."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def __reduce__(self) -> tuple[type[SplitMix64], tuple[int]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (SplitMix64, (self.state,))

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)


def seed_for(options: Options, number: int) -> int:
    """The 64-bit seed: game id (spider 1, spiderette 2) << 40 | suits << 32 | number."""
    return _GAME_IDS[options.game] << 40 | options.suits << 32 | number


def shuffled_deck(options: Options, number: int) -> list[int]:
    """The shuffled cards of deal ``number``: tableau cards first, then the stock.

    Fisher-Yates from the last index down: for ``i`` from n-1 to 1, ``j = next() % (i + 1)``,
    swap ``deck[i]`` and ``deck[j]``.  The rule does not take part: classic and flexible games
    with the same number have the same cards.
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER:
        raise ValueError(
            f"deal number must be an int from 0 to {MAX_NUMBER}, not {excerpt(number)}"
        )
    deck = options.composition()
    rng = SplitMix64(seed_for(options, number))
    for i in range(len(deck) - 1, 0, -1):
        j = rng.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
