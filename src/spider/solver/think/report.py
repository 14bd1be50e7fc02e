"""What "Think harder" answers: its report, its progress messages, and how the answer is chosen
from a root's statistics (the most visited line, where the quick hint's best line counts a lead).

:func:`~spider.solver.think.harder.think` returns a :class:`ThinkReport`; the tree search
(:mod:`~spider.solver.think.tree`) and the ensemble (:mod:`~spider.solver.think.pool`) fill the
:class:`LineStats` it is made from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final, Literal

from spider.moves import Action, Move, action_text
from spider.solver.hint.endgame import EndgameLine
from spider.solver.params import ThinkParams

__all__ = [
    "Line",
    "LineStats",
    "ThinkOption",
    "ThinkProgress",
    "ThinkReason",
    "ThinkReport",
    "best_line",
    "endgame_report",
    "hint_lead",
    "report",
]

_DEFAULTS: Final = ThinkParams()
"""The parameters of a caller that gives none."""

ThinkReason = Literal[
    "iterations",
    "time-limit",
    "stopped",
    "interrupted",
    "only-action",
    "nothing-helps",
    "endgame",
]
"""Why the search ended: its iteration or time budget, a stop request, Ctrl+C (or the web
worker's cancel), a single action to choose from, no action at all (the quick hint's
"nothing helps" and no deal possible), or an endgame the full solver answered (see
:data:`ThinkReport.endgame`)."""

Line = tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class ThinkProgress:
    """A progress report: iterations so far, seconds, the best line now (in move notation), its
    visit share and its first action."""

    iterations: int
    elapsed: float
    best: str
    share: float
    action: Action

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the protocol's progress message; ``action`` as a request)."""
        return {
            "iterations": self.iterations,
            "elapsed": round(self.elapsed, 3),
            "best": self.best,
            "share": round(self.share, 3),
            "action": _action_json(self.action),
        }


@dataclass(frozen=True, slots=True)
class ThinkOption:
    """One line the search considered: how often it was tried and its mean value (0..1)."""

    line: Line
    visits: int
    value: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "line": [action_text(action) for action in self.line],
            "visits": self.visits,
            "value": round(self.value, 4),
        }


@dataclass(frozen=True, slots=True)
class ThinkReport:
    """The answer of :func:`think`.

    ``action`` is the first action of ``line`` (a :class:`~spider.moves.Move` or ``'deal'``), or
    None when there is nothing to do (``reason`` ``'nothing-helps'``).  ``line`` goes to the next
    card turned or run removed; playing it whole is fair (nothing new is seen before its last
    move).  ``share`` is the line's part of the root's visits and ``value`` its mean play-out
    value (0..1; 0 when it was not searched).  ``options`` lists every line considered, in the
    quick hint's order.

    ``endgame`` is set when the full solver chose the line instead of a search (reason
    ``'endgame'``: the stock is empty and at most
    :attr:`~spider.solver.params.EndgameParams.sampled_hidden` cards are face down, see
    :mod:`~spider.solver.hint.endgame`); ``value`` is then the share of the arrangements of the
    face-down cards tried in which a win is still possible after the line (1 when every card is
    in sight and the line wins).
    """

    action: Action | None
    line: Line
    visits: int
    share: float
    value: float
    iterations: int
    reason: ThinkReason
    elapsed: float
    options: tuple[ThinkOption, ...]
    endgame: EndgameLine | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the protocol's ``think`` object)."""
        action = self.action
        ending = self.endgame
        return {
            "action": None if action is None else _action_json(action),
            "notation": None if action is None else action_text(action),
            "line": [action_text(item) for item in self.line],
            "visits": self.visits,
            "share": round(self.share, 4),
            "value": round(self.value, 4),
            "iterations": self.iterations,
            "reason": self.reason,
            "elapsed": round(self.elapsed, 3),
            "options": [option.to_json() for option in self.options],
            "endgame": None if ending is None else _endgame_json(ending),
        }


def _endgame_json(ending: EndgameLine) -> dict[str, Any]:
    """What the solver's endgame answer rests on: arrangements tried, and won after the line."""
    return {"wins": ending.wins, "arrangements": ending.arrangements, "sampled": ending.sampled}


def _action_json(action: Action) -> dict[str, Any]:
    """An action as a protocol request."""
    if isinstance(action, Move):
        return {"op": "move", "src": action.src, "dst": action.dst, "count": action.count}
    return {"op": "deal"}


# --------------------------------------------------------------------------- choosing the answer


@dataclass(frozen=True, slots=True)
class LineStats:
    """A root's lines with their visits and summed play-out values (what :func:`report` is made
    from; :data:`~spider.solver.think.pool.RootStats` is the same without the lines, as a worker
    sends it)."""

    lines: list[Line]
    visits: list[int]
    totals: list[float]


def best_line(visits: list[int], totals: list[float], params: ThinkParams = _DEFAULTS) -> int:
    """The most visited line (the better mean, then the quick hint's order, on a tie), where
    the quick hint's best line (the first) counts :func:`hint_lead` visits more (with the
    lead of ``params``) and wins a tie."""
    lead = hint_lead(sum(visits), params)
    best, key = 0, (-1, True, -1.0)
    for index, count in enumerate(visits):
        mean = totals[index] / count if count else 0.0
        candidate = (count + lead, True, mean) if index == 0 else (count, False, mean)
        if candidate > key:
            best, key = index, candidate
    return best


def hint_lead(iterations: int, params: ThinkParams = _DEFAULTS) -> int:
    """The visits by which another line must outnumber the quick hint's best one to be chosen
    after ``iterations`` play-outs: :attr:`~spider.solver.params.ThinkParams.hint_lead` of them, at
    least :attr:`~spider.solver.params.ThinkParams.hint_lead_min` (those of ``params``). On a small
    budget each line gets a few play-outs, whose values are mostly the luck of the cards drawn, and
    without the lead that luck overruled the hint's lookahead: at 10 iterations "Think harder" won 0
    of 100 4-suit Classic deals where the hint won 5."""
    return max(params.hint_lead_min, math.ceil(params.hint_lead * iterations))


def endgame_report(ending: EndgameLine, elapsed: float) -> ThinkReport:
    """The report of the full solver's line for an endgame: no search, the solver's value."""
    value = 1.0 if ending.certain else ending.wins / ending.arrangements
    option = ThinkOption(ending.line, 0, value)
    line = ending.line
    return ThinkReport(line[0], line, 0, 1.0, value, 0, "endgame", elapsed, (option,), ending)


def report(
    stats: LineStats,
    iterations: int,
    reason: ThinkReason,
    elapsed: float,
    params: ThinkParams = _DEFAULTS,
) -> ThinkReport:
    """The report of a search: its root's lines with their visits and mean values, the chosen
    one (:func:`best_line`, with the lead of ``params``) and its share of the ``iterations``."""
    lines = stats.lines
    options = tuple(
        ThinkOption(line, count, total / count if count else 0.0)
        for line, count, total in zip(lines, stats.visits, stats.totals, strict=True)
    )
    if not lines:
        return ThinkReport(None, (), 0, 0.0, 0.0, iterations, reason, elapsed, options)
    best = best_line(stats.visits, stats.totals, params)
    chosen = options[best]
    share = chosen.visits / iterations if iterations else (1.0 if len(lines) == 1 else 0.0)
    return ThinkReport(
        chosen.line[0],
        chosen.line,
        chosen.visits,
        share,
        chosen.value,
        iterations,
        reason,
        elapsed,
        options,
    )
