""" "Think harder": a search over what the player knows, for the best next line of moves.

:mod:`~spider.solver.think.harder` runs it (:func:`think`); :mod:`~spider.solver.think.tree` grows
one tree of play-outs over sampled worlds (:mod:`spider.solver.worlds`),
:mod:`~spider.solver.think.pool` grows several side by side on processes, and
:mod:`~spider.solver.think.report` says what it found;
:class:`~spider.solver.params.ThinkParams` holds every number it was tuned by.
"""

from __future__ import annotations

from spider.solver.params import ThinkParams
from spider.solver.think.harder import ThinkProgress, ThinkReport, think

__all__ = ["ThinkParams", "ThinkProgress", "ThinkReport", "think"]
