"""Protocol operations of the solver package: ``hint``, ``status``, ``solve``, ``think``,
``review`` (:mod:`.review_ops`) and ``visible``.

:func:`solver_operations` gives them to a :class:`spider.protocol.session.Session`.  They answer
with the usual state and add their own fields:

- ``{"op": "hint"}`` adds ``hint`` (the best move, see
:meth:`spider.solver.hint.quick.Hint.to_json`)
  and ``no_moves``; asked again on the same table it gives the next-best, and so on (the engine
  keeps count); ``"index": k`` asks for the k-th best at once;
- ``{"op": "status", "node_limit": n}`` adds ``no_moves``, ``no_moves_status`` (the check's
  status: ``no-moves``, ``deal``, ``useful``, ``won`` or ``unknown`` when it hit ``node_limit``)
  and ``deal_possible``;
- ``{"op": "solve", "time_limit": s}`` runs the full-information solver on the current
  position and adds ``solve`` (:meth:`spider.solver.full.search.SolveResult.to_json` plus
  ``actions``, the solution as protocol requests).  While it searches it calls
  ``session.progress`` (when set) with ``{"expanded", "positions", "elapsed"}``;
- ``{"op": "think", "iterations": n, "time_limit": s, "seed": k}`` runs "Think harder"
  (:func:`spider.solver.think.harder.think`, visible information only) and adds ``think``
  (:meth:`spider.solver.think.harder.ThinkReport.to_json`).  It reports progress the same way, with
  ``{"iterations", "elapsed", "best", "share"}``, and Ctrl+C (the web worker's interrupt) ends
  it with the best line so far (reason ``interrupted``);
- ``{"op": "visible"}`` adds ``visible``: what the player sees of the current position and the
  positions since the last card turned (:func:`spider.solver.visible_form.visible_form`), the
  input of "Think harder" for a search that runs elsewhere (``spider serve``'s ``/api/think``).
"""

from __future__ import annotations

from typing import Any

from spider.moves import Move, action_from_text
from spider.protocol.fields import (
    Answer,
    GameHolder,
    Handler,
    ProtocolError,
    int_field,
    number_field,
    ranged_int_field,
)
from spider.protocol.review_ops import review_op
from spider.solver.full.search import SolveProgress, solve
from spider.solver.hint.nomoves import DEFAULT_NODE_LIMIT, check_no_moves
from spider.solver.hint.quick import HintReport, hint_report, visited_positions
from spider.solver.params import ThinkParams
from spider.solver.think.harder import ThinkProgress, think
from spider.solver.view import VisibleView
from spider.solver.visible_form import visible_form

__all__ = ["solve_actions", "solver_operations"]

SOLVE_TIME_LIMIT = 10.0
"""Default ``time_limit`` of the ``solve`` operation, in seconds."""
SOLVE_MEMORY_MB = 256.0
"""Default ``memory_mb`` of the ``solve`` operation: a browser tab has far less than 2 GB."""
THINK_MAX_ITERATIONS = 1_000_000
"""The largest ``iterations`` of the ``think`` operation."""
THINK_MAX_SECONDS = 3600.0
"""The largest ``time_limit`` of the ``think`` operation, in seconds."""
THINK_MAX_SEED = 2**31 - 1
"""The largest ``seed`` of the ``think`` operation."""


def solve_actions(solution: list[str]) -> list[dict[str, Any]]:
    """The solution's moves as protocol requests (``{"op": "move", ...}`` or ``{"op": "deal"}``)."""
    actions: list[dict[str, Any]] = []
    for text in solution:
        action = action_from_text(text)
        if isinstance(action, Move):
            actions.append(
                {"op": "move", "src": action.src, "dst": action.dst, "count": action.count}
            )
        else:
            actions.append({"op": "deal"})
    return actions


def solver_operations(session: GameHolder) -> dict[str, Handler]:
    """The ``hint``, ``status``, ``solve``, ``think``, ``review`` and ``visible`` operations of
    ``session``."""
    hints = _Hints(session)
    return {
        "hint": hints.answer,
        "status": lambda request: _status(session, request),
        "solve": lambda request: _solve(session, request),
        "think": lambda request: _think(session, request),
        "review": lambda request: review_op(session, request),
        "visible": lambda request: Answer([], {"visible": visible_form(session.require_game())}),
    }


class _Hints:
    """The ``hint`` operation.  Asked again on the same table (the same visible position and
    history), it offers the next-best move without searching again: the rank is kept here, in
    the engine, and a request may still name one with ``index``."""

    def __init__(self, session: GameHolder) -> None:
        self.session = session
        self.key: object = None
        self.report: HintReport | None = None
        self.index = -1

    def answer(self, request: dict[str, Any]) -> Answer:
        game = self.session.require_game()
        view = VisibleView.from_game(game)
        visited = visited_positions(game)
        key = (view, visited)
        if self.report is None or self.key != key:
            self.key, self.report, self.index = key, hint_report(view, visited=visited), -1
        if "index" in request:
            index = int_field(request, "index")
            if index < 0:
                raise ProtocolError("bad-request", "field 'index' must be an integer >= 0")
        else:
            index = self.index + 1
        self.index = index
        chosen = self.report.pick(index)
        return Answer([], {"hint": chosen.to_json(), "no_moves": chosen.no_more_moves})


def _status(session: GameHolder, request: dict[str, Any]) -> Answer:
    game = session.require_game()
    limit = int(number_field(request, "node_limit", DEFAULT_NODE_LIMIT, 1, 10**8))
    view = VisibleView.from_game(game)
    report = check_no_moves(view, limit)
    fields = {
        "no_moves": report.no_more_moves,
        "no_moves_status": report.status,
        "deal_possible": view.deal_ever_possible,
    }
    return Answer([], fields)


def _solve(session: GameHolder, request: dict[str, Any]) -> Answer:
    game = session.require_game()
    time_limit = number_field(request, "time_limit", SOLVE_TIME_LIMIT, 0.01, 3600)
    memory_mb = number_field(request, "memory_mb", SOLVE_MEMORY_MB, 1, 65536)
    every = int(number_field(request, "progress_every", 2000, 1, 10**9))
    hook = session.progress

    def report(progress: SolveProgress) -> None:
        if hook is not None:
            hook(
                {
                    "expanded": progress.expanded,
                    "positions": progress.positions,
                    "elapsed": progress.elapsed,
                }
            )

    result = solve(
        game,
        time_limit=time_limit,
        memory_limit_mb=memory_mb,
        progress=report if hook is not None else None,
        progress_every=every,
    )
    data = result.to_json()
    data["actions"] = solve_actions(result.solution)
    return Answer([], {"solve": data})


def _think(session: GameHolder, request: dict[str, Any]) -> Answer:
    game = session.require_game()
    iterations: int | None = None
    if "iterations" in request or "time_limit" not in request:
        iterations = ranged_int_field(
            request, "iterations", 1, THINK_MAX_ITERATIONS, ThinkParams().iterations
        )
    time_limit = None
    if "time_limit" in request:
        time_limit = number_field(request, "time_limit", 0.0, 0.01, THINK_MAX_SECONDS)
    seed = ranged_int_field(request, "seed", 0, THINK_MAX_SEED, 0)
    every = int(number_field(request, "progress_every", 10, 1, 10**9))
    if game.is_won:
        raise ProtocolError("bad-request", "the game is won: there is nothing to think about")
    hook = session.progress

    def report(progress: ThinkProgress) -> None:
        if hook is not None:
            hook(progress.to_json())

    result = think(
        game,
        iterations=iterations,
        time_limit=time_limit,
        seed=seed,
        progress=report if hook is not None else None,
        progress_every=every,
    )
    return Answer([], {"think": result.to_json()})
