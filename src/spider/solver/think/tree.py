"""The tree of "Think harder": UCT over the player's information, grown one play-out at a time.

A :class:`Node` is an information state: the lines to choose from (the quick hint's best ones,
:func:`lines_of`), their visits and values, and per line up to
:attr:`~spider.solver.params.ThinkParams.outcomes_per_action` sampled outcomes (the cards the line
turned or dealt, drawn from the unseen cards by :class:`~spider.solver.worlds.World`).  A
:class:`TreeSearch` iterates: select down the tree by UCB1, sample, play out from the new node with
the quick hint's policy (:attr:`~spider.solver.params.ThinkParams.rollout_nodes`) to the next deal
or ask the full solver near the end (:attr:`~spider.solver.params.ThinkParams.endgame_hidden`), and
back the value up; its numbers are those of a :class:`~spider.solver.params.ThinkParams`.
:class:`Growth` runs the iterations under a budget, a clock and stop requests; :func:`grow_tree` is
one tree of an ensemble (:mod:`~spider.solver.think.pool`).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from spider.moves import action_text
from spider.rules import RUN_LENGTH
from spider.solver.budget import should_stop
from spider.solver.full.search import solve
from spider.solver.hint.evaluation import Evaluation
from spider.solver.hint.lookahead import Visited
from spider.solver.hint.quick import hint_report
from spider.solver.params import HintParams, ThinkParams
from spider.solver.think.report import Line, LineStats, ThinkProgress, ThinkReason, best_line
from spider.solver.view import VisibleView
from spider.solver.worlds import DEAL_LINE, Draws, World, truncate_line

__all__ = [
    "Growth",
    "Node",
    "TreeSearch",
    "TreeTask",
    "grow_tree",
    "lines_of",
    "root_stats",
]

_DEFAULTS: Final = ThinkParams()
"""The parameters of a caller that gives none."""


class Node:
    """An information state: the lines to choose from, their statistics and their outcomes."""

    __slots__ = ("arrivals", "lines", "outcomes", "terminal", "totals", "visits")

    def __init__(self) -> None:
        self.lines: list[Line] | None = None
        self.visits: list[int] = []
        self.totals: list[float] = []
        self.outcomes: list[dict[Draws, Node]] = []
        self.terminal: float | None = None
        self.arrivals = 1

    def set_lines(self, lines: list[Line]) -> None:
        """Give the node its lines to choose from, none tried yet."""
        self.lines = lines
        self.visits = [0] * len(lines)
        self.totals = [0.0] * len(lines)
        self.outcomes = [{} for _ in lines]

    def select(self, exploration: float) -> int:
        """The line to try next: an untried one in order, else the best by UCB1 (with the
        ``exploration`` constant)."""
        visits, totals = self.visits, self.totals
        for index, count in enumerate(visits):
            if count == 0:
                return index
        log_total = math.log(sum(visits))
        best, best_score = 0, -math.inf
        for index, count in enumerate(visits):
            score = totals[index] / count + exploration * math.sqrt(log_total / count)
            if score > best_score:
                best, best_score = index, score
        return best


class TreeSearch:
    """One search: the root world, the tree, the random generator and the evaluation, with the
    numbers of ``params`` and the quick hint's ``hint`` (:meth:`ThinkParams.hint_for`)."""

    def __init__(
        self,
        view: VisibleView,
        world: World,
        seed: int,
        width: int,
        params: ThinkParams,
        hint: HintParams,
    ) -> None:
        self.root_world = world
        self.width = width
        self.params = params
        self.hint = hint
        self.rng = random.Random(seed)
        self.evaluation = Evaluation(view, hint)
        self.down0 = sum(view.down)
        self.removed0 = view.removed
        self.score0 = self._score(world)
        self.root = Node()

    # ---- values

    def _score(self, world: World) -> float:
        """The quick hint's evaluation of ``world``, relative to the root's cards."""
        columns, down = world.columns, world.down
        cards = sum(map(len, columns)) + sum(down)
        runs = len(world.removed) - self.removed0
        return self.evaluation.value(columns, down, cards + RUN_LENGTH * runs, self.down0)

    def heuristic(self, world: World) -> float:
        """The evaluation squashed to 0..1 (0.5: as good as the root)."""
        delta = (self._score(world) - self.score0) / self.params.value_scale
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, delta))))

    def endgame(self, world: World) -> float:
        """The full solver's verdict on one arrangement of the unseen cards."""
        result = solve(
            world.sample_game(self.rng),
            time_limit=None,
            node_limit=self.params.endgame_nodes,
            memory_limit_mb=64,
        )
        if result.status == "winnable":
            return 1.0
        if result.status == "unwinnable":
            return 0.0
        return self.heuristic(world)

    def rollout(self, world: World) -> float:
        """Play the quick hint's best lines until it offers none; the value reached."""
        params, hint = self.params, self.hint
        nodes, hidden = params.rollout_nodes, params.endgame_hidden
        for _ in range(params.rollout_steps):
            if world.is_won:
                return 1.0
            if not world.stock and world.hidden <= hidden:
                return self.endgame(world)
            view = world.view()
            report = hint_report(
                view, nodes, world.visited, params=hint, endgame=False, weigh_cards=False
            )
            if not report.options:
                return self.heuristic(world) if view.deal_ever_possible else 0.0
            world.play(truncate_line(view, report.options[0].line), self.rng)
        return self.heuristic(world)

    # ---- the tree

    def expand(self, node: Node, world: World) -> None:
        """Give ``node`` its lines (the quick hint's, or the deal), or a terminal value."""
        if world.is_won:
            node.terminal = 1.0
            return
        node.set_lines(lines_of(world.view(), world.visited, self.width, params=self.hint))
        if not node.lines:
            node.terminal = 0.0 if not world.view().deal_ever_possible else self.heuristic(world)

    def iterate(self) -> None:
        """One iteration: select down the tree, sample, play out, back up the value."""
        world = self.root_world.copy()
        node = self.root
        path: list[tuple[Node, int]] = []
        exploration, outcomes_kept = self.params.exploration, self.params.outcomes_per_action
        while True:
            if node.lines is None:
                self.expand(node, world)
            if node.terminal is not None:
                value = node.terminal
                break
            assert node.lines is not None
            index = node.select(exploration)
            outcomes = node.outcomes[index]
            forced: Draws = ()
            if len(outcomes) >= outcomes_kept:
                keys = list(outcomes)
                weights = [outcomes[key].arrivals for key in keys]
                forced = self.rng.choices(keys, weights=weights)[0]
            draws = world.play(node.lines[index], self.rng, forced)
            path.append((node, index))
            child = outcomes.get(draws)
            if child is None:
                outcomes[draws] = Node()
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
    width: int | None = None,
    nodes: int | None = None,
    stop: Callable[[], bool] | None = None,
    weigh_cards: bool = False,
    *,
    params: HintParams | None = None,
) -> list[Line]:
    """The lines a node chooses from: the quick hint's best ``width`` (by default
    :attr:`~spider.solver.params.ThinkParams.max_actions`; its lookahead over ``nodes`` positions,
    by default the quick hint's own budget, with ``params``, by default the variant's; ``stop`` may
    end it early; with ``weigh_cards`` its best lines ordered by the cards they could turn, as the
    quick hint orders them), each cut after its first move that turns a card or removes a run; when
    it offers none, the deal if one is possible now; else none."""
    if width is None:
        width = _DEFAULTS.max_actions
    report = hint_report(
        view, nodes, visited, params=params, endgame=False, weigh_cards=weigh_cards, stop=stop
    )
    lines: list[Line] = [truncate_line(view, option.line) for option in report.options[:width]]
    if not lines and view.can_deal:
        lines.append(DEAL_LINE)
    return lines


def root_stats(root: Node) -> LineStats:
    """The statistics of a tree's root."""
    return LineStats(root.lines or [], list(root.visits), list(root.totals))


class Growth:
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

    def run(self, search: TreeSearch) -> tuple[int, ThinkReason]:
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
                    self._report(search, done)
        except KeyboardInterrupt:
            return done, "interrupted"

    def _report(self, search: TreeSearch, done: int) -> None:
        root = search.root
        assert self.progress is not None and root.lines is not None
        best = best_line(root.visits, root.totals, search.params)
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


@dataclass(frozen=True, slots=True)
class TreeTask:
    """What a worker needs to grow a tree: only what the player sees, the budget and the
    parameters (``hint`` is the quick hint's, resolved for the variant)."""

    view: VisibleView
    visited: Visited
    lines: tuple[Line, ...]
    width: int
    seed: int
    budget: int | None
    seconds: float | None
    params: ThinkParams
    hint: HintParams


def grow_tree(
    task: TreeTask, seed: int, stop: Callable[[], bool] | None
) -> tuple[list[int], list[float], int]:
    """Grow one tree of an ensemble (in a worker process) with ``seed``: its root visits, value
    totals and iterations.  Only the player's view and the root lines cross to the worker."""
    world = World.from_view(task.view, task.visited)
    search = TreeSearch(task.view, world, seed, task.width, task.params, task.hint)
    search.root.set_lines(list(task.lines))
    started = time.monotonic()
    deadline = None if task.seconds is None else started + task.seconds
    done, _ = Growth(task.budget, deadline, stop, None, 1, started).run(search)
    return search.root.visits, search.root.totals, done
