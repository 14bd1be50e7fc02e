"""The visible position as chains of descending ranks, one-hot (NumPy): the network encoding.

OpenSpiel's observation tensor (:class:`spider.research.openspiel.SpiderObserver`) and the
Gymnasium observation ``"onehot"`` (:mod:`spider.research.arrays`) are both written here, by one
:class:`ChainEncoding`, so they hold the same numbers.  Its parts, each a flat vector of 0 and 1:

- ``face_down`` (columns x (most face-down + 1)): each column's face-down count, one-hot;
- ``face_up`` (columns x chains x suits x 13): each column's face-up cards as *chains*, top
  first: a chain is a longest stretch whose ranks descend by one (of any suits), so a chain holds
  each rank at most once and is stored as a suit-by-rank grid, 1 where it holds that card.  A
  card only ever lands on a card one rank higher (or on no face-up card), except when a deal
  drops it, so a column holds at most ``1 + deals`` chains: the encoding loses nothing;
- ``deals_left`` (deals + 1): one-hot;
- ``completed`` (runs x suits): the suit of each run removed, one-hot, in order.

``suits`` is the variant's suit count (the cards of a one- or two-suit deck are spades, or spades
and hearts).  A column's chains depend on that column only, so after an action only the columns
it touched are written again.

Examples:
    >>> from spider import Game
    >>> from spider.research.observe import Layout
    >>> game = Game.new("spiderette", suits=2, number=3)
    >>> encoding = ChainEncoding(Layout.of(game.options))
    >>> encoding.shapes["face_up"], encoding.size  # 7 columns, 5 chains, 2 suits
    ((7, 5, 2, 13), 972)
    >>> parts = encoding.zeros(np.uint8)
    >>> encoding.write_position(parts, game.position(), game.deals_left)
    >>> int(parts["face_up"].sum()), [int(i) for i in parts["deals_left"].nonzero()[0]]
    (7, [4])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

try:
    import numpy as np
    from numpy.typing import NDArray
except ModuleNotFoundError as error:  # pragma: no cover - the extras install NumPy
    raise ModuleNotFoundError(
        f"spider.research.chains needs NumPy ({error.name} is missing): "
        "pip install 'spider-solitaire[gym]' (or 'spider-solitaire[openspiel]')",
        name=error.name,
    ) from None

from spider.position import Position
from spider.research.observe import Layout
from spider.rules import RUN_LENGTH

__all__ = ["PARTS", "ChainEncoding", "Parts"]

PARTS: Final = ("face_down", "face_up", "deals_left", "completed")
"""The parts of the encoding, in the order OpenSpiel's tensor puts them end to end."""

Parts = dict[str, NDArray[Any]]
"""One flat array per part (:data:`PARTS`), of any number type."""


class ChainEncoding:
    """The chain encoding of one variant's visible position, written into flat arrays.

    :attr:`shapes` gives each part's shape; the arrays written to are flat (or flat views), one a
    part, and are written in place.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.suits = layout.options.suits
        self.chains = 1 + layout.deals
        self.chain_size = self.suits * RUN_LENGTH
        self.column_size = self.chains * self.chain_size
        self.shapes: dict[str, tuple[int, ...]] = {
            "face_down": (layout.columns, layout.max_face_down + 1),
            "face_up": (layout.columns, self.chains, self.suits, RUN_LENGTH),
            "deals_left": (layout.deals + 1,),
            "completed": (layout.runs, self.suits),
        }
        self.sizes = {name: int(np.prod(shape)) for name, shape in self.shapes.items()}
        self.size = sum(self.sizes.values())
        """The values of all the parts together."""

    def zeros(self, dtype: type[Any]) -> Parts:
        """New arrays of the parts, all 0, of ``dtype``."""
        return {name: np.zeros(self.sizes[name], dtype) for name in PARTS}

    def views(self, flat: NDArray[Any], start: int = 0) -> Parts:
        """Views of the parts in ``flat``, end to end in :data:`PARTS` order from ``start``."""
        parts = {}
        for name in PARTS:
            parts[name] = flat[start : start + self.sizes[name]]
            start += self.sizes[name]
        return parts

    def write_position(self, parts: Parts, position: Position, deals_left: int) -> None:
        """Write every part from ``position`` and the deals left in the stock."""
        self.write_columns(parts, position, range(self.layout.columns))
        self.write_completed(parts, position.removed)
        self.write_deals_left(parts, deals_left)

    def write_columns(self, parts: Parts, position: Position, columns: Iterable[int]) -> None:
        """Write the face-up chains and the face-down count of each of ``columns``."""
        for column in columns:
            down = position.face_down[column]
            self.write_face_up(parts, column, position.columns[column][down:])
            self.write_face_down(parts, column, down)

    def write_face_up(self, parts: Parts, column: int, cards: Sequence[int]) -> None:
        """Write one column's face-up cards (engine card ints, bottom to top) as chains."""
        first = column * self.column_size
        row = parts["face_up"][first : first + self.column_size]
        row.fill(0)
        row[self.chain_places(cards)] = 1

    def write_face_down(self, parts: Parts, column: int, down: int) -> None:
        """Write one column's face-down count."""
        width = self.layout.max_face_down + 1
        row = parts["face_down"][column * width : (column + 1) * width]
        row.fill(0)
        row[down] = 1

    def write_deals_left(self, parts: Parts, deals_left: int) -> None:
        """Write the deals left in the stock."""
        parts["deals_left"].fill(0)
        parts["deals_left"][deals_left] = 1

    def write_completed(self, parts: Parts, removed: Sequence[int]) -> None:
        """Write the suits (0 spades .. 3 clubs) of the runs removed, in order."""
        completed = parts["completed"]
        completed.fill(0)
        completed[[run * self.suits + suit for run, suit in enumerate(removed)]] = 1

    def chain_places(self, cards: Sequence[int]) -> list[int]:
        """The places, within a column's chains, of its face-up cards (bottom to top): chain by
        chain from the top, each a suit-by-rank grid.  ``RuntimeError`` past ``1 + deals``
        chains, which the rules never make."""
        chain_size = self.chain_size
        places, start, above = [], 0, 0
        for card in reversed(cards):
            rank = card & 15
            if above and rank != above + 1:
                start += chain_size
            above = rank
            places.append(start + (card >> 4) * RUN_LENGTH + rank - 1)
        if start >= self.column_size:
            raise RuntimeError(
                f"a column holds {start // chain_size + 1} chains, over {self.chains}"
            )
        return places
