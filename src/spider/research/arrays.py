"""The visible position as NumPy arrays, kept up to date column by column (the ``gym`` extra).

:class:`spider.research.gym.SpiderGymEnv` builds its observation here in one of two kinds
(:data:`OBSERVATIONS`), both read through :class:`~spider.research.observe.Layout`:

- ``"indices"``: the layout as it is (``int8``): ``face_up`` columns x depth card indices (1..52,
  0 past the last card), ``face_down`` counts, ``deals_left`` a number, ``completed`` run suits
  (1..4, 0 for none yet).
- ``"onehot"``: the chain encoding of :mod:`spider.research.chains` (``uint8`` 0 or 1), each part
  a flat vector: ``face_down``, ``face_up`` (each column's face-up cards as chains of descending
  ranks, suit-by-rank grids), ``deals_left`` and ``completed``.  Put end to end in that order
  (as floats) they are OpenSpiel's observation tensor
  (:class:`spider.research.openspiel.SpiderObserver`) but for its last value, the moves played
  over ``max_moves``, which is left out: OpenSpiel's game stops itself after ``max_moves``,
  whereas a Gymnasium episode is cut by the ``TimeLimit`` wrapper, outside the environment.
  Flat, so that Stable-Baselines3's ``MultiInputPolicy`` takes them as they are, without its
  warning about shapes that are neither an image nor a vector; bounded 0..1, so that it does not
  take them for an image either.  854 values for Spider with one suit, 1,642 with two, 3,218
  with four; 513, 972 and 1,890 for Spiderette.

An action changes at most two columns (a deal: all of them), so after each action only the
columns it touched are written again (:meth:`ObservationArrays.write_columns`); a reset writes
everything (:meth:`ObservationArrays.write_all`).  :meth:`ObservationArrays.observation` hands out
copies, so an observation kept by the caller never changes afterwards.

Examples:
    >>> from spider import Game
    >>> from spider.research.observe import Layout
    >>> game = Game.new("spiderette", suits=1, number=3)
    >>> arrays = observation_arrays(Layout.of(game.options), "onehot")
    >>> arrays.write_all(game)
    >>> observation = arrays.observation()
    >>> observation["face_up"].shape, int(observation["face_up"].sum())  # 7 x 5 x 13; 7 cards
    ((455,), 7)
    >>> [int(i) for i in observation["deals_left"].nonzero()[0]]  # four deals left
    [4]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Final

try:
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as error:  # pragma: no cover - the extra is installed for the tests
    raise ModuleNotFoundError(
        f"spider.research.arrays needs Gymnasium ({error.name} is missing): "
        "pip install 'spider-solitaire[gym]'",
        name=error.name,
    ) from None

from spider.game import Game
from spider.limits import excerpt
from spider.position import Position
from spider.research.chains import ChainEncoding
from spider.research.observe import CARD_TYPES, Layout, card_index

__all__ = ["OBSERVATIONS", "IndexArrays", "ObservationArrays", "OneHotArrays", "observation_arrays"]

OBSERVATIONS: Final = ("indices", "onehot")
"""The kinds of observation (``observation=`` of the Gymnasium environments)."""

_INDEX: Final = [card_index(card) if card & 15 else 0 for card in range(64)]
"""Card index (1..52) by engine card int, for the cards of a column (a list reads fastest)."""


class ObservationArrays(ABC):
    """The arrays of one environment's observation, written column by column from a game."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    @abstractmethod
    def space(self) -> spaces.Dict:
        """The observation space of these arrays."""

    @abstractmethod
    def observation(self) -> dict[str, Any]:
        """The current observation: copies of the arrays, which later writes do not change."""

    def write_all(self, game: Game) -> None:
        """Write every part from ``game`` (after a reset)."""
        position = game.position()
        self.write_columns(position, range(self.layout.columns))
        self.write_completed(position)
        self.write_deals_left(game.deals_left)

    def write_columns(self, position: Position, columns: Iterable[int]) -> None:
        """Write the face-up cards and face-down count of each of ``columns`` from ``position``."""
        for column in columns:
            down = position.face_down[column]
            cards = position.columns[column][down:]
            if len(cards) > self.layout.depth:  # impossible by the rules (see Layout)
                raise RuntimeError(
                    f"a column holds {len(cards)} face-up cards, over {self.layout.depth}"
                )
            self._write_column(column, cards, down)

    @abstractmethod
    def write_completed(self, position: Position) -> None:
        """Write the suits of the runs removed from ``position``."""

    @abstractmethod
    def write_deals_left(self, deals_left: int) -> None:
        """Write the deals left in the stock."""

    @abstractmethod
    def _write_column(self, column: int, cards: Sequence[int], down: int) -> None:
        """Write one column: its face-up cards (engine ints), bottom to top, and its face-down
        count."""


class IndexArrays(ObservationArrays):
    """``observation="indices"``: the layout's card indices and counts (``int8``)."""

    def __init__(self, layout: Layout) -> None:
        super().__init__(layout)
        self.face_up = np.zeros((layout.columns, layout.depth), np.int8)
        self.face_down = np.zeros(layout.columns, np.int8)
        self.deals_left = 0
        self.completed = np.zeros(layout.runs, np.int8)

    def space(self) -> spaces.Dict:
        layout = self.layout
        return spaces.Dict(
            {
                "face_up": spaces.Box(0, CARD_TYPES, (layout.columns, layout.depth), dtype=np.int8),
                "face_down": spaces.Box(0, layout.max_face_down, (layout.columns,), np.int8),
                "deals_left": spaces.Discrete(layout.deals + 1),
                "completed": spaces.Box(0, 4, (layout.runs,), np.int8),
            }
        )

    def observation(self) -> dict[str, Any]:
        return {
            "face_up": self.face_up.copy(),
            "face_down": self.face_down.copy(),
            "deals_left": np.int64(self.deals_left),
            "completed": self.completed.copy(),
        }

    def write_completed(self, position: Position) -> None:
        removed = position.removed
        self.completed[: len(removed)] = [suit + 1 for suit in removed]
        self.completed[len(removed) :] = 0

    def write_deals_left(self, deals_left: int) -> None:
        self.deals_left = deals_left

    def _write_column(self, column: int, cards: Sequence[int], down: int) -> None:
        indices = [_INDEX[card] for card in cards]
        row = self.face_up[column]
        row[: len(indices)] = indices
        row[len(indices) :] = 0
        self.face_down[column] = down


class OneHotArrays(ObservationArrays):
    """``observation="onehot"``: the chain encoding (:mod:`spider.research.chains`), flat
    ``uint8`` vectors: OpenSpiel's tensor in parts."""

    def __init__(self, layout: Layout) -> None:
        super().__init__(layout)
        self.encoding = ChainEncoding(layout)
        self.parts = self.encoding.zeros(np.uint8)

    def space(self) -> spaces.Dict:
        return spaces.Dict(
            {name: spaces.Box(0, 1, array.shape, np.uint8) for name, array in self.parts.items()}
        )

    def observation(self) -> dict[str, Any]:
        return {name: array.copy() for name, array in self.parts.items()}

    def write_completed(self, position: Position) -> None:
        self.encoding.write_completed(self.parts, position.removed)

    def write_deals_left(self, deals_left: int) -> None:
        self.encoding.write_deals_left(self.parts, deals_left)

    def _write_column(self, column: int, cards: Sequence[int], down: int) -> None:
        self.encoding.write_face_up(self.parts, column, cards)
        self.encoding.write_face_down(self.parts, column, down)


def observation_arrays(layout: Layout, kind: str) -> ObservationArrays:
    """The arrays of an observation of ``kind`` (``"indices"`` or ``"onehot"``; ``ValueError``
    for anything else)."""
    if kind == "indices":
        return IndexArrays(layout)
    if kind == "onehot":
        return OneHotArrays(layout)
    raise ValueError(f"observation must be 'indices' or 'onehot', not {excerpt(kind)}")
