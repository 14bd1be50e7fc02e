"""Cards: a small int inside the engine, a friendly :class:`Card` outside.

Inside the engine a card is the int ``suit_index << 4 | rank`` with rank 1 (Ace) to 13 (King)
and suit index 0 to 3 for spades, hearts, diamonds and clubs.  Two cards ``a`` and ``b`` form a
one-suit descending pair (``b`` on ``a``) exactly when ``b == a - 1``, because rank 0 never occurs.
"""

from __future__ import annotations

from typing import Final

from spider.limits import excerpt

__all__ = [
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
]

SUITS: Final = ("S", "H", "D", "C")
"""Suit letters in engine order: spades, hearts, diamonds, clubs."""

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_NAMES: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_RANK_BY_NAME: Final = {name: rank for rank, name in enumerate(RANK_NAMES) if name}


def card_int(rank: int, suit: str) -> int:
    """The engine's int for ``rank`` (1-13) of ``suit`` ('S', 'H', 'D', 'C')."""
    return SUITS.index(suit) << 4 | rank


def card_text(card: int) -> str:
    """Text of an engine card int, such as ``'10H'``."""
    return RANK_NAMES[card & 15] + SUITS[card >> 4]


def parse_card_int(text: str) -> int:
    """Read card text (``'QH'``, ``'10s'``, any case) into an engine int; ``ValueError`` if bad."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {excerpt(text)} (a card is text such as 'QH' or '10S')")
    upper = text.strip().upper()
    if len(upper) < 2 or upper[-1] not in SUITS or upper[:-1] not in _RANK_BY_NAME:
        raise ValueError(
            f"not a card: {excerpt(text)} (expected a rank A,2-10,J,Q,K and a suit S,H,D,C)"
        )
    return card_int(_RANK_BY_NAME[upper[:-1]], upper[-1])


class Card:
    """A playing card.  Immutable, hashable, compared by rank and suit.

    Examples:
        >>> Card.parse("QH")
        Card(12, 'H')
        >>> str(Card(10, "S"))
        '10S'
    """

    __slots__ = ("_value",)
    _value: int

    def __new__(cls, rank: int, suit: str) -> Card:
        if not isinstance(rank, int) or not 1 <= rank <= 13:
            raise ValueError(f"rank must be an int from 1 (Ace) to 13 (King), not {excerpt(rank)}")
        if suit not in SUITS:
            raise ValueError(f"suit must be one of 'S', 'H', 'D', 'C', not {excerpt(suit)}")
        return _CARDS[card_int(rank, suit)]

    @classmethod
    def _make(cls, value: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_value", value)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``'QH'``, ``'10S'``, ``'as'``... into a card; ``ValueError`` if it is not one."""
        return _CARDS[parse_card_int(text)]

    @classmethod
    def from_int(cls, value: int) -> Card:
        """The card of an engine int (``suit_index << 4 | rank``)."""
        return _CARDS[value]

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King)."""
        return self._value & 15

    @property
    def suit(self) -> str:
        """'S', 'H', 'D' or 'C'."""
        return SUITS[self._value >> 4]

    def __int__(self) -> int:
        return self._value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __str__(self) -> str:
        return card_text(self._value)

    def __repr__(self) -> str:
        return f"Card({self.rank}, {self.suit!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self._value >> 4) < (other.rank, other._value >> 4)

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))


_CARDS: Final = {
    suit_index << 4 | rank: Card._make(suit_index << 4 | rank)
    for suit_index in range(4)
    for rank in range(1, 14)
}
