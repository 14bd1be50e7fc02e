"""The evidence of an unproven review verdict: what the solver found at each position, as data.

When the review cannot prove where a game was lost, it says where it was *probably* lost and
rests that on facts (:class:`Fact`): at the last position where a win was found (proven: the
solution replays to a win), at the positions after it where none was found within the search's
limits, and at the first position proven lost, if any.  :func:`facts_for` picks those facts from
the review's solver runs; :func:`fact_text` says one in words (what ``spider review`` prints; the
page says the same from the JSON, in the player's language).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["Fact", "FactOutcome", "fact_text", "facts_for"]

FactOutcome = Literal["win-found", "no-win-found", "proven-lost"]
"""What one position's search gave: a win found (proven winnable), no win found within the
limits (nothing proven), or every reachable position searched without a win (proven lost)."""

_OUTCOMES: Final[dict[str, FactOutcome]] = {
    "winnable": "win-found",
    "undecided": "no-win-found",
    "unwinnable": "proven-lost",
}

_ENDED_BY: Final[dict[str, str]] = {
    "time-limit": "the time limit",
    "node-limit": "the position limit",
    "memory-limit": "the memory limit",
}


@dataclass(frozen=True, slots=True)
class Fact:
    """What the solver found at position ``index`` (0: the start; ``index`` actions played).

    ``outcome`` is the finding; ``seconds`` and ``positions`` measure the search that gave it
    (for ``no-win-found``, the largest search of that position, by positions); ``reason`` is why
    that search
    ended (``'solved'``, ``'exhausted'``, or the limit that stopped it: ``'time-limit'``,
    ``'node-limit'``, ``'memory-limit'``).  Only ``win-found`` and ``proven-lost`` are proofs.
    """

    index: int
    outcome: FactOutcome
    seconds: float
    positions: int
    reason: str

    @property
    def proven(self) -> bool:
        """True when the fact is a proof (a win found, or the position proven lost)."""
        return self.outcome != "no-win-found"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "index": self.index,
            "outcome": self.outcome,
            "proven": self.proven,
            "seconds": round(self.seconds, 3),
            "positions": self.positions,
            "reason": self.reason,
        }


def facts_for(
    runs: Iterable[tuple[int, str, str, int, float]], low: int, high: int
) -> tuple[Fact, ...]:
    """The facts an unproven verdict rests on, in position order.

    ``runs`` are the review's solver runs as ``(index, status, reason, positions, seconds)``;
    ``low`` is the last position proven winnable (-1: none) and ``high`` the first proven
    unwinnable (past the line's end: none).  The facts: the win found at ``low``, every
    position between the two where no win was found (its largest search, by positions: the
    work done, whatever the machine's speed), and the proof at ``high``.  Positions before
    ``low`` say nothing more (winnability is monotone).
    """
    chosen: dict[int, Fact] = {}
    for index, status, reason, positions, seconds in runs:
        if index < low or index > high:
            continue
        outcome = _OUTCOMES.get(status)
        if outcome is None:
            raise ValueError(f"review evidence: unknown solver status {status!r}")
        fact = Fact(index, outcome, seconds, positions, reason)
        known = chosen.get(index)
        if known is None or fact.proven or (not known.proven and positions > known.positions):
            chosen[index] = fact
    return tuple(chosen[index] for index in sorted(chosen))


def fact_text(fact: Fact) -> str:
    """One fact in words, such as "After move 75: a win found in 14.6 s (proven: its line
    replays to a win)."."""
    where = "At the start" if fact.index == 0 else f"After move {fact.index}"
    if fact.outcome == "win-found":
        return f"{where}: a win found in {fact.seconds:.1f} s (proven: its line replays to a win)."
    if fact.outcome == "proven-lost":
        return (
            f"{where}: proven lost (every reachable position searched: {fact.positions:,} "
            f"in {fact.seconds:.1f} s)."
        )
    ended = _ENDED_BY.get(fact.reason, fact.reason)
    return (
        f"{where}: no win found in {fact.seconds:.1f} s of search ({fact.positions:,} positions, "
        f"stopped by {ended}; not a proof)."
    )
