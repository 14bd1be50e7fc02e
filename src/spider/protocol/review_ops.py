"""The protocol operation ``review``: "where did I lose it?" (:func:`spider.solver.review.review`).

``{"op": "review", "time_limit": s, "position_time_limit": s, "node_limit": n,
"think_iterations": k, "memory_mb": m, "progress_every": n}`` reviews the played line of the
current game and adds ``review`` (:meth:`spider.solver.review.ReviewReport.to_json`): a proven
answer, or an unproven one (``probably-lost``, ``proven`` false, with its evidence).  The game
is not changed.  While it searches it calls ``session.progress`` (when set) with
:meth:`spider.solver.review.ReviewProgress.to_json`; Ctrl+C (the web worker's interrupt) ends it
with what it has proven (status ``could-not-tell``, reason ``interrupted``).
"""

from __future__ import annotations

from typing import Any, Final

from spider.protocol.fields import Answer, GameHolder, number_field, ranged_int_field
from spider.solver.review import (
    DEFAULT_POSITION_TIME_LIMIT,
    DEFAULT_THINK_ITERATIONS,
    DEFAULT_TIME_LIMIT,
    ReviewProgress,
    review,
)

__all__ = ["REVIEW_MAX_SECONDS", "review_op"]

REVIEW_MAX_SECONDS: Final = 3600.0
"""The largest ``time_limit`` and ``position_time_limit`` of the ``review`` operation."""
REVIEW_MEMORY_MB: Final = 256.0
"""Default ``memory_mb``: a browser tab has far less than 2 GB."""
REVIEW_MAX_THINK: Final = 10_000
"""The largest ``think_iterations``."""


def review_op(session: GameHolder, request: dict[str, Any]) -> Answer:
    """Answer ``{"op": "review", ...}``; see the module documentation."""
    game = session.require_game()
    total = number_field(request, "time_limit", DEFAULT_TIME_LIMIT, 0.01, REVIEW_MAX_SECONDS)
    per_position = number_field(
        request, "position_time_limit", DEFAULT_POSITION_TIME_LIMIT, 0.01, REVIEW_MAX_SECONDS
    )
    node_limit = None
    if "node_limit" in request:
        node_limit = ranged_int_field(request, "node_limit", 1, 10**8)
    think_iterations = ranged_int_field(
        request, "think_iterations", 0, REVIEW_MAX_THINK, DEFAULT_THINK_ITERATIONS
    )
    memory_mb = number_field(request, "memory_mb", REVIEW_MEMORY_MB, 1, 65536)
    every = int(number_field(request, "progress_every", 2000, 1, 10**9))
    hook = session.progress

    def report(progress: ReviewProgress) -> None:
        if hook is not None:
            hook(progress.to_json())

    result = review(
        game,
        time_limit=total,
        position_time_limit=per_position,
        node_limit=node_limit,
        memory_limit_mb=memory_mb,
        think_iterations=think_iterations,
        progress=report if hook is not None else None,
        progress_every=every,
    )
    return Answer([], {"review": result.to_json()})
