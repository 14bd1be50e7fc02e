"""A fair hint: the best move judged from what the player can see.

The hint works on a :class:`~spider.solver.view.VisibleView`, never on the game itself, so it cannot
read a face-down card or the stock order.  Its lookahead (:mod:`.lookahead`) searches the sequences
of card moves the player could make, a turned card being unknown until it is turned, and values each
position it reaches by the evaluation (:mod:`.evaluation`): runs completed, cards turned, empty
columns, one-suit and any-suit links, and disorder left on top of face-down cards, with the weights
of a :class:`~spider.solver.params.HintParams` (by default the variant's,
:func:`~spider.solver.params.hint_params`).  A move is offered when the best line starting with it
ends better than the current position; the offers are ranked, so asking again gives the next-best
one.  In 2-suit Spider the best lines are then weighed over the card each turns (:mod:`.chance`).  A
deal is never suggested: when no move helps, the hint says so and, as a fact, how many deals are
left or that none is possible; a move into an empty column is described as a fill.

Once the stock is empty and at most eight cards are face down, the full solver takes over
(:mod:`.endgame`): with every card in sight it decides the position and the hint offers its
winning line (reason ``wins``); with a few face down it weighs several arrangements of them
(every one when at most three cards are face down).

When the lookahead sees no gain, a deeper exhaustive search over card moves (the one behind
"no more moves") looks for any line that turns a card or completes a run, and suggests its
first move: a shortest line (breadth first) or, when none is within its budget, a longer one
(depth first).

A player who does what the hint says must get somewhere, so two rules keep it from going round
in circles (for example filling an empty column to deal, then being told to empty it again).
While a deal is still to come, positions are compared as they will be once their empty columns
are filled again for it (:meth:`.lookahead.Lookahead.refill_loss`; in 4-suit classic games only
once every card is face up).  And the hint never leads back to a position the game has been in
since its last deal, card turned or run removed (:func:`visited_positions`, read from the
game's history, which the player saw).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from spider.cards import SUIT_NAMES, SUITS
from spider.game import Game
from spider.moves import DEAL, Action, Move
from spider.options import Options
from spider.rules import deal_blocked_forever, link_counts
from spider.solver.hint.chance import expected_values
from spider.solver.hint.endgame import EndgameLine, endgame_line
from spider.solver.hint.evaluation import Evaluation, two_suit_spider
from spider.solver.hint.lookahead import (
    NOTHING_VISITED,
    Gain,
    Lookahead,
    Visited,
    best_fill,
    helpful_lines,
    leads_back,
    line_end,
    lookahead_gain,
)
from spider.solver.hint.nomoves import find_useful_line
from spider.solver.params import EndgameParams, HintParams, hint_params
from spider.solver.view import VisibleView, apply_visible, seen_positions, truncate_line
from spider.solver.worlds import World

__all__ = [
    "REASONS",
    "EndgameParams",
    "Evaluation",
    "Hint",
    "HintOption",
    "HintParams",
    "HintReport",
    "Visited",
    "fill_move",
    "hint",
    "hint_action",
    "hint_params",
    "hint_report",
    "link_counts",
    "lookahead_gain",
    "visited_positions",
    "weighs_next_card",
]


@dataclass(frozen=True, slots=True)
class HintOption:
    """One helpful move: why it helps and the line the lookahead found for it.

    ``gain`` is how much better (heuristically) the end of ``line`` is than the current position;
    while a deal is still to come, both are judged with their empty columns filled again.
    """

    move: Move
    reason: str
    text: str
    gain: float
    line: tuple[Move, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict for the protocol."""
        return {
            "move": {"src": self.move.src, "dst": self.move.dst, "count": self.move.count},
            "notation": self.move.text(),
            "reason": self.reason,
            "text": self.text,
            "gain": round(self.gain, 1),
            "line": [move.text() for move in self.line],
        }


@dataclass(frozen=True, slots=True)
class HintReport:
    """Every helpful move, best first, and what to say when there is none.

    ``reason``/``text`` describe the situation when ``options`` is empty:
    ``'nothing-helps-deals-left'`` (no helpful move found; the text says how many deals are
    left), ``'nothing-helps'`` (no helpful move found, and no deal possible), ``'no-moves'``
    (proven: nothing is left) or ``'won'``.  ``positions`` counts the positions the lookahead
    searched.
    """

    options: tuple[HintOption, ...]
    reason: str
    text: str
    deal_possible: bool
    no_more_moves: bool
    positions: int = 0

    def pick(self, index: int = 0) -> Hint:
        """The ``index``-th best hint (0 = best), cycling through the options."""
        if not self.options:
            return Hint(
                None, self.reason, self.text, 0, 0, self.deal_possible, self.no_more_moves, ()
            )
        rank = index % len(self.options)
        option = self.options[rank]
        return Hint(
            option.move,
            option.reason,
            option.text,
            rank,
            len(self.options),
            self.deal_possible,
            self.no_more_moves,
            self.options,
        )


@dataclass(frozen=True, slots=True)
class Hint:
    """The hint to show: a move (or None), a reason code and its English text.

    ``rank`` is the 0-based place of this move among the ``count`` helpful moves;
    ``alternatives`` lists all of them, best first.
    """

    move: Move | None
    reason: str
    text: str
    rank: int
    count: int
    deal_possible: bool
    no_more_moves: bool
    alternatives: tuple[HintOption, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``hint`` object."""
        move = self.move
        return {
            "move": None
            if move is None
            else {"src": move.src, "dst": move.dst, "count": move.count},
            "notation": None if move is None else move.text(),
            "reason": self.reason,
            "text": self.text,
            "rank": self.rank,
            "count": self.count,
            "deal_possible": self.deal_possible,
            "no_moves": self.no_more_moves,
            "alternatives": [option.to_json() for option in self.alternatives],
        }


# --------------------------------------------------------------------------- reasons

REASONS: Final = frozenset(
    {
        # why a move is offered
        "completes-run",
        "turns-card",
        "empties-column",
        "builds-suit",
        "prepares-run",
        "prepares-turn",
        "prepares-empty",
        "prepares",
        "builds-run",
        "uses-empty",
        "fills-column",
        "wins",
        # what is said when no move is offered
        "nothing-helps-deals-left",
        "nothing-helps",
        "no-moves",
        "won",
    }
)
"""Every reason code a hint can give (the protocol's ``hint.reason``; the web app has a text for
each in every language).  None of them, nor their texts, suggests dealing."""


def _suit_name(card: int) -> str:
    return SUIT_NAMES[SUITS[card >> 4]].capitalize()


def _describe(view: VisibleView, option_line: tuple[Move, ...]) -> tuple[str, str]:
    """Reason code and text for the first move of a line."""
    columns, down = view.columns, view.down
    move = option_line[0]
    moved = columns[move.src][-move.count]
    target = columns[move.dst]
    applied = apply_visible(columns, down, move)
    if applied.run_suit >= 0:
        return "completes-run", f"completes a {_suit_name(applied.run_suit << 4 | 1)} run"
    if applied.flipped:
        return "turns-card", "turns a card"
    if not applied.columns[move.src] and not applied.down[move.src]:
        return "empties-column", "empties a column"
    if target and target[-1] == moved + 1:
        return "builds-suit", f"builds a {_suit_name(moved)} run"
    # What does the rest of the line achieve?
    state_columns, state_down = applied.columns, applied.down
    for later in option_line[1:]:
        step = apply_visible(state_columns, state_down, later)
        if step.run_suit >= 0:
            return "prepares-run", "prepares to complete a run"
        if step.flipped:
            return "prepares-turn", "prepares to turn a card"
        if not step.columns[later.src] and not step.down[later.src]:
            return "prepares-empty", "prepares to empty a column"
        state_columns, state_down = step.columns, step.down
    if len(option_line) > 1:
        return "prepares", "prepares a better layout"
    if target:
        return "builds-run", "builds a descending run"
    return "uses-empty", "moves cards into an empty column"


# --------------------------------------------------------------------------- public API


def _as_view(source: Game | VisibleView) -> VisibleView:
    return source if isinstance(source, VisibleView) else VisibleView.from_game(source)


def visited_positions(game: Game) -> Visited:
    """The visible positions ``game`` went through since its last deal, card turned or run
    removed, read back from its history (as far as its undo limit keeps it).

    Earlier positions cannot come back: the stock, the face-down cards and the runs removed
    only ever shrink.  Only what the player saw is used, so the hint stays fair.
    """
    return seen_positions(game)


def _ends_deals(view: VisibleView, line: tuple[Move, ...]) -> bool:
    """True when ``line`` removes a run that leaves too few cards on the table for any deal
    while the stock still holds cards (see :meth:`Lookahead._blocks_deals`)."""
    if not view.deal_ever_possible:
        return False
    columns, down = line_end(view, line)
    table_cards = sum(map(len, columns)) + sum(down)
    return deal_blocked_forever(view.stock_cards, table_cards, view.column_count)


def _visited_of(source: Game | VisibleView, visited: Visited | None) -> Visited:
    if visited is not None:
        return visited
    return visited_positions(source) if isinstance(source, Game) else NOTHING_VISITED


def hint_report(
    source: Game | VisibleView,
    node_budget: int | None = None,
    visited: Visited | None = None,
    *,
    params: HintParams | None = None,
    endgame: bool = True,
    weigh_cards: bool | None = None,
    stop: Callable[[], bool] | None = None,
) -> HintReport:
    """Rank every helpful move of the visible position, best first.

    ``params`` holds every tunable of the hint (weights, budgets); by default the variant's
    (:func:`~spider.solver.params.hint_params`).  ``node_budget`` bounds the lookahead; by default
    :attr:`~spider.solver.params.HintParams.nodes` of ``params``.  A move that leads back to a
    position in ``visited`` is never offered; by default that is :func:`visited_positions` of a game
    (none for a bare view).  With ``endgame=False`` the full solver is never asked (see
    :mod:`.endgame`): the options are the lookahead's, as a search that weighs lines itself ("Think
    harder") wants them. Where the quick hint weighs turned cards (:func:`weighs_next_card`: 2-suit
    Spider under the classic rule) the lookahead's best
    :attr:`~spider.solver.params.HintParams.chance_lines` lines are then weighed over every card the
    one each turns could be (:mod:`.chance`) and offered best first by that expectation (their
    ``gain`` stays the lookahead's).  ``weigh_cards=True`` weighs them in any variant (for a slower
    search that can afford it), ``False`` keeps the lookahead's order (for a search's play-outs that
    cannot); the default, None, weighs where the quick hint does. ``stop``, asked now and then
    during the lookahead, ends it early when it returns True: the report then rests on the positions
    seen so far (a caller with a clock uses it; without one the report depends on nothing but the
    position).

    Deterministic: the same visible position (and visited positions) always gives the same
    report, whatever the hidden cards are (they are not even available here).
    """
    view = _as_view(source)
    visited = _visited_of(source, visited)
    if params is None:
        params = HintParams.for_view(view)
    if view.is_won:
        return HintReport((), "won", "The game is won.", False, False)
    ending = endgame_line(view, params.endgame) if endgame else None
    if ending is not None:
        return _endgame_report(view, ending)
    if node_budget is None:
        node_budget = params.nodes
    search, helpful = helpful_lines(view, node_budget, visited, stop, params)
    weighs = weighs_next_card(view) if weigh_cards is None else weigh_cards
    if weighs and len(helpful) > 1:
        helpful = _weigh_next_card(view, helpful, visited, search, stop, params)
    options = [HintOption(line[0], *_describe(view, line), gain, line) for gain, _, line in helpful]
    return _report_of(view, options, search.nodes, visited, params)


def _report_of(
    view: VisibleView,
    options: list[HintOption],
    nodes: int,
    visited: Visited,
    params: HintParams,
) -> HintReport:
    """The report on the ranked ``options`` (``nodes``: the positions the lookahead looked at)."""
    deal_possible = view.deal_ever_possible
    if (
        options
        and not deal_possible
        and not _reaches_progress(options)
        and _proven_stuck(view, params.stuck_proof_nodes)
    ):
        # A move may still look better by the heuristic (one more suited link), but nothing it
        # leads to turns a card or completes a run: the hint says what "no more moves" says.
        return _no_moves_report(nodes)
    if options:
        return HintReport(
            tuple(options), options[0].reason, options[0].text, deal_possible, False, nodes
        )
    return _no_helpful_move(view, nodes, visited, params)


def weighs_next_card(view: VisibleView) -> bool:
    """True where the quick hint weighs its best lines over the card each turns: 2-suit
    Spider under the classic rule, where it wins more games.  At 1 suit and under the Flexible
    rule it wins no more; at 4-suit Classic it costs about four times the quick hint's time, so
    there only "Think harder" weighs (at its root)."""
    return two_suit_spider(view) and not view.flexible


def _weigh_next_card(
    view: VisibleView,
    helpful: list[Gain],
    visited: Visited,
    search: Lookahead,
    stop: Callable[[], bool] | None,
    params: HintParams,
) -> list[Gain]:
    """``helpful`` with its best :attr:`~spider.solver.params.HintParams.chance_lines` reordered by
    their expected value over the card each line turns (:func:`~.chance.expected_values`); unchanged
    when ``stop`` ends the weighing first.  Positions are valued as ``search`` (the lookahead from
    ``view``) values them."""
    chance_lines, follow_nodes = params.chance_lines, params.chance_follow_nodes
    top = helpful[:chance_lines]
    evaluation, total0, down0 = search.evaluation, search.total0, search.down0

    def value(reached: VisibleView) -> float:
        return evaluation.value(reached.columns, reached.down, total0, down0)

    def follow(world: World) -> float:
        return lookahead_gain(world.view(), follow_nodes, world.visited, params)

    lines = [truncate_line(view, line) for _, _, line in top]
    values = expected_values(view, lines, World.from_view(view, visited), value, follow, stop)
    if values is None:
        return helpful
    order = sorted(range(len(top)), key=lambda index: -values[index])
    return [top[index] for index in order] + helpful[chance_lines:]


def _endgame_report(view: VisibleView, ending: EndgameLine) -> HintReport:
    """The report of a line the full solver chose (see :mod:`.endgame`)."""
    line = ending.line
    if ending.certain:
        reason, text = "wins", f"leads to a win in {len(line)} moves (every card is in sight)"
    else:
        reason, text = _describe(view, line)
        text += f" ({ending.odds})"
    option = HintOption(line[0], reason, text, 0.0, line)
    return HintReport((option,), reason, text, False, False)


def _no_helpful_move(
    view: VisibleView, positions: int, visited: Visited, params: HintParams
) -> HintReport:
    """What to say (and maybe suggest) when the lookahead finds no gain."""
    limit = params.deep_search_nodes if view.deal_ever_possible else params.no_deal_search_nodes
    deep = find_useful_line(view, limit)
    positions += deep.positions
    if deep.status == "unknown":
        # A shortest line is past the budget; depth first may still reach a long one.
        deep = find_useful_line(view, limit, order="depth")
        positions += deep.positions
    if (
        deep.status == "useful"
        and not leads_back(view.columns, view.down, deep.line[0], visited)
        and not _ends_deals(view, deep.line)
    ):
        line = deep.line
        reason, text = _describe(view, line)
        if len(line) > 1:
            reason = "prepares-turn"
            text = f"prepares to turn a card ({len(line)} moves)"
        option = HintOption(line[0], reason, text, 0.0, line)
        return HintReport((option,), reason, text, view.deal_ever_possible, False, positions)
    if view.deal_ever_possible:
        fill = None if view.can_deal else fill_move(view, visited, params=params)
        if fill is not None:
            option = HintOption(fill, "fills-column", "fills an empty column", 0.0, (fill,))
            return HintReport((option,), option.reason, option.text, True, False, positions)
        reason, text = _nothing_helps_deals_left(view)
        return HintReport((), reason, text, True, False, positions)
    if deep.status == "no-moves":
        return _no_moves_report(positions)
    return HintReport(
        (),
        "nothing-helps",
        "No move seems to help, and no deal is possible.",
        False,
        False,
        positions,
    )


_PROGRESS_REASONS: Final = frozenset(
    {"completes-run", "turns-card", "prepares-run", "prepares-turn"}
)
"""Reasons of lines that turn a card or complete a run: a position with one is not stuck."""


def _reaches_progress(options: list[HintOption]) -> bool:
    """True when some option's line turns a card or completes a run (no proof needed)."""
    return any(option.reason in _PROGRESS_REASONS for option in options)


def _proven_stuck(view: VisibleView, nodes: int) -> bool:
    """True when the exhaustive search (over ``nodes`` positions) proves that no line of card
    moves turns a card or completes a run (with no deal ever possible, that is "no more
    moves")."""
    return find_useful_line(view, nodes).no_more_moves


def _no_moves_report(positions: int) -> HintReport:
    """The report of a position proven to have no more moves."""
    text = "No more moves: undo, restart or start a new game."
    return HintReport((), "no-moves", text, False, True, positions)


def _nothing_helps_deals_left(view: VisibleView) -> tuple[str, str]:
    """Reason code and text when no move helps but deals are left: a fact, never advice to deal
    (that choice stays the player's)."""
    deals = Options(view.game).deals_left(view.stock_cards)
    left = "1 deal is left" if deals == 1 else f"{deals} deals are left"
    return "nothing-helps-deals-left", f"No move seems to help. {left}."


def fill_move(
    source: Game | VisibleView,
    visited: Visited | None = None,
    *,
    params: HintParams | None = None,
) -> Move | None:
    """The best move into an empty column (to make a deal possible), or None.

    Every move into an empty column is judged by the evaluation (with the weights of
    ``params``, by default the variant's); a whole column without
    face-down cards is never moved, since that leaves a column empty.  A move that leads back to
    a position in ``visited`` (see :func:`hint_report`) is chosen only when every one does.
    """
    view = _as_view(source)
    columns, down = view.columns, view.down
    best = best_fill(
        columns,
        down,
        view.flexible,
        sum(map(len, columns)) + sum(down),
        sum(down),
        Evaluation(view, params),
        _visited_of(source, visited),
    )
    return None if best is None else best[1]


def hint(
    source: Game | VisibleView,
    index: int = 0,
    node_budget: int | None = None,
    visited: Visited | None = None,
    *,
    params: HintParams | None = None,
) -> Hint:
    """The ``index``-th best hint for a game or view (0 = best; indices cycle); see
    :func:`hint_report`."""
    return hint_report(source, node_budget, visited, params=params).pick(index)


def hint_action(
    game: object, report: HintReport | None = None, *, params: HintParams | None = None
) -> Action | None:
    """What a player who does as the hint says plays next: its best move (a fill when the deal
    needs one), else the deal when the rules allow one now, else None (the game is won, or
    nothing is left to suggest).  ``report`` is the game's :func:`hint_report` (with
    ``params``, by default the variant's), asked here when not given.  ``game`` is a
    :class:`~spider.game.Game` (``TypeError`` otherwise: a view cannot say whether a deal is
    allowed).  :meth:`spider.env.SpiderEnv.hint_action` plays this; a player who follows the
    hint to the end plays (with a bound on the actions)::

        for _ in range(1500):
            action = hint_action(game)
            if action is None:
                break
            game.push(action)
    """
    if not isinstance(game, Game):
        kind = type(game).__name__
        raise TypeError(f"hint_action needs a Game (it asks whether a deal is allowed), not {kind}")
    if report is None:
        report = hint_report(game, params=params)
    if report.options:
        return report.options[0].move
    return DEAL if game.can_deal else None
