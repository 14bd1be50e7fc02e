"""Hints, "no more moves" and a full-information solver, as pure functions over positions.

- :func:`hint` / :func:`hint_report`: the best move judged from visible information only, and
  :func:`hint_action`: what a player who follows it plays next (a move or the deal);
- :func:`no_more_moves` / :func:`check_no_moves`: "no more moves", never a false alarm;
- :func:`solve`: winnable, unwinnable or undecided, with a solution replayed through the engine;
- :func:`think`: "Think harder", a search over the player's information for the best line.

The engine never imports this package.
"""

from __future__ import annotations

from spider.solver.full.search import SolveProgress, SolveResult, solve
from spider.solver.hint.nomoves import NoMovesReport, check_no_moves, no_more_moves
from spider.solver.hint.quick import Hint, HintOption, HintReport, hint, hint_action, hint_report
from spider.solver.think.harder import ThinkProgress, ThinkReport, think
from spider.solver.view import VisibleView

__all__ = [
    "Hint",
    "HintOption",
    "HintReport",
    "NoMovesReport",
    "SolveProgress",
    "SolveResult",
    "ThinkProgress",
    "ThinkReport",
    "VisibleView",
    "check_no_moves",
    "hint",
    "hint_action",
    "hint_report",
    "no_more_moves",
    "solve",
    "think",
]
