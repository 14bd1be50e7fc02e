""" "Think harder": a search over what the player knows, for the best next line of moves.

:func:`think` runs a one-player information-set search (UCT, after Bjarnason, Fern & Tadepalli,
ICAPS 2009) from the player's view of a game, never from its hidden cards:

* **Actions** are lines of moves that end at the next card turned or run removed (where
  something new is seen), as the quick hint (:func:`~spider.solver.hint.hint_report`) offers
  them, its best :data:`MAX_ACTIONS` (fewer on a small iteration budget: one line per
  :data:`ITERATIONS_PER_LINE` iterations, at least 2); when it offers none, the deal.  At the
  root the hint's lookahead looks at :data:`LOOKAHEAD_NODES` positions, far more than the quick
  hint does, and its best lines are weighed over the cards they could turn (:mod:`.chance`)
  where :func:`root_weighs_cards` says: where the quick hint weighs them, and in 4-suit Classic
  Spider too.  Its best line is the answer unless the play-outs overrule it.  Inside the tree
  the lines keep the lookahead's order (weighing them is too slow there).
* **Outcomes**: each card turned or dealt is drawn from the unseen cards (the variant's deck minus
  every card seen) at the moment the search turns it (:class:`~.think_world.World`).  Each
  action keeps at most :data:`OUTCOMES_PER_ACTION` sampled outcomes; once it has that many, a
  visit replays one of them, chosen in proportion to how often it came.
* **Play-outs** from a new node follow the quick hint's policy (its best line, with a smaller
  lookahead, :data:`ROLLOUT_NODES`) until it has nothing to offer (the next deal) and are scored
  by the hint's evaluation, squashed to 0..1 (1: won; 0: nothing left to do and no deal).
* **Endgame**: once the stock is empty and at most :data:`ENDGAME_HIDDEN` cards are face down,
  a play-out instead shuffles the unseen cards over the face-down places and asks the full
  solver (:func:`~spider.solver.search.solve`, bounded by :data:`ENDGAME_NODES` positions):
  winnable 1, unwinnable 0, undecided the evaluation.  The lines weighed, and the play-outs,
  come from the quick hint's lookahead alone (``hint_report(..., endgame=False)``): its own
  endgame would offer one line chosen by the solver, leaving nothing to weigh, and ask the
  solver again at every node.
* **At the root**, when the quick hint's endgame applies (stock empty, at most
  :data:`~spider.solver.endgame.SAMPLED_HIDDEN` cards face down), no tree is grown: the answer
  is its line, the full solver's, weighed over arrangements of the face-down cards (reason
  ``endgame``).  A tree would weigh the same question with less: each play-out asks the solver
  about one arrangement, where the endgame scores every candidate on every arrangement.

* **Ensemble**: with ``jobs`` > 1, that many independent trees grow on as many processes
  (:mod:`.think_pool`), each with its own derived seed, and their root statistics are summed.

The answer is the action visited most, where the quick hint's best line counts a lead of
visits (:func:`hint_lead`): a few noisy play-outs must not overrule its lookahead.  Given an
iteration budget and a seed, it depends only on the visible position, the positions the player
went through since the last card turned (from the game's history, as the quick hint reads
them), the budget, the seed and ``jobs``: the hidden cards are never read.  A time budget
makes it depend on the machine's speed as well.
"""

from __future__ import annotations

import math
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from ..game import Game
from ..moves import Action, Move, action_text
from ..rules import RUN_LENGTH
from .endgame import EndgameLine, endgame_line
from .evaluation import Evaluation
from .hint import hint_report, visited_positions, weighs_next_card
from .limits import should_stop
from .lookahead import Visited
from .search import solve
from .think_world import DEAL_LINE, Draws, World, truncate_line
from .view import VisibleView

if TYPE_CHECKING:  # the type only: see think() for why the module is imported late
    from .think_pool import TreeTask

__all__ = [
    "DEFAULT_ITERATIONS",
    "ENDGAME_HIDDEN",
    "ENDGAME_NODES",
    "HINT_LEAD",
    "HINT_LEAD_MIN",
    "ITERATIONS_PER_LINE",
    "LOOKAHEAD_NODES",
    "MAX_ACTIONS",
    "MAX_ITERATIONS",
    "MAX_JOBS",
    "MAX_LOOKAHEAD_NODES",
    "OUTCOMES_PER_ACTION",
    "ROLLOUT_NODES",
    "ThinkOption",
    "ThinkProgress",
    "ThinkReason",
    "ThinkReport",
    "hint_lead",
    "root_weighs_cards",
    "think",
]

DEFAULT_ITERATIONS: Final = 100
"""Iterations when neither a time nor an iteration budget is given."""

MAX_ITERATIONS: Final = 10_000_000
"""The largest iteration budget accepted."""

MAX_JOBS: Final = 64
"""The most trees (processes) one search may grow at once."""

PROCESSES: Final = sys.platform not in {"emscripten", "wasi"}
"""Whether more processes can be started here (not under Pyodide): ``jobs`` > 1 needs them."""

MAX_SECONDS: Final = 86_400.0
"""The largest time budget accepted, in seconds."""

MAX_ACTIONS: Final = 8
"""How many of the quick hint's lines a node considers at most (its best ones)."""

ITERATIONS_PER_LINE: Final = 5
"""On an iteration budget, a node considers one line per this many iterations (at least 2, at
most :data:`MAX_ACTIONS`): with fewer, each line is tried about once and the choice is noise."""

OUTCOMES_PER_ACTION: Final = 3
"""Sampled outcomes (cards turned or dealt) kept per action of a node."""

HINT_LEAD: Final = 0.1
"""The share of the iterations by which another line must outnumber the hint's best one."""
HINT_LEAD_MIN: Final = 2
"""The least such lead, in visits."""
EXPLORATION: Final = 0.4
"""The UCT exploration constant (values are 0..1)."""

LOOKAHEAD_NODES: Final = 16_000
"""The root's lookahead budget (positions): the quick hint's search, 4 to 53 times deeper than
the quick hint looks in each variant (4 times at 4-suit Classic).  Its best line is the answer
unless the play-outs overrule it (:func:`hint_lead`).  It was chosen on the first 69 tuning
deals of 4-suit Classic (10,000-10,068: 6 wins against 4 at the quick hint's 4,000); all 200
(10,000-10,199) later gave 8 against 12, so it is no stronger there, only slower
(``docs/strength.md``, "A deeper lookahead at 4-suit Classic")."""

MAX_LOOKAHEAD_NODES: Final = 10_000_000
"""The largest root lookahead accepted."""

LOOKAHEAD_SHARE: Final = 0.5
"""Under a time budget, the share of it the root lookahead may use at most (then the play-outs
have the rest)."""

ROLLOUT_NODES: Final = 100
"""The quick hint's lookahead budget in play-outs (the hint itself uses 300-1000)."""

ROLLOUT_STEPS: Final = 40
"""The most lines a play-out plays before it is scored."""

VALUE_SCALE: Final = 1500.0
"""Evaluation points (over the root's) that move a play-out's value from 0.5 to about 0.73."""

ENDGAME_HIDDEN: Final = 6
"""With the stock empty and at most this many cards face down, play-outs ask the full solver."""

ENDGAME_NODES: Final = 3_000
"""The full solver's position budget per endgame sample (a node budget keeps it repeatable)."""

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
    :data:`~spider.solver.endgame.SAMPLED_HIDDEN` cards are face down, see
    :mod:`~spider.solver.endgame`); ``value`` is then the share of the arrangements of the
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


# --------------------------------------------------------------------------- input checks


def _check_budget(iterations: object, time_limit: object) -> tuple[int | None, float | None]:
    """The budget, checked; ``ValueError``/``TypeError`` with a clear message when bad."""
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int):
            raise TypeError(f"iterations must be an integer or None, not {iterations!r}")
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {iterations:,}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise TypeError(f"time_limit must be a number of seconds or None, not {time_limit!r}")
        if not (math.isfinite(time_limit) and 0 < time_limit <= MAX_SECONDS):
            raise ValueError(
                f"time_limit must be more than 0 and at most {MAX_SECONDS:,.0f} seconds, "
                f"not {time_limit!r}"
            )
    if iterations is None and time_limit is None:
        return DEFAULT_ITERATIONS, None
    return iterations, None if time_limit is None else float(time_limit)


# --------------------------------------------------------------------------- the tree


class _Node:
    """An information state: the lines to choose from, their statistics and their outcomes."""

    __slots__ = ("arrivals", "lines", "outcomes", "terminal", "totals", "visits")

    def __init__(self) -> None:
        self.lines: list[Line] | None = None
        self.visits: list[int] = []
        self.totals: list[float] = []
        self.outcomes: list[dict[Draws, _Node]] = []
        self.terminal: float | None = None
        self.arrivals = 1

    def set_lines(self, lines: list[Line]) -> None:
        self.lines = lines
        self.visits = [0] * len(lines)
        self.totals = [0.0] * len(lines)
        self.outcomes = [{} for _ in lines]

    def select(self) -> int:
        """The line to try next: an untried one in order, else the best by UCB1."""
        visits, totals = self.visits, self.totals
        for index, count in enumerate(visits):
            if count == 0:
                return index
        log_total = math.log(sum(visits))
        best, best_score = 0, -math.inf
        for index, count in enumerate(visits):
            score = totals[index] / count + EXPLORATION * math.sqrt(log_total / count)
            if score > best_score:
                best, best_score = index, score
        return best


class _Search:
    """One search: the root world, the tree, the random generator and the evaluation."""

    def __init__(self, view: VisibleView, world: World, seed: int, width: int) -> None:
        self.root_world = world
        self.width = width
        self.rng = random.Random(seed)
        self.evaluation = Evaluation(view)
        self.down0 = sum(view.down)
        self.removed0 = view.removed
        self.score0 = self._score(world)
        self.root = _Node()

    # ---- values

    def _score(self, world: World) -> float:
        """The quick hint's evaluation of ``world``, relative to the root's cards."""
        columns, down = world.columns, world.down
        cards = sum(map(len, columns)) + sum(down)
        runs = len(world.removed) - self.removed0
        return self.evaluation.value(columns, down, cards + RUN_LENGTH * runs, self.down0)

    def heuristic(self, world: World) -> float:
        """The evaluation squashed to 0..1 (0.5: as good as the root)."""
        delta = (self._score(world) - self.score0) / VALUE_SCALE
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, delta))))

    def endgame(self, world: World) -> float:
        """The full solver's verdict on one arrangement of the unseen cards."""
        result = solve(
            world.sample_game(self.rng),
            time_limit=None,
            node_limit=ENDGAME_NODES,
            memory_limit_mb=64,
        )
        if result.status == "winnable":
            return 1.0
        if result.status == "unwinnable":
            return 0.0
        return self.heuristic(world)

    def rollout(self, world: World) -> float:
        """Play the quick hint's best lines until it offers none; the value reached."""
        for _ in range(ROLLOUT_STEPS):
            if world.is_won:
                return 1.0
            if not world.stock and world.hidden <= ENDGAME_HIDDEN:
                return self.endgame(world)
            view = world.view()
            report = hint_report(
                view, ROLLOUT_NODES, world.visited, endgame=False, weigh_cards=False
            )
            if not report.options:
                return self.heuristic(world) if view.deal_ever_possible else 0.0
            world.play(truncate_line(view, report.options[0].line), self.rng)
        return self.heuristic(world)

    # ---- the tree

    def expand(self, node: _Node, world: World) -> None:
        """Give ``node`` its lines (the quick hint's, or the deal), or a terminal value."""
        if world.is_won:
            node.terminal = 1.0
            return
        node.set_lines(lines_of(world.view(), world.visited, self.width))
        if not node.lines:
            node.terminal = 0.0 if not world.view().deal_ever_possible else self.heuristic(world)

    def iterate(self) -> None:
        """One iteration: select down the tree, sample, play out, back up the value."""
        world = self.root_world.copy()
        node = self.root
        path: list[tuple[_Node, int]] = []
        while True:
            if node.lines is None:
                self.expand(node, world)
            if node.terminal is not None:
                value = node.terminal
                break
            assert node.lines is not None
            index = node.select()
            outcomes = node.outcomes[index]
            forced: Draws = ()
            if len(outcomes) >= OUTCOMES_PER_ACTION:
                keys = list(outcomes)
                weights = [outcomes[key].arrivals for key in keys]
                forced = self.rng.choices(keys, weights=weights)[0]
            draws = world.play(node.lines[index], self.rng, forced)
            path.append((node, index))
            child = outcomes.get(draws)
            if child is None:
                outcomes[draws] = _Node()
                value = self.rollout(world)
                break
            child.arrivals += 1
            node = child
        for parent, index in path:
            parent.visits[index] += 1
            parent.totals[index] += value


def lines_of(
    view: VisibleView,
    visited: Visited,
    width: int = MAX_ACTIONS,
    nodes: int | None = None,
    stop: Callable[[], bool] | None = None,
    weigh_cards: bool = False,
) -> list[Line]:
    """The lines a node chooses from: the quick hint's best ``width`` (its lookahead over
    ``nodes`` positions, by default the quick hint's own budget; ``stop`` may end it early;
    with ``weigh_cards`` its best lines ordered by the cards they could turn, as the quick hint
    orders them), each cut after its first move that turns a card or removes a run; when it
    offers none, the deal if one is possible now; else none."""
    report = hint_report(view, nodes, visited, endgame=False, weigh_cards=weigh_cards, stop=stop)
    lines: list[Line] = [truncate_line(view, option.line) for option in report.options[:width]]
    if not lines and view.can_deal:
        lines.append(DEAL_LINE)
    return lines


def root_weighs_cards(view: VisibleView) -> bool:
    """True where the root's best lines are weighed over the cards they could turn: where the
    quick hint weighs them (:func:`~.hint.weighs_next_card`), and in 4-suit Spider under the
    classic rule, where the weighing costs the quick hint too much time but won more games
    (``docs/strength.md``, "The next card weighed at 4-suit Classic")."""
    four_suit_classic = view.game == "spider" and view.suits == 4 and not view.flexible
    return four_suit_classic or weighs_next_card(view)


# --------------------------------------------------------------------------- public API


def think(
    game: Game,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    progress: Callable[[ThinkProgress], None] | None = None,
    progress_every: int = 10,
    stop: threading.Event | Callable[[], bool] | None = None,
    jobs: int = 1,
    lookahead: int = LOOKAHEAD_NODES,
) -> ThinkReport:
    """Search the player's information for the best line of moves; see the module doc.

    The budget is ``iterations`` (play-outs), ``time_limit`` (seconds), or both (whichever ends
    first); with neither, :data:`DEFAULT_ITERATIONS`.  ``seed`` seeds the sampling.
    ``progress`` is called every ``progress_every`` iterations; ``stop`` (an event or a
    callable) ends the search early, and so does Ctrl+C (``KeyboardInterrupt``), with the best
    line found so far.  Only what the player sees of ``game`` is read: its visible view and the
    positions since the last card turned in its history.

    ``jobs`` > 1 grows that many independent trees at once, each on the whole budget, the first
    in this process (it reports the progress) and the others on as many more processes, each
    with its own seed derived from ``seed`` (:func:`~.think_pool.tree_seed`; the first uses
    ``seed``); the answer sums their root statistics (visits and values per line), and
    ``iterations`` in the report counts the play-outs of every tree.  Given an iteration budget
    it still depends only on what the player sees, the budget, ``seed`` and ``jobs``.  Where
    processes cannot be started (Pyodide), ``jobs`` is 1 whatever is asked.

    ``lookahead`` is the root lookahead's budget in positions (:data:`LOOKAHEAD_NODES`); its
    best line is the answer unless the play-outs overrule it.  Under a time budget it may use at
    most :data:`LOOKAHEAD_SHARE` of the time, and a stop request ends it too.

    ``ValueError`` (or ``TypeError``) for a bad budget, seed, jobs or lookahead, or a game
    already won.
    """
    budget, seconds = _check_budget(iterations, time_limit)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, not {seed!r}")
    if isinstance(progress_every, bool) or not isinstance(progress_every, int):
        raise TypeError(f"progress_every must be an integer, not {progress_every!r}")
    if progress_every < 1:
        raise ValueError(f"progress_every must be at least 1, not {progress_every}")
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs must be an integer, not {jobs!r}")
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    if isinstance(lookahead, bool) or not isinstance(lookahead, int):
        raise TypeError(f"lookahead must be an integer, not {lookahead!r}")
    if not 1 <= lookahead <= MAX_LOOKAHEAD_NODES:
        raise ValueError(
            f"lookahead must be from 1 to {MAX_LOOKAHEAD_NODES:,} positions, not {lookahead:,}"
        )
    if game.is_won:
        raise ValueError("the game is won: there is nothing left to think about")
    started = time.monotonic()
    view = VisibleView.from_game(game)
    ending = endgame_line(view)
    if ending is not None:
        return _endgame_report(ending, time.monotonic() - started)
    visited = visited_positions(game)
    width = MAX_ACTIONS
    if budget is not None:
        width = max(2, min(MAX_ACTIONS, budget // ITERATIONS_PER_LINE))
    search = _Search(view, World.from_view(view, visited), seed, width)
    deadline = None if seconds is None else started + seconds
    cutoff = None if seconds is None else started + LOOKAHEAD_SHARE * seconds
    lookahead_stop = _lookahead_stop(stop, cutoff)
    try:
        root_lines = lines_of(
            view, visited, search.width, lookahead, lookahead_stop, root_weighs_cards(view)
        )
        search.root.set_lines(root_lines)
    except KeyboardInterrupt:
        return _report(_stats(search.root), 0, "interrupted", time.monotonic() - started)
    lines = search.root.lines or []
    if len(lines) <= 1:
        reason: ThinkReason = "only-action" if lines else "nothing-helps"
        return _report(_stats(search.root), 0, reason, time.monotonic() - started)
    grow = _Growth(budget, deadline, stop, progress, progress_every, started)
    if jobs == 1 or not PROCESSES:
        done, reason = grow.run(search)
        return _report(_stats(search.root), done, reason, time.monotonic() - started)
    # Imported only here: multiprocessing is not importable under Pyodide (no _multiprocessing),
    # where jobs is always 1.
    from .think_pool import TreeTask, grow_ensemble

    task = TreeTask(view, visited, tuple(lines), width, seed, budget, seconds)
    stats, done, reason = grow_ensemble(task, jobs, lambda: grow.run(search), grow_tree, stop)
    combined = _stats(search.root)
    for visits, totals in stats:
        combined = _Stats(
            combined.lines,
            [a + b for a, b in zip(combined.visits, visits, strict=True)],
            [a + b for a, b in zip(combined.totals, totals, strict=True)],
        )
    return _report(combined, done, reason, time.monotonic() - started)


def _lookahead_stop(
    stop: threading.Event | Callable[[], bool] | None, cutoff: float | None
) -> Callable[[], bool] | None:
    """What ends the root lookahead early: a stop request, or the clock (``time.monotonic``)
    reaching ``cutoff``, the end of its :data:`LOOKAHEAD_SHARE` of a time budget."""
    if cutoff is None and stop is None:
        return None

    def should_end() -> bool:
        if cutoff is not None and time.monotonic() >= cutoff:
            return True
        return should_stop(stop)

    return should_end


@dataclass(frozen=True, slots=True)
class _Stats:
    """A root's statistics: its lines, their visits and their summed play-out values."""

    lines: list[Line]
    visits: list[int]
    totals: list[float]


def _stats(root: _Node) -> _Stats:
    return _Stats(root.lines or [], list(root.visits), list(root.totals))


class _Growth:
    """How long a tree grows: the budget, the clock, stop requests and progress reports."""

    def __init__(
        self,
        budget: int | None,
        deadline: float | None,
        stop: threading.Event | Callable[[], bool] | None,
        progress: Callable[[ThinkProgress], None] | None,
        progress_every: int,
        started: float,
    ) -> None:
        self.budget = budget
        self.deadline = deadline
        self.stop = stop
        self.progress = progress
        self.every = progress_every
        self.started = started

    def run(self, search: _Search) -> tuple[int, ThinkReason]:
        """Iterate ``search`` until the budget, the clock or a stop request ends it; the
        iterations done and why it ended (Ctrl+C ends it too, as ``interrupted``)."""
        done = 0
        try:
            while True:
                if self.budget is not None and done >= self.budget:
                    return done, "iterations"
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    return done, "time-limit"
                if should_stop(self.stop):
                    return done, "stopped"
                search.iterate()
                done += 1
                if self.progress is not None and done % self.every == 0:
                    self._report(search.root, done)
        except KeyboardInterrupt:
            return done, "interrupted"

    def _report(self, root: _Node, done: int) -> None:
        assert self.progress is not None and root.lines is not None
        best = _best(root.visits, root.totals)
        line = root.lines[best]
        self.progress(
            ThinkProgress(
                done,
                time.monotonic() - self.started,
                " ".join(action_text(action) for action in line),
                root.visits[best] / done,
                line[0],
            )
        )


def grow_tree(
    task: TreeTask, seed: int, stop: Callable[[], bool] | None
) -> tuple[list[int], list[float], int]:
    """Grow one tree of an ensemble (in a worker process) with ``seed``: its root visits, value
    totals and iterations.  Only the player's view and the root lines cross to the worker."""
    search = _Search(task.view, World.from_view(task.view, task.visited), seed, task.width)
    search.root.set_lines(list(task.lines))
    started = time.monotonic()
    deadline = None if task.seconds is None else started + task.seconds
    done, _ = _Growth(task.budget, deadline, stop, None, 1, started).run(search)
    return search.root.visits, search.root.totals, done


def _best(visits: list[int], totals: list[float]) -> int:
    """The most visited line (the better mean, then the quick hint's order, on a tie), where
    the quick hint's best line (the first) counts :func:`hint_lead` visits more and wins a tie."""
    lead = hint_lead(sum(visits))
    best, key = 0, (-1, True, -1.0)
    for index, count in enumerate(visits):
        mean = totals[index] / count if count else 0.0
        candidate = (count + lead, True, mean) if index == 0 else (count, False, mean)
        if candidate > key:
            best, key = index, candidate
    return best


def hint_lead(iterations: int) -> int:
    """The visits by which another line must outnumber the quick hint's best one to be chosen
    after ``iterations`` play-outs: :data:`HINT_LEAD` of them, at least :data:`HINT_LEAD_MIN`.
    On a small budget each line gets a few play-outs, whose values are mostly the luck of the
    cards drawn, and without the lead that luck overruled the hint's lookahead: at 10 iterations
    "Think harder" won 0 of 100 4-suit Classic deals where the hint won 5."""
    return max(HINT_LEAD_MIN, math.ceil(HINT_LEAD * iterations))


def _endgame_report(ending: EndgameLine, elapsed: float) -> ThinkReport:
    """The report of the full solver's line for an endgame: no search, the solver's value."""
    value = 1.0 if ending.certain else ending.wins / ending.arrangements
    option = ThinkOption(ending.line, 0, value)
    line = ending.line
    return ThinkReport(line[0], line, 0, 1.0, value, 0, "endgame", elapsed, (option,), ending)


def _report(stats: _Stats, iterations: int, reason: ThinkReason, elapsed: float) -> ThinkReport:
    lines = stats.lines
    options = tuple(
        ThinkOption(line, count, total / count if count else 0.0)
        for line, count, total in zip(lines, stats.visits, stats.totals, strict=True)
    )
    if not lines:
        return ThinkReport(None, (), 0, 0.0, 0.0, iterations, reason, elapsed, options)
    best = _best(stats.visits, stats.totals)
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
