"""The game: table, stock, moves, deals, run removal, scoring and history.

The state is kept in plain lists of engine card ints (see :mod:`spider.cards`) and changed in
place; every action pushes one compact record that :meth:`Game.undo` reverses exactly, so the
solver can play and take back moves at full speed through the same code the player uses.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple, TypeAlias

from spider.cards import SUITS, Card, card_text
from spider.codes import format_code, parse_code
from spider.errors import IllegalMove
from spider.limits import MAX_SAVED_ACTIONS, check_undo_limit, excerpt
from spider.moves import DEAL, Action, Move, action_text, parse_action
from spider.notation import format_position, parse_position
from spider.options import Options
from spider.position import Position
from spider.record import SavedGame, read_saved, write_saved
from spider.render import render_text
from spider.rules import (
    CARD_MOVES,
    MOST_COLUMNS,
    MOVE_STRIDE,
    accepts,
    deal_blocked_forever,
    deal_refusal,
    group_length,
    legal_moves,
    scored,
    settle,
    turns_over,
)
from spider.shuffle import MAX_NUMBER, shuffled_deck
from spider.winnable import random_winnable_number

__all__ = [
    "DEFAULT_UNDO_LIMIT",
    "Column",
    "DealRecord",
    "Effects",
    "Game",
    "HistoryEntry",
    "MoveRecord",
    "Outcome",
    "OutcomeStatus",
]

DEFAULT_UNDO_LIMIT: Final = 400
"""Default undo depth (as in the browser Spider); 100 is the two apps' depth (docs/rules.md)."""


MoveRecord: TypeAlias = tuple[int, int, int, bool, int, bool, int, int, int]
"""What undoing a card move needs: ``(src, dst, count, card turned in src, suit index of the run
removed from dst or -1, card turned under that run, score before, movable-group length of src
before, of dst before)``; the last two are the cache of :meth:`Game.movable_count` (-1 when not
computed), which undo puts back instead of computing it again.

A plain tuple, not a NamedTuple: it is made and taken apart on every move and undo, and a plain
tuple is the cheapest to build and unpack.  A history entry is told apart by its type:
:class:`DealRecord` or not."""


class DealRecord(NamedTuple):
    """What undoing a deal needs: cards dealt, and ``(column, suit, card turned)`` per run."""

    dealt: int
    runs: tuple[tuple[int, int, bool], ...]
    previous_score: int


HistoryEntry: TypeAlias = MoveRecord | DealRecord
"""One action in a game's history."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the table, as the caller sees it.

    ``cards`` runs from the bottom to the top of the column and includes the face-down cards;
    the first ``face_down`` of them are face down.
    """

    cards: tuple[Card, ...]
    face_down: int

    def __reduce__(self) -> tuple[type[Column], tuple[tuple[Card, ...], int]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (Column, (self.cards, self.face_down))

    @property
    def face_up(self) -> tuple[Card, ...]:
        """The face-up cards, bottom to top."""
        return self.cards[self.face_down :]

    @property
    def top(self) -> Card | None:
        """The last (playable) card, or None when the column is empty."""
        return self.cards[-1] if self.cards else None

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class Effects:
    """What the last action did besides moving cards: for announcements, sounds and reports.

    ``flipped`` lists the columns where a face-down card turned, in order; ``runs`` lists
    ``(column, suit)`` for each completed run that left the table.
    """

    action: Action
    flipped: tuple[int, ...]
    runs: tuple[tuple[int, str], ...]

    def __reduce__(
        self,
    ) -> tuple[type[Effects], tuple[Action, tuple[int, ...], tuple[tuple[int, str], ...]]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (Effects, (self.action, self.flipped, self.runs))


OutcomeStatus: TypeAlias = Literal["won", "stuck", "in-play"]
"""What :meth:`Game.outcome` says of a game."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a game stands, as the rules alone decide it (:meth:`Game.outcome`).

    ``status`` is ``"won"`` (every run removed), ``"stuck"`` (no legal card move and no deal
    possible, so no action at all is left) or ``"in-play"`` (some action is left; this does not
    say the game can still be won: that takes the solver).  ``reason`` says why in English words.
    """

    status: OutcomeStatus
    reason: str

    def __reduce__(self) -> tuple[type[Outcome], tuple[OutcomeStatus, str]]:
        """Pickled and copied through the constructor, as the compiled build requires."""
        return (Outcome, (self.status, self.reason))

    @property
    def is_over(self) -> bool:
        """True when no action is left: the game is won or stuck."""
        return self.status != "in-play"


class Game:
    """A game of Spider or Spiderette.

    Create one with :meth:`new`, :meth:`from_code`, :meth:`from_text` or :meth:`from_json`.

    Two games are equal (``==``) when they show the same position: the same options (game,
    suits, rule, scoring) and deal number, the same cards in the same places (face-down ones
    included), the same stock, runs removed, score and move count, which is exactly when their
    :meth:`to_text` are equal.  History, redo list and undo limit are not compared, so
    ``g == g.copy(history=False)``.  A game changes in place, so it is not hashable
    (``__hash__`` is None): use :meth:`state_key` or :meth:`to_text` as a dictionary key.

    Examples:
        >>> g = Game.from_code("SP1-S2C-AAAAAAD")
        >>> g.deals_left, len(g.columns), g.score
        (5, 10, 500)
    """

    __slots__ = (
        "_cols",
        "_down",
        "_flexible",
        "_floor",
        "_group",
        "_history",
        "_last",
        "_moves",
        "_number",
        "_options",
        "_played",
        "_redo",
        "_removed",
        "_score",
        "_standard",
        "_start",
        "_stock",
        "_undo_limit",
    )

    def __init__(
        self,
        options: Options,
        columns: list[list[int]],
        face_down: list[int],
        stock: list[int],
        removed: list[int],
        score: int,
        moves: int,
        number: int | None = None,
        undo_limit: int | None = DEFAULT_UNDO_LIMIT,
    ) -> None:
        """Build a game from raw engine data; prefer the ``new``/``from_*`` constructors.

        ``stock`` is in dealing order (first card dealt first); ``removed`` holds suit indices.
        """
        check_undo_limit(undo_limit)
        self._options = options
        self._flexible = options.flexible
        self._number = number
        self._cols = columns
        self._down = face_down
        self._stock = stock[::-1]  # reversed: the next card to deal is at the end
        self._removed = removed
        self._score = score
        self._moves = moves
        self._undo_limit = undo_limit
        self._history: deque[HistoryEntry] = deque(maxlen=undo_limit)
        self._redo: list[Action] = []
        self._played: list[Action] = []
        self._last: HistoryEntry | None = None
        self._standard = options.scoring == "standard"
        self._floor = options.score_floor is not None
        self._group: list[int] = [-1] * len(columns)
        self._start = self._snapshot()

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        game: str = "spider",
        suits: int = 1,
        rule: str = "classic",
        number: int | None = None,
        scoring: str = "standard",
        undo_limit: int | None = DEFAULT_UNDO_LIMIT,
        winnable: bool = False,
        avoid: Container[int] = (),
    ) -> Game:
        """Deal game ``number`` (a random one when None) with these options.

        With ``winnable=True`` (and no ``number``) the deal is drawn from the catalogue of deals
        the solver proved winnable (:mod:`spider.winnable`), preferring numbers not in ``avoid``
        (such as the deals played lately) while others remain.
        """
        options = Options.make(game, suits, rule, scoring)
        if winnable:
            if number is not None:
                raise ValueError("give a deal number or ask for a winnable deal, not both")
            number = random_winnable_number(options.game, options.suits, options.rule, avoid=avoid)
        elif number is None:
            number = random.randrange(MAX_NUMBER + 1)
        return cls._deal_new(options, number, undo_limit)

    @classmethod
    def from_code(
        cls, code: object, scoring: str = "standard", undo_limit: int | None = DEFAULT_UNDO_LIMIT
    ) -> Game:
        """The deal of a game code such as ``'SP1-S2C-AAAAAAD'``; :class:`InvalidCode` if bad."""
        options, number = parse_code(code, scoring)
        return cls._deal_new(options, number, undo_limit)

    @classmethod
    def from_options(
        cls, options: object, number: int, undo_limit: int | None = DEFAULT_UNDO_LIMIT
    ) -> Game:
        """Deal game ``number`` of the variant ``options`` (game, suits, rule and scoring).

        For a caller that already holds an :class:`Options`, such as a game's own
        ``game.options``: ``Game.from_options(game.options, 7)`` deals game 7 of the same
        variant. The options must be valid and normalised, as :meth:`Options.make` returns
        them; anything else is a ``ValueError`` (or ``TypeError`` for a wrong type).
        """
        if not isinstance(options, Options):
            raise TypeError(f"options must be an Options, not {type(options).__name__}")
        checked = Options.make(options.game, options.suits, options.rule, options.scoring)
        if checked != options:
            raise ValueError(
                f"options are not normalised: {excerpt(options)} should be {excerpt(checked)}"
            )
        return cls._deal_new(options, number, undo_limit)

    @classmethod
    def _deal_new(cls, options: Options, number: int, undo_limit: int | None) -> Game:
        deck = shuffled_deck(options, number)
        columns: list[list[int]] = []
        position = 0
        for size in options.initial_columns:
            columns.append(deck[position : position + size])
            position += size
        face_down = [size - 1 for size in options.initial_columns]
        start_score = 500 if options.scoring == "standard" else 0
        return cls(
            options, columns, face_down, deck[position:], [], start_score, 0, number, undo_limit
        )

    @classmethod
    def from_position(cls, position: Position, undo_limit: int | None = DEFAULT_UNDO_LIMIT) -> Game:
        """A game that starts at ``position`` (its cards are taken as given: read positions
        from text with :meth:`from_text`, which checks them)."""
        return cls(
            position.options,
            [list(cards) for cards in position.columns],
            list(position.face_down),
            list(position.stock),
            list(position.removed),
            position.score,
            position.moves,
            position.number,
            undo_limit,
        )

    @classmethod
    def from_text(cls, text: str, undo_limit: int | None = DEFAULT_UNDO_LIMIT) -> Game:
        """Read a position written by :meth:`to_text`; ``ValueError`` says where it is wrong."""
        check_undo_limit(undo_limit)
        return cls.from_position(parse_position(text), undo_limit)

    @classmethod
    def from_json(cls, text: str | bytes, undo_limit: int | str | None = "saved") -> Game:
        """Restore a game written by :meth:`to_json`, history included, replaying every action
        through the rules; ``ValueError`` names the bad field.

        ``undo_limit`` overrides the saved depth when given.
        """
        saved = read_saved(text)
        if undo_limit == "saved":
            limit = saved.undo_limit
        elif isinstance(undo_limit, str):
            raise ValueError(
                f"undo_limit must be an int, None or 'saved', not {excerpt(undo_limit)}"
            )
        else:
            limit = check_undo_limit(undo_limit)
        try:
            game = cls.from_text(saved.start, undo_limit=limit)
        except ValueError as error:
            raise ValueError(f"saved game: field 'start': {error}") from None
        game._replay_saved(saved)
        return game

    def _replay_saved(self, saved: SavedGame) -> None:
        for index, action in enumerate(saved.played):
            try:
                self.push(action)
            except ValueError as error:
                raise ValueError(
                    f"saved game: field 'played', action {index} ({action_text(action)}): {error}"
                ) from None
        try:
            self.set_redo(saved.redo)
        except ValueError as error:
            raise ValueError(f"saved game: field 'redo', {error}") from None
        if saved.position is not None and saved.position != self.to_text():
            raise ValueError("saved game: field 'position' does not match the replayed game")
        if saved.code is not None and saved.code != self.code:
            raise ValueError("saved game: field 'code' does not match the starting position")

    def to_text(self) -> str:
        """The position in text notation (see ``docs/notation.md``)."""
        return format_position(self.position())

    def to_json(self) -> str:
        """The whole game as JSON: options, starting position, actions played, redo list.

        A saved game holds at most :data:`~spider.limits.MAX_SAVED_ACTIONS` actions, so whatever
        this writes :meth:`from_json` reads.  Past that, the undone actions farthest from the
        present are left out first, then the oldest actions played: the game is written from
        the position after them (its start moves on, with the deal's number and code).
        """
        played, redo = list(self._played), list(self._redo)
        start = self.start_position()
        excess = len(played) + len(redo) - MAX_SAVED_ACTIONS
        if excess > 0:
            dropped_redo = min(excess, len(redo))
            del redo[:dropped_redo]
            skipped = excess - dropped_redo
            start.undo_limit = 0
            for action in played[:skipped]:
                start.push(action)
            del played[:skipped]
        saved = SavedGame(
            start=start.to_text(),
            played=played,
            redo=redo,
            undo_limit=self._undo_limit,
            position=self.to_text(),
            code=self.code,
        )
        return write_saved(saved)

    def copy(self, history: bool = True) -> Game:
        """An independent copy; with ``history=False`` the copy starts with empty history."""
        # Through __init__ (a compiled class makes no instance without it), which starts the
        # copy with empty history; the stock goes in dealing order, as __init__ takes it.
        other = Game(
            self._options,
            [list(column) for column in self._cols],
            list(self._down),
            self._stock[::-1],
            list(self._removed),
            self._score,
            self._moves,
            self._number,
            self._undo_limit,
        )
        other._group = list(self._group)
        other._last = self._last
        if history:
            other._history = deque(self._history, maxlen=self._undo_limit)
            other._redo = list(self._redo)
            other._played = list(self._played)
            other._start = self._start
        return other

    def hidden_cards(self) -> list[int]:
        """The cards the player cannot see, as engine ints: the face-down cards of each column
        (left to right, bottom to top), then the stock in dealing order."""
        hidden: list[int] = []
        for column, down in zip(self._cols, self._down, strict=True):
            hidden += column[:down]
        return hidden + self._stock[::-1]

    def with_hidden_cards(self, cards: list[int]) -> Game:
        """A copy, history included, whose hidden places hold ``cards`` instead (in the order of
        :meth:`hidden_cards`): the same position as the player sees it, another arrangement of
        what they cannot see.  ``ValueError`` unless ``cards`` are the hidden cards reordered.

        The copy's :meth:`restart` goes back as far as its history reaches.
        """
        if sorted(cards) != sorted(self.hidden_cards()):
            raise ValueError("with_hidden_cards: the cards must be the hidden cards, reordered")
        other = self.copy(history=True)
        position = 0
        for column, down in zip(other._cols, other._down, strict=True):
            column[:down] = cards[position : position + down]
            position += down
        other._stock = cards[position:][::-1]
        rewound = other.copy(history=True)
        while rewound._history:
            rewound._unapply(rewound._history.pop())
        other._start = rewound._snapshot()
        return other

    # ----------------------------------------------------------------- the caller's view

    @property
    def options(self) -> Options:
        """Game, suits, rule and scoring."""
        return self._options

    @property
    def game(self) -> str:
        """'spider' or 'spiderette'."""
        return self._options.game

    @property
    def suits(self) -> int:
        """1, 2 or 4."""
        return self._options.suits

    @property
    def rule(self) -> str:
        """'classic' or 'flexible'."""
        return self._options.rule

    @property
    def scoring(self) -> str:
        """'standard' or 'reveal'."""
        return self._options.scoring

    @property
    def number(self) -> int | None:
        """The deal number, or None for a position that did not come from a known deal."""
        return self._number

    @property
    def code(self) -> str | None:
        """The game code of the deal (``'SP1-S2C-AAAAAAD'``), or None when the deal is unknown."""
        return None if self._number is None else format_code(self._options, self._number)

    @property
    def undo_limit(self) -> int | None:
        """How many actions can be undone (None: no limit)."""
        return self._undo_limit

    @undo_limit.setter
    def undo_limit(self, limit: int | None) -> None:
        check_undo_limit(limit)
        self._undo_limit = limit
        self._history = deque(self._history, maxlen=limit)

    @property
    def columns(self) -> tuple[Column, ...]:
        """The columns, left to right."""
        card = Card.from_int
        return tuple(
            Column(tuple(card(value) for value in column), down)
            for column, down in zip(self._cols, self._down, strict=True)
        )

    def position(self) -> Position:
        """A read-only snapshot of the position in engine ints: every card, the counters and the
        deal number.  This is what other modules read; the game's own lists stay private."""
        return Position(
            self._options,
            self._number,
            tuple(map(tuple, self._cols)),
            tuple(self._down),
            tuple(reversed(self._stock)),
            tuple(self._removed),
            self._score,
            self._moves,
        )

    @property
    def face_down(self) -> tuple[int, ...]:
        """How many face-down cards lie at the bottom of each column, left to right."""
        return tuple(self._down)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, in the order its cards will be dealt."""
        return tuple(Card.from_int(value) for value in reversed(self._stock))

    @property
    def deals_left(self) -> int:
        """How many deals the stock still holds."""
        return self._options.deals_left(len(self._stock))

    @property
    def completed(self) -> tuple[str, ...]:
        """Suits of the removed runs, in the order they were removed."""
        return tuple(SUITS[suit] for suit in self._removed)

    @property
    def score(self) -> int:
        """The score under the game's scoring."""
        return self._score

    @property
    def moves(self) -> int:
        """Moves and deals played (removing a run is not a move)."""
        return self._moves

    @property
    def is_won(self) -> bool:
        """True when every run has been removed."""
        return len(self._removed) == self._options.runs_to_win

    def positions_since_progress(self) -> list[tuple[tuple[int, ...], ...]]:
        """The positions before each move since the last deal, card turned or run removed,
        newest first, as the cards of each column (face-down ones included, bottom to top).

        They are the only earlier positions the game can come back to: the stock, the face-down
        cards and the runs removed only ever shrink, so the face-down counts are the current
        ones.  Read from the history, so only as far back as the undo limit keeps it.
        """
        columns = [list(column) for column in self._cols]
        snapshot = [tuple(column) for column in columns]
        positions: list[tuple[tuple[int, ...], ...]] = []
        for record in reversed(self._history):
            if isinstance(record, DealRecord):
                break
            src, dst, count, flipped_src, run_suit, flipped_dst, *_ = record
            if flipped_src or flipped_dst or run_suit >= 0:
                break
            source, target = columns[src], columns[dst]
            source += target[-count:]
            del target[-count:]
            snapshot[src] = tuple(source)
            snapshot[dst] = tuple(target)
            positions.append(tuple(snapshot))
        return positions

    @property
    def can_undo(self) -> bool:
        """True when there is an action to undo."""
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be replayed."""
        return bool(self._redo)

    @property
    def played(self) -> tuple[Action, ...]:
        """Every action from the start of the game to now (the game record)."""
        return tuple(self._played)

    @property
    def redo_actions(self) -> tuple[Action, ...]:
        """Undone actions that :meth:`redo` would replay, the next one last."""
        return tuple(self._redo)

    @property
    def last_effects(self) -> Effects | None:
        """Flips and removed runs of the last move, deal or redo (None after undo or restart)."""
        record = self._last
        if record is None:
            return None
        if not isinstance(record, DealRecord):
            src, dst, count, flipped_src, run_suit, flipped_dst, *_ = record
            return Effects(
                Move(src, dst, count),
                (src,) * flipped_src + (dst,) * flipped_dst,
                ((dst, SUITS[run_suit]),) if run_suit >= 0 else (),
            )
        runs = record.runs
        return Effects(
            DEAL,
            tuple(index for index, _, flipped in runs if flipped),
            tuple((index, SUITS[suit]) for index, suit, _ in runs),
        )

    def __repr__(self) -> str:
        return f"Game.from_text({self.to_text()!r})"

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        """Pickled and copied through the constructor, as the compiled build requires: every
        attribute, history included."""
        return (_game_from_state, tuple(getattr(self, name) for name in _GAME_STATE))

    def __eq__(self, other: object) -> bool:
        """Same options and same position; the history is not compared (see :class:`Game`)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self._options == other._options
            and self._number == other._number
            and self._score == other._score
            and self._moves == other._moves
            and self._cols == other._cols
            and self._down == other._down
            and self._stock == other._stock
            and self._removed == other._removed
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: equal games may later differ

    def __str__(self) -> str:
        return render_text(self.position())

    # ----------------------------------------------------------------- rules

    def _group_length(self, index: int) -> int:
        """How many top cards of a column form a group the rule lets move (cached)."""
        cached = self._group[index]
        if cached >= 0:
            return cached
        length = group_length(self._cols[index], self._down[index], self._flexible)
        self._group[index] = length
        return length

    def movable_count(self, column: int) -> int:
        """How many top cards of ``column`` can be picked up together (0 when empty)."""
        if not 0 <= column < len(self._cols):
            raise IllegalMove("no-such-column", f"there is no column {column}")
        return self._group_length(column)

    def legal_moves(self) -> list[Move]:
        """Every legal card move, by source column, then group size, then destination.

        Dealing is not a card move: see :attr:`can_deal`.
        """
        lengths = self._group
        if -1 in lengths:  # a column changed since the last call: fill the cache again
            cols, down, flexible = self._cols, self._down, self._flexible
            for index, length in enumerate(lengths):
                if length < 0:
                    lengths[index] = group_length(cols[index], down[index], flexible)
        return legal_moves(self._cols, lengths)

    def is_legal(self, move: Move) -> bool:
        """True when :meth:`move` would accept this move."""
        try:
            self._check_move(move.src, move.dst, move.count)
        except IllegalMove:
            return False
        return True

    @staticmethod
    def _check_types(src: object, dst: object, count: object) -> None:
        for name, value in (("source", src), ("destination", dst), ("count", count)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove(
                    "bad-count" if name == "count" else "no-such-column",
                    f"the {name} must be an int, not {excerpt(value)}",
                )

    def _check_move(self, src: int, dst: int, count: int) -> None:
        cols = self._cols
        size = len(cols)
        if not (type(src) is int and type(dst) is int and type(count) is int):
            self._check_types(src, dst, count)
        if not 0 <= src < size:
            raise IllegalMove("no-such-column", f"there is no column {src} (0 to {size - 1})")
        if not 0 <= dst < size:
            raise IllegalMove("no-such-column", f"there is no column {dst} (0 to {size - 1})")
        if src == dst:
            raise IllegalMove("same-column", "a group cannot move onto its own column")
        column = cols[src]
        movable = self._group[src]
        if movable < 0:  # the cache of _group_length, filled here without its frame
            movable = self._group[src] = group_length(column, self._down[src], self._flexible)
        if count < 1 or count > movable:  # the movable group lies within the face-up cards
            self._check_count(src, count)
            kind = "in descending order" if self._flexible else "of one suit in descending order"
            raise IllegalMove(
                "not-movable", f"only cards {kind} move together; these {count} cards do not"
            )
        target = cols[dst]
        if not accepts(target, column[-count]):
            raise IllegalMove(
                "no-target",
                f"{card_text(column[-count])} cannot go on {card_text(target[-1])}: "
                "a card goes only on a card one rank higher, or into an empty column",
            )

    def _check_count(self, src: int, count: int) -> None:
        """Refuse a count below one or above the face-up cards of column ``src``."""
        face_up = len(self._cols[src]) - self._down[src]
        if count < 1 or count > face_up:
            raise IllegalMove(
                "bad-count",
                f"column {src} has {face_up} face-up card{'s' if face_up != 1 else ''}; "
                f"cannot move {count}",
            )

    def move(self, src: int, dst: int, count: int = 1) -> None:
        """Move the ``count`` top cards of column ``src`` onto column ``dst``.

        Raises :class:`IllegalMove` and changes nothing when the rules refuse.  A face-down card
        left on top turns over, and a completed run leaves the table, in the same action.
        """
        self._check_move(src, dst, count)
        if self._redo:
            self._redo.clear()
        self._apply_move(src, dst, count)
        # The move made once (checked above: both columns exist, at most 13 cards move).
        self._played.append(CARD_MOVES[(src * MOST_COLUMNS + dst) * MOVE_STRIDE + count])

    def push(self, action: Action | str) -> None:
        """Play an action: a :class:`Move`, ``"deal"`` (``spider.DEAL``) or an action's text
        such as ``"ad"`` or ``"bc3"`` (read by :func:`spider.parse_action`).

        Raises :class:`~spider.errors.InvalidAction` for text that is not an action and
        :class:`IllegalMove` for an action the rules refuse; either way nothing changes.
        """
        if isinstance(action, str):
            if action != DEAL:
                action = parse_action(action)
                if action != DEAL:
                    self.push(action)
                    return
            self.deal()
        else:
            if type(action) is not Move:
                action = Move(*action)
            src, dst, count = action
            self._check_move(src, dst, count)
            if self._redo:
                self._redo.clear()
            self._apply_move(src, dst, count)
            self._played.append(action)

    def _apply_move(self, src: int, dst: int, count: int) -> None:
        cols = self._cols
        down = self._down
        source = cols[src]
        target = cols[dst]
        target += source[-count:]
        del source[-count:]
        previous_score = self._score
        group = self._group
        group_src = group[src]
        group_dst = group[dst]
        group[src] = -1
        group[dst] = -1
        flipped_src = turns_over(len(source), down[src])
        if target[-1] & 15 == 1:  # only an ace on top can complete a run: settle only then
            run_suit, flipped_dst = settle(target, down[dst])
        else:
            run_suit, flipped_dst = -1, False
        if flipped_src:
            down[src] -= 1
        self._moves += 1
        if run_suit >= 0:
            self._removed.append(run_suit)
            if flipped_dst:
                down[dst] -= 1
        self._score = scored(
            previous_score, self._standard, self._floor, run_suit >= 0, flipped_src + flipped_dst
        )
        # Typed as the history's entries, so the compiled build makes the tuple once.
        record: HistoryEntry = (
            src,
            dst,
            count,
            flipped_src,
            run_suit,
            flipped_dst,
            previous_score,
            group_src,
            group_dst,
        )
        self._history.append(record)
        self._last = record

    def deal_error(self) -> IllegalMove | None:
        """Why a deal is refused now, or None when it is allowed."""
        refusal = deal_refusal(len(self._stock), [len(column) for column in self._cols])
        if refusal is None:
            return None
        code, column = refusal
        if code == "stock-empty":
            return IllegalMove(code, "the stock is empty: there is nothing left to deal")
        return IllegalMove(
            code, f"column {column} is empty: every column must hold a card before a deal"
        )

    @property
    def can_deal(self) -> bool:
        """True when a deal is allowed now (:meth:`deal_error` says why not).

        A property like :attr:`can_undo` and :attr:`is_won`: write ``if game.can_deal:``.  Until
        0.1.0 it was a method; the old spelling ``game.can_deal`` now raises ``TypeError``
        (``'bool' object is not callable``), and ``mypy`` reports it.
        """
        return self.deal_error() is None

    def outcome(self) -> Outcome:
        """Whether the game is won, stuck or in play, with the reason (see :class:`Outcome`).

        "Stuck" is what the rules alone make certain: no legal card move and no deal possible.
        A game whose only moves go round in circles is still "in-play"; whether it can be won
        is the solver's question (:func:`spider.solver.solve`), not this one.

        Examples:
            >>> Game.from_code("SP1-S2C-AAAAAAD").outcome()
            Outcome(status='in-play', reason='6 legal moves and a deal')
        """
        if self.is_won:
            runs = self._options.runs_to_win
            return Outcome("won", f"all {runs} runs have been removed")
        moves = len(self.legal_moves())
        error = self.deal_error()
        if moves:
            plural = "s" if moves != 1 else ""
            deal = "a deal" if error is None else "no deal"
            return Outcome("in-play", f"{moves} legal move{plural} and {deal}")
        if error is None:
            return Outcome("in-play", "no legal move, but a deal")
        return Outcome("stuck", f"no legal move, and no deal: {error}")

    def deal_blocked_forever(self) -> bool:
        """True when the table has fewer cards than columns, so no deal can ever happen again."""
        table = sum(map(len, self._cols))
        return deal_blocked_forever(len(self._stock), table, len(self._cols))

    def deal(self) -> None:
        """Deal one face-up card onto each column, left to right (a short last deal covers the
        first columns).  Raises :class:`IllegalMove` (``stock-empty`` or ``empty-column``)."""
        error = self.deal_error()
        if error is not None:
            raise error
        self._redo.clear()
        self._apply_deal()
        self._played.append(DEAL)

    def _apply_deal(self) -> None:
        cols = self._cols
        down = self._down
        stock = self._stock
        group = self._group
        dealt = min(len(cols), len(stock))
        for index in range(dealt):
            cols[index].append(stock.pop())
            group[index] = -1
        previous_score = self._score
        runs: list[tuple[int, int, bool]] = []
        for index in range(dealt):
            run_suit, flipped = settle(cols[index], down[index])
            if run_suit >= 0:
                self._removed.append(run_suit)
                group[index] = -1
                if flipped:
                    down[index] -= 1
                runs.append((index, run_suit, flipped))
        self._moves += 1
        self._score = scored(
            previous_score,
            self._standard,
            self._floor,
            len(runs),
            sum(flipped for _, _, flipped in runs),
        )
        record = DealRecord(dealt, tuple(runs), previous_score)
        self._history.append(record)
        self._last = record

    # ----------------------------------------------------------------- history

    def undo(self) -> Action:
        """Take back the last action (a deal or move, with any run it removed); return it.

        Raises ``IndexError`` when there is nothing to undo.
        """
        if not self._history:
            raise IndexError("nothing to undo")
        self._unapply(self._history.pop())
        action = self._played.pop()
        self._redo.append(action)
        self._last = None
        return action

    def _unapply(self, record: HistoryEntry) -> None:
        cols = self._cols
        down = self._down
        group = self._group
        if not isinstance(record, DealRecord):
            (
                src,
                dst,
                count,
                flipped_src,
                run_suit,
                flipped_dst,
                previous_score,
                group_src,
                group_dst,
            ) = record
            target = cols[dst]
            if run_suit >= 0:
                if flipped_dst:
                    down[dst] += 1
                base = run_suit << 4
                target += [base | rank for rank in range(13, 0, -1)]
                self._removed.pop()
            source = cols[src]
            if flipped_src:
                down[src] += 1
            source += target[-count:]
            del target[-count:]
            group[src] = group_src
            group[dst] = group_dst
            self._score = previous_score
            self._moves -= 1
            return
        dealt, runs, previous_score = record
        for index, suit, flipped in reversed(runs):
            if flipped:
                down[index] += 1
            cols[index] += [suit << 4 | rank for rank in range(13, 0, -1)]
            self._removed.pop()
        stock = self._stock
        for index in range(dealt - 1, -1, -1):
            stock.append(cols[index].pop())
            group[index] = -1
        self._score = previous_score
        self._moves -= 1

    def redo(self) -> Action:
        """Replay the last undone action; return it.  ``IndexError`` when there is none."""
        if not self._redo:
            raise IndexError("nothing to redo")
        action = self._redo.pop()
        if isinstance(action, str):
            self._apply_deal()
        else:
            self._apply_move(action.src, action.dst, action.count)
        self._played.append(action)
        return action

    def set_redo(self, actions: list[Action]) -> None:
        """Replace the redo list (the next action to redo last); ``ValueError`` and no change
        when the actions do not replay, in that order, from the current position."""
        probe = self.copy(history=False)
        probe.undo_limit = 0
        for index, action in enumerate(reversed(actions)):
            try:
                probe.push(action)
            except ValueError as error:
                raise ValueError(f"redo action {index}: {error}") from None
        self._redo[:] = actions

    def restart(self) -> None:
        """Go back to the start of the game (the deal, or the position it was opened from).

        The history is cleared.
        """
        self._restore(self._start)
        self._history.clear()
        self._redo.clear()
        self._played.clear()
        self._last = None

    # ----------------------------------------------------------------- internals

    def _snapshot(
        self,
    ) -> tuple[
        tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int
    ]:
        return (
            tuple(tuple(column) for column in self._cols),
            tuple(self._down),
            tuple(self._stock),
            tuple(self._removed),
            self._score,
            self._moves,
        )

    def _restore(
        self,
        snapshot: tuple[
            tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int
        ],
    ) -> None:
        columns, down, stock, removed, score, moves = snapshot
        self._cols = [list(column) for column in columns]
        self._down = list(down)
        self._stock = list(stock)
        self._removed = list(removed)
        self._score = score
        self._moves = moves
        self._group = [-1] * len(self._cols)

    def start_position(self) -> Game:
        """A new game at the start of this one (what :meth:`restart` returns to)."""
        other = self.copy(history=False)
        other._restore(self._start)
        other._start = self._start
        return other

    def state_key(self) -> tuple[object, ...]:
        """A hashable key of the exact position (cards, face-down counts, stock, runs, score)."""
        return self._snapshot()


_GAME_STATE: Final = (
    "_cols",
    "_down",
    "_flexible",
    "_floor",
    "_group",
    "_history",
    "_last",
    "_moves",
    "_number",
    "_options",
    "_played",
    "_redo",
    "_removed",
    "_score",
    "_standard",
    "_start",
    "_stock",
    "_undo_limit",
)
"""The attributes a pickled or copied :class:`Game` carries: all of its ``__slots__``."""


def _game_from_state(*state: object) -> Game:
    """The game of :meth:`Game.__reduce__`'s state."""
    game = Game(Options(), [], [], [], [], 0, 0)
    for name, value in zip(_GAME_STATE, state, strict=True):
        setattr(game, name, value)
    return game
