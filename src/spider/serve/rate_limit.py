"""Token buckets in memory: how often one key, or one client, may do something.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each action takes one. When
none is left the action is refused, with the seconds until the next token (``Retry-After``).
Buckets are kept per name (a key id, a client address) in a bounded table: past
``max_names`` the least recently used one is forgotten (it is then full again, which only ever
lets a forgotten name act sooner, never later).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

#: Names whose buckets are kept at most.
MAX_NAMES = 100_000


@dataclass(frozen=True)
class Rate:
    """``per_minute`` actions a minute on average, up to ``burst`` at once (0: no limit)."""

    per_minute: float
    burst: int

    @property
    def unlimited(self) -> bool:
        return self.per_minute <= 0


class RateLimiter:
    """Token buckets of one :class:`Rate`, one per name."""

    def __init__(
        self,
        rate: Rate,
        max_names: int = MAX_NAMES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.max_names = max_names
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, name: str) -> float:
        """Take a token for ``name``: 0 when allowed, else the seconds to wait (refused)."""
        if self.rate.unlimited:
            return 0.0
        per_second = self.rate.per_minute / 60.0
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(name, (float(self.rate.burst), now))
            tokens = min(float(self.rate.burst), tokens + (now - then) * per_second)
            if tokens >= 1.0:
                self._buckets[name] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[name] = (tokens, now)
                wait = (1.0 - tokens) / per_second
            while len(self._buckets) > self.max_names:
                self._buckets.popitem(last=False)
        return wait


def retry_after(wait: float) -> str:
    """The ``Retry-After`` value (whole seconds, at least 1) for ``wait`` seconds."""
    return str(max(1, math.ceil(wait)))
