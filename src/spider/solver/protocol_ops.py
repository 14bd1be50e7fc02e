"""Protocol operations of the solver package: ``hint``, ``status`` and ``solve``.

:func:`install` registers them on a :class:`spider.protocol.Session` (``Session.__init__``
calls it).  They answer with the usual state and add their own fields:

- ``{"op": "hint", "index": k}`` adds ``hint`` (the k-th best move, see
  :meth:`spider.solver.hint.Hint.to_json`) and ``no_moves``;
- ``{"op": "status", "node_limit": n}`` adds ``no_moves``, ``no_moves_status`` (the check's
  status: ``no-moves``, ``deal``, ``useful``, ``won`` or ``unknown`` when it hit ``node_limit``)
  and ``deal_possible``;
- ``{"op": "solve", "time_limit": s}`` runs the full-information solver on the current
  position and adds ``solve`` (:meth:`spider.solver.search.SolveResult.to_json` plus
  ``actions``, the solution as protocol requests).  While it searches it calls
  ``session.progress`` (when set) with ``{"expanded", "positions", "elapsed"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..moves import Move, action_from_text
from .hint import HintReport, hint_report, visited_positions
from .nomoves import DEFAULT_NODE_LIMIT, check_no_moves
from .search import SolveProgress, solve
from .view import VisibleView

if TYPE_CHECKING:
    from ..protocol import Session

__all__ = ["install", "solve_actions"]

SOLVE_TIME_LIMIT = 10.0
"""Default ``time_limit`` of the ``solve`` operation, in seconds."""
SOLVE_MEMORY_MB = 256.0
"""Default ``memory_mb`` of the ``solve`` operation: a browser tab has far less than 2 GB."""


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


def _number(request: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    from ..protocol import ProtocolError

    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ProtocolError("bad-request", f"field {name!r} must be a number from {low} to {high}")
    return float(value)


def install(session: Session) -> None:
    """Register the ``hint`` and ``status`` operations on ``session``."""
    from ..protocol import ProtocolError

    # The last report and what it was computed from: pressing Hint again on the same table
    # (for the next-best move) answers at once instead of searching again.
    last_report: list[tuple[object, HintReport]] = []

    def op_hint(request: dict[str, Any]) -> list[dict[str, Any]]:
        game = session.require_game()
        index = request.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise ProtocolError("bad-request", "field 'index' must be an integer >= 0")
        view = VisibleView.from_game(game)
        visited = visited_positions(game)
        key = (view, visited)
        if not last_report or last_report[0][0] != key:
            last_report[:] = [(key, hint_report(view, visited=visited))]
        chosen = last_report[0][1].pick(index)
        session.set_extra({"hint": chosen.to_json(), "no_moves": chosen.no_more_moves})
        return []

    def op_status(request: dict[str, Any]) -> list[dict[str, Any]]:
        game = session.require_game()
        limit = int(_number(request, "node_limit", DEFAULT_NODE_LIMIT, 1, 10**8))
        view = VisibleView.from_game(game)
        report = check_no_moves(view, limit)
        session.set_extra(
            {
                "no_moves": report.no_more_moves,
                "no_moves_status": report.status,
                "deal_possible": view.deal_ever_possible,
            }
        )
        return []

    def op_solve(request: dict[str, Any]) -> list[dict[str, Any]]:
        game = session.require_game()
        time_limit = _number(request, "time_limit", SOLVE_TIME_LIMIT, 0.01, 3600)
        memory_mb = _number(request, "memory_mb", SOLVE_MEMORY_MB, 1, 65536)
        every = int(_number(request, "progress_every", 2000, 1, 10**9))
        hook = session.progress

        def report(p: SolveProgress) -> None:
            if hook is not None:
                hook({"expanded": p.expanded, "positions": p.positions, "elapsed": p.elapsed})

        result = solve(
            game,
            time_limit=time_limit,
            memory_limit_mb=memory_mb,
            progress=report if hook is not None else None,
            progress_every=every,
        )
        data = result.to_json()
        data["actions"] = solve_actions(result.solution)
        session.set_extra({"solve": data})
        return []

    session.register("hint", op_hint)
    session.register("status", op_status)
    session.register("solve", op_solve)
