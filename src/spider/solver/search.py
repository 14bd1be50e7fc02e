"""The full-information solver: is this deal winnable?

:func:`solve` sees every card (it is not a hint) and answers ``'winnable'`` with a solution,
``'unwinnable'`` when it has searched the whole reachable space, or ``'undecided'`` when a limit
stopped it first.

Positions are a tuple of columns, each a ``bytes`` object (first byte: face-down count, then
the cards bottom to top), and the number of cards left in the stock (its order is fixed, so its
length says which cards are left).  Columns a move leaves alone are shared between parent and
child.  The transposition key sorts the columns no deal reaches again (all of them once the
stock is empty; in Spiderette, columns 3 to 6 before the short last deal): their order no longer
matters, while a deal puts a known card on each other column *by position*, so that order is
kept.  A position with stock left but fewer cards on the table than columns is dead (no deal can
happen again).

The search has two phases:

1. **Finding** (unsound pruning, proves nothing): a beam over *deal stages*.  From each of up to
   ``width`` positions of a stage, a best-first search over card moves (at most ``budget``
   expansions; one transposition set per stage) collects the positions it could deal from, each
   judged by the heuristic *after* the deal (the stock order is known).  The pool groups them
   by *plan* (face-down count of every column, cards on the table): the face-down cards never
   move, so this is the set of cards turned so far.  The next stage starts from the best
   position of each plan, best plans first, and variants of a plan only fill the places the
   plans leave free (``_Pool``): the beam holds different plans rather than variants of one;
   in the last stage (stock empty) the same search, with ``_END_FACTOR`` times the budget, looks
   for the win.  Moves are pruned at one of two levels.  *Strict* (``_STRICT``) keeps only moves
   that gain something: a suited run is split only onto its suit and only to lengthen it; a
   group sitting on a card one rank higher moves sideways (onto another suit) only when that
   frees a card a group of its suit is waiting for; otherwise targets of the group's own suit
   are preferred.  *Loose* (``_LOOSE``) allows the sideways moves too.  At both, one empty column
   stands for all, and in the classic rule *supermoves* move several suited groups of a
   descending sequence at once by parking the upper groups in empty columns (a macro of
   primitive moves).  The beams run on *tracks* (``_find``): one strict track for each
   heuristic of a small portfolio (``_PORTFOLIO``) and one loose track, each beam of a track
   twice as wide as its last (strict up to 512, loose up to 128).  Every strict track first
   runs widths 4 and 8: on hard deals one weighting often finds at width 8 what another misses
   at width 32.  Then the strict tracks together get twice the work of the loose one, counted
   in expansions: where the strict space is narrow (Spiderette 4-suit) a wide strict beam is
   cheap and often wins.  A level whose beam cut nothing is not widened again.
2. **Proof** (sound): when a loose stage beam cut nothing (the pruned space is small) or every
   beam failed, a best-first search over every legal action except those giving the same canonical
   key (moves into a second empty column no deal reaches, a whole such column into such an empty
   one) searches the whole space; an empty open list proves the deal unwinnable.

The heuristic (both phases, weights in ``_Weights``): runs removed, face-down cards, deals made,
one-suit and any-suit links, breaks (worse over face-down cards), face-up cards over face-down
ones, empty columns.

The solution is replayed through :class:`~spider.game.Game` before it is returned.  Memory is
bounded by an estimate of the bytes each stored position costs; time and node limits, a stop
event or callable, and Ctrl+C all end the search with the partial result.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from ..cards import RUN_LENGTH, ends_in_run, movable_length
from ..game import Game
from ..moves import DEAL, Action, Move, action_text

__all__ = ["SolveProgress", "SolveResult", "solve"]

_BYTES_PER_POSITION: Final = 450
"""Estimated memory per stored position (key, columns, parent link, heap entry)."""


class _Weights(NamedTuple):
    """Weights of the heuristic (one scale for both phases)."""

    run: int = 400  # per run removed
    down: int = 40  # per face-down card (subtracted)
    deal: int = 100  # per deal made
    suited: int = 12  # per one-suit link
    linked: int = 3  # per link of another suit, one rank apart
    breaks: int = 6  # per break between face-up cards
    break_down: int = 6  # more per break in a column over face-down cards
    cover: int = 2  # per face-up card over face-down ones
    empty: int = 50  # per empty column


_PORTFOLIO: Final = (
    _Weights(),
    _Weights(break_down=15, cover=5),
    _Weights(suited=25, linked=1),
    _Weights(down=80, break_down=15, cover=5),
)
"""The finding phase's heuristics.  A beam that fails with one often succeeds at once with
another (hard deals have heavy-tailed solving times), so each has its own strict track; the
loose track, costlier, uses the first only.  The first also orders the sound phase."""

_PORTFOLIO_WIDTH: Final = 8
"""The strict beams up to this width run with every heuristic of the portfolio, in order,
before anything else (the head start); most deals are won there."""

_STRICT: Final = 2
"""Pruning level of the finding phase: only moves that gain something (see ``children``)."""
_LOOSE: Final = 1
"""Pruning level of the finding phase's fallback: sideways moves allowed too."""

_FIRST_WIDTH: Final = {_STRICT: 4, _LOOSE: 8}
"""The width of each level's first beam; each next beam of a track doubles it."""

_WIDEST: Final = {_STRICT: 512, _LOOSE: 128}
"""The widest beam of each level.  Strict beams stay cheap when the strict space is narrow (in
Spiderette 4-suit a width-512 strict beam takes a few seconds), so they go wider."""

_BUDGETS: Final = {4: 500, 8: 1500, 16: 4000, 32: 10000, 64: 30000}
"""Expansions per stage start of a beam of each width; wider beams get ``_WIDE_BUDGET``."""
_WIDE_BUDGET: Final = 100000

_LOOSE_SHARE: Final = 2
"""The strict tracks together get this many times the work of the loose track."""

_GROWTH: Final = 3
"""How many times the work of a track's last beam its next beam is expected to cost (the width
doubles, and the budget grows with it)."""

_END_FACTOR: Final = 4
"""The last stage (stock empty, the endgame) gets this many times the budget."""


_Piece = tuple[int, int, int, int, int, bytes, int, bytes]
"""A group a column can move: (count, its bottom card, index of the card under it, that card
or 0 when the group lies on a face-down card or the bottom, the length of the suited run under
it when that card is its suited parent or else 0, the column left behind, that column's score,
the group's cards)."""
_ColumnInfo = tuple[int, int, tuple[int, ...], int, int, tuple[_Piece, ...]]
"""(score, suited tail length, wanted cards, start of the movable group, its length, pieces);
see :meth:`_Solver.column_info`."""

_NO_COLUMNS: Final[list[int]] = []
"""An empty list of column indices, shared (never modified)."""

State = tuple[tuple[bytes, ...], int]
Action_ = int | tuple[int, ...]
"""An action code: a primitive move or deal (int), or a macro of primitive moves."""


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report: positions expanded and stored, open list size, time so far."""

    expanded: int
    positions: int
    frontier: int
    elapsed: float
    best_runs: int


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The solver's answer.

    ``status`` is ``'winnable'``, ``'unwinnable'`` or ``'undecided'``; ``reason`` says why the
    search ended (``'solved'``, ``'exhausted'``, ``'time-limit'``, ``'node-limit'``,
    ``'memory-limit'``, ``'stopped'``, ``'interrupted'``).  ``solution`` is the winning line in
    move notation (``'ad'``, ``'bc3'``, ``'deal'``), replayed through the engine.
    ``positions`` is the number of distinct positions stored (the size of the space searched),
    ``expanded`` the number whose moves were generated.
    """

    status: str
    reason: str
    solution: list[str] = field(default_factory=list)
    expanded: int = 0
    positions: int = 0
    elapsed: float = 0.0
    code: str | None = None

    @property
    def nodes(self) -> int:
        """Positions searched (alias of ``positions``)."""
        return self.positions

    @property
    def rate(self) -> float:
        """Positions searched per second."""
        return self.positions / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "status": self.status,
            "reason": self.reason,
            "solution": list(self.solution),
            "moves": len(self.solution),
            "expanded": self.expanded,
            "positions": self.positions,
            "elapsed": round(self.elapsed, 3),
            "positions_per_second": round(self.rate),
        }


# --------------------------------------------------------------------------- positions


def _turn_top(column: bytes) -> bytes:
    """Turn the last card face up when every card left is face down (byte 0 counts them)."""
    if len(column) > 1 and len(column) - 1 == column[0]:
        return bytes((column[0] - 1,)) + column[1:]
    return column


def _settle(column: bytes) -> tuple[bytes, bool]:
    """Remove a completed run from the end of a column (turning the card under it)."""
    if not ends_in_run(column, column[0] + 1):  # byte 0 counts the face-down cards
        return column, False
    return _turn_top(column[:-RUN_LENGTH]), True


class _Solver:
    """Positions, move generation and the heuristic, shared by both phases."""

    def __init__(self, game: Game, weights: _Weights = _PORTFOLIO[0]) -> None:
        self.weights = weights
        self.flexible = game.options.flexible
        self.stock = list(reversed(game._stock))  # dealing order
        self.stock_total = len(self.stock)
        self.columns = len(game._cols)
        self.cards_start = sum(map(len, game._cols)) + len(game._stock)
        start_cols = tuple(
            bytes((down, *column)) for column, down in zip(game._cols, game._down, strict=True)
        )
        self.start: State = (start_cols, len(self.stock))
        self.cache: dict[bytes, int] = {}
        self.infos: dict[bytes, _ColumnInfo] = {}

    # ----------------------------------------------------------------- heuristic

    def column_score(self, column: bytes) -> int:
        cache = self.cache
        cached = cache.get(column)
        if cached is not None:
            return cached
        weights = self.weights
        down = column[0]
        size = len(column)
        if size == 1:
            score = weights.empty
        else:
            suited = linked = breaks = 0
            for position in range(down + 2, size):
                lower = column[position - 1]
                upper = column[position]
                if upper == lower - 1:
                    suited += 1
                elif (upper & 15) == (lower & 15) - 1:
                    linked += 1
                else:
                    breaks += 1
            score = (
                weights.suited * suited
                + weights.linked * linked
                - weights.breaks * breaks
                - weights.down * down
            )
            if down:
                score -= weights.cover * (size - 1 - down) + weights.break_down * breaks
        if len(cache) > 500_000:
            cache.clear()
        cache[column] = score
        return score

    def score(self, state: State) -> int:
        columns, stock = state
        column_score = self.column_score
        total = sum(column_score(column) for column in columns)
        cards = sum(len(column) - 1 for column in columns) + stock
        runs = (self.cards_start - cards) // RUN_LENGTH
        deals = -(-(self.stock_total - stock) // self.columns)
        return total + self.weights.run * runs + self.weights.deal * deals

    def key(self, state: State) -> tuple[object, ...]:
        """The transposition key: columns no deal will reach again are sorted (all of them
        once the stock is empty; in Spiderette, columns 3 to 6 before the short last deal)."""
        columns, stock = state
        if stock >= self.columns:
            return (stock, columns)
        return (stock, columns[:stock], *sorted(columns[stock:]))

    def is_won(self, state: State) -> bool:
        columns, stock = state
        return not stock and all(len(column) == 1 for column in columns)

    # ----------------------------------------------------------------- moves

    def _placed(
        self,
        columns: tuple[bytes, ...],
        stock: int,
        score: int,
        src: int,
        source: bytes,
        dst: int,
        cards: bytes,
        action: Action_,
        scores: list[int],
    ) -> tuple[int, Action_, State]:
        """The scored child where column ``src`` became ``source`` and ``cards`` went onto
        column ``dst`` (a completed run leaves at once).  ``score`` already counts the change
        of the source column; ``scores`` are the parent's column scores."""
        old_target = columns[dst]
        target = old_target + cards
        run = 0
        if cards[-1] & 15 == 1:
            target, removed = _settle(target)
            if removed:
                run = self.weights.run
        new = list(columns)
        new[src] = source
        new[dst] = target
        return (
            score + self.column_score(target) - scores[dst] + run,
            action,
            (tuple(new), stock),
        )

    def _supermoves(
        self,
        columns: tuple[bytes, ...],
        stock: int,
        score: int,
        src: int,
        position: int,
        length: int,
        empty_all: list[int],
        by_rank: list[list[int]],
        by_card: dict[int, list[int]],
        scores: list[int],
        out: list[tuple[int, Action_, State]],
    ) -> None:
        """Classic rule: move several suited groups of a descending sequence together, parking
        all but the lowest group in empty columns (a macro of primitive moves)."""
        column = columns[src]
        column_score = self.column_score
        first_up = column[0] + 1
        segments = [length]
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
            rank = card & 15
            targets = by_card.get(card + 1, _NO_COLUMNS)
            if not targets:
                targets = by_rank[rank + 1]
            if position > 1 and parked < len(empty_all):
                targets = [*targets, empty_all[-1]]
            if not targets:
                continue
            source = _turn_top(column[:position])
            delta_source = column_score(source) - scores[src]
            block = column[position:]
            for dst in targets:
                temps = [index for index in empty_all if index != dst][:parked]
                codes = [
                    src << 8 | temp << 4 | count
                    for temp, count in zip(temps, segments[:-1], strict=True)
                ]
                codes.append(src << 8 | dst << 4 | segments[-1])
                codes.extend(
                    temp << 8 | dst << 4 | count
                    for temp, count in reversed(list(zip(temps, segments[:-1], strict=True)))
                )
                out.append(
                    self._placed(
                        columns,
                        stock,
                        score + delta_source,
                        src,
                        source,
                        dst,
                        block,
                        tuple(codes),
                        scores,
                    )
                )

    def column_info(self, column: bytes) -> _ColumnInfo:
        """What move generation needs to know about one column (cached; it depends only on the
        column): its score, the length of its suited tail, the cards at the bottom of the
        suited segments of its movable group (cards that would gladly move onto their suit),
        where that group starts and how long it is, and one :data:`_Piece` per group it can
        move."""
        infos = self.infos
        cached = infos.get(column)
        if cached is not None:
            return cached
        column_score = self.column_score
        score = column_score(column)
        size = len(column)
        first_up = column[0] + 1
        if size <= first_up:
            info: _ColumnInfo = (score, 0, (), size, 0, ())
        else:
            position = size - 1
            while position > first_up and column[position - 1] == column[position] + 1:
                position -= 1
            tail = size - position
            wanted = [column[position]]
            if self.flexible:
                while (
                    position > first_up
                    and (column[position - 1] & 15) == (column[position] & 15) + 1
                ):
                    position -= 1
                    while position > first_up and column[position - 1] == column[position] + 1:
                        position -= 1
                    wanted.append(column[position])
            length = movable_length(column, first_up, self.flexible)
            pieces = []
            for count in range(1, length + 1):
                card = column[-count]
                base = size - count  # index of the card under the group
                under = column[base - 1] if base > first_up else 0
                below = 0  # length of the suited run the group leaves, when it sits on one
                if under == card + 1:
                    below = 1
                    index = base - 1
                    while index > first_up and column[index - 1] == column[index] + 1:
                        below += 1
                        index -= 1
                source = _turn_top(column[:base])
                pieces.append(
                    (count, card, base, under, below, source, column_score(source), column[base:])
                )
            info = (score, tail, tuple(wanted), size - length, length, tuple(pieces))
        if len(infos) > 50_000:
            infos.clear()
        infos[column] = info
        return info

    def children(self, state: State, score: int, prune: int) -> list[tuple[int, Action_, State]]:
        """(score, action code, child) for the moves and the deal; code -1 is the deal.

        A dead position (stock left but fewer cards on the table than columns, so no deal can
        happen again) has none.  With ``prune`` 0 every legal action is generated except those
        that give a position with the same canonical key: moves into a second empty column no
        deal reaches again, a whole such column into such an empty one (sound, for the
        exhaustive phase).  Otherwise the finding
        phase's pruning applies (unsound, so it never proves anything); at both levels moves
        into an empty column go to the first empty column only, a whole column never moves
        into an empty one, and when a target of the group's own suit exists, targets of other
        suits are skipped.  At ``_STRICT`` moreover:

        - a suited run is split only onto a card of its suit, and only when the run it joins
          becomes longer than the one it leaves;
        - a group sitting on a card one rank higher of another suit moves only onto its own
          suit, unless the card it frees is wanted by a group of that card's suit (the bottom
          card of a suited segment of some movable group); only then may it also park in an
          empty column;
        - other groups (over a break, or the whole face-up part) move as at ``_LOOSE``.
        """
        columns, stock = state
        if stock and sum(map(len, columns)) - len(columns) < len(columns):
            return []  # fewer cards than columns: no deal can ever happen again (dead)
        flexible = self.flexible
        column_score = self.column_score
        column_info = self.column_info
        infos = [column_info(column) for column in columns]
        scores = [info[0] for info in infos]
        empties = empty_all = [index for index, column in enumerate(columns) if len(column) == 1]
        if empties and prune:
            empties = empties[:1]
        elif empties:
            # Columns no deal reaches again are interchangeable (see ``key``): one of them.
            late = [index for index in empties if index >= stock][:1]
            empties = [index for index in empties if index < stock] + late
        by_rank: list[list[int]] = [[] for _ in range(15)]
        by_card: dict[int, list[int]] = {}  # columns by their top card (exact suit and rank)
        for index, column in enumerate(columns):
            if len(column) > 1:
                top = column[-1]
                by_rank[top & 15].append(index)
                if top in by_card:
                    by_card[top].append(index)
                else:
                    by_card[top] = [index]
        out: list[tuple[int, Action_, State]] = []
        if prune == _STRICT:
            wanted = {card for info in infos for card in info[2]}
        for src, (source_score, _, _, position, length, pieces) in enumerate(infos):
            for count, card, base, under, below, source, score_after, group in pieces:
                rank = card & 15
                if not by_rank[rank + 1] and not empties:
                    continue  # nowhere to go (the common case: skip the pruning rules)
                if prune == _LOOSE:
                    targets = by_card.get(card + 1, _NO_COLUMNS)
                    if not targets:
                        targets = by_rank[rank + 1]
                    if empties and base > 1:
                        targets = targets + empties
                elif prune:
                    suited = by_card.get(card + 1, _NO_COLUMNS)
                    if below:
                        # Splitting a suited run: only onto its suit, and only to lengthen it.
                        targets = [dst for dst in suited if infos[dst][1] > below]
                    elif under and (under & 15) == rank + 1 and under - 1 not in wanted:
                        # A sideways move from one link to another helps only when it frees
                        # a card that a group of its suit is waiting for.
                        targets = suited
                    else:
                        targets = suited or by_rank[rank + 1]
                        if empties and base > 1:
                            targets = targets + empties
                else:
                    targets = by_rank[rank + 1]
                    if empties:
                        # A whole late column into a late empty one only permutes columns.
                        whole_late = base == 1 and src >= stock
                        targets = targets + [
                            dst for dst in empties if not (whole_late and dst >= stock)
                        ]
                if not targets:
                    continue
                moved_score = score + score_after - source_score
                for dst in targets:
                    out.append(
                        self._placed(
                            columns,
                            stock,
                            moved_score,
                            src,
                            source,
                            dst,
                            group,
                            src << 8 | dst << 4 | count,
                            scores,
                        )
                    )
            if prune and not flexible and empty_all and position > columns[src][0] + 1:
                self._supermoves(
                    columns,
                    stock,
                    score,
                    src,
                    position,
                    length,
                    empty_all,
                    by_rank,
                    by_card,
                    scores,
                    out,
                )
        if stock and not empty_all:
            dealt_before = self.stock_total - stock
            dealt = min(self.columns, stock)
            new = list(columns)
            dealt_score = score + self.weights.deal  # every deal adds one to the deal count
            completed = False
            for index in range(dealt):
                card = self.stock[dealt_before + index]
                old = columns[index]
                column = old + bytes((card,))
                if card & 15 == 1:  # only an ace can complete a run
                    column, removed = _settle(column)
                    completed = completed or removed
                new[index] = column
                dealt_score += column_score(column) - scores[index]
            child: State = (tuple(new), stock - dealt)
            out.append((self.score(child) if completed else dealt_score, -1, child))
        return out


def _action(code: int) -> Action:
    if code < 0:
        return DEAL
    return Move(code >> 8, (code >> 4) & 15, code & 15)


def _should_stop(stop: threading.Event | Callable[[], bool] | None) -> bool:
    if stop is None:
        return False
    if isinstance(stop, threading.Event):
        return stop.is_set()
    return bool(stop())


class _Limits:
    """Time, node, memory and stop checks shared by the phases; counts positions and expansions."""

    def __init__(
        self,
        started: float,
        time_limit: float | None,
        node_limit: int | None,
        memory_limit_mb: float,
        progress: Callable[[SolveProgress], None] | None,
        stop: threading.Event | Callable[[], bool] | None,
        progress_every: int,
    ) -> None:
        self.started = started
        self.deadline = None if time_limit is None else started + time_limit
        self.max_positions = int(memory_limit_mb * 1024 * 1024 / _BYTES_PER_POSITION)
        self.node_limit = node_limit
        if node_limit is not None:
            self.max_positions = min(self.max_positions, node_limit)
        self.progress = progress
        self.stop = stop
        self.progress_every = max(1, progress_every)
        self.expanded = 0
        self.positions = 0  # distinct positions stored, summed over the phases
        self.stored = 0  # positions held now (memory)
        self.best_runs = 0
        self.frontier = 0

    def tick(self) -> str | None:
        """Count one expansion; the reason to stop, or None."""
        self.expanded += 1
        expanded = self.expanded
        if self.progress is not None and expanded % self.progress_every == 0:
            self.progress(
                SolveProgress(
                    expanded,
                    self.positions,
                    self.frontier,
                    time.monotonic() - self.started,
                    self.best_runs,
                )
            )
        if expanded & 63 == 0 or expanded == 1:
            if self.deadline is not None and time.monotonic() > self.deadline:
                return "time-limit"
            if _should_stop(self.stop):
                return "stopped"
        return None

    def full(self) -> str | None:
        """The reason to stop when the position store is full, or None."""
        if self.stored >= self.max_positions:
            if self.node_limit is not None and self.stored >= self.node_limit:
                return "node-limit"
            return "memory-limit"
        return None


class _Found(Exception):
    """A phase found a winning line."""

    def __init__(self, line: list[int]) -> None:
        super().__init__()
        self.line = line


class _Stopped(Exception):
    """A limit or a stop request ended the search."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Tree:
    """Parent links and action codes of the stored positions (the solution is read back here)."""

    def __init__(self) -> None:
        self.parents: list[int] = [-1]
        self.actions: list[Action_] = [0]

    def add(self, parent: int, action: Action_) -> int:
        self.parents.append(parent)
        self.actions.append(action)
        return len(self.parents) - 1

    def line(self, node: int) -> list[int]:
        """The primitive action codes from the root to ``node``."""
        line: list[int] = []
        while node > 0:
            action = self.actions[node]
            if isinstance(action, int):
                line.append(action)
            else:
                line.extend(reversed(action))
            node = self.parents[node]
        line.reverse()
        return line


def _stage_beam(solver: _Solver, limits: _Limits, width: int, budget: int, prune: int) -> bool:
    """Beam search over deal stages.

    Each stage starts from up to ``width`` positions; from each, a best-first search over card
    moves (the finding phase's pruned moves, at most ``budget`` expansions, one transposition
    set per stage) looks for the best positions to deal from, judged *after* the deal (the
    stock order is known).  Up to ``width`` of them, different plans first (:class:`_Pool`),
    start the next stage.  In the last stage (stock empty) the same search looks for the win.
    Raises :class:`_Found` or :class:`_Stopped`; returns True when nothing was cut (widening
    cannot help).
    """
    tree = _Tree()
    children = solver.children
    key = solver.key
    starts: list[tuple[int, int, State]] = [(solver.score(solver.start), 0, solver.start)]
    complete = True
    base_positions = limits.positions
    stored = 0
    while starts:
        seen: set[object] = set()
        pool = _Pool(width)
        for start_score, start_node, start_state in starts:
            seen.add(key(start_state))
            heap: list[tuple[int, int, int, State]] = [(-start_score, 0, start_node, start_state)]
            count = 0
            limit = budget if start_state[1] else budget * _END_FACTOR
            while heap:
                if count >= limit:
                    complete = False
                    break
                count += 1
                reason = limits.tick()
                if reason is not None:
                    raise _Stopped(reason)
                negative, _, node, state = heapq.heappop(heap)
                for child_score, action, child in children(state, -negative, prune):
                    if action == -1:
                        pool.add(child_score, node, child)
                        continue
                    child_key = key(child)
                    if child_key in seen:
                        continue
                    seen.add(child_key)
                    child_node = tree.add(node, action)
                    if solver.is_won(child):
                        raise _Found(tree.line(child_node))
                    heapq.heappush(heap, (-child_score, child_node, child_node, child))
                stored = len(tree.parents) + len(seen) + pool.size
                limits.positions = base_positions + len(tree.parents)
                limits.stored = stored
                limits.frontier = len(heap)
                reason = limits.full()
                if reason is not None:
                    raise _Stopped(reason)
        chosen = pool.best()
        complete = complete and not pool.cut
        starts = [(child_score, tree.add(node, -1), child) for child_score, node, child in chosen]
    limits.stored = 0
    return complete


class _Pool:
    """The dealt positions a stage collects, grouped by *plan*: the face-down count of every
    column and the cards on the table.  Face-down cards never move, so a plan is the set of
    cards turned so far (and runs removed).  :meth:`best` takes the best position of every plan
    first, then the second best of every plan, and so on: the beam holds different plans, and
    variants of a plan only fill the width the plans leave free."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.plans: dict[tuple[bytes, int], list[tuple[int, int, int, State]]] = {}
        self.order = 0  # insertion counter: a deterministic tie-break
        self.size = 0  # positions held (memory)
        self.cut = False  # True when a position was dropped (widening could help)

    def add(self, score: int, node: int, state: State) -> None:
        """Offer the dealt position ``state`` (reached from tree node ``node``)."""
        columns = state[0]
        plan = (bytes([column[0] for column in columns]), sum(map(len, columns)))
        entries = self.plans.setdefault(plan, [])
        self.order += 1
        entry = (score, -self.order, node, state)
        if len(entries) < self.width:
            heapq.heappush(entries, entry)
            self.size += 1
        else:
            self.cut = True
            heapq.heappushpop(entries, entry)

    def best(self) -> list[tuple[int, int, State]]:
        """Up to ``width`` (score, node, position), best plans first."""
        ranked = [sorted(entries, reverse=True) for entries in self.plans.values()]
        if sum(map(len, ranked)) > self.width:
            self.cut = True
        chosen: list[tuple[int, int, int, State]] = []
        for rank in range(self.width):
            layer = [entries[rank] for entries in ranked if len(entries) > rank]
            layer.sort(reverse=True)
            chosen.extend(layer[: self.width - len(chosen)])
            if not layer or len(chosen) == self.width:
                break
        return [(score, node, state) for score, _, node, state in chosen]


def _find(solvers: list[_Solver], limits: _Limits) -> None:
    """The finding phase: stage beams on *tracks*, until a win is found or every track ends.

    There is one strict track per heuristic of the portfolio (``solvers``) and one loose track
    (the first heuristic).  Each beam of a track doubles its width, up to ``_WIDEST``.  First
    every strict track runs its beams up to ``_PORTFOLIO_WIDTH`` (the head start).  Then the
    loose track and the strict tracks together share the work: the side runs whose work after
    its next beam would be smaller, where a next beam is expected to cost ``_GROWTH`` times the
    track's last one; on the strict side, the track whose work would be smallest runs.  Work
    is counted in expansions rather than seconds, so node-limited runs stay deterministic.

    A beam that cut nothing has searched its level's whole pruned space: a strict one ends every
    strict track, a loose one ends the phase (the sound phase then proves or solves a small
    space).  Raises :class:`_Found` or :class:`_Stopped`.
    """
    count = len(solvers)
    strict_width = [_FIRST_WIDTH[_STRICT]] * count
    strict_cost = [0] * count
    strict_last = [0] * count
    loose_width = _FIRST_WIDTH[_LOOSE]
    loose_cost = loose_last = 0
    while True:
        strict_open = [index for index in range(count) if strict_width[index] <= _WIDEST[_STRICT]]
        loose_open = loose_width <= _WIDEST[_LOOSE]
        if not strict_open and not loose_open:
            return
        head_start = any(strict_width[index] <= _PORTFOLIO_WIDTH for index in strict_open)
        if head_start:
            member = min(strict_open, key=lambda index: (strict_width[index], index))
        elif strict_open:
            member = min(
                strict_open,
                key=lambda index: (strict_cost[index] + _GROWTH * strict_last[index], index),
            )
        before = limits.expanded
        if loose_open and (
            not strict_open
            or (
                not head_start
                and _LOOSE_SHARE * (loose_cost + _GROWTH * loose_last)
                <= sum(strict_cost) + _GROWTH * strict_last[member]
            )
        ):
            if _stage_beam(
                solvers[0], limits, loose_width, _BUDGETS.get(loose_width, _WIDE_BUDGET), _LOOSE
            ):
                return
            loose_last = limits.expanded - before
            loose_cost += loose_last
            loose_width *= 2
            continue
        width = strict_width[member]
        if _stage_beam(solvers[member], limits, width, _BUDGETS.get(width, _WIDE_BUDGET), _STRICT):
            # Nothing was cut: no strict beam, of any width or heuristic, can find more.
            strict_width = [_WIDEST[_STRICT] * 2] * count
        strict_last[member] = limits.expanded - before
        strict_cost[member] += strict_last[member]
        strict_width[member] *= 2


def _exhaustive(solver: _Solver, limits: _Limits) -> None:
    """Sound best-first search of the whole space: returns when it is exhausted (unwinnable).

    Every legal action is generated except those giving a position with the same canonical key,
    so an empty open list is a proof.  Raises :class:`_Found` or :class:`_Stopped`.
    """
    start = solver.start
    tree = _Tree()
    states: list[State | None] = [start]
    seen = {solver.key(start)}
    heap: list[tuple[int, int]] = [(-solver.score(start), 0)]
    children = solver.children
    key = solver.key
    is_won = solver.is_won
    add_seen = seen.add
    add_state = states.append
    push = heapq.heappush
    pop = heapq.heappop
    add_node = tree.add
    base_positions = limits.positions
    max_positions = limits.max_positions
    limits.stored = 1
    while heap:
        reason = limits.tick()
        if reason is not None:
            raise _Stopped(reason)
        negative, index = pop(heap)
        state = states[index]
        assert state is not None
        states[index] = None
        for child_score, action, child in children(state, -negative, 0):
            child_key = key(child)
            if child_key in seen:
                continue
            if not child[1] and is_won(child):
                limits.positions = base_positions + len(seen)
                raise _Found(tree.line(add_node(index, action)))
            if len(seen) >= max_positions:
                limits.stored = len(seen)
                limits.positions = base_positions + len(seen)
                raise _Stopped(limits.full() or "memory-limit")
            add_seen(child_key)
            add_state(child)
            push(heap, (-child_score, add_node(index, action)))
        limits.stored = len(seen)
        limits.positions = base_positions + len(seen)
        limits.frontier = len(heap)


def solve(
    game: Game,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    memory_limit_mb: float = 2048,
    progress: Callable[[SolveProgress], None] | None = None,
    stop: threading.Event | Callable[[], bool] | None = None,
    progress_every: int = 5000,
    exhaustive: bool = False,
) -> SolveResult:
    """Decide whether ``game`` (its current position) can be won; see the module documentation.

    ``time_limit`` is in seconds (None: no limit), ``node_limit`` caps the positions stored,
    ``memory_limit_mb`` caps their estimated memory.  ``progress`` is called every
    ``progress_every`` expanded positions; ``stop`` (an event or a callable) ends the search
    early.  Ctrl+C (``KeyboardInterrupt``) also ends it and returns the partial result.
    ``exhaustive`` skips the beams and runs the sound search at once.
    """
    started = time.monotonic()
    solvers = [_Solver(game, weights) for weights in _PORTFOLIO]
    solver = solvers[0]
    code = game.code
    if game.is_won:
        return SolveResult("winnable", "solved", [], 0, 1, 0.0, code)
    limits = _Limits(
        started, time_limit, node_limit, memory_limit_mb, progress, stop, progress_every
    )
    reason = "exhausted"
    line: list[int] | None = None
    collecting = gc.isenabled()
    gc.disable()  # millions of small tuples: the cyclic collector only slows the search down
    try:
        if not exhaustive:
            _find(solvers, limits)
        _exhaustive(solver, limits)
    except _Found as found:
        line = found.line
    except _Stopped as stopped:
        reason = stopped.reason
    except KeyboardInterrupt:
        reason = "interrupted"
    finally:
        if collecting:
            gc.enable()
    elapsed = time.monotonic() - started
    if line is not None:
        moves = [_action(action) for action in line]
        _replay(game, moves)
        return SolveResult(
            "winnable",
            "solved",
            [action_text(action) for action in moves],
            limits.expanded,
            limits.positions,
            elapsed,
            code,
        )
    if reason == "exhausted":
        return SolveResult(
            "unwinnable", "exhausted", [], limits.expanded, limits.positions, elapsed, code
        )
    return SolveResult("undecided", reason, [], limits.expanded, limits.positions, elapsed, code)


def _replay(game: Game, line: list[Action]) -> None:
    """Play the solution through the engine; a solver bug raises instead of lying."""
    check = game.copy(history=False)
    check.undo_limit = 0
    for action in line:
        check.push(action)
    if not check.is_won:
        raise RuntimeError("solver bug: the solution does not win when replayed")
