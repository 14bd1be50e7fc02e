"""The quick hint: the best move judged from visible information, in a few hundred milliseconds.

:mod:`~spider.solver.hint.quick` chooses and explains the hint; it ranks moves with
:mod:`~spider.solver.hint.lookahead` (a best-first search over card moves, on
:mod:`~spider.solver.hint.column_table` and :mod:`~spider.solver.hint.pruned_moves`), values
positions with :mod:`~spider.solver.hint.evaluation`, weighs the next card with
:mod:`~spider.solver.hint.chance`, hands over to the full solver near the end
(:mod:`~spider.solver.hint.endgame`) and says "no more moves" only when it is true
(:mod:`~spider.solver.hint.nomoves`).  Every number it was tuned by is a field of a
:class:`~spider.solver.params.HintParams` (``hint_report(game, params=...)``).
"""

from __future__ import annotations

from spider.solver.hint.nomoves import NoMovesReport, check_no_moves, no_more_moves
from spider.solver.hint.quick import Hint, HintOption, HintReport, hint, hint_action, hint_report
from spider.solver.params import EndgameParams, HintParams, hint_params

__all__ = [
    "EndgameParams",
    "Hint",
    "HintOption",
    "HintParams",
    "HintReport",
    "NoMovesReport",
    "check_no_moves",
    "hint",
    "hint_action",
    "hint_params",
    "hint_report",
    "no_more_moves",
]
