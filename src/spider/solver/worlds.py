"""The sampled world of "Think harder": the player's view, with hidden cards drawn when turned.

A :class:`World` starts from a :class:`~spider.solver.view.VisibleView` and nothing else.  Its
face-down cards and stock stay unknown; the *unseen cards* (the variant's deck minus every card
seen: :meth:`VisibleView.unseen_cards`) form a pool, and whenever a move turns a card or a deal
puts cards down, each card is drawn from that pool at that moment.  Every arrangement of the
unseen cards over the hidden places is equally likely, so drawing each card when it is turned
samples exactly what the player knows.  A draw may also be *forced* to a given card (an outcome
the search has met before); the card must still be in the pool.

Moves are played with :func:`~spider.solver.view.apply_visible` and deals settled with
:func:`spider.rules.settle`: the rules kernel, never a copy of a rule.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from spider import rules
from spider.game import Game
from spider.moves import DEAL, Action, Move
from spider.solver.view import UNKNOWN, VisibleView, apply_visible, truncate_line

__all__ = ["DEAL_LINE", "Columns", "Draws", "World", "truncate_line"]

Columns = tuple[tuple[int, ...], ...]

Draws = tuple[int, ...]
"""The cards drawn while an action was played, in order: the outcome the player observes."""

_Draw = Callable[[], int]
"""Draws the next card from the pool."""


@dataclass(frozen=True, slots=True)
class _Fixed:
    """What never changes while a world is played: the variant."""

    game: str
    suits: int
    flexible: bool
    runs_to_win: int


class World:
    """A position as the search plays it: face-up cards known, hidden cards drawn when turned.

    ``visited`` holds the visible positions passed since the last card turned, run removed or
    deal (those a player could come back to), as :func:`~spider.solver.view.seen_positions`
    gives them for a real game.
    """

    __slots__ = (
        "columns",
        "down",
        "fixed",
        "pool",
        "removed",
        "stock",
        "turned",
        "visited",
    )

    def __init__(
        self,
        fixed: _Fixed,
        columns: Columns,
        down: tuple[int, ...],
        stock: int,
        removed: tuple[int, ...],
        pool: list[int],
        visited: frozenset[tuple[Columns, tuple[int, ...]]],
    ) -> None:
        self.fixed = fixed
        self.columns = columns
        self.down = down
        self.stock = stock
        self.removed = removed
        self.pool = pool
        self.visited = visited
        self.turned = 0  # cards turned since this world was made (a deal's cards not counted)

    @classmethod
    def from_view(
        cls, view: VisibleView, visited: frozenset[tuple[Columns, tuple[int, ...]]]
    ) -> World:
        """The world of what the player sees: the unseen cards, sorted, form the pool."""
        pool = [card for card, copies in sorted(view.unseen_cards().items()) for _ in range(copies)]
        fixed = _Fixed(view.game, view.suits, view.flexible, view.runs_to_win)
        return cls(
            fixed,
            view.columns,
            view.down,
            view.stock_cards,
            view.removed_suits,
            pool,
            visited,
        )

    def copy(self) -> World:
        """An independent copy (the pool is copied; the tuples are shared)."""
        return World(
            self.fixed,
            self.columns,
            self.down,
            self.stock,
            self.removed,
            list(self.pool),
            self.visited,
        )

    # ----------------------------------------------------------------- what the player sees

    def view(self) -> VisibleView:
        """The visible view of this world (drawn cards are face up, so they are seen)."""
        fixed = self.fixed
        return VisibleView(
            game=fixed.game,
            suits=fixed.suits,
            flexible=fixed.flexible,
            columns=self.columns,
            down=self.down,
            stock_cards=self.stock,
            removed=len(self.removed),
            runs_to_win=fixed.runs_to_win,
            removed_suits=self.removed,
        )

    @property
    def is_won(self) -> bool:
        """True when every run has been removed."""
        return len(self.removed) >= self.fixed.runs_to_win

    @property
    def hidden(self) -> int:
        """Face-down cards on the table."""
        return sum(self.down)

    # ----------------------------------------------------------------- playing

    def play(self, line: tuple[Action, ...], rng: random.Random, forced: Draws = ()) -> Draws:
        """Play ``line`` (legal in this world), drawing each turned or dealt card from the pool,
        in order: the next card of ``forced`` while it lasts, else a random one.  Returns the
        cards drawn."""
        queue = deque(forced)
        drawn: list[int] = []

        def draw() -> int:
            pool = self.pool
            if queue:
                card = queue.popleft()
                pool.remove(card)
            else:
                index = rng.randrange(len(pool))
                card = pool[index]
                pool[index] = pool[-1]
                pool.pop()
            drawn.append(card)
            return card

        for action in line:
            if isinstance(action, Move):
                self._move(action, draw)
            else:
                self._deal(draw)
        return tuple(drawn)

    def play_seen(self, line: tuple[Move, ...], cards: Draws) -> None:
        """Play the card moves of ``line`` (legal in this world), turning ``cards`` (in order,
        each taken from the pool) and leaving any card turned after them unknown
        (:data:`~.view.UNKNOWN`, still in the pool), as the hint's lookahead leaves a card it
        turns: nothing is drawn at random."""
        queue = deque(cards)

        def turn() -> int:
            if not queue:
                return UNKNOWN
            card = queue.popleft()
            self.pool.remove(card)
            return card

        for move in line:
            if not isinstance(move, Move):
                raise ValueError("play_seen plays card moves only, not a deal")
            self._move(move, turn)

    def _move(self, move: Move, draw: _Draw) -> None:
        before = (self.columns, self.down)
        applied = apply_visible(self.columns, self.down, move)
        columns = applied.columns
        if applied.flipped:
            columns = tuple(
                (draw(),) if column == (UNKNOWN,) else column for column in applied.columns
            )
            self.turned += applied.flipped
        if applied.run_suit >= 0:
            self.removed = (*self.removed, applied.run_suit)
        self.columns, self.down = columns, applied.down
        if applied.flipped or applied.run_suit >= 0:
            self.visited = frozenset()
        else:
            self.visited = self.visited | {before}

    def _deal(self, draw: _Draw) -> None:
        sizes = [len(column) + down for column, down in zip(self.columns, self.down, strict=True)]
        refusal = rules.deal_refusal(self.stock, sizes)
        if refusal is not None:
            raise ValueError(f"no deal here: {refusal[0]}")
        dealt = min(len(self.columns), self.stock)
        columns = list(self.columns)
        down = list(self.down)
        removed = list(self.removed)
        for index in range(dealt):
            columns[index] = (*columns[index], draw())
        for index in range(dealt):
            cards = [UNKNOWN] * down[index] + list(columns[index])
            run_suit, turned = rules.settle(cards, down[index])
            if run_suit < 0:
                continue
            removed.append(run_suit)
            if turned:
                down[index] -= 1
                columns[index] = (draw(),)
                self.turned += 1
            else:
                columns[index] = tuple(cards[down[index] :])
        self.columns, self.down = tuple(columns), tuple(down)
        self.removed = tuple(removed)
        self.stock -= dealt
        self.visited = frozenset()

    # ----------------------------------------------------------------- the endgame

    def sample_game(self, rng: random.Random) -> Game:
        """A game with every card known: the pool shuffled over the face-down places (the
        stock must be empty), for the full solver."""
        if self.stock:
            raise ValueError("sample_game needs an empty stock")
        pool = list(self.pool)
        rng.shuffle(pool)
        game = self.view().arranged(pool)
        if game is None:
            raise ValueError("the pool does not fill the face-down places")
        return game


DEAL_LINE: tuple[Action, ...] = (DEAL,)
"""The action that deals."""
