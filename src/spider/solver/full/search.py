"""The full-information solver: is this deal winnable?

:func:`solve` sees every card (it is not a hint) and answers ``'winnable'`` with a solution,
``'unwinnable'`` when it has searched the whole reachable space, or ``'undecided'`` when a limit
stopped it first.  The search has two phases, each in its own module:

1. **Finding** (:mod:`.beam`, unsound pruning, proves nothing): beams over deal stages on tracks
   of several heuristics (:mod:`.heuristic`) and two pruning levels (:mod:`.generate`).
2. **Proof** (:mod:`.exhaustive`, sound): when a loose beam cut nothing (the pruned space is
   small) or every beam failed, a best-first search over every legal action except those giving
   the same canonical key searches the whole space; an empty open list proves the deal
   unwinnable.

Positions are encoded compactly (:mod:`~spider.solver.full.encoding`); time, node and memory
limits, a stop event or callable, and Ctrl+C end the search with the partial result
(:mod:`~spider.solver.budget`).  The solution is replayed through :class:`~spider.game.Game` before
it is returned.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from spider.game import Game
from spider.moves import Action, action_text
from spider.solver.budget import Found, Limits, SolveProgress, Stopped, StopReason
from spider.solver.full.beam import find
from spider.solver.full.encoding import action_of
from spider.solver.full.exhaustive import exhaustive as exhaustive_search
from spider.solver.full.generate import Solver
from spider.solver.full.heuristic import PORTFOLIO

__all__ = ["SolveProgress", "SolveResult", "SolveStatus", "solve"]

SolveStatus = Literal["winnable", "unwinnable", "undecided"]
"""The solver's answer."""

SolveReason = Literal["solved", "exhausted"] | StopReason
"""Why the search ended: ``'solved'``, ``'exhausted'``, or a limit or stop request."""


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

    status: SolveStatus
    reason: SolveReason
    solution: list[str] = field(default_factory=list)
    expanded: int = 0
    positions: int = 0
    elapsed: float = 0.0
    code: str | None = None

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
    code = game.code
    if game.is_won:
        return SolveResult("winnable", "solved", [], 0, 1, 0.0, code)
    solvers = [Solver(game, weights) for weights in PORTFOLIO]
    limits = Limits(
        started, time_limit, node_limit, memory_limit_mb, progress, stop, progress_every
    )
    reason: SolveReason = "exhausted"
    line: list[int] | None = None
    collecting = gc.isenabled()
    gc.disable()  # millions of small tuples: the cyclic collector only slows the search down
    try:
        if not exhaustive:
            find(solvers, limits)
        exhaustive_search(solvers[0], limits)
    except Found as found:
        line = found.line
    except Stopped as stopped:
        reason = stopped.reason
    except KeyboardInterrupt:
        reason = "interrupted"
    finally:
        if collecting:
            gc.enable()
    elapsed = time.monotonic() - started
    counts = (limits.expanded, limits.positions, elapsed, code)
    if line is not None:
        moves = [action_of(action) for action in line]
        _replay(game, moves)
        return SolveResult("winnable", "solved", [action_text(move) for move in moves], *counts)
    if reason == "exhausted":
        return SolveResult("unwinnable", "exhausted", [], *counts)
    return SolveResult("undecided", reason, [], *counts)


def _replay(game: Game, line: list[Action]) -> None:
    """Play the solution through the engine; a solver bug raises instead of lying."""
    check = game.copy(history=False)
    check.undo_limit = 0
    for action in line:
        check.push(action)
    if not check.is_won:
        raise RuntimeError("solver bug: the solution does not win when replayed")
