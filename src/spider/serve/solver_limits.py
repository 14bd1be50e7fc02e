"""The bounds of ``spider serve``'s solver API (:mod:`spider.serve.solver_api`), standard
library only: the command line reads its defaults without the ``web`` extra installed."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Final

__all__ = ["SOLVER_ENV", "SolverLimits"]

#: How ``spider serve`` passes the API's limits to its worker processes.
SOLVER_ENV: Final = "SPIDER_SOLVER_API"


@dataclass(frozen=True)
class SolverLimits:
    """The API's bounds: seconds a search may take at most (``think_seconds``,
    ``review_seconds``), searches at once from one client address (``per_client``) and in all
    (``total``, in each worker process), and the review's memory in MB."""

    think_seconds: float = 30.0
    review_seconds: float = 60.0
    per_client: int = 2
    total: int = max(2, os.cpu_count() or 2)
    review_memory_mb: float = 256.0

    def __post_init__(self) -> None:
        for name in ("think_seconds", "review_seconds"):
            value = getattr(self, name)
            if not 0 < value <= 3600:
                raise ValueError(f"{name} must be more than 0 and at most 3600, not {value}")
        if self.review_memory_mb <= 0:
            raise ValueError(f"review_memory_mb must be more than 0, not {self.review_memory_mb}")
        if not 1 <= self.per_client <= self.total:
            raise ValueError(f"per_client must be from 1 to total ({self.total})")

    def to_env(self) -> str:
        """These limits as the value of :data:`SOLVER_ENV`."""
        return json.dumps(self.__dict__)

    @staticmethod
    def from_env() -> SolverLimits | None:
        """The limits in :data:`SOLVER_ENV`, or None (no API)."""
        text = os.environ.get(SOLVER_ENV)
        return SolverLimits(**json.loads(text)) if text else None
