"""The sound phase: a best-first search of the whole reachable space.

Every legal action is generated (:data:`~spider.solver.full.generate.SOUND`) except those giving a
position with the same canonical key, so an empty open list proves the position unwinnable.
"""

from __future__ import annotations

import heapq
from typing import Final

from spider.solver.budget import Found, Limits, Stopped
from spider.solver.full.encoding import State, Tree, canonical_key, is_won
from spider.solver.full.generate import SOUND, Solver

__all__ = ["exhaustive"]

_NODE_BITS: Final = 32
"""Bits of an open-list entry that hold the node number (far more nodes than memory allows)."""
_NODE_MASK: Final = (1 << _NODE_BITS) - 1


def exhaustive(solver: Solver, limits: Limits) -> None:
    """Search the whole space: returns when it is exhausted (unwinnable).  Raises
    :class:`~spider.solver.budget.Found` or :class:`~spider.solver.budget.Stopped`."""
    start = solver.start
    tree = Tree()
    states: list[State | None] = [start]
    columns = solver.columns  # the key function is called directly: this loop is the hot path
    seen = {canonical_key(start, columns)}
    # An entry is ``-score << _NODE_BITS | node``: one int orders as the pair (higher score
    # first, then the older node) and costs no tuple to build, compare and free.
    heap: list[int] = [-solver.score(start) << _NODE_BITS]
    push = heapq.heappush
    pop = heapq.heappop
    base_positions = limits.positions
    max_positions = limits.max_positions
    limits.stored = 1
    while heap:
        reason = limits.tick()
        if reason is not None:
            raise Stopped(reason)
        entry = pop(heap)
        index = entry & _NODE_MASK
        state = states[index]
        assert state is not None
        states[index] = None
        for child_score, action, child in solver.children(state, -(entry >> _NODE_BITS), SOUND):
            child_key = canonical_key(child, columns)
            if child_key in seen:
                continue
            if not child[1] and is_won(child):
                limits.positions = base_positions + len(seen)
                raise Found(tree.line(tree.add(index, action)))
            if len(seen) >= max_positions:
                limits.stored = len(seen)
                limits.positions = base_positions + len(seen)
                raise Stopped(limits.full() or "memory-limit")
            seen.add(child_key)
            states.append(child)
            push(heap, -child_score << _NODE_BITS | tree.add(index, action))
        limits.stored = len(seen)
        limits.positions = base_positions + len(seen)
        limits.frontier = len(heap)
