"""The visible position as NumPy arrays, kept up to date column by column (the ``gym`` extra).

:class:`spider.research.gym.SpiderGymEnv` builds its observation here in one of two kinds
(:data:`OBSERVATIONS`), both read through :class:`~spider.research.observe.Layout`:

- ``"indices"``: the layout as it is (``int8``): ``face_up`` columns x depth card indices (1..52,
  0 past the last card), ``face_down`` counts, ``deals_left`` a number, ``completed`` run suits
  (1..4, 0 for none yet).
- ``"onehot"``: the same position one-hot (``uint8`` 0 or 1), each part a flat vector: ``face_up``
  columns x depth x 52 (``[(column * depth + place) * 52 + index - 1]`` is 1 when that place
  holds that card), ``face_down`` columns x (most face-down + 1), ``deals_left`` deals + 1,
  ``completed`` runs x 4.  Put end to end (as floats) they are OpenSpiel's observation tensor
  (:class:`spider.research.openspiel.SpiderObserver`).  Flat, so that Stable-Baselines3's
  ``MultiInputPolicy`` takes them as they are, without its warning about shapes that are neither
  an image nor a vector; bounded 0..1, so that it does not take them for an image either.

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
    >>> observation["face_up"].shape, int(observation["face_up"].sum())  # 7 x 52 x 52; 7 cards
    ((18928,), 7)
    >>> [int(i) for i in observation["deals_left"].nonzero()[0]]  # four deals left
    [4]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
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
            self._write_column(column, [_INDEX[card] for card in cards], down)

    @abstractmethod
    def write_completed(self, position: Position) -> None:
        """Write the suits of the runs removed from ``position``."""

    @abstractmethod
    def write_deals_left(self, deals_left: int) -> None:
        """Write the deals left in the stock."""

    @abstractmethod
    def _write_column(self, column: int, indices: list[int], down: int) -> None:
        """Write one column: its face-up cards' indices, bottom to top, and its face-down count."""


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

    def _write_column(self, column: int, indices: list[int], down: int) -> None:
        row = self.face_up[column]
        row[: len(indices)] = indices
        row[len(indices) :] = 0
        self.face_down[column] = down


class OneHotArrays(ObservationArrays):
    """``observation="onehot"``: flat one-hot vectors (``uint8``), OpenSpiel's tensor in parts."""

    def __init__(self, layout: Layout) -> None:
        super().__init__(layout)
        self.face_up = np.zeros(layout.columns * layout.depth * CARD_TYPES, np.uint8)
        self.face_down = np.zeros(layout.columns * (layout.max_face_down + 1), np.uint8)
        self.deals_left = np.zeros(layout.deals + 1, np.uint8)
        self.completed = np.zeros(layout.runs * 4, np.uint8)
        # Views of one column (or run) a row, which the writes go through.
        self._face_up_rows = self.face_up.reshape(layout.columns, layout.depth * CARD_TYPES)
        self._face_down_rows = self.face_down.reshape(layout.columns, layout.max_face_down + 1)
        self._completed_rows = self.completed.reshape(layout.runs, 4)

    def space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                name: spaces.Box(0, 1, array.shape, np.uint8)
                for name, array in (
                    ("face_up", self.face_up),
                    ("face_down", self.face_down),
                    ("deals_left", self.deals_left),
                    ("completed", self.completed),
                )
            }
        )

    def observation(self) -> dict[str, Any]:
        return {
            "face_up": self.face_up.copy(),
            "face_down": self.face_down.copy(),
            "deals_left": self.deals_left.copy(),
            "completed": self.completed.copy(),
        }

    def write_completed(self, position: Position) -> None:
        rows = self._completed_rows
        rows.fill(0)
        for run, suit in enumerate(position.removed):
            rows[run, suit] = 1

    def write_deals_left(self, deals_left: int) -> None:
        self.deals_left.fill(0)
        self.deals_left[deals_left] = 1

    def _write_column(self, column: int, indices: list[int], down: int) -> None:
        row = self._face_up_rows[column]
        row.fill(0)
        row[[place * CARD_TYPES + index - 1 for place, index in enumerate(indices)]] = 1
        counts = self._face_down_rows[column]
        counts.fill(0)
        counts[down] = 1


def observation_arrays(layout: Layout, kind: str) -> ObservationArrays:
    """The arrays of an observation of ``kind`` (``"indices"`` or ``"onehot"``; ``ValueError``
    for anything else)."""
    if kind == "indices":
        return IndexArrays(layout)
    if kind == "onehot":
        return OneHotArrays(layout)
    raise ValueError(f"observation must be 'indices' or 'onehot', not {excerpt(kind)}")
