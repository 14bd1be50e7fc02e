"""The solver's move generator, at three pruning levels.

Every level takes the rules from :mod:`spider.rules` (group length, where a group may go, run
removal, the turned card, when a deal is allowed) and only chooses among the moves they allow:

* :data:`SOUND` (0): every legal action except those giving a position with the same canonical
  key (moves into a second empty column no deal reaches again, a whole such column into such an
  empty one).  The exhaustive phase uses it, so an exhausted search is a proof.
* :data:`LOOSE`: moves into an empty column go to the first one only, a whole column never moves
  into an empty one, and when a target of the group's own suit exists, targets of other suits
  are skipped.  Classic rule: *supermoves* too (see :meth:`Solver.supermoves`).
* :data:`STRICT`: as loose, and moreover a suited run is split only onto a card of its suit and
  only when the run it joins becomes longer than the one it leaves; a group sitting on a card one
  rank higher of another suit moves only onto its own suit, unless the card it frees is wanted by
  a group of that card's suit (the bottom card of a suited segment of some movable group).

The pruned levels are unsound: they find wins but prove nothing.
"""

from __future__ import annotations

from typing import Final, final

from spider.game import Game
from spider.rules import EMPTY, deal_blocked_forever, destination_index, group_length, may_deal
from spider.solver.full.encoding import (
    DEAL_CODE,
    ActionCode,
    State,
    canonical_key,
    settle_column,
    start_state,
    turn_top,
)
from spider.solver.full.encoding import is_won as state_is_won
from spider.solver.full.heuristic import PORTFOLIO, Heuristic, Weights

__all__ = ["LOOSE", "SOUND", "STRICT", "Child", "ColumnInfo", "Piece", "Solver"]

SOUND: Final = 0
"""Pruning level of the exhaustive phase: only duplicate positions are skipped."""
LOOSE: Final = 1
"""Pruning level of the finding phase's fallback: sideways moves allowed."""
STRICT: Final = 2
"""Pruning level of the finding phase: only moves that gain something."""

_NO_COLUMNS: Final[list[int]] = []
"""An empty list of column indices, shared (never modified)."""

_INFO_CACHE_SIZE: Final = 50_000

Child = tuple[int, ActionCode, State]
"""(score, action code, position) of a child."""


Piece = tuple[int, int, int, int, int, bytes, int, bytes]
"""A group a column can move, and what moving it leaves behind: ``(count, card, base, under,
below, source, source_score, cards)``.

- ``count``: how many cards the group holds; ``card``: its lowest card;
- ``base``: index of the card under the group (byte 0 counts the face-down cards);
- ``under``: that card, or 0 when the group lies on a face-down card or the bottom;
- ``below``: length of the suited run under it when ``under`` is its suited parent, else 0;
- ``source``, ``source_score``: the column left behind and its score; ``cards``: the group.

A plain tuple rather than a NamedTuple: CPython 3.11 specialises indexing and unpacking only
for exact tuples, and reading the fields of NamedTuple instances here cost 4.5% of a solve (37 M
of 835 M instructions on deal 0 of 2-suit Spider, measured with callgrind)."""


@final
class ColumnInfo:
    """What move generation needs to know about one column (it depends only on the column).

    - ``score``: the column's heuristic score; ``tail``: the length of its suited tail;
    - ``wanted``: the bottom cards of the suited segments of its movable group, as bits (card
      ``c`` is ``1 << (c - 1)``);
    - ``start``, ``length``: where the movable group starts, and how long it is;
    - ``pieces``: the :data:`Piece` of each group of it, smallest first;
    - ``ranks``: bit ``r`` set when a piece's lowest card has rank ``r`` (a quick "can move?").

    A class with slots rather than a tuple: the interpreter reads a slot as fast as a tuple
    item, and the compiled build reads it in place, where it would convert a tuple field by
    field each time one moved between a dict and a list.
    """

    __slots__ = ("length", "pieces", "ranks", "score", "start", "tail", "wanted")

    def __init__(
        self,
        score: int,
        tail: int,
        wanted: int,
        start: int,
        length: int,
        pieces: tuple[Piece, ...],
        ranks: int,
    ) -> None:
        self.score = score
        self.tail = tail
        self.wanted = wanted
        self.start = start
        self.length = length
        self.pieces = pieces
        self.ranks = ranks


_Frame = tuple[
    State,  # the position
    int,  # its score
    list[ColumnInfo],  # the ColumnInfo of each column
    list[int],  # the score of each column
    list[list[int]],  # by_rank: the columns a group of lowest rank r may go onto
    dict[int, list[int]],  # by_card: the columns by their top card (exact suit and rank)
    list[int],  # the empty columns
    int,  # open_ranks: bit r set when some column takes a group of lowest rank r
]
"""What the generator knows of one position while it lists its children (a plain tuple: the
interpreter unpacks those fastest, and this is unpacked once a position)."""


class Solver(Heuristic):
    """Positions, move generation and the heuristic of one game, shared by both phases."""

    def __init__(self, game: Game, weights: Weights = PORTFOLIO[0]) -> None:
        position = game.position()
        super().__init__(position, weights)
        self.flexible = position.options.flexible
        self.start: State = start_state(position)
        self.infos: dict[bytes, ColumnInfo] = {}
        self.dealing = bytes(self.stock)  # the stock as the columns hold cards, in dealing order

    def key(self, state: State) -> tuple[object, ...]:
        """The transposition key (:func:`~spider.solver.full.encoding.canonical_key`)."""
        return canonical_key(state, self.columns)

    def is_won(self, state: State) -> bool:
        """True when every run has been removed."""
        return state_is_won(state)

    def column_info(self, column: bytes) -> ColumnInfo:
        """The :class:`ColumnInfo` of a column (cached)."""
        infos = self.infos
        cached = infos.get(column)
        if cached is not None:
            return cached
        score = self.column_score(column)
        size = len(column)
        first_up = column[0] + 1
        if size <= first_up:
            info = ColumnInfo(score, 0, 0, size, 0, (), 0)
        else:
            length = group_length(column, first_up, self.flexible)
            tail, wanted = self._segments(column, first_up)
            pieces, ranks = self._pieces(column, first_up, length)
            info = ColumnInfo(score, tail, wanted, size - length, length, pieces, ranks)
        if len(infos) > _INFO_CACHE_SIZE:
            infos.clear()
        infos[column] = info
        return info

    def _segments(self, column: bytes, first_up: int) -> tuple[int, int]:
        """The suited tail's length, and the bottom card of each suited segment of the movable
        group (cards that would gladly move onto their suit), as bits (see :class:`ColumnInfo`)."""
        position = len(column) - 1
        while position > first_up and column[position - 1] == column[position] + 1:
            position -= 1
        tail = len(column) - position
        wanted = 1 << (column[position] - 1)
        if self.flexible:
            while (
                position > first_up and (column[position - 1] & 15) == (column[position] & 15) + 1
            ):
                position -= 1
                while position > first_up and column[position - 1] == column[position] + 1:
                    position -= 1
                wanted |= 1 << (column[position] - 1)
        return tail, wanted

    def _pieces(self, column: bytes, first_up: int, length: int) -> tuple[tuple[Piece, ...], int]:
        """The :data:`Piece` of each group of the top ``length`` cards, smallest first, and
        the bit mask of their lowest cards' ranks."""
        pieces = []
        ranks = 0
        for count in range(1, length + 1):
            card = column[-count]
            base = len(column) - count
            under = column[base - 1] if base > first_up else 0
            below = 0
            if under == card + 1:
                below = 1
                index = base - 1
                while index > first_up and column[index - 1] == column[index] + 1:
                    below += 1
                    index -= 1
            source = turn_top(column[:base])
            score = self.column_score(source)
            fields = (count, card, base, under, below, source, score, column[base:])
            pieces.append(fields)
            ranks |= 1 << (card & 15)
        return tuple(pieces), ranks

    def placed(
        self,
        state: State,
        score: int,
        src: int,
        source: bytes,
        dst: int,
        cards: bytes,
        action: ActionCode,
        scores: list[int],
    ) -> Child:
        """The scored child where column ``src`` became ``source`` and ``cards`` went onto
        column ``dst`` (a completed run leaves at once).  ``score`` already counts the change
        of the source column; ``scores`` are the parent's column scores."""
        columns, stock = state
        target = columns[dst] + cards
        run = 0
        if cards[-1] & 15 == 1:
            target, removed = settle_column(target)
            if removed:
                run = self.weights.run
        new = list(columns)
        new[src] = source
        new[dst] = target
        return (score + self.column_score(target) - scores[dst] + run, action, (tuple(new), stock))

    def children(self, state: State, score: int, prune: int, undo: int = -1) -> list[Child]:
        """(score, action code, child) for the moves and the deal at pruning level ``prune``;
        the deal's code is ``DEAL_CODE``.  A dead position (stock left but fewer cards on the
        table than columns, so no deal can happen again) has none.  At the sound level the card
        move ``undo`` (when not negative) is left out: the caller knows it gives the parent back
        (see :func:`~spider.solver.full.exhaustive.undo_code`)."""
        columns, stock = state
        column_count = len(columns)
        known = self.infos
        infos: list[ColumnInfo] = []
        scores: list[int] = []
        tops: list[int] = []
        table_cards = 0
        open_ranks = 0  # bit r - 1 set when a group of lowest rank r has a card to go onto
        # One loop, plain calls and no bound methods: compiled, each is a direct C call.
        for column in columns:
            size = len(column)
            table_cards += size - 1
            info = known.get(column)
            if info is None:
                info = self.column_info(column)
            infos.append(info)
            scores.append(info.score)
            if size > 1:
                top = column[-1]
                tops.append(top)
                open_ranks |= 1 << ((top & 15) - 1)  # the rank that fits under it
            else:
                tops.append(EMPTY)
        if deal_blocked_forever(stock, table_cards, column_count):
            return []
        by_rank, empty_all = destination_index(tops)
        by_card: dict[int, list[int]] = {}  # columns by their top card (exact suit and rank)
        if prune != SOUND:  # the sound level takes every rank target: it needs no suits
            for index, top in enumerate(tops):
                if top in by_card:
                    by_card[top].append(index)
                elif top != EMPTY:
                    by_card[top] = [index]
        out: list[Child] = []
        frame = (state, score, infos, scores, by_rank, by_card, empty_all, open_ranks)
        if prune == SOUND:
            self._sound_moves(frame, out, undo)
        elif prune == LOOSE:
            self._loose_moves(frame, out)
        else:
            self._strict_moves(frame, out)
        if may_deal(stock, len(empty_all)):
            self._deal(state, score, scores, out)
        return out

    def _add_moves(
        self,
        state: State,
        moved_base: int,
        src: int,
        piece: Piece,
        targets: list[int],
        scores: list[int],
        out: list[Child],
    ) -> None:
        count, _, _, _, _, source, source_score, cards = piece
        moved_score = moved_base + source_score
        code = src << 8 | count
        for dst in targets:
            out.append(
                self.placed(state, moved_score, src, source, dst, cards, code | dst << 4, scores)
            )

    def _sound_moves(self, frame: _Frame, out: list[Child], undo: int) -> None:
        """SOUND: every legal move but those that only permute columns no deal reaches again,
        and ``undo``, the card move that gives the parent back (a negative code: none)."""
        state, score, infos, scores, by_rank, _, empty_all, open_ranks = frame
        stock = state[1]
        undo_src = undo >> 8  # -1 when there is none
        # Columns no deal reaches again are interchangeable (see ``canonical_key``): one of them.
        late = [index for index in empty_all if index >= stock][:1]
        empties = [index for index in empty_all if index < stock] + late
        for src, info in enumerate(infos):
            if not empties and not info.ranks & open_ranks:
                continue  # nowhere to go (the common case)
            moved_base = score - scores[src]
            for piece in info.pieces:
                targets = by_rank[piece[1] & 15]
                if not targets and not empties:
                    continue
                if empties:
                    # A whole late column into a late empty one only permutes columns.
                    whole_late = piece[2] == 1 and src >= stock
                    targets = targets + [
                        dst for dst in empties if not (whole_late and dst >= stock)
                    ]
                if src == undo_src and piece[0] == undo & 15:
                    undo_dst = (undo >> 4) & 15
                    targets = [dst for dst in targets if dst != undo_dst]
                if targets:
                    self._add_moves(state, moved_base, src, piece, targets, scores, out)

    def _loose_moves(self, frame: _Frame, out: list[Child]) -> None:
        """LOOSE: a target of the group's own suit when there is one, else any rank target;
        the first empty column, unless the group is the whole column."""
        state, score, infos, scores, by_rank, by_card, empty_all, open_ranks = frame
        empties = empty_all[:1]
        parking = not self.flexible and bool(empty_all)  # supermoves park groups in empties
        for src, info in enumerate(infos):
            if not empties and not info.ranks & open_ranks:
                continue  # nowhere to go (the common case)
            moved_base = score - scores[src]
            for piece in info.pieces:
                card = piece[1]
                onto = by_rank[card & 15]
                if not onto and not empties:
                    continue  # nowhere to go (the common case)
                targets = by_card.get(card + 1) or onto
                if empties and piece[2] > 1:
                    targets = targets + empties
                if targets:
                    self._add_moves(state, moved_base, src, piece, targets, scores, out)
            if parking and info.start > state[0][src][0] + 1:
                self._supermoves_of(frame, src, info, out)

    def _strict_moves(self, frame: _Frame, out: list[Child]) -> None:
        """STRICT: as LOOSE, but a suited run is split only onto its suit and only to lengthen
        it, and a sideways move (off a card one rank higher) only frees a wanted card."""
        state, score, infos, scores, by_rank, by_card, empty_all, open_ranks = frame
        empties = empty_all[:1]
        parking = not self.flexible and bool(empty_all)  # supermoves park groups in empties
        wanted = -1  # the wanted cards as bits, built when a sideways move first needs them
        for src, info in enumerate(infos):
            if not empties and not info.ranks & open_ranks:
                continue  # nowhere to go (the common case)
            moved_base = score - scores[src]
            for piece in info.pieces:
                card = piece[1]
                onto = by_rank[card & 15]
                if not onto and not empties:
                    continue  # nowhere to go (the common case: skip the pruning rules)
                base, under, below = piece[2], piece[3], piece[4]
                suited = by_card.get(card + 1, _NO_COLUMNS)
                if below:
                    # Splitting a suited run: only onto its suit, and only to lengthen it.
                    targets = [dst for dst in suited if infos[dst].tail > below]
                elif (
                    under
                    and (under & 15) == (card & 15) + 1
                    and not (wanted if wanted >= 0 else (wanted := _wanted_cards(infos)))
                    >> (under - 2)  # the bit of the card it frees, under - 1
                    & 1
                ):
                    # A sideways move from one link to another helps only when it frees a card
                    # that a group of its suit is waiting for.
                    targets = suited
                else:
                    targets = suited or onto
                    if empties and base > 1:
                        targets = targets + empties
                if targets:
                    self._add_moves(state, moved_base, src, piece, targets, scores, out)
            if parking and info.start > state[0][src][0] + 1:
                self._supermoves_of(frame, src, info, out)

    def _supermoves_of(self, frame: _Frame, src: int, info: ColumnInfo, out: list[Child]) -> None:
        """The supermoves of column ``src`` (classic rule, an empty column, and cards under the
        column's movable group that continue the sequence)."""
        state, score, _, scores, by_rank, by_card, empty_all, _ = frame
        self.supermoves(state, score, src, info, empty_all, by_rank, by_card, scores, out)

    def _deal(self, state: State, score: int, scores: list[int], out: list[Child]) -> None:
        """The deal (the rules allow one)."""
        columns, stock = state
        dealt_before = self.stock_total - stock
        dealt = min(self.columns, stock)
        new = list(columns)
        dealt_score = score + self.weights.deal  # every deal adds one to the deal count
        completed = False
        cards = self.dealing
        for index in range(dealt):
            place = dealt_before + index
            column = columns[index] + cards[place : place + 1]
            if column[-1] & 15 == 1:  # only an ace can complete a run
                column, removed = settle_column(column)
                completed = completed or removed
            new[index] = column
            dealt_score += self.column_score(column) - scores[index]
        child: State = (tuple(new), stock - dealt)
        out.append((self.score(child) if completed else dealt_score, DEAL_CODE, child))

    def supermoves(
        self,
        state: State,
        score: int,
        src: int,
        info: ColumnInfo,
        empty_all: list[int],
        by_rank: list[list[int]],
        by_card: dict[int, list[int]],
        scores: list[int],
        out: list[Child],
    ) -> None:
        """Classic rule: move several suited groups of a descending sequence together, parking
        all but the lowest group in empty columns (a macro of primitive moves)."""
        column = state[0][src]
        first_up = column[0] + 1
        position = info.start
        segments = [info.length]
        while (
            position > first_up
            and (column[position - 1] & 15) == (column[position] & 15) + 1
            and len(segments) <= len(empty_all)
        ):
            segment = 1
            position -= 1
            while position > first_up and column[position - 1] == column[position] + 1:
                segment += 1
                position -= 1
            segments.append(segment)
            parked = len(segments) - 1
            card = column[position]
            targets = by_card.get(card + 1, _NO_COLUMNS) or by_rank[card & 15]
            if position > 1 and parked < len(empty_all):
                targets = [*targets, empty_all[-1]]
            if not targets:
                continue
            source = turn_top(column[:position])
            moved_score = score + self.column_score(source) - scores[src]
            for dst in targets:
                codes = _supermove_codes(src, dst, empty_all, segments)
                out.append(
                    self.placed(
                        state, moved_score, src, source, dst, column[position:], codes, scores
                    )
                )


def _wanted_cards(infos: list[ColumnInfo]) -> int:
    """The bottom cards of the suited segments of every movable group (cards that a group of
    their suit is waiting for), as bits (see :class:`ColumnInfo`)."""
    wanted = 0
    for info in infos:
        wanted |= info.wanted
    return wanted


def _supermove_codes(
    src: int, dst: int, empty_all: list[int], segments: list[int]
) -> tuple[int, ...]:
    """The primitive moves of a supermove: park the upper groups, move the lowest, bring the
    parked groups back on top of it."""
    parked = len(segments) - 1
    temps = [index for index in empty_all if index != dst][:parked]
    # Index loops, no zip or generator: the compiled build runs these in place (and an empty
    # column missing for a parked group fails at temps[index]).
    codes = [src << 8 | temps[index] << 4 | segments[index] for index in range(parked)]
    codes.append(src << 8 | dst << 4 | segments[-1])
    for index in range(parked - 1, -1, -1):
        codes.append(temps[index] << 8 | dst << 4 | segments[index])
    return tuple(codes)
