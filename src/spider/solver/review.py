"""Where did I lose it? The move that made a game unwinnable, found with the full solver.

:func:`review` walks over the game's *played line*: the actions from the start of the game (the
deal, or the position it was opened at) to now, as :attr:`spider.game.Game.played` keeps them.
An action the player undid is not on it (undo takes it off), so an undone blunder is not what
lost the game; the line is the one the player is left with.

**Winnability along that line is monotone.**  If position *k* can be won, so can every earlier
position of the line: play the line's next moves to *k*, then win.  So the winnable positions
are a prefix ``0..L`` and the rest are lost; the losing move is action ``L + 1``.  Each position
is judged by :func:`spider.solver.full.search.solve` (full information, it reads every card)
within a per-position budget; a position it leaves undecided is never guessed:

- a claim "lost at move *N*" needs position *N - 1* proven winnable and position *N* proven
  unwinnable;
- with undecided positions between the last proven winnable one and the first proven unwinnable
  one, the answer is ``could-not-tell`` with those two bounds.

**Search order.**  The current position first (winnable: ``still-winnable``, and nothing else is
searched); then a bisection of the interval between the last position proven winnable and the
first proven unwinnable, probing the position nearest its middle that has not been probed (an
undecided probe leaves the interval as it was, and the next probe is its nearest neighbour).
About log2(moves) solver runs decide a game.

At the losing move the review also asks what the fair quick hint (:func:`spider.solver.hint.quick`)
and, with a small iteration budget, "Think harder" (:func:`spider.solver.think.harder.think`) would
have played in the position before it, from what the player could see.  When either would have
played the same losing move the verdict is ``bad-luck``, else ``mistake``: the judgement uses cards
the player could not see.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from spider.cards import card_text
from spider.game import Game
from spider.limits import excerpt
from spider.moves import Action, Move, action_from_text, action_text
from spider.solver.budget import should_stop
from spider.solver.full.search import SolveProgress, SolveResult, solve
from spider.solver.hint.quick import Hint, hint_action, hint_report
from spider.solver.think.harder import think

__all__ = [
    "FULL_INFORMATION_NOTE",
    "LosingMove",
    "Probe",
    "ReviewProgress",
    "ReviewReport",
    "ReviewStatus",
    "review",
]

ReviewStatus = Literal["won", "still-winnable", "lost", "never-winnable", "could-not-tell"]
"""The review's answer (see :class:`ReviewReport`)."""

ReviewReason = Literal["decided", "undecided", "time-limit", "stopped", "interrupted"]
"""Why the review ended: it decided, every candidate position stayed undecided, the total time
ran out, a stop request, or Ctrl+C (the web worker's interrupt)."""

Verdict = Literal["bad-luck", "mistake"]

DEFAULT_TIME_LIMIT: Final = 60.0
"""Default total budget of a review, in seconds."""
DEFAULT_POSITION_TIME_LIMIT: Final = 10.0
"""Default budget of the solver per position, in seconds."""
DEFAULT_THINK_ITERATIONS: Final = 20
"""Default play-outs of "Think harder" at the losing move (0: do not ask it)."""
MIN_PROBE_SECONDS: Final = 0.05
"""A probe needs at least this much of the total budget left to start."""
FULL_INFORMATION_NOTE: Final = (
    "This review uses every card, including the face-down cards and the stock the player "
    "could not see."
)


@dataclass(frozen=True, slots=True)
class Probe:
    """One solver run: position ``index`` (0: the start; ``index`` actions played)."""

    index: int
    status: str
    reason: str
    positions: int
    elapsed: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "index": self.index,
            "status": self.status,
            "reason": self.reason,
            "positions": self.positions,
            "elapsed": round(self.elapsed, 3),
        }


@dataclass(frozen=True, slots=True)
class ReviewProgress:
    """A progress report: the position being probed, the bounds so far, the time spent.

    ``last_winnable`` / ``first_unwinnable`` are position indices (None: none proven yet);
    ``positions`` counts the solver's positions of the running probe.
    """

    probing: int
    probes: int
    moves: int
    last_winnable: int | None
    first_unwinnable: int | None
    positions: int
    elapsed: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (what the protocol's progress messages carry)."""
        return {
            "probing": self.probing,
            "probes": self.probes,
            "moves": self.moves,
            "last_winnable": self.last_winnable,
            "first_unwinnable": self.first_unwinnable,
            "positions": self.positions,
            "elapsed": round(self.elapsed, 3),
        }


@dataclass(frozen=True, slots=True)
class LosingMove:
    """The move that made the game unwinnable, and what the fair helpers said before it.

    ``number`` is 1-based: action ``number`` leads from position ``number - 1`` (``before``, a
    position text that shows every card) to the first lost position.  ``winning`` is the first
    action of the solver's winning line from ``before``.  ``think`` is None when "Think harder"
    was not asked (iteration budget 0, or interrupted).
    """

    number: int
    action: Action
    before: str
    winning: Action | None
    hint: Hint
    hint_same: bool
    think: Action | None
    think_same: bool | None

    @property
    def verdict(self) -> Verdict:
        """``bad-luck`` when a fair helper would have played the same move, else ``mistake``."""
        return "bad-luck" if self.hint_same or self.think_same else "mistake"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "number": self.number,
            "notation": action_text(self.action),
            "action": action_request(self.action),
            "card": _moved_card(self.before, self.action),
            "before": self.before,
            "winning": None if self.winning is None else action_text(self.winning),
            "hint": self.hint.to_json(),
            "hint_card": None
            if self.hint.move is None
            else _moved_card(self.before, self.hint.move),
            "hint_same": self.hint_same,
            "think": None if self.think is None else action_text(self.think),
            "think_same": self.think_same,
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """The review of a game; see the module documentation.

    ``moves`` is the length of the played line; ``last_winnable`` and ``first_unwinnable`` are
    the position indices proven so (None: none).  ``practice`` is the position text of the last
    position proven winnable when the game is not (or may not be) winnable any more: where a
    practice game can start.  ``probes`` lists every solver run in order.
    """

    status: ReviewStatus
    reason: ReviewReason
    moves: int
    last_winnable: int | None
    first_unwinnable: int | None
    losing: LosingMove | None
    practice: str | None
    probes: tuple[Probe, ...]
    elapsed: float
    code: str | None = None
    note: str = field(default=FULL_INFORMATION_NOTE)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "status": self.status,
            "reason": self.reason,
            "moves": self.moves,
            "last_winnable": self.last_winnable,
            "first_unwinnable": self.first_unwinnable,
            "losing": None if self.losing is None else self.losing.to_json(),
            "practice": self.practice,
            "probes": [probe.to_json() for probe in self.probes],
            "elapsed": round(self.elapsed, 3),
            "full_information": True,
            "note": self.note,
        }

    def lines(self) -> list[str]:
        """The report as text lines (what ``spider review`` prints)."""
        return _report_lines(self)


def action_request(action: Action) -> dict[str, Any]:
    """An action as a protocol request."""
    if isinstance(action, Move):
        return {"op": "move", "src": action.src, "dst": action.dst, "count": action.count}
    return {"op": "deal"}


class _Line:
    """The played line of a game and its positions, rebuilt from the start on demand."""

    def __init__(self, game: Game) -> None:
        self.start = game.start_position()
        self.actions = game.played

    def at(self, index: int) -> Game:
        """The game after the first ``index`` actions, with its history (the hint reads it)."""
        game = self.start.copy(history=False)
        for action in self.actions[:index]:
            game.push(action)
        return game


class _Bounds:
    """What the probes proved: the last winnable and first unwinnable positions, and the
    positions left undecided."""

    def __init__(self, moves: int) -> None:
        self.low = -1  # last position proven winnable (-1: none)
        self.high = moves + 1  # first position proven unwinnable (moves + 1: none)
        self.undecided: set[int] = set()
        self.solutions: dict[int, list[str]] = {}

    def record(self, index: int, result: SolveResult) -> None:
        if result.status == "winnable":
            self.low = max(self.low, index)
            self.solutions[index] = result.solution
        elif result.status == "unwinnable":
            self.high = min(self.high, index)
        else:
            self.undecided.add(index)

    def next_probe(self) -> int | None:
        """The unprobed position nearest the middle of the open interval, or None."""
        candidates = [
            index for index in range(self.low + 1, self.high) if index not in self.undecided
        ]
        if not candidates:
            return None
        middle = (self.low + self.high) / 2
        return min(candidates, key=lambda index: (abs(index - middle), index))


@dataclass(frozen=True, slots=True)
class _Budget:
    """The limits of one review (see :func:`review`)."""

    time_limit: float | None
    position_time_limit: float | None
    node_limit: int | None
    memory_limit_mb: float
    think_iterations: int
    progress: Callable[[ReviewProgress], None] | None
    progress_every: int
    stop: threading.Event | Callable[[], bool] | None


def review(
    game: Game,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    position_time_limit: float | None = DEFAULT_POSITION_TIME_LIMIT,
    node_limit: int | None = None,
    memory_limit_mb: float = 2048,
    think_iterations: int = DEFAULT_THINK_ITERATIONS,
    progress: Callable[[ReviewProgress], None] | None = None,
    progress_every: int = 5000,
    stop: threading.Event | Callable[[], bool] | None = None,
) -> ReviewReport:
    """Find the last winnable position of ``game``'s played line and the move that lost it.

    ``time_limit`` bounds the whole review and ``position_time_limit`` each solver run (seconds,
    None: no limit); ``node_limit`` caps the positions of each run (a budget that does not
    depend on the machine's speed).  ``think_iterations`` is the budget of "Think harder" at the
    losing move (0: not asked).  ``progress`` is called before each probe and every
    ``progress_every`` expanded positions; ``stop`` (an event or a callable) and Ctrl+C end the
    review with what it has proven.  ``ValueError`` for a bad budget.
    """
    _check_budgets(time_limit, position_time_limit, node_limit, think_iterations)
    budget = _Budget(
        time_limit,
        position_time_limit,
        node_limit,
        memory_limit_mb,
        think_iterations,
        progress,
        max(1, progress_every),
        stop,
    )
    return _Review(game, budget).run()


class _Review:
    """One review under way: the line, what the probes proved, and the clock."""

    def __init__(self, game: Game, budget: _Budget) -> None:
        self.game = game
        self.budget = budget
        self.started = time.monotonic()
        self.deadline = None if budget.time_limit is None else self.started + budget.time_limit
        self.line = _Line(game)
        self.moves = len(self.line.actions)
        self.bounds = _Bounds(self.moves)
        self.probes: list[Probe] = []

    def run(self) -> ReviewReport:
        if self.game.is_won:
            return self.finish("won", "decided")
        try:
            return self.search()
        except KeyboardInterrupt:
            return self.finish("could-not-tell", "interrupted")

    def search(self) -> ReviewReport:
        bounds = self.bounds
        index: int | None = self.moves  # the current position first
        while index is not None:
            seconds = _probe_budget(self.deadline, self.budget.position_time_limit)
            if seconds == 0.0:
                return self.finish("could-not-tell", "time-limit")
            if should_stop(self.budget.stop):
                return self.finish("could-not-tell", "stopped")
            result = self.probe(index, seconds)
            if result.reason == "stopped" or result.reason == "interrupted":
                return self.finish("could-not-tell", result.reason)
            bounds.record(index, result)
            if index == self.moves and result.status == "winnable":
                return self.finish("still-winnable", "decided")
            if bounds.high == 0:
                return self.finish("never-winnable", "decided")
            if bounds.high == bounds.low + 1:
                losing = _losing_move(self.line, bounds, self.budget.think_iterations)
                return self.finish("lost", "decided", losing)
            index = bounds.next_probe()
        return self.finish("could-not-tell", "undecided")

    def probe(self, index: int, seconds: float | None) -> SolveResult:
        """One solver run on position ``index``, reporting progress as it goes."""
        budget = self.budget
        hook = budget.progress

        def on_solver(step: SolveProgress) -> None:
            self.report(index, step.positions)

        self.report(index, 0)
        result = solve(
            self.line.at(index),
            time_limit=seconds,
            node_limit=budget.node_limit,
            memory_limit_mb=budget.memory_limit_mb,
            progress=on_solver if hook is not None else None,
            progress_every=budget.progress_every,
            stop=budget.stop,
        )
        self.probes.append(
            Probe(index, result.status, result.reason, result.positions, result.elapsed)
        )
        return result

    def known(self) -> tuple[int | None, int | None]:
        """The last position proven winnable and the first proven unwinnable (None: none)."""
        low, high = self.bounds.low, self.bounds.high
        return (None if low < 0 else low), (None if high > self.moves else high)

    def report(self, index: int, positions: int) -> None:
        hook = self.budget.progress
        if hook is not None:
            low, high = self.known()
            elapsed = time.monotonic() - self.started
            hook(ReviewProgress(index, len(self.probes), self.moves, low, high, positions, elapsed))

    def finish(
        self, status: ReviewStatus, reason: ReviewReason, losing: LosingMove | None = None
    ) -> ReviewReport:
        low, high = self.known()
        practice = None
        if status in ("lost", "could-not-tell") and low is not None:
            practice = losing.before if losing is not None else self.line.at(low).to_text()
        return ReviewReport(
            status,
            reason,
            self.moves,
            low,
            high,
            losing,
            practice,
            tuple(self.probes),
            time.monotonic() - self.started,
            self.game.code,
        )


def _check_budgets(
    time_limit: float | None,
    position_time_limit: float | None,
    node_limit: int | None,
    think_iterations: int,
) -> None:
    for name, value in (("time_limit", time_limit), ("position_time_limit", position_time_limit)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not value > 0
        ):
            raise ValueError(
                f"review: {name} must be a number of seconds above 0, not {excerpt(value)}"
            )
    if node_limit is not None and (
        isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1
    ):
        raise ValueError(
            f"review: node_limit must be an integer of at least 1, not {excerpt(node_limit)}"
        )
    if (
        isinstance(think_iterations, bool)
        or not isinstance(think_iterations, int)
        or think_iterations < 0
    ):
        raise ValueError(
            "review: think_iterations must be an integer of at least 0, not "
            f"{excerpt(think_iterations)}"
        )


def _probe_budget(deadline: float | None, per_position: float | None) -> float | None:
    """Seconds for the next probe (None: no limit); 0.0 when the total budget is spent."""
    if deadline is None:
        return per_position
    left = deadline - time.monotonic()
    if left < MIN_PROBE_SECONDS:
        return 0.0
    return left if per_position is None else min(left, per_position)


def _losing_move(line: _Line, bounds: _Bounds, think_iterations: int) -> LosingMove:
    """What lost the game at action ``bounds.high``, and what the fair helpers said before it."""
    number = bounds.high
    action = line.actions[number - 1]
    before = line.at(number - 1)
    solution = bounds.solutions.get(number - 1) or []
    winning = action_from_text(solution[0]) if solution else None
    report = hint_report(before)
    quick = report.pick(0)
    followed = hint_action(before, report)
    thought: Action | None = None
    if think_iterations > 0:
        try:
            thought = think(before, iterations=think_iterations, seed=0).action
        except KeyboardInterrupt:
            thought = None
    return LosingMove(
        number,
        action,
        before.to_text(),
        winning,
        quick,
        followed == action,
        thought,
        None if thought is None else thought == action,
    )


def _moved_card(before: str, action: Action) -> str | None:
    """The card at the bottom of the group ``action`` moves in position ``before`` (None for a
    deal): the page names it, since it does not hold the cards of that position."""
    if not isinstance(action, Move):
        return None
    column = Game.from_text(before).position().columns[action.src]
    return card_text(column[-action.count])


_WHY_NOT: Final[dict[ReviewReason, str]] = {
    "decided": "decided",
    "undecided": "the solver left undecided, within its budget, a position a claim needs",
    "time-limit": "the time ran out before the solver decided the positions a claim needs",
    "stopped": "the review was stopped",
    "interrupted": "the review was interrupted",
}


def _report_lines(report: ReviewReport) -> list[str]:
    label = report.code or "game"
    head = f"{label}: {report.moves} action{'s' if report.moves != 1 else ''} played"
    lines = [head]
    status = report.status
    if status == "won":
        lines.append("Won: there is nothing to review.")
        return lines
    if status == "still-winnable":
        lines.append("Still winnable: the game can be won from the current position.")
    elif status == "never-winnable":
        lines.append("Never winnable: the game could not be won from its start.")
    elif status == "lost" and report.losing is not None:
        lines += _losing_lines(report.losing)
    else:
        lines.append(f"Could not tell: {_WHY_NOT[report.reason]}.")
        lines.append("  " + _bounds_text(report))
    solved = sum(probe.status != "undecided" for probe in report.probes)
    lines.append(
        f"{len(report.probes)} position{'s' if len(report.probes) != 1 else ''} searched "
        f"({solved} decided) in {report.elapsed:.1f}s."
    )
    lines.append(report.note)
    return lines


def _losing_lines(losing: LosingMove) -> list[str]:
    move = action_text(losing.action)
    lines = [
        f"Lost at move {losing.number} ({move}): the game could be won before it, not after.",
    ]
    if losing.winning is not None:
        lines.append(f"  The solver would have played {action_text(losing.winning)} there.")
    hint_text = (
        "no move (a player following it deals)"
        if losing.hint.move is None
        else (f"{losing.hint.move.text()} ({losing.hint.text})")
    )
    lines.append(f"  The fair hint suggested {hint_text}.")
    if losing.think is not None:
        lines.append(f'  "Think harder" would have played {action_text(losing.think)}.')
    if losing.verdict == "bad-luck":
        lines.append("  Bad luck, not a mistake: a fair helper would have played the same move.")
    else:
        lines.append("  A mistake in hindsight: the fair helpers would have played otherwise.")
    lines.append(f"  Position before it: {losing.before}")
    return lines


def _bounds_text(report: ReviewReport) -> str:
    low, high = report.last_winnable, report.first_unwinnable
    known = []
    if low is not None:
        known.append(f"winnable after move {low}" if low else "winnable at the start")
    if high is not None:
        known.append(f"lost after move {high}")
    return "Proven: " + ", ".join(known) + "." if known else "Nothing was proven."
