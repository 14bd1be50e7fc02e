"""A read-only snapshot of a game's position, in engine ints.

:meth:`spider.game.Game.position` returns one.  It is what the modules around the engine (text
notation, the terminal picture, the protocol, the solver, the hint's view, the environment) read
instead of the game's private lists: plain tuples, safe to keep, share and hash.
"""

from __future__ import annotations

from dataclasses import dataclass

from spider.options import Options

__all__ = ["Position"]


@dataclass(frozen=True, slots=True)
class Position:
    """Every card of a position and the counters, as engine ints (see :mod:`spider.cards`).

    ``columns[i]`` holds all the cards of column ``i``, bottom to top, of which the first
    ``face_down[i]`` lie face down.  ``stock`` is in dealing order (``stock[0]`` is dealt first).
    ``removed`` lists the suit indices of the runs removed, in order.  ``number`` is the deal
    number, or None for a position that did not come from a known deal's start.
    """

    options: Options
    number: int | None
    columns: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[int, ...]
    removed: tuple[int, ...]
    score: int
    moves: int

    def __reduce__(self) -> tuple[type[Position], tuple[object, ...]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (
            Position,
            (
                self.options,
                self.number,
                self.columns,
                self.face_down,
                self.stock,
                self.removed,
                self.score,
                self.moves,
            ),
        )

    @property
    def face_up(self) -> tuple[tuple[int, ...], ...]:
        """The face-up cards of each column, bottom to top: what a player sees of the table."""
        return tuple(cards[down:] for cards, down in zip(self.columns, self.face_down, strict=True))

    @property
    def table_cards(self) -> int:
        """Cards on the table, face up and face down."""
        return sum(map(len, self.columns))
