"""The full-information solver: is this deal winnable? (:func:`solve`).

:mod:`~spider.solver.solve.search` runs a finding phase (:mod:`~spider.solver.solve.beam`) and a
sound phase (:mod:`~spider.solver.solve.exhaustive`) over positions encoded by
:mod:`~spider.solver.solve.encoding`, with moves from :mod:`~spider.solver.solve.generate` ranked by
:mod:`~spider.solver.solve.heuristic`; :mod:`~spider.solver.solve.analyze` solves many deals on a
process pool or a Dask cluster.
"""

from __future__ import annotations

from spider.solver.solve.search import SolveProgress, SolveResult, SolveStatus, solve

__all__ = ["SolveProgress", "SolveResult", "SolveStatus", "solve"]
