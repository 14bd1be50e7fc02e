"""What ends a search: time, node and memory limits, a stop request; and progress reports."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["Found", "Limits", "SolveProgress", "StopReason", "Stopped"]

BYTES_PER_POSITION: Final = 450
"""Estimated memory per stored position (key, columns, parent link, heap entry)."""

StopReason = Literal["time-limit", "node-limit", "memory-limit", "stopped", "interrupted"]
"""Why a search ended before it decided."""


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report: positions expanded and stored, open list size, time so far."""

    expanded: int
    positions: int
    frontier: int
    elapsed: float


def should_stop(stop: threading.Event | Callable[[], bool] | None) -> bool:
    """True when ``stop`` (an event, a function, or None for never) asks a search to stop."""
    if stop is None:
        return False
    if isinstance(stop, threading.Event):
        return stop.is_set()
    return bool(stop())


class Found(Exception):
    """A phase found a winning line (primitive action codes)."""

    def __init__(self, line: list[int]) -> None:
        super().__init__()
        self.line = line


class Stopped(Exception):
    """A limit or a stop request ended the search."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason: StopReason = reason


class Limits:
    """Time, node, memory and stop checks shared by the phases; counts positions and expansions."""

    def __init__(
        self,
        started: float,
        time_limit: float | None,
        node_limit: int | None,
        memory_limit_mb: float,
        progress: Callable[[SolveProgress], None] | None,
        stop: threading.Event | Callable[[], bool] | None,
        progress_every: int,
    ) -> None:
        self.started = started
        self.deadline = None if time_limit is None else started + time_limit
        self.max_positions = int(memory_limit_mb * 1024 * 1024 / BYTES_PER_POSITION)
        self.node_limit = node_limit
        if node_limit is not None:
            self.max_positions = min(self.max_positions, node_limit)
        self.progress = progress
        self.stop = stop
        self.progress_every = max(1, progress_every)
        self.expanded = 0
        self.positions = 0  # distinct positions stored, summed over the phases
        self.stored = 0  # positions held now (memory)
        self.frontier = 0

    def tick(self) -> StopReason | None:
        """Count one expansion; the reason to stop, or None."""
        self.expanded += 1
        expanded = self.expanded
        if self.progress is not None and expanded % self.progress_every == 0:
            self.progress(
                SolveProgress(
                    expanded, self.positions, self.frontier, time.monotonic() - self.started
                )
            )
        if expanded & 63 == 0 or expanded == 1:
            if self.deadline is not None and time.monotonic() > self.deadline:
                return "time-limit"
            if should_stop(self.stop):
                return "stopped"
        return None

    def full(self) -> StopReason | None:
        """The reason to stop when the position store is full, or None."""
        if self.stored >= self.max_positions:
            if self.node_limit is not None and self.stored >= self.node_limit:
                return "node-limit"
            return "memory-limit"
        return None
