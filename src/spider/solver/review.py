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
- without that proof, the answer is never a proven one.  When a win was found somewhere on the
  line, it is ``probably-lost`` (:class:`ProbableLoss`): lost at about action *N*, where *N* is
  the first position after the last proven winnable one where no win was found within the
  search's limits, with the evidence as data (:mod:`spider.solver.review_evidence`: the win found,
  the positions searched without one and for how long, the first position proven lost) and
  ``proven`` false in the JSON.  When no win was found at all, ``could-not-tell``.

**Search order.**  The current position first (winnable: ``still-winnable``, and nothing else is
searched); then a bisection on "decided winnable or not" between the last position proven
winnable and the first position after it that no run won (undecided or proven unwinnable): the
unprobed position nearest the middle of that interval.  A decided game takes about log2(moves)
+ 1 runs, as a proof needs no more.  When the interval closes on a position left undecided, it
is searched again with twice the budget (at most :data:`REFINE_ROUNDS` times): a win found moves
the bisection on, a proof of loss may end it with a proven answer, and another failure is
stronger evidence.

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
from spider.solver.review_evidence import Fact, fact_text, facts_for
from spider.solver.think.harder import think

__all__ = [
    "FULL_INFORMATION_NOTE",
    "PROVEN_STATUSES",
    "LosingMove",
    "ProbableLoss",
    "Probe",
    "ReviewProgress",
    "ReviewReport",
    "ReviewStatus",
    "review",
]

ReviewStatus = Literal[
    "won", "still-winnable", "lost", "never-winnable", "probably-lost", "could-not-tell"
]
"""The review's answer (see :class:`ReviewReport`)."""

PROVEN_STATUSES: Final[frozenset[str]] = frozenset(
    {"won", "still-winnable", "lost", "never-winnable"}
)
"""The answers that are proofs; ``probably-lost`` and ``could-not-tell`` are not."""

ReviewReason = Literal["decided", "undecided", "time-limit", "stopped", "interrupted"]
"""Why the review ended: it decided, the positions a proof needs stayed undecided after every
run it could give them, the total time ran out, a stop request, or Ctrl+C (the web worker's
interrupt)."""

Verdict = Literal["bad-luck", "mistake"]

DEFAULT_TIME_LIMIT: Final = 60.0
"""Default total budget of a review, in seconds."""
DEFAULT_POSITION_TIME_LIMIT: Final = 10.0
"""Default budget of the solver per position, in seconds."""
DEFAULT_THINK_ITERATIONS: Final = 20
"""Default play-outs of "Think harder" at the losing move (0: do not ask it)."""
MIN_PROBE_SECONDS: Final = 0.05
"""A probe needs at least this much of the total budget left to start."""
FINISH_RESERVE: Final = 1.0
"""Seconds of the total budget (at most a twentieth of it) the solver runs and "Think harder"
leave for the answer (the quick hint at the losing move) and for their overshoot."""
REFINE_ROUNDS: Final = 2
"""How many times a position the bisection closed on, left undecided, is searched again, each
time with twice the budget of the last run."""
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
class ProbableLoss:
    """An unproven verdict: the game was probably lost by action ``number``, not proven.

    Position ``earliest - 1`` is proven winnable (a win was found there), so the losing action
    is ``earliest`` or later; at position ``number`` no win was found (or it is proven lost).
    When the two are equal (the bisection closed), ``move`` tells that action and what the fair
    helpers said before it, as for a proven loss; else it is None.  ``evidence`` lists the facts
    the verdict rests on (:func:`spider.solver.review_evidence.facts_for`).
    """

    number: int
    earliest: int
    move: LosingMove | None
    evidence: tuple[Fact, ...]

    @property
    def proven(self) -> bool:
        """Always False: what tells this verdict from a proof."""
        return False

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "number": self.number,
            "earliest": self.earliest,
            "proven": self.proven,
            "move": None if self.move is None else self.move.to_json(),
            "evidence": [fact.to_json() for fact in self.evidence],
        }

    def lines(self) -> list[str]:
        """The verdict and its evidence as text lines."""
        if self.earliest == self.number:
            played = "" if self.move is None else f" ({action_text(self.move.action)})"
            where = f"at about move {self.number}{played}"
            found = (
                "a win was found at the start"
                if self.number == 1
                else f"a win was found after move {self.number - 1}"
            )
        else:
            where = f"between moves {self.earliest} and {self.number}"
            found = (
                "a win was found at the start"
                if self.earliest == 1
                else f"a win was found after move {self.earliest - 1}"
            )
        lines = [
            f"Probably lost {where} (not proven): {found}, none after move {self.number}.",
        ]
        if self.move is not None:
            lines += _helper_lines(self.move)
        lines.append("  Evidence:")
        lines += [f"  - {fact_text(fact)}" for fact in self.evidence]
        return lines


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """The review of a game; see the module documentation.

    ``moves`` is the length of the played line; ``last_winnable`` and ``first_unwinnable`` are
    the position indices proven so (None: none).  ``losing`` is the losing move when ``status``
    is ``lost`` (proven); ``probable`` the unproven verdict when it is ``probably-lost``.
    ``practice`` is the position text of the last position proven winnable when the game is not
    (or may not be) winnable any more: where a practice game can start.  ``probes`` lists every
    solver run in order.
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
    probable: ProbableLoss | None = None
    code: str | None = None
    note: str = field(default=FULL_INFORMATION_NOTE)

    @property
    def proven(self) -> bool:
        """True when the answer is a proof (``won``, ``still-winnable``, ``lost``,
        ``never-winnable``); False for ``probably-lost`` and ``could-not-tell``."""
        return self.status in PROVEN_STATUSES

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "status": self.status,
            "proven": self.proven,
            "reason": self.reason,
            "moves": self.moves,
            "last_winnable": self.last_winnable,
            "first_unwinnable": self.first_unwinnable,
            "losing": None if self.losing is None else self.losing.to_json(),
            "probable": None if self.probable is None else self.probable.to_json(),
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
    positions left undecided (how many runs each, and whether a longer run could help)."""

    def __init__(self, moves: int) -> None:
        self.low = -1  # last position proven winnable (-1: none)
        self.high = moves + 1  # first position proven unwinnable (moves + 1: none)
        self.undecided: dict[int, int] = {}  # position: runs that left it undecided
        self.stuck: set[int] = set()  # undecided for a reason a longer run does not lift
        self.solutions: dict[int, list[str]] = {}

    def record(self, index: int, result: SolveResult) -> None:
        if result.status == "winnable":
            self.low = max(self.low, index)
            self.solutions[index] = result.solution
        elif result.status == "unwinnable":
            self.high = min(self.high, index)
        else:
            self.undecided[index] = self.undecided.get(index, 0) + 1
            if result.reason not in ("time-limit", "node-limit"):
                self.stuck.add(index)

    def runs(self, index: int) -> int:
        """The runs that left position ``index`` undecided so far."""
        return self.undecided.get(index, 0)

    def frontier(self) -> int:
        """The first position after the last proven winnable one that no run won: undecided or
        proven unwinnable (``moves + 1`` when there is none)."""
        failed = [index for index in self.undecided if index > self.low]
        return min([self.high, *failed])

    def next_probe(self) -> int | None:
        """The unprobed position nearest the middle of the interval between the last proven
        winnable position and the frontier; when that interval is closed, the frontier again
        (twice the budget) if it is undecided and may be searched again; else None."""
        frontier = self.frontier()
        if frontier > self.low + 1:
            middle = (self.low + frontier) / 2
            candidates = range(self.low + 1, frontier)
            return min(candidates, key=lambda index: (abs(index - middle), index))
        if (
            frontier < self.high
            and frontier not in self.stuck
            and self.runs(frontier) <= REFINE_ROUNDS
        ):
            return frontier
        return None


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
    """Find the last winnable position of ``game``'s played line and the move that lost it;
    without a proof in time, where it was probably lost and the evidence (``probably-lost``).

    ``time_limit`` bounds the whole review and ``position_time_limit`` each first solver run of
    a position (seconds, None: no limit; a position searched again gets twice its last
    budget); ``node_limit`` caps the positions of each first run likewise (a budget that does
    not depend on the machine's speed).  ``think_iterations`` is the budget of "Think harder" at the
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
        total = budget.time_limit
        # The solver runs and "Think harder" stop a little before the end of the total budget:
        # the answer (the quick hint's view of the losing move) and an overshoot on a loaded
        # machine fit in what is kept.
        self.search_deadline = (
            None if total is None else self.started + total - min(FINISH_RESERVE, total / 20)
        )
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
            scale = 2 ** bounds.runs(index)  # a run again gets twice the budget of the last
            seconds = _probe_budget(self.search_deadline, self.budget.position_time_limit, scale)
            if seconds == 0.0:
                return self.conclude("time-limit")
            if should_stop(self.budget.stop):
                return self.finish("could-not-tell", "stopped")
            result = self.probe(index, seconds, scale)
            if result.reason == "stopped" or result.reason == "interrupted":
                return self.finish("could-not-tell", result.reason)
            bounds.record(index, result)
            if index == self.moves and result.status == "winnable":
                return self.finish("still-winnable", "decided")
            if bounds.high == 0:
                return self.finish("never-winnable", "decided")
            if bounds.high == bounds.low + 1:
                losing = self.losing_move(bounds.high)
                return self.finish("lost", "decided", losing=losing)
            index = bounds.next_probe()
        return self.conclude("undecided")

    def conclude(self, reason: ReviewReason) -> ReviewReport:
        """The answer without a proof of where the game was lost: ``probably-lost`` when a win
        was found on the line, else ``could-not-tell``."""
        bounds = self.bounds
        if bounds.low < 0:
            return self.finish("could-not-tell", reason)
        number = bounds.frontier()
        earliest = bounds.low + 1
        runs = ((p.index, p.status, p.reason, p.positions, p.elapsed) for p in self.probes)
        evidence = facts_for(runs, bounds.low, bounds.high)
        move = self.losing_move(number) if number == earliest else None
        return self.finish(
            "probably-lost", reason, probable=ProbableLoss(number, earliest, move, evidence)
        )

    def losing_move(self, number: int) -> LosingMove:
        """Action ``number`` (position ``number - 1`` proven winnable) and what the fair
        helpers said before it; "Think harder" gets what is left of the total time."""
        deadline = self.search_deadline
        left = None if deadline is None else deadline - time.monotonic()
        solution = self.bounds.solutions.get(number - 1) or []
        return _losing_move(self.line, number, solution, self.budget.think_iterations, left)

    def probe(self, index: int, seconds: float | None, scale: int = 1) -> SolveResult:
        """One solver run on position ``index`` (``scale`` times the node limit), reporting
        progress as it goes."""
        budget = self.budget
        hook = budget.progress

        def on_solver(step: SolveProgress) -> None:
            self.report(index, step.positions)

        self.report(index, 0)
        result = solve(
            self.line.at(index),
            time_limit=seconds,
            node_limit=None if budget.node_limit is None else budget.node_limit * scale,
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
        self,
        status: ReviewStatus,
        reason: ReviewReason,
        *,
        losing: LosingMove | None = None,
        probable: ProbableLoss | None = None,
    ) -> ReviewReport:
        low, high = self.known()
        practice = None
        if status in ("lost", "probably-lost", "could-not-tell") and low is not None:
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
            probable=probable,
            code=self.game.code,
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


def _probe_budget(
    deadline: float | None, per_position: float | None, scale: int = 1
) -> float | None:
    """Seconds for the next probe, ``scale`` times the per-position budget (None: no limit);
    0.0 when the total budget is spent."""
    scaled = None if per_position is None else per_position * scale
    if deadline is None:
        return scaled
    left = deadline - time.monotonic()
    if left < MIN_PROBE_SECONDS:
        return 0.0
    return left if scaled is None else min(left, scaled)


def _losing_move(
    line: _Line, number: int, solution: list[str], think_iterations: int, left: float | None
) -> LosingMove:
    """Action ``number`` of the line, and what the fair helpers said before it.  ``solution``
    is the solver's winning line from the position before it; "Think harder" gets ``left``
    seconds at most (None: no limit), and counts as not asked when it could not finish its
    play-outs in them."""
    action = line.actions[number - 1]
    before = line.at(number - 1)
    winning = action_from_text(solution[0]) if solution else None
    report = hint_report(before)
    quick = report.pick(0)
    followed = hint_action(before, report)
    thought: Action | None = None
    if think_iterations > 0 and (left is None or left >= MIN_PROBE_SECONDS):
        try:
            answer = think(before, iterations=think_iterations, time_limit=left, seed=0)
            thought = answer.action if answer.reason != "time-limit" else None
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
    elif status == "probably-lost" and report.probable is not None:
        lines += report.probable.lines()
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
    return lines + _helper_lines(losing)


def _helper_lines(losing: LosingMove) -> list[str]:
    """The move, what the solver, the hint and "Think harder" would have played before it, and
    the verdict, as text lines."""
    lines = []
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
