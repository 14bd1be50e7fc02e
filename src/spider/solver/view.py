"""The visible view of a position: what a player can see, and nothing else.

A :class:`VisibleView` holds the face-up cards of each column, the *number* of face-down cards
under them, the *number* of cards left in the stock and the runs already removed (with their
suits).  It is built from a :class:`~spider.game.Game` by :meth:`VisibleView.from_game`, which
with :func:`seen_positions` (the positions the player went through since the last deal or card
turned) is the only place that touches the game; the hint and the "no more moves" check take a
view, so they cannot read a face-down card or the stock order even by mistake.

Lookahead over visible information plays moves on views.  When a move turns a face-down card its
identity is unknown, so the new top card is written :data:`UNKNOWN` (``0``): nothing can be put
on it and it cannot be picked up, which is exactly what a player knows about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from spider import rules
from spider.game import Game
from spider.moves import Move
from spider.options import Options
from spider.rules import RUN_LENGTH, UNKNOWN, completes_run, turns_over

__all__ = [
    "UNKNOWN",
    "Applied",
    "VisibleView",
    "apply_visible",
    "group_length",
    "one_less_down",
    "seen_positions",
    "truncate_line",
    "visible_moves",
]


Columns = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class VisibleView:
    """The player's view of a position (face-up cards, counts of hidden cards).

    ``columns[i]`` are the face-up cards of column ``i`` as engine ints, bottom to top;
    ``down[i]`` is how many face-down cards lie under them.  ``removed_suits`` are the suit
    indices of the runs removed so far (the player saw them go), in order.
    """

    game: str
    suits: int
    flexible: bool
    columns: Columns
    down: tuple[int, ...]
    stock_cards: int
    removed: int
    runs_to_win: int
    removed_suits: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[type[VisibleView], tuple[object, ...]]:
        """Pickled and copied through the constructor, as the compiled build requires (a
        ``Think harder`` worker process receives the view)."""
        fields = (self.game, self.suits, self.flexible, self.columns, self.down)
        return (
            VisibleView,
            (*fields, self.stock_cards, self.removed, self.runs_to_win, self.removed_suits),
        )

    @classmethod
    def from_game(cls, game: Game) -> VisibleView:
        """The view of ``game``: only face-up cards are copied, hidden cards only counted."""
        position = game.position()
        return cls(
            game=position.options.game,
            suits=position.options.suits,
            flexible=position.options.flexible,
            columns=position.face_up,
            down=position.face_down,
            stock_cards=len(position.stock),
            removed=len(position.removed),
            runs_to_win=position.options.runs_to_win,
            removed_suits=position.removed,
        )

    @property
    def column_count(self) -> int:
        """10 for spider, 7 for spiderette."""
        return len(self.columns)

    @property
    def table_cards(self) -> int:
        """Cards on the table, face up and face down."""
        return sum(len(column) for column in self.columns) + sum(self.down)

    @property
    def is_won(self) -> bool:
        """True when every run has been removed."""
        return self.removed >= self.runs_to_win

    @property
    def can_deal(self) -> bool:
        """True when a deal is allowed now (stock not empty, no empty column)."""
        sizes = [len(column) + down for column, down in zip(self.columns, self.down, strict=True)]
        return rules.deal_refusal(self.stock_cards, sizes) is None

    @property
    def deal_blocked_forever(self) -> bool:
        """True when cards remain in the stock but the table can never fill every column."""
        return rules.deal_blocked_forever(self.stock_cards, self.table_cards, self.column_count)

    @property
    def deal_ever_possible(self) -> bool:
        """True when a deal is possible now or after card moves (fill the empty columns first).

        With at least as many table cards as columns, every empty column can be filled: any
        single card may move into an empty column, and a move that empties a column with
        face-down cards turns one instead.
        """
        return self.stock_cards > 0 and not self.deal_blocked_forever

    def arranged(self, hidden: Sequence[int]) -> Game | None:
        """The game with ``hidden`` in the face-down places (column by column, bottom to top),
        for the full solver; None while the stock holds cards, when ``hidden`` does not fill
        the face-down places exactly, or when ``removed_suits`` does not list every run removed.

        With no card face down, ``view.arranged(())`` is the game itself: the player sees every
        card, and a hint that asks the solver about it stays fair.  With a few face down, a fair
        hint asks about *every* arrangement of the unseen cards, never the real one alone.
        """
        if self.stock_cards or len(hidden) != sum(self.down):
            return None
        if len(self.removed_suits) != self.removed:
            return None
        options = Options.make(self.game, self.suits, "flexible" if self.flexible else "classic")
        columns: list[list[int]] = []
        place = 0
        for face_up, down in zip(self.columns, self.down, strict=True):
            columns.append([*hidden[place : place + down], *face_up])
            place += down
        return Game(options, columns, list(self.down), [], list(self.removed_suits), 0, 0, None, 0)

    def unseen_cards(self) -> dict[int, int]:
        """How many copies of each card the player has not seen: face-down cards and stock.

        The deck of the variant minus the face-up cards and the runs removed (each one suit,
        King to Ace), as ``{engine int: copies}`` for the cards with copies left.  It says
        nothing about *where* those cards are.  When ``removed_suits`` does not list every
        removed run (a hand-built view), the missing runs are not subtracted.
        """
        counts = self.unseen_counts()  # only a card of the deck can have copies left
        return {card: counts[card] for card in _deck_counts(self.game, self.suits) if counts[card]}

    def unseen_counts(self) -> list[int]:
        """:meth:`unseen_cards` as a list by engine int (64 entries, 0 for a card with no copy
        left), faster to build and to read; a card a hand-built view holds outside the deck
        counts no copy."""
        counts = _deck_list(self.game, self.suits).copy()
        for column in self.columns:
            for card in column:
                if 0 < card < _CARD_INTS:
                    counts[card] -= 1
        for suit in self.removed_suits:
            if 0 <= suit < _CARD_INTS >> 4:
                for rank in range(1, RUN_LENGTH + 1):
                    counts[suit << 4 | rank] -= 1
        return [count if count > 0 else 0 for count in counts]


_CARD_INTS: Final = 64
"""Engine ints of cards are below this (``suit << 4 | rank``, four suits)."""

_DECK_LISTS: Final[dict[tuple[str, int], list[int]]] = {}
"""The copies of each card in the deck of each (game, suits), by engine int, counted once."""


def _deck_list(game: str, suits: int) -> list[int]:
    """The copies of each card of the deck of ``game`` with ``suits`` suits by engine int (read
    only)."""
    known = _DECK_LISTS.get((game, suits))
    if known is None:
        known = [0] * _CARD_INTS
        for card, copies in _deck_counts(game, suits).items():
            known[card] = copies
        _DECK_LISTS[game, suits] = known
    return known


_DECK_COUNTS: Final[dict[tuple[str, int], dict[int, int]]] = {}
"""The copies of each card in the deck of each (game, suits), counted once."""


def _deck_counts(game: str, suits: int) -> dict[int, int]:
    """``{engine int: copies}`` of the deck of ``game`` with ``suits`` suits (read only)."""
    known = _DECK_COUNTS.get((game, suits))
    if known is None:
        known = {}
        for card in Options.make(game, suits).composition():
            known[card] = known.get(card, 0) + 1
        _DECK_COUNTS[game, suits] = known
    return known


def seen_positions(game: Game) -> frozenset[tuple[Columns, tuple[int, ...]]]:
    """The visible positions ``game`` went through since its last deal, card turned or run
    removed, as ``(columns, down)`` like a :class:`VisibleView`'s (face-up cards only).

    Read from the game's history (:meth:`~spider.game.Game.positions_since_progress`), so only
    as far back as its undo limit keeps it; earlier positions cannot come back.
    """
    down = game.face_down
    return frozenset(
        (tuple(cards[first_up:] for cards, first_up in zip(columns, down, strict=True)), down)
        for columns in game.positions_since_progress()
    )


def group_length(column: tuple[int, ...], flexible: bool) -> int:
    """How many top face-up cards of ``column`` move together (0 for an unknown top card)."""
    return rules.group_length(column, 0, flexible)


def visible_moves(columns: Columns, flexible: bool) -> list[Move]:
    """Legal moves on face-up columns, in the order of ``Game.legal_moves`` (the same rules).

    A column is empty when it has no face-up card: a column with face-down cards always has a
    face-up card on top.
    """
    return rules.legal_moves(
        columns, [rules.group_length(column, 0, flexible) for column in columns]
    )


class Applied(NamedTuple):
    """The result of a move on a view: the new columns and what happened.

    ``flipped`` counts the face-down cards turned (0, 1 or 2); ``run_suit`` is the suit index of
    the run removed, or -1.
    """

    columns: Columns
    down: tuple[int, ...]
    flipped: int
    run_suit: int


def apply_visible(columns: Columns, down: tuple[int, ...], move: Move) -> Applied:
    """Play a legal ``move`` on face-up columns; a turned card becomes :data:`UNKNOWN`."""
    src, dst, count = move
    source = columns[src]
    target = columns[dst] + source[-count:]
    source = source[:-count]
    new_down = down  # a new tuple only when a card turns (most moves turn none)
    flipped = 0
    # ``not source`` and an ace on top are the cheap necessary conditions of the kernel's rules.
    if not source and turns_over(down[src], down[src]):
        new_down = one_less_down(new_down, src)
        source = (UNKNOWN,)
        flipped += 1
    run_suit = -1
    if target[-1] & 15 == 1 and completes_run(target, 0):
        run_suit = target[-1] >> 4
        target = target[:-RUN_LENGTH]
        if not target and turns_over(new_down[dst], new_down[dst]):
            new_down = one_less_down(new_down, dst)
            target = (UNKNOWN,)
            flipped += 1
    new_columns = list(columns)
    new_columns[src] = source
    new_columns[dst] = target
    # tuple.__new__ skips the frame of NamedTuple's generated __new__.
    return tuple.__new__(Applied, (tuple(new_columns), new_down, flipped, run_suit))


def one_less_down(down: tuple[int, ...], index: int) -> tuple[int, ...]:
    """``down`` with one card fewer face down in column ``index``."""
    return (*down[:index], down[index] - 1, *down[index + 1 :])


def truncate_line(
    view: VisibleView, line: tuple[Move, ...], *, at_runs: bool = True
) -> tuple[Move, ...]:
    """``line`` up to and including its first move that turns a card or (with ``at_runs``)
    removes a run: what follows depends on a card the player has not seen yet, or on the
    position the run leaves."""
    columns, down = view.columns, view.down
    for index, move in enumerate(line):
        applied = apply_visible(columns, down, move)
        if applied.flipped or (at_runs and applied.run_suit >= 0):
            return line[: index + 1]
        columns, down = applied.columns, applied.down
    return line
