"""Hints, "no more moves" and a full-information solver, as pure functions over positions.

- :func:`hint` / :func:`hint_report`: the best move judged from visible information only, and
  :func:`hint_action`: what a player who follows it plays next (a move or the deal);
- :func:`no_more_moves` / :func:`check_no_moves`: "no more moves", never a false alarm;
- :func:`solve`: winnable, unwinnable or undecided, with a solution replayed through the engine;
- :func:`think`: "Think harder", a search over the player's information for the best line.

Their tunables are parameters, not globals: :class:`HintParams` (``hint_report(game,
params=...)``, by default the variant's, :func:`hint_params`) and :class:`ThinkParams`
(``think(game, params=...)``).

The engine never imports this package.
"""

from __future__ import annotations

from spider.solver.full.search import SolveProgress, SolveResult, solve
from spider.solver.hint.nomoves import NoMovesReport, check_no_moves, no_more_moves
from spider.solver.hint.quick import Hint, HintOption, HintReport, hint, hint_action, hint_report
from spider.solver.params import HintParams, ThinkParams, hint_params
from spider.solver.think.harder import ThinkProgress, ThinkReport, think
from spider.solver.view import VisibleView

__all__ = [
    "Hint",
    "HintOption",
    "HintParams",
    "HintReport",
    "NoMovesReport",
    "SolveProgress",
    "SolveResult",
    "ThinkParams",
    "ThinkProgress",
    "ThinkReport",
    "VisibleView",
    "check_no_moves",
    "hint",
    "hint_action",
    "hint_params",
    "hint_report",
    "no_more_moves",
    "solve",
    "think",
]
