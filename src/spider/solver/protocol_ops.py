"""Protocol operations of the solver package: ``hint`` and ``status``.

:func:`install` registers them on a :class:`spider.protocol.Session` (``Session.__init__``
calls it).  Both answer with the usual state and add their own fields:

- ``{"op": "hint", "index": k}`` adds ``hint`` (the k-th best move, see
  :meth:`spider.solver.hint.Hint.to_json`) and ``no_moves``;
- ``{"op": "status"}`` adds ``no_moves`` and ``deal_possible``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hint import hint_report
from .nomoves import no_more_moves
from .view import VisibleView

if TYPE_CHECKING:
    from ..protocol import Session

__all__ = ["install"]


def install(session: Session) -> None:
    """Register the ``hint`` and ``status`` operations on ``session``."""
    from ..protocol import ProtocolError

    def op_hint(request: dict[str, Any]) -> list[dict[str, Any]]:
        game = session._require_game()
        index = request.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise ProtocolError("bad-request", "field 'index' must be an integer >= 0")
        chosen = hint_report(game).pick(index)
        session.set_extra({"hint": chosen.to_json(), "no_moves": chosen.no_more_moves})
        return []

    def op_status(request: dict[str, Any]) -> list[dict[str, Any]]:
        game = session._require_game()
        session.set_extra(
            {
                "no_moves": no_more_moves(game),
                "deal_possible": VisibleView.from_game(game).deal_ever_possible,
            }
        )
        return []

    session.register("hint", op_hint)
    session.register("status", op_status)
