"""An ensemble of "Think harder" trees grown side by side on several processes.

:func:`grow_ensemble` grows the first tree in the calling process (it reports the progress and
sees the caller's stop requests) and the others on a :class:`~concurrent.futures.
ProcessPoolExecutor`, one process each.  Every tree starts from the same root lines and gets the
whole budget; tree ``k`` seeds its sampling with :func:`tree_seed` (``seed, k``).  The workers
receive only the player's view, the positions visited since the last card turned and the root
lines: the hidden cards never leave the caller.  A stop request, Ctrl+C or the end of the time
budget in the caller stops the workers too (through a shared event; the workers ignore Ctrl+C
themselves, so the pool is never broken by it), and what they grew until then still counts.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, wait
from multiprocessing.synchronize import Event

from spider.solver.budget import should_stop
from spider.solver.think.report import ThinkReason
from spider.solver.think.tree import TreeTask

__all__ = ["RootStats", "TreeGrower", "TreeTask", "grow_ensemble", "tree_seed"]

RootStats = tuple[list[int], list[float]]
"""A tree's root statistics: visits and summed play-out values per root line."""


def tree_seed(seed: int, index: int) -> int:
    """The seed of tree ``index`` of an ensemble seeded with ``seed``: ``seed`` itself for the
    first tree (so one tree is the single search), a 63-bit number derived from both for the
    others (the same on every machine and run)."""
    if index == 0:
        return seed
    return random.Random(f"spider-think/{seed}/{index}").getrandbits(63)


_stop_event: Event | None = None


def _start_worker(stop: Event) -> None:
    """A worker's start: it keeps the shared stop event and leaves Ctrl+C to the caller."""
    global _stop_event
    _stop_event = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)


TreeGrower = Callable[
    ["TreeTask", int, "Callable[[], bool] | None"], tuple[list[int], list[float], int]
]
"""Grows a tree of a task with the given seed until its budget or the stop check says so: its
root visits, value totals and iterations (:func:`spider.solver.think.harder.grow_tree`, a
module-level function, so that it reaches the worker processes by name)."""


def _run_tree(grow: TreeGrower, task: TreeTask, index: int) -> tuple[list[int], list[float], int]:
    """Grow tree ``index`` in a worker, stopped by the shared stop event."""
    stop = _stop_event.is_set if _stop_event is not None else None
    return grow(task, tree_seed(task.seed, index), stop)


def grow_ensemble(
    task: TreeTask,
    jobs: int,
    grow_first: Callable[[], tuple[int, ThinkReason]],
    grow_other: TreeGrower,
    stop: threading.Event | Callable[[], bool] | None,
) -> tuple[list[RootStats], int, ThinkReason]:
    """Grow the first tree with ``grow_first`` (here) and ``jobs - 1`` more with ``grow_other``
    on as many processes; the other trees' root statistics, the iterations of all trees and why the
    search ended (the first tree's reason, or ``stopped``/``interrupted`` when that came while
    the others were still growing)."""
    context = multiprocessing.get_context()
    event = context.Event()
    with ProcessPoolExecutor(
        max_workers=jobs - 1, mp_context=context, initializer=_start_worker, initargs=(event,)
    ) as pool:
        futures = [pool.submit(_run_tree, grow_other, task, index) for index in range(1, jobs)]
        done, reason = grow_first()
        if reason != "iterations":
            event.set()
        reason = _await(futures, event, stop, reason)
        results = [future.result() for future in futures]
    stats = [(visits, totals) for visits, totals, _ in results]
    return stats, done + sum(count for _, _, count in results), reason


def _await(
    futures: list[Future[tuple[list[int], list[float], int]]],
    event: Event,
    stop: threading.Event | Callable[[], bool] | None,
    reason: ThinkReason,
) -> ThinkReason:
    """Wait for the workers, passing on a stop request or Ctrl+C that comes meanwhile."""
    pending = set(futures)
    while pending:
        try:
            _, pending = wait(pending, timeout=0.05)
        except KeyboardInterrupt:
            event.set()
            reason = "interrupted"
            continue
        if pending and not event.is_set() and should_stop(stop):
            event.set()
            reason = "stopped"
    return reason
