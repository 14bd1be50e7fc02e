"""The finding phase: beams over deal stages, on tracks of several heuristics and two pruning
levels.  It proves nothing (its pruning is unsound); it finds most wins fast.

A stage beam (:func:`stage_beam`): from each of up to ``width`` positions of a stage, a
best-first search over card moves (at most ``budget`` expansions; one transposition set per
stage) collects the positions it could deal from, each judged by the heuristic *after* the deal
(the stock order is known).  The pool (:class:`Pool`) groups them by *plan* (face-down count of
every column, cards on the table): the face-down cards never move, so a plan is the set of cards
turned so far.  The next stage starts from the best position of each plan, best plans first,
and variants of a plan only fill the places the plans leave free.  In the last stage (stock
empty) the same search, with ``END_FACTOR`` times the budget, looks for the win.

The beams run on *tracks* (:func:`find`): one strict track for each heuristic of the portfolio
and one loose track, each beam of a track twice as wide as its last (strict up to 512, loose up
to 128), and a lean strict track: wide beams (from 64) on a small budget per start.  Every
strict track of the portfolio first runs widths 4 and 8: on hard deals one weighting often finds
at width 8 what another misses at width 32.  Then the strict tracks together get twice the work
of the loose one, counted in expansions.  A level whose beam cut nothing is not widened again.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Final

from spider.solver.budget import Found, Limits, Stopped
from spider.solver.full.encoding import DEAL_CODE, State, Tree, canonical_key, is_won
from spider.solver.full.generate import LOOSE, STRICT, Solver

__all__ = ["BUDGETS", "LEAN_BUDGET", "WIDE_BUDGET", "Pool", "StageBeam", "find", "stage_beam"]

PORTFOLIO_WIDTH: Final = 8
"""The strict beams up to this width run with every heuristic of the portfolio, in order,
before anything else (the head start); most deals are won there."""

FIRST_WIDTH: Final = {STRICT: 4, LOOSE: 8}
"""The width of each level's first beam; each next beam of a track doubles it."""

WIDEST: Final = {STRICT: 512, LOOSE: 128}
"""The widest beam of each level.  Strict beams stay cheap when the strict space is narrow (in
Spiderette 4-suit a width-512 strict beam takes a few seconds), so they go wider."""

BUDGETS: Final = {4: 500, 8: 1500, 16: 4000, 32: 10000, 64: 30000}
"""Expansions per stage start of a beam of each width; wider beams get ``WIDE_BUDGET``."""
WIDE_BUDGET: Final = 100000

LEAN_WIDTH: Final = 64
"""The first width of the lean track: strict beams of the first heuristic, as wide as the
others get, but with ``LEAN_BUDGET`` expansions per stage start whatever their width."""
LEAN_BUDGET: Final = 1500
"""Expansions per stage start of the lean track.  Where a stage's space is wide (in
Spiderette, before the short last deal), a wide beam with the usual budget spends all of it
on every start; a small one reaches the next stage, where the win may be a few moves away."""

LOOSE_SHARE: Final = 2
"""The strict tracks together get this many times the work of the loose track."""

GROWTH: Final = 3
"""How many times the work of a track's last beam its next beam is expected to cost (the width
doubles, and the budget grows with it)."""

END_FACTOR: Final = 4
"""The last stage (stock empty, the endgame) gets this many times the budget."""


class Pool:
    """The dealt positions a stage collects, grouped by *plan*: the face-down count of every
    column and the cards on the table.  :meth:`best` takes the best position of every plan
    first, then the second best of every plan, and so on: the beam holds different plans, and
    variants of a plan only fill the width the plans leave free."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.plans: dict[tuple[bytes, int], list[tuple[int, int, int, State]]] = {}
        self.order = 0  # insertion counter: a deterministic tie-break
        self.size = 0  # positions held (memory)
        self.cut = False  # True when a position was dropped (widening could help)

    def add(self, score: int, node: int, state: State) -> None:
        """Offer the dealt position ``state`` (reached from tree node ``node``)."""
        columns = state[0]
        plan = (bytes([column[0] for column in columns]), sum(map(len, columns)))
        entries = self.plans.setdefault(plan, [])
        self.order += 1
        entry = (score, -self.order, node, state)
        if len(entries) < self.width:
            heapq.heappush(entries, entry)
            self.size += 1
        else:
            self.cut = True
            heapq.heappushpop(entries, entry)

    def best(self) -> list[tuple[int, int, State]]:
        """Up to ``width`` (score, node, position), best plans first."""
        ranked = [sorted(entries, reverse=True) for entries in self.plans.values()]
        if sum(map(len, ranked)) > self.width:
            self.cut = True
        chosen: list[tuple[int, int, int, State]] = []
        for rank in range(self.width):
            layer = [entries[rank] for entries in ranked if len(entries) > rank]
            layer.sort(reverse=True)
            chosen.extend(layer[: self.width - len(chosen)])
            if not layer or len(chosen) == self.width:
                break
        return [(score, node, state) for score, _, node, state in chosen]


def stage_beam(solver: Solver, limits: Limits, width: int, budget: int, prune: int) -> bool:
    """One beam over deal stages (see the module documentation).

    Raises :class:`Found` or :class:`Stopped`; returns True when nothing was cut (widening
    cannot help).
    """
    tree = Tree()
    starts: list[tuple[int, int, State]] = [(solver.score(solver.start), 0, solver.start)]
    complete = True
    base_positions = limits.positions
    while starts:
        seen: set[object] = set()
        pool = Pool(width)
        for start in starts:
            limit = budget if start[2][1] else budget * END_FACTOR
            searched = _stage_search(
                solver, limits, (tree, seen, pool, base_positions), start, limit, prune
            )
            complete = searched and complete
        chosen = pool.best()
        complete = complete and not pool.cut
        starts = [(score, tree.add(node, DEAL_CODE), child) for score, node, child in chosen]
    limits.stored = 0
    return complete


_Stage = tuple[Tree, set[object], Pool, int]
"""What the searches of one stage share: the tree, the positions seen, the pool of dealt
positions, and the positions counted before this beam."""


def _stage_search(
    solver: Solver,
    limits: Limits,
    stage: _Stage,
    start: tuple[int, int, State],
    limit: int,
    prune: int,
) -> bool:
    """Best-first over card moves from one start of a stage, offering every dealt child to the
    pool; False when the budget cut it short."""
    tree, seen, pool, base_positions = stage
    columns = solver.columns  # the key function is called directly: this loop is the hot path
    start_score, start_node, start_state = start
    seen.add(canonical_key(start_state, columns))
    heap: list[tuple[int, int, int, State]] = [(-start_score, 0, start_node, start_state)]
    count = 0
    while heap:
        if count >= limit:
            return False
        count += 1
        reason = limits.tick()
        if reason is not None:
            raise Stopped(reason)
        negative, _, node, state = heapq.heappop(heap)
        for child_score, action, child in solver.children(state, -negative, prune):
            if action == DEAL_CODE:
                pool.add(child_score, node, child)
                continue
            child_key = canonical_key(child, columns)
            if child_key in seen:
                continue
            seen.add(child_key)
            child_node = tree.add(node, action)
            if is_won(child):
                raise Found(tree.line(child_node))
            heapq.heappush(heap, (-child_score, child_node, child_node, child))
        limits.positions = base_positions + len(tree.parents)
        limits.stored = len(tree.parents) + len(seen) + pool.size
        limits.frontier = len(heap)
        reason = limits.full()
        if reason is not None:
            raise Stopped(reason)
    return True


StageBeam = Callable[[Solver, Limits, int, int, int], bool]
"""A beam over deal stages, as :func:`stage_beam`: ``(solver, limits, width, budget, prune)``
to True when nothing was cut."""


def find(solvers: list[Solver], limits: Limits, beam: StageBeam = stage_beam) -> None:
    """The finding phase: stage beams on *tracks*, until a win is found or every track ends.

    There is one strict track per heuristic (``solvers``), a lean strict track (the first
    heuristic, from width ``LEAN_WIDTH`` on, ``LEAN_BUDGET`` expansions per stage start) and
    one loose track (the first heuristic).  First every strict track of the portfolio runs its
    beams up to ``PORTFOLIO_WIDTH`` (the head start).  Then the loose track and the strict
    tracks together share the work: the side runs whose work after its next beam would be
    smaller, where a next beam is expected to cost ``GROWTH`` times the track's last one; on
    the strict side, the track whose work would be smallest runs.  Work is counted in
    expansions rather than seconds, so node-limited runs stay deterministic.

    A beam that cut nothing has searched its level's whole pruned space: a strict one ends every
    strict track, a loose one ends the phase (the sound phase then proves or solves a small
    space).  Each beam runs through ``beam`` (:func:`stage_beam`; the schedule alone can be
    observed with another).  Raises :class:`Found` or :class:`Stopped`.
    """
    count = len(solvers)
    tracks = [*solvers, solvers[0]]  # the last one is the lean track
    strict_width = [FIRST_WIDTH[STRICT]] * count + [LEAN_WIDTH]
    strict_cost = [0] * len(tracks)
    strict_last = [0] * len(tracks)
    loose_width = FIRST_WIDTH[LOOSE]
    loose_cost = loose_last = 0
    while True:
        strict_open = [
            index for index in range(len(tracks)) if strict_width[index] <= WIDEST[STRICT]
        ]
        loose_open = loose_width <= WIDEST[LOOSE]
        if not strict_open and not loose_open:
            return
        head_start = any(strict_width[index] <= PORTFOLIO_WIDTH for index in strict_open)
        member = 0
        if head_start:
            member = min(strict_open, key=lambda index: (strict_width[index], index))
        elif strict_open:
            member = min(
                strict_open,
                key=lambda index: (strict_cost[index] + GROWTH * strict_last[index], index),
            )
        before = limits.expanded
        if loose_open and (
            not strict_open
            or (
                not head_start
                and LOOSE_SHARE * (loose_cost + GROWTH * loose_last)
                <= sum(strict_cost) + GROWTH * strict_last[member]
            )
        ):
            if beam(solvers[0], limits, loose_width, BUDGETS.get(loose_width, WIDE_BUDGET), LOOSE):
                return
            loose_last = limits.expanded - before
            loose_cost += loose_last
            loose_width *= 2
            continue
        width = strict_width[member]
        budget = LEAN_BUDGET if member == count else BUDGETS.get(width, WIDE_BUDGET)
        if beam(tracks[member], limits, width, budget, STRICT):
            # Nothing was cut: no strict beam, of any width or heuristic, can find more.
            strict_width = [WIDEST[STRICT] * 2] * len(tracks)
        strict_last[member] = limits.expanded - before
        strict_cost[member] += strict_last[member]
        strict_width[member] *= 2
