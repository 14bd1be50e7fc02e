"""Cards: a small int inside the engine, a friendly :class:`Card` outside.

Inside the engine a card is the int ``suit_index << 4 | rank`` with rank 1 (Ace) to 13 (King)
and suit index 0 to 3 for spades, hearts, diamonds and clubs.  Two cards ``a`` and ``b`` form a
one-suit descending pair (``b`` on ``a``) exactly when ``b == a - 1``, because rank 0 never occurs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "RANK_NAMES",
    "RUN_LENGTH",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "ends_in_run",
    "face_up_columns",
    "movable_length",
]

SUITS: Final = ("S", "H", "D", "C")
"""Suit letters in engine order: spades, hearts, diamonds, clubs."""

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_NAMES: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_RANK_BY_NAME: Final = {name: rank for rank, name in enumerate(RANK_NAMES) if name}

RUN_LENGTH: Final = 13
"""Cards in a complete run, King down to Ace."""


def movable_length(cards: Sequence[int], first_up: int, flexible: bool) -> int:
    """How many top cards of ``cards`` (engine ints, bottom to top, face up from index
    ``first_up``) move together: descending consecutive ranks, of one suit unless
    ``flexible``.  0 when no card is face up."""
    position = len(cards) - 1
    if position < first_up:
        return 0
    length = 1
    if flexible:
        while position > first_up and (cards[position - 1] & 15) == (cards[position] & 15) + 1:
            length += 1
            position -= 1
    else:
        while position > first_up and cards[position - 1] == cards[position] + 1:
            length += 1
            position -= 1
    return length


def face_up_columns(
    columns: Iterable[Sequence[int]], face_down: Iterable[int]
) -> tuple[tuple[int, ...], ...]:
    """The face-up cards of each column (engine ints, bottom to top), given how many cards lie
    face down at the bottom of each: what a player sees of the table."""
    return tuple(tuple(cards[down:]) for cards, down in zip(columns, face_down, strict=True))


def ends_in_run(cards: Sequence[int], face_down: int = 0) -> bool:
    """True when ``cards`` (engine ints, bottom to top, the first ``face_down`` of them face
    down) end in 13 face-up cards of one suit, King down to Ace."""
    if len(cards) - face_down < RUN_LENGTH:
        return False
    ace = cards[-1]
    if ace & 15 != 1:
        return False
    return all(cards[-1 - step] == ace + step for step in range(1, RUN_LENGTH))


def card_int(rank: int, suit: str) -> int:
    """The engine's int for ``rank`` (1-13) of ``suit`` ('S', 'H', 'D', 'C')."""
    return SUITS.index(suit) << 4 | rank


def rank_of(card: int) -> int:
    """Rank (1-13) of an engine card int."""
    return card & 15


def suit_of(card: int) -> str:
    """Suit letter of an engine card int."""
    return SUITS[card >> 4]


def card_text(card: int) -> str:
    """Text of an engine card int, such as ``'10H'``."""
    return RANK_NAMES[card & 15] + SUITS[card >> 4]


def parse_card_int(text: str) -> int:
    """Read card text (``'QH'``, ``'10s'``, any case) into an engine int; ``ValueError`` if bad."""
    upper = text.strip().upper()
    if len(upper) < 2 or upper[-1] not in SUITS or upper[:-1] not in _RANK_BY_NAME:
        raise ValueError(f"not a card: {text!r} (expected a rank A,2-10,J,Q,K and a suit S,H,D,C)")
    return card_int(_RANK_BY_NAME[upper[:-1]], upper[-1])


class Card:
    """A playing card.  Immutable, hashable, compared by rank and suit.

    >>> Card.parse("QH")
    Card(12, 'H')
    >>> str(Card(10, "S"))
    '10S'
    """

    __slots__ = ("_value",)
    _value: int

    def __new__(cls, rank: int, suit: str) -> Card:
        if not isinstance(rank, int) or not 1 <= rank <= 13:
            raise ValueError(f"rank must be an int from 1 (Ace) to 13 (King), not {rank!r}")
        if suit not in SUITS:
            raise ValueError(f"suit must be one of 'S', 'H', 'D', 'C', not {suit!r}")
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
