""" "Think harder": a search over what the player knows, for the best next line of moves.

:func:`think` runs a one-player information-set search (UCT, after Bjarnason, Fern & Tadepalli,
ICAPS 2009) from the player's view of a game, never from its hidden cards:

* **Actions** are lines of moves that end at the next card turned or run removed (where
  something new is seen), as the quick hint (:func:`~spider.solver.hint.quick.hint_report`) offers
  them, its best :attr:`~spider.solver.params.ThinkParams.max_actions` (fewer on a small iteration
  budget: one line per :attr:`~spider.solver.params.ThinkParams.iterations_per_line` iterations, at
  least 2); when it offers none, the deal.  At the root the hint's lookahead looks at
  :attr:`~spider.solver.params.ThinkParams.lookahead_nodes` positions, far more than the quick hint
  does, and its best lines are weighed over the cards they could turn
  (:mod:`~spider.solver.hint.chance`) where :func:`root_weighs_cards` says: where the quick hint
  weighs them, and in 4-suit Classic Spider too.  Its best line is the answer unless the play-outs
  overrule it.  Inside the tree the lines keep the lookahead's order (weighing them is too slow
  there).
* **Outcomes**: each card turned or dealt is drawn from the unseen cards (the variant's deck minus
  every card seen) at the moment the search turns it (:class:`~spider.solver.worlds.World`). Each
  action keeps at most :attr:`~spider.solver.params.ThinkParams.outcomes_per_action` sampled
  outcomes; once it has that many, a visit replays one of them, chosen in proportion to how often it
  came.
* **Play-outs** from a new node follow the quick hint's policy (its best line, with a smaller
  lookahead, :attr:`~spider.solver.params.ThinkParams.rollout_nodes`) until it has nothing to offer
  (the next deal) and are scored by the hint's evaluation, squashed to 0..1 (1: won; 0: nothing left
  to do and no deal).
* **Endgame**: once the stock is empty and at most
  :attr:`~spider.solver.params.ThinkParams.endgame_hidden` cards are face down, a play-out
  instead shuffles the unseen cards over the face-down places and asks the full solver
  (:func:`~spider.solver.full.search.solve`, bounded by
  :attr:`~spider.solver.params.ThinkParams.endgame_nodes` positions): winnable 1, unwinnable 0,
  undecided the evaluation.  The lines weighed, and the play-outs, come from the quick hint's
  lookahead alone (``hint_report(..., endgame=False)``): its own
  endgame would offer one line chosen by the solver, leaving nothing to weigh, and ask the
  solver again at every node.
* **At the root**, when the quick hint's endgame applies (stock empty, at most
  :attr:`~spider.solver.params.EndgameParams.sampled_hidden` cards face down), no tree is
  grown: the answer
  is its line, the full solver's, weighed over arrangements of the face-down cards (reason
  ``endgame``).  A tree would weigh the same question with less: each play-out asks the solver
  about one arrangement, where the endgame scores every candidate on every arrangement.

* **Ensemble**: with ``jobs`` > 1, that many independent trees grow on as many processes
  (:mod:`.pool`), each with its own derived seed, and their root statistics are summed.

This module checks the request and grows the root; the tree itself is :mod:`.tree`, the report
and the choice of the answer :mod:`.report`, the sampled world :mod:`~spider.solver.worlds`.

The answer is the action visited most, where the quick hint's best line counts a lead of
visits (:func:`hint_lead`): a few noisy play-outs must not overrule its lookahead.  Given an
iteration budget and a seed, it depends only on the visible position, the positions the player
went through since the last card turned (from the game's history, as the quick hint reads
them), the budget, the seed and ``jobs``: the hidden cards are never read.  A time budget
makes it depend on the machine's speed as well.

Every number above is a field of a :class:`~spider.solver.params.ThinkParams` (``think(...,
params=...)``); the quick hint's own, used by the lines and play-outs, are its
:attr:`~spider.solver.params.ThinkParams.hint`.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable
from typing import Final

from spider.game import Game
from spider.limits import excerpt
from spider.solver.budget import should_stop
from spider.solver.hint.endgame import endgame_line
from spider.solver.hint.evaluation import four_suit_classic
from spider.solver.hint.lookahead import Visited
from spider.solver.hint.quick import visited_positions, weighs_next_card
from spider.solver.params import HintParams, ThinkParams
from spider.solver.think.report import (
    LineStats,
    ThinkOption,
    ThinkProgress,
    ThinkReason,
    ThinkReport,
    endgame_report,
    hint_lead,
    report,
)
from spider.solver.think.tree import (
    Growth,
    TreeSearch,
    TreeTask,
    grow_tree,
    lines_of,
    root_stats,
)
from spider.solver.view import VisibleView
from spider.solver.worlds import World

__all__ = [
    "MAX_ITERATIONS",
    "MAX_JOBS",
    "MAX_LOOKAHEAD_NODES",
    "ThinkOption",
    "ThinkParams",
    "ThinkProgress",
    "ThinkReason",
    "ThinkReport",
    "hint_lead",
    "lines_of",
    "root_weighs_cards",
    "think",
    "think_visible",
]

MAX_ITERATIONS: Final = 10_000_000
"""The largest iteration budget accepted."""

MAX_JOBS: Final = 64
"""The most trees (processes) one search may grow at once."""

PROCESSES: Final = sys.platform not in {"emscripten", "wasi"}
"""Whether more processes can be started here (not under Pyodide): ``jobs`` > 1 needs them."""

MAX_SECONDS: Final = 86_400.0
"""The largest time budget accepted, in seconds."""

MAX_LOOKAHEAD_NODES: Final = 10_000_000
"""The largest root lookahead accepted."""

# --------------------------------------------------------------------------- input checks


def _check_budget(
    iterations: object, time_limit: object, default: int
) -> tuple[int | None, float | None]:
    """The budget, checked (``default`` iterations when neither is given);
    ``ValueError``/``TypeError`` with a clear message when bad."""
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int):
            raise TypeError(f"iterations must be an integer or None, not {excerpt(iterations)}")
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {iterations:,}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise TypeError(
                f"time_limit must be a number of seconds or None, not {excerpt(time_limit)}"
            )
        if not (math.isfinite(time_limit) and 0 < time_limit <= MAX_SECONDS):
            raise ValueError(
                f"time_limit must be more than 0 and at most {MAX_SECONDS:,.0f} seconds, "
                f"not {excerpt(time_limit)}"
            )
    if iterations is None and time_limit is None:
        return default, None
    return iterations, None if time_limit is None else float(time_limit)


def _check_options(seed: object, progress_every: object, jobs: object, lookahead: object) -> None:
    """The seed, progress interval, ensemble size and root lookahead, checked;
    ``ValueError``/``TypeError`` with a clear message when bad."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, not {excerpt(seed)}")
    if seed < 0:  # random.Random(-n) draws as random.Random(n): two seeds, one search
        raise ValueError(f"seed must be 0 or more, not {seed:,}")
    if isinstance(progress_every, bool) or not isinstance(progress_every, int):
        raise TypeError(f"progress_every must be an integer, not {excerpt(progress_every)}")
    if progress_every < 1:
        raise ValueError(f"progress_every must be at least 1, not {excerpt(progress_every)}")
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs must be an integer, not {excerpt(jobs)}")
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be from 1 to {MAX_JOBS}, not {excerpt(jobs)}")
    if isinstance(lookahead, bool) or not isinstance(lookahead, int):
        raise TypeError(f"lookahead must be an integer, not {excerpt(lookahead)}")
    if not 1 <= lookahead <= MAX_LOOKAHEAD_NODES:
        raise ValueError(
            f"lookahead must be from 1 to {MAX_LOOKAHEAD_NODES:,} positions, not {lookahead:,}"
        )


def root_weighs_cards(view: VisibleView) -> bool:
    """True where the root's best lines are weighed over the cards they could turn: where the
    quick hint weighs them (:func:`~spider.solver.hint.quick.weighs_next_card`), and in 4-suit
    Spider under the classic rule, where the weighing costs the quick hint too much time but wins
    more games."""
    return (view.game == "spider" and four_suit_classic(view)) or weighs_next_card(view)


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
    lookahead: int | None = None,
    params: ThinkParams | None = None,
) -> ThinkReport:
    """Search the player's information for the best line of moves; see the module doc.

    ``params`` holds every tunable of the search (:class:`~spider.solver.params.ThinkParams`; by
    default its defaults, with the quick hint's parameters of the game's variant).  The budget is
    ``iterations`` (play-outs), ``time_limit`` (seconds), or both (whichever ends first); with
    neither, :attr:`~spider.solver.params.ThinkParams.iterations`.  ``seed`` (0 or more) seeds the
    sampling. ``progress`` is called every ``progress_every`` iterations; ``stop`` (an event or a
    callable) ends the search early, and so does Ctrl+C (``KeyboardInterrupt``), with the best line
    found so far.  Only what the player sees of ``game`` is read: its visible view and the positions
    since the last card turned in its history.

    ``jobs`` > 1 grows that many independent trees at once, each on the whole budget, the first
    in this process (it reports the progress) and the others on as many more processes, each
    with its own seed derived from ``seed`` (:func:`~.pool.tree_seed`; the first uses ``seed``);
    the answer sums their root statistics (visits and values per line), and ``iterations`` in the
    report counts the play-outs of every tree.  Given an iteration budget it still depends only on
    what the player sees, the budget, ``seed`` and ``jobs``.  Where processes cannot be started
    (Pyodide), ``jobs`` is 1 whatever is asked.

    ``lookahead`` is the root lookahead's budget in positions (by default
    :attr:`~spider.solver.params.ThinkParams.lookahead_nodes`); its best line is the answer unless
    the play-outs overrule it.  Under a time budget it may use at most
    :attr:`~spider.solver.params.ThinkParams.lookahead_share` of the time, and a stop request ends
    it too.

    ``ValueError`` (or ``TypeError``) for a bad budget, seed, jobs or lookahead, or a game
    already won.
    """
    return think_visible(
        VisibleView.from_game(game),
        visited_positions(game),
        iterations=iterations,
        time_limit=time_limit,
        seed=seed,
        progress=progress,
        progress_every=progress_every,
        stop=stop,
        jobs=jobs,
        lookahead=lookahead,
        params=params,
    )


def think_visible(
    view: VisibleView,
    visited: Visited,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    progress: Callable[[ThinkProgress], None] | None = None,
    progress_every: int = 10,
    stop: threading.Event | Callable[[], bool] | None = None,
    jobs: int = 1,
    lookahead: int | None = None,
    params: ThinkParams | None = None,
) -> ThinkReport:
    """:func:`think` on what the player sees, given apart from any game: the visible view and
    the positions the player went through since the last card turned (as
    :func:`~spider.solver.hint.quick.visited_positions` reads them from a game's history).

    :func:`think` is this function on ``VisibleView.from_game(game)`` and
    ``visited_positions(game)``: the same arguments give the same answer. It is how a caller
    that holds no game (``spider serve``'s ``/api/think``, sent only the visible cards) runs the
    same search. ``ValueError`` (or ``TypeError``) as :func:`think`, and for a view already won.
    """
    if params is None:
        params = _DEFAULTS
    budget, seconds = _check_budget(iterations, time_limit, params.iterations)
    if lookahead is None:
        lookahead = params.lookahead_nodes
    _check_options(seed, progress_every, jobs, lookahead)
    if view.is_won:
        raise ValueError("the game is won: there is nothing left to think about")
    started = time.monotonic()
    hint = params.hint_for(HintParams.for_view(view))
    ending = endgame_line(view, hint.endgame)
    if ending is not None:
        return endgame_report(ending, time.monotonic() - started)
    width = params.max_actions
    if budget is not None:
        width = max(2, min(params.max_actions, budget // params.iterations_per_line))
    search = TreeSearch(view, World.from_view(view, visited), seed, width, params, hint)
    cutoff = None if seconds is None else started + params.lookahead_share * seconds
    try:
        _set_root_lines(search, view, visited, lookahead, _lookahead_stop(stop, cutoff))
    except KeyboardInterrupt:
        stats = root_stats(search.root)
        return report(stats, 0, "interrupted", time.monotonic() - started, params)
    lines = search.root.lines or []
    if len(lines) <= 1:
        reason: ThinkReason = "only-action" if lines else "nothing-helps"
        return report(root_stats(search.root), 0, reason, time.monotonic() - started, params)
    deadline = None if seconds is None else started + seconds
    grow = Growth(budget, deadline, stop, progress, progress_every, started)
    if jobs == 1 or not PROCESSES:
        done, reason = grow.run(search)
        return report(root_stats(search.root), done, reason, time.monotonic() - started, params)
    task = TreeTask(view, visited, tuple(lines), width, seed, budget, seconds, params, hint)
    combined, done, reason = _grow_ensemble(task, jobs, search, grow, stop)
    return report(combined, done, reason, time.monotonic() - started, params)


def _set_root_lines(
    search: TreeSearch,
    view: VisibleView,
    visited: Visited,
    lookahead: int,
    stop: Callable[[], bool] | None,
) -> None:
    """Give the root its lines: the hint's lookahead on ``lookahead`` positions, weighed over the
    cards they could turn where :func:`root_weighs_cards` says."""
    lines = lines_of(
        view, visited, search.width, lookahead, stop, root_weighs_cards(view), params=search.hint
    )
    search.root.set_lines(lines)


_DEFAULTS: Final = ThinkParams()
"""The parameters of a caller that gives none."""


def _grow_ensemble(
    task: TreeTask,
    jobs: int,
    search: TreeSearch,
    grow: Growth,
    stop: threading.Event | Callable[[], bool] | None,
) -> tuple[LineStats, int, ThinkReason]:
    """Grow ``search`` here and ``jobs`` - 1 more trees of ``task`` on as many processes; their
    root statistics summed, the iterations of every tree and why the search ended."""
    # Imported only here: multiprocessing is not importable under Pyodide (no _multiprocessing),
    # where jobs is always 1.
    from spider.solver.think.pool import grow_ensemble

    stats, done, reason = grow_ensemble(task, jobs, lambda: grow.run(search), grow_tree, stop)
    combined = root_stats(search.root)
    for visits, totals in stats:
        combined = LineStats(
            combined.lines,
            [a + b for a, b in zip(combined.visits, visits, strict=True)],
            [a + b for a, b in zip(combined.totals, totals, strict=True)],
        )
    return combined, done, reason


def _lookahead_stop(
    stop: threading.Event | Callable[[], bool] | None, cutoff: float | None
) -> Callable[[], bool] | None:
    """What ends the root lookahead early: a stop request, or the clock (``time.monotonic``)
    reaching ``cutoff``, the end of its :attr:`~spider.solver.params.ThinkParams.lookahead_share` of
    a time budget."""
    if cutoff is None and stop is None:
        return None

    def should_end() -> bool:
        if cutoff is not None and time.monotonic() >= cutoff:
            return True
        return should_stop(stop)

    return should_end
