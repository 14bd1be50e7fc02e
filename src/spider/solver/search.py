"""The full-information solver: is this deal winnable?

:func:`solve` sees every card (it is not a hint) and answers ``'winnable'`` with a solution,
``'unwinnable'`` when it has searched the whole reachable space, or ``'undecided'`` when a limit
stopped it first.

The search is greedy best-first over positions:

- a position is a tuple of columns, each a ``bytes`` object (first byte: face-down count, then
  the cards bottom to top), and the number of cards left in the stock (the stock's order is fixed,
  so its length says which cards are left).  Columns a move leaves alone are shared between
  parent and child, so a stored position costs a few hundred bytes;
- a transposition set on a canonical key: once the stock is empty column order no longer matters
  (nothing is dealt onto the columns), so the columns are sorted; before that, a deal puts a
  known card on each column *by position*, so the order is part of the key;
- safe pruning only (the proof must stay exact): when the stock is empty, moves into an empty
  column are generated for one empty column only, and never for a whole column without face-down
  cards (both give positions with the same canonical key);
- the open list is ordered by a heuristic (runs removed, cards turned, deals made, one-suit and
  any-suit links, empty columns, disorder on top of face-down cards), which orders the moves;
  the search widens from the most promising positions outwards and, when nothing is left open,
  has proven the deal unwinnable.

The solution is replayed through :class:`~spider.game.Game` before it is returned.  Memory is
bounded by an estimate of the bytes each stored position costs; time and node limits, a stop
event or callable, and Ctrl+C all end the search with the partial result.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ..game import Game
from ..moves import DEAL, Action, Move, action_text

__all__ = ["SolveProgress", "SolveResult", "solve"]

_RUN: Final = 13
_BYTES_PER_POSITION: Final = 450
"""Estimated memory per stored position (key, columns, parent link, heap entry)."""

# Heuristic weights.
_W_RUN: Final = 150
_W_DOWN: Final = 12
_W_DEAL: Final = 80
_W_SUITED: Final = 6
_W_LINKED: Final = 1
_W_BREAK: Final = 2
_W_COVER: Final = 1
_W_EMPTY: Final = 20

State = tuple[tuple[bytes, ...], int]


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

_col_cache: dict[bytes, int] = {}


def _column_score(column: bytes) -> int:
    cached = _col_cache.get(column)
    if cached is not None:
        return cached
    down = column[0]
    size = len(column)
    if size == 1:
        score = _W_EMPTY
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
        score = _W_SUITED * suited + _W_LINKED * linked - _W_BREAK * breaks - _W_DOWN * down
        if down:
            score -= _W_COVER * (size - 1 - down)
    if len(_col_cache) > 400_000:
        _col_cache.clear()
    _col_cache[column] = score
    return score


def _group_length(column: bytes, flexible: bool) -> int:
    size = len(column)
    bottom = column[0] + 1  # index of the first face-up card
    if size <= bottom:
        return 0
    length = 1
    position = size - 1
    if flexible:
        while position > bottom and (column[position - 1] & 15) == (column[position] & 15) + 1:
            length += 1
            position -= 1
    else:
        while position > bottom and column[position - 1] == column[position] + 1:
            length += 1
            position -= 1
    return length


def _settle(column: bytes) -> tuple[bytes, bool]:
    """Remove a completed run from the end of a column (turning the card under it)."""
    size = len(column)
    down = column[0]
    if size - 1 - down < _RUN:
        return column, False
    ace = column[-1]
    if ace & 15 != 1:
        return column, False
    for step in range(1, _RUN):
        if column[-1 - step] != ace + step:
            return column, False
    column = column[:-_RUN]
    if len(column) > 1 and len(column) - 1 == down:
        column = bytes((down - 1,)) + column[1:]
    return column, True


def _after_source(column: bytes) -> bytes:
    """Turn the top card of a column when it is face down."""
    if len(column) > 1 and len(column) - 1 == column[0]:
        return bytes((column[0] - 1,)) + column[1:]
    return column


class _Solver:
    def __init__(self, game: Game) -> None:
        self.flexible = game.options.flexible
        self.stock = list(reversed(game._stock))  # dealing order
        self.stock_total = len(self.stock)
        self.columns = len(game._cols)
        self.runs_to_win = game.options.runs_to_win
        self.runs_start = len(game._removed)
        self.cards_start = sum(map(len, game._cols)) + len(game._stock)
        start_cols = tuple(
            bytes((down, *column)) for column, down in zip(game._cols, game._down, strict=True)
        )
        self.start: State = (start_cols, len(self.stock))

    def score(self, state: State) -> int:
        columns, stock = state
        total = sum(_column_score(column) for column in columns)
        cards = sum(len(column) - 1 for column in columns) + stock
        runs = (self.cards_start - cards) // _RUN
        deals = -(-(self.stock_total - stock) // self.columns)
        return total + _W_RUN * runs + _W_DEAL * deals

    def key(self, state: State) -> tuple[object, ...]:
        columns, stock = state
        if stock:
            return (stock, columns)
        return (0, tuple(sorted(columns)))

    def children(self, state: State, score: int) -> list[tuple[int, int, State]]:
        """(score, action code, child) for every move and the deal; code -1 is the deal."""
        columns, stock = state
        flexible = self.flexible
        empties = [index for index, column in enumerate(columns) if len(column) == 1]
        if not stock and empties:
            empties = empties[:1]
        by_rank: list[list[int]] = [[] for _ in range(15)]
        for index, column in enumerate(columns):
            if len(column) > 1:
                by_rank[column[-1] & 15].append(index)
        out: list[tuple[int, int, State]] = []
        for src, column in enumerate(columns):
            length = _group_length(column, flexible)
            if not length:
                continue
            whole = column[0] == 0 and length == len(column) - 1
            for count in range(1, length + 1):
                targets = by_rank[(column[-count] & 15) + 1]
                if empties and not (whole and count == length and not stock):
                    targets = targets + empties
                for dst in targets:
                    source = _after_source(column[:-count])
                    target, run = _settle(columns[dst] + column[-count:])
                    new = list(columns)
                    new[src] = source
                    new[dst] = target
                    child_score = (
                        score
                        + _column_score(source)
                        + _column_score(target)
                        - _column_score(column)
                        - _column_score(columns[dst])
                        + (_W_RUN if run else 0)
                    )
                    out.append((child_score, src << 8 | dst << 4 | count, (tuple(new), stock)))
        if stock and not empties:
            dealt_before = self.stock_total - stock
            dealt = min(self.columns, stock)
            new = list(columns)
            for index in range(dealt):
                new[index], _ = _settle(new[index] + bytes((self.stock[dealt_before + index],)))
            child: State = (tuple(new), stock - dealt)
            out.append((self.score(child), -1, child))
        return out

    def is_won(self, state: State) -> bool:
        columns, stock = state
        return not stock and all(len(column) == 1 for column in columns)


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


def solve(
    game: Game,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    memory_limit_mb: float = 2048,
    progress: Callable[[SolveProgress], None] | None = None,
    stop: threading.Event | Callable[[], bool] | None = None,
    progress_every: int = 5000,
) -> SolveResult:
    """Decide whether ``game`` (its current position) can be won; see the module documentation.

    ``time_limit`` is in seconds (None: no limit), ``node_limit`` caps the positions stored,
    ``memory_limit_mb`` caps their estimated memory.  ``progress`` is called every
    ``progress_every`` expanded positions; ``stop`` (an event or a callable) ends the search
    early.  Ctrl+C (``KeyboardInterrupt``) also ends it and returns the partial result.
    """
    started = time.monotonic()
    solver = _Solver(game)
    code = game.code
    start = solver.start
    if game.is_won:
        return SolveResult("winnable", "solved", [], 0, 1, 0.0, code)
    max_positions = int(memory_limit_mb * 1024 * 1024 / _BYTES_PER_POSITION)
    if node_limit is not None:
        max_positions = min(max_positions, node_limit)
    # Node tables: parent index and action code per stored position.
    parents: list[int] = [-1]
    actions: list[int] = [0]
    states: list[State | None] = [start]
    seen = {solver.key(start)}
    heap: list[tuple[int, int, int]] = [(-solver.score(start), 0, 0)]
    expanded = 0
    best_runs = 0
    reason = "exhausted"
    found = -1
    deadline = None if time_limit is None else started + time_limit
    try:
        while heap:
            if expanded & 255 == 0:
                if deadline is not None and time.monotonic() > deadline:
                    reason = "time-limit"
                    break
                if _should_stop(stop):
                    reason = "stopped"
                    break
            if progress is not None and expanded % progress_every == 0 and expanded:
                progress(
                    SolveProgress(
                        expanded, len(seen), len(heap), time.monotonic() - started, best_runs
                    )
                )
            negative, _, index = heapq.heappop(heap)
            state = states[index]
            assert state is not None
            states[index] = None
            expanded += 1
            for child_score, action, child in solver.children(state, -negative):
                key = solver.key(child)
                if key in seen:
                    continue
                if solver.is_won(child):
                    parents.append(index)
                    actions.append(action)
                    found = len(parents) - 1
                    break
                if len(seen) >= max_positions:
                    reason = (
                        "node-limit"
                        if node_limit is not None and len(seen) >= node_limit
                        else "memory-limit"
                    )
                    break
                seen.add(key)
                parents.append(index)
                actions.append(action)
                states.append(child)
                heapq.heappush(heap, (-child_score, len(parents) - 1, len(parents) - 1))
            if found >= 0 or reason in ("node-limit", "memory-limit"):
                break
    except KeyboardInterrupt:
        reason = "interrupted"
    elapsed = time.monotonic() - started
    if found >= 0:
        line: list[Action] = []
        node = found
        while node > 0:
            line.append(_action(actions[node]))
            node = parents[node]
        line.reverse()
        _replay(game, line)
        return SolveResult(
            "winnable",
            "solved",
            [action_text(action) for action in line],
            expanded,
            len(seen),
            elapsed,
            code,
        )
    if reason == "exhausted" and not heap:
        return SolveResult("unwinnable", "exhausted", [], expanded, len(seen), elapsed, code)
    return SolveResult("undecided", reason, [], expanded, len(seen), elapsed, code)


def _replay(game: Game, line: list[Action]) -> None:
    """Play the solution through the engine; a solver bug raises instead of lying."""
    check = game.copy(history=False)
    check.undo_limit = 0
    for action in line:
        check.push(action)
    if not check.is_won:
        raise RuntimeError("solver bug: the solution does not win when replayed")
