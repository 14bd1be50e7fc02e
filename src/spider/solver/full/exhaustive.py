"""The sound phase: a best-first search of the whole reachable space.

Every legal action is generated (:data:`~spider.solver.full.generate.SOUND`) except those giving a
position with the same canonical key, so an empty open list proves the position unwinnable.

The generator also leaves out the card move that undoes the move to a position
(:func:`undo_code`): its child is the parent, stored already, so skipping it saves building and
looking up a duplicate and changes neither the positions searched nor their order.
"""

from __future__ import annotations

import heapq
from typing import Final

from spider.solver.budget import Found, Limits, Stopped
from spider.solver.full.encoding import ActionCode, State, Tree, canonical_key, is_won
from spider.solver.full.generate import SOUND, Solver

__all__ = ["exhaustive", "undo_code"]

_NODE_BITS: Final = 32
"""Bits of an open-list entry that hold the node number (far more nodes than memory allows)."""
_NODE_MASK: Final = (1 << _NODE_BITS) - 1
_NO_UNDO: Final = -1
"""No card move undoes the move to a position (a card move's code is never negative)."""


def undo_code(parent: State, child: State, action: ActionCode) -> int:
    """The code of the card move that turns ``child`` back into ``parent`` exactly, or
    ``_NO_UNDO`` when there is none: the deal, a macro, a move that turned a card (the source
    column's face-down count fell) or completed a run (the target did not grow by the group).

    Otherwise moving the group (the top ``count`` cards of the target) back onto the source gives
    the source column back, and leaves the target as it was, which holds a face-up card or
    nothing (never only face-down cards) and no completed run (a settled position has none):
    nothing turns and nothing leaves, so the child of that move is ``parent``.
    """
    if not isinstance(action, int) or action < 0:
        return _NO_UNDO
    src = action >> 8
    dst = (action >> 4) & 15
    count = action & 15
    before = parent[0]
    after = child[0]
    if after[src][0] != before[src][0] or len(after[dst]) != len(before[dst]) + count:
        return _NO_UNDO
    return dst << 8 | src << 4 | count


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
    undoes: list[int] = [_NO_UNDO]  # per node: the move that gives its parent back, exactly
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
        undo = undoes[index]
        score = -(entry >> _NODE_BITS)
        for child_score, action, child in solver.children(state, score, SOUND, undo):
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
            undoes.append(undo_code(state, child, action))
            push(heap, -child_score << _NODE_BITS | tree.add(index, action))
        limits.stored = len(seen)
        limits.positions = base_positions + len(seen)
        limits.frontier = len(heap)
