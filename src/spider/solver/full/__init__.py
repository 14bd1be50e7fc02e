"""The full-information solver: is this deal winnable? (:func:`solve`).

:mod:`~spider.solver.full.search` runs a finding phase (:mod:`~spider.solver.full.beam`) and a
sound phase (:mod:`~spider.solver.full.exhaustive`) over positions encoded by
:mod:`~spider.solver.full.encoding`, with moves from :mod:`~spider.solver.full.generate` ranked by
:mod:`~spider.solver.full.heuristic`; :mod:`~spider.solver.full.analyze` solves many deals on a
process pool or a Dask cluster.
"""

from __future__ import annotations

from spider.solver.full.search import SolveProgress, SolveResult, SolveStatus, solve

__all__ = ["SolveProgress", "SolveResult", "SolveStatus", "solve"]
