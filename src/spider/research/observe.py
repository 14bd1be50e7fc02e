"""The visible position as fixed-size integers: the one layout of the research extras.

:mod:`spider.research.gym` (Gymnasium) and :mod:`spider.research.openspiel` (OpenSpiel) both read a
position through :class:`Layout`, so their observations hold the same things in the same places:
each column's face-up cards (bottom to top, as card indices 1..52, 0 where there is no card), how
many cards lie face down under them, the deals left, and the suit of each run removed.  Nothing
face down and nothing of the stock is read.  The standard library only.

Examples:
    >>> from spider import Game
    >>> layout = Layout.of(Game.new("spiderette", suits=2, number=3).options)
    >>> layout.columns, layout.depth, layout.max_face_down, layout.deals, layout.runs
    (7, 52, 6, 4, 4)
    >>> card_index(0x1D), card_from_index(26)  # the king of hearts
    (26, 29)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spider.env import (
    DEAL_ACTION,
    action_count,
    decode_action,
    encode_action,
    legal_action_numbers,
)
from spider.game import Game
from spider.limits import excerpt
from spider.moves import Action
from spider.options import Options
from spider.rules import RUN_LENGTH

__all__ = [
    "CARD_TYPES",
    "DEAL_ACTION",
    "Layout",
    "VisibleRows",
    "card_from_index",
    "card_index",
]

CARD_TYPES: Final = 4 * RUN_LENGTH
"""Distinct cards (suit and rank): 52.  Card index ``suit * 13 + rank``, from 1 to 52."""


def card_index(card: int) -> int:
    """The index (1..52) of an engine card int (``suit_index << 4 | rank``)."""
    return (card >> 4) * RUN_LENGTH + (card & 15)


def card_from_index(index: int) -> int:
    """The engine card int of a card index (1..52); ``ValueError`` outside."""
    if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= CARD_TYPES:
        raise ValueError(f"a card index is an int from 1 to {CARD_TYPES}, not {excerpt(index)}")
    suit, rank = divmod(index - 1, RUN_LENGTH)
    return suit << 4 | (rank + 1)


@dataclass(frozen=True, slots=True)
class VisibleRows:
    """What a player sees, padded to the layout's sizes (lists of ints)."""

    face_up: list[list[int]]
    """``columns`` rows of ``depth`` card indices, bottom to top, 0 after the last card."""
    face_down: list[int]
    deals_left: int
    completed: list[int]
    """``runs`` suit numbers (1 spades, 2 hearts, 3 diamonds, 4 clubs) in order, 0 for none yet."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The sizes of a variant's observation and action encoding.

    ``depth`` bounds the face-up cards of a column: face-up cards only ever lie in descending
    sequences of at most 13, and only a deal starts a new one on a column, so a column holds at
    most ``13 * (1 + deals)`` face-up cards (and never more than the whole deck).
    """

    options: Options
    columns: int
    depth: int
    max_face_down: int
    deals: int
    runs: int

    @classmethod
    def of(cls, options: Options) -> Layout:
        """The layout of a variant."""
        start = Game.from_options(options, 0)
        deals = start.deals_left
        return cls(
            options=options,
            columns=options.column_count,
            depth=min(options.card_count, RUN_LENGTH * (1 + deals)),
            max_face_down=max(start.face_down),
            deals=deals,
            runs=options.card_count // RUN_LENGTH,
        )

    @property
    def num_actions(self) -> int:
        """The size of the action encoding: the deal, then every (source, destination, count)."""
        return action_count(self.columns)

    def action_to_move(self, action: int) -> Action:
        """The move (or ``DEAL``) of an integer action (:func:`spider.env.decode_action`)."""
        return decode_action(action, self.columns)

    def move_to_action(self, move: Action) -> int:
        """The integer of a move or of ``DEAL`` (:func:`spider.env.encode_action`)."""
        return encode_action(move, self.columns)

    def legal_actions(self, game: Game) -> list[int]:
        """The legal actions of ``game``, sorted (the deal, 0, first when allowed)."""
        return legal_action_numbers(game, self.columns)

    def visible(self, game: Game) -> VisibleRows:
        """The visible position of ``game`` in this layout (never a face-down or stock card)."""
        position = game.position()
        face_up = []
        for cards in position.face_up:
            if len(cards) > self.depth:  # impossible by the rules (see the class docstring)
                raise RuntimeError(f"a column holds {len(cards)} face-up cards, over {self.depth}")
            row = [card_index(card) for card in cards]
            face_up.append(row + [0] * (self.depth - len(row)))
        completed = [suit + 1 for suit in position.removed]
        return VisibleRows(
            face_up=face_up,
            face_down=list(position.face_down),
            deals_left=game.deals_left,
            completed=completed + [0] * (self.runs - len(completed)),
        )
