"""A fair hint: the best move judged from what the player can see.

The hint works on a :class:`~spider.solver.view.VisibleView`, never on the game itself, so it
cannot read a face-down card or the stock order.  It looks ahead over sequences of card moves
(a best-first search with a deterministic node budget, a transposition set and pruned sideways
moves); a move that turns a card ends in an unknown card (:data:`~spider.solver.view.UNKNOWN`)
that nothing can be put on, exactly as the player knows it.  Each reachable position is scored
by a heuristic over visible facts: runs completed, cards turned, empty columns, one-suit and
any-suit links, and disorder left on top of face-down cards, with weights of the variant (in
2-suit Spider learned from games, ``benchmarks/learn_evaluation.py``).  In 4-suit classic games
a turned card is not worth a flat bonus but what it can be expected to do, over the cards the
player has not seen (:class:`_Reveal`).  A move is offered when the best line starting with it
ends better than the current position; the offers are ranked, so asking again gives the
next-best one.  A deal is never suggested: when no move helps, the hint says so and, as a fact,
how many deals are left or that none is possible; a move into an empty column is described as a
fill.

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
are filled again for it (:meth:`_Search.refill_loss`; in 4-suit classic games only once every card
is face up).  And the hint never leads back to a position the game has been in since its last
deal, card turned or run removed (:func:`visited_positions`, read from the game's history, which
the player saw).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from ..cards import SUIT_NAMES, SUITS
from ..game import Game
from ..moves import Move
from ..options import Options
from ..rules import EMPTY, RUN_LENGTH, deal_blocked_forever, destination_index, link_counts
from .chance import expected_values
from .endgame import EndgameLine, endgame_line
from .nomoves import find_useful_line
from .think_world import World
from .view import (
    UNKNOWN,
    VisibleView,
    apply_visible,
    group_length,
    seen_positions,
    truncate_line,
    visible_moves,
)

__all__ = [
    "CHANCE_FOLLOW_NODES",
    "CHANCE_LINES",
    "DEFAULT_HINT_NODES",
    "FOUR_SUIT_CLASSIC_HINT_NODES",
    "FOUR_SUIT_FLEXIBLE_HINT_NODES",
    "ONE_SUIT_HINT_NODES",
    "ONE_SUIT_SPIDER_HINT_NODES",
    "REASONS",
    "Evaluation",
    "Hint",
    "HintOption",
    "HintReport",
    "Visited",
    "default_node_budget",
    "fill_move",
    "hint",
    "hint_report",
    "link_counts",
    "lookahead_gain",
    "visited_positions",
    "weighs_next_card",
]

DEFAULT_HINT_NODES: Final = 1000
"""Positions the lookahead generates or expands before it stops (deterministic, not timed)."""

ONE_SUIT_HINT_NODES: Final = 300
"""The default budget in 1-suit Spiderette: its games branch far more, and 4,000 positions won
no more of them (139 of tuning deals 10,000-10,199 against 141)."""

ONE_SUIT_SPIDER_HINT_NODES: Final = 4000
"""The default budget in 1-suit Spider (ten columns): on tuning deals 10,000-10,399 it won 372
games against 364 at :data:`ONE_SUIT_HINT_NODES` (23 deals won only with it, 15 only without;
each half of the deals on its side) and removed 7.64 runs a game against 7.48, with a
95th-percentile hint of 59 ms (``docs/strength.md``)."""

FOUR_SUIT_CLASSIC_HINT_NODES: Final = 4000
"""The default budget in 4-suit games under the classic rule (Spider and Spiderette).  There a
line that turns a card often needs several moves to take off-suit builds apart, and most
positions have few moves, so a deeper look costs little: on tuning deals 10,000-10,199 of
4-suit Classic Spider it won 12 games against 9 at :data:`DEFAULT_HINT_NODES`, with 0.64 runs
removed a game against 0.49, and its 95th-percentile hint stayed under 100 ms
(``docs/strength.md``)."""

FOUR_SUIT_FLEXIBLE_HINT_NODES: Final = 3000
"""The default budget in 4-suit games under the flexible rule: on tuning deals 10,000-10,199 it
won 98 games against 90 at :data:`DEFAULT_HINT_NODES` (4.06 runs a game against 3.73), with a
95th-percentile hint of 66 ms (``docs/strength.md``)."""


def default_node_budget(view: VisibleView) -> int:
    """The lookahead's budget for ``view``'s variant when none is given: 4,000 positions in
    1-suit Spider and 300 in 1-suit Spiderette, 4,000 in 4-suit games under the classic rule,
    3,000 under the flexible rule, 1,000 otherwise (2 suits)."""
    if view.suits == 1:
        return ONE_SUIT_SPIDER_HINT_NODES if view.game == "spider" else ONE_SUIT_HINT_NODES
    if _four_suit_classic(view):
        return FOUR_SUIT_CLASSIC_HINT_NODES
    if view.suits == 4:
        return FOUR_SUIT_FLEXIBLE_HINT_NODES
    return DEFAULT_HINT_NODES


_STOP_CHECK_EVERY: Final = 200
"""How many expansions the lookahead makes between two questions to its ``stop`` callable."""

_DEEP_SEARCH_NODES: Final = 1000
"""Positions the fallback search for a card-turning line may visit while a deal is possible."""

_ENDGAME_SEARCH_NODES: Final = 5000
"""The same when no deal is possible (an exhaustive search proves "no more moves")."""

CHANCE_LINES: Final = 3
"""In 2-suit Spider, how many of the lookahead's best lines are weighed over the card each
turns (:mod:`.chance`); the best of them by that expectation is offered first."""

CHANCE_FOLLOW_NODES: Final = 150
"""The lookahead budget (positions) from each card a weighed line could turn."""

_STUCK_PROOF_NODES: Final = 150
"""Budget of the proof that a position offering only heuristic gains has no more moves: small,
so that the quick hint stays quick (a stuck position has few reachable layouts); beyond it the
options are offered, and the page's own "no more moves" check, with its larger budget, still
wins over them."""

# Heuristic weights (visible facts only).
_RUN: Final = 1000
_TURN: Final = 150
_EMPTY: Final = 120
_EMPTY_FOUR_SUITS: Final = 400  # classic 4-suit: an empty column is what untangles off-suit builds
_SUITED: Final = 20
_LINKED: Final = 3
_BREAK: Final = 5
_COVER: Final = 2
# The same four column weights in 4-suit classic games, tuned apart (see docs/strength.md).
_SUITED_FOUR_SUITS: Final = 20
_LINKED_FOUR_SUITS: Final = 3
_BREAK_FOUR_SUITS: Final = 5
_COVER_FOUR_SUITS: Final = 2
# 2-suit Spider: weights learned from games (a logistic regression of the outcome on these
# facts, over the positions of 400 games the hint played on deals 20,000-20,399; see
# docs/strength.md, "A learned evaluation at 2 suits"), scaled so that a turned card is _TURN.
_RUN_TWO_SUITS: Final = 352
_EMPTY_TWO_SUITS: Final = 304
_SUITED_TWO_SUITS: Final = 1.9
_LINKED_TWO_SUITS: Final = -84.8  # an off-suit link is worth little more than a break
_BREAK_TWO_SUITS: Final = 121.5
_COVER_TWO_SUITS: Final = 5.9
_COVERED_BREAK_TWO_SUITS: Final = -95.2  # a break over face-down cards costs less, not more
_STEP: Final = 1.0  # cost of each move of a line, so shorter lines win ties
_HELPS: Final = 0.5  # a line must gain more than this to be offered

# What a turned card is worth in 4-suit classic games (see _Reveal): chances over unseen cards.
_REVEAL_FREE: Final = 2.5  # times what moving the new card away frees (a turn or an empty column)
_REVEAL_SUITED: Final = 40  # per chance of a one-suit link: it goes onto a top or takes a group
_REVEAL_LOOSE: Final = 30  # per chance that it can take a loose group of any suit

Columns = tuple[tuple[int, ...], ...]

Visited = frozenset[tuple[Columns, tuple[int, ...]]]
"""Visible positions a game has been in, as ``(columns, down)`` of its :class:`VisibleView`."""

_NOTHING_VISITED: Visited = frozenset()


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


# --------------------------------------------------------------------------- evaluation

ColumnWeights = tuple[float, float, float, float, float]
"""(one-suit link, any-suit link, break, cover, covered break): what a column's face-up cards
are worth; the last two count only in columns over face-down cards (per face-up card, and per
break on top of the first break weight)."""


class _ColumnScores(dict[tuple[tuple[int, ...], int], float]):
    """Scores of single columns under one set of :data:`ColumnWeights`, by ``(column, face-down
    count)``: a column recurs in many positions of a search, and across searches.

    A missing key is worked out on first use (``scores[column, down]``), so the lookahead's inner
    loop reads a score with one subscript and no call of its own."""

    _LIMIT: Final = 200_000

    def __init__(self, weights: ColumnWeights) -> None:
        super().__init__()
        self.suited, self.linked, self.breaks, self.cover, self.covered_breaks = weights

    def __missing__(self, key: tuple[tuple[int, ...], int]) -> float:
        column, down = key
        score = self._compute(column, down) if column else 0.0
        if len(self) > self._LIMIT:
            self.clear()
        self[key] = score
        return score

    def score(self, column: tuple[int, ...], down: int) -> float:
        """One-suit and any-suit links, less breaks (with a weight of their own over face-down
        cards) and the cards piled on face-down ones.  An empty column scores 0: its worth
        depends on the variant."""
        return self[column, down]

    def _compute(self, column: tuple[int, ...], down: int) -> float:
        suited, linked, breaks = link_counts(column)
        score = self.suited * suited + self.linked * linked - self.breaks * breaks
        if down:
            score -= self.cover * len(column) + self.covered_breaks * breaks
        return score


_column_scores_by_weights: dict[ColumnWeights, _ColumnScores] = {}


def _column_scores(view: VisibleView) -> _ColumnScores:
    """The column scores of ``view``'s variant (the weights are read when asked, so a tuning
    run can change them)."""
    weights: ColumnWeights
    if _four_suit_classic(view):
        weights = (
            _SUITED_FOUR_SUITS,
            _LINKED_FOUR_SUITS,
            _BREAK_FOUR_SUITS,
            _COVER_FOUR_SUITS,
            _BREAK_FOUR_SUITS,
        )
    elif _two_suit_spider(view):
        weights = (
            _SUITED_TWO_SUITS,
            _LINKED_TWO_SUITS,
            _BREAK_TWO_SUITS,
            _COVER_TWO_SUITS,
            _COVERED_BREAK_TWO_SUITS,
        )
    else:
        weights = (_SUITED, _LINKED, _BREAK, _COVER, _BREAK)
    scores = _column_scores_by_weights.get(weights)
    if scores is None:
        scores = _column_scores_by_weights[weights] = _ColumnScores(weights)
    return scores


def _four_suit_classic(view: VisibleView) -> bool:
    """True in 4-suit games under the classic rule, where the hint weighs things differently:
    an empty column is worth more, a turned card is valued by expectation (:class:`_Reveal`)
    and, while cards are face down, empty columns are not judged refilled before a deal
    (:func:`_judges_refilled`)."""
    return view.suits == 4 and not view.flexible


def _judges_refilled(view: VisibleView) -> bool:
    """True where the lookahead judges a position with its empty columns filled again while a
    deal is to come (:meth:`_Search.refill_loss`): everywhere but in 4-suit classic games that
    still have face-down cards.  There an empty column kept is what takes off-suit builds apart
    to turn them; once every card is face up it has nothing left to turn, and a hint that valued
    it for itself would empty a column, offer to fill it for the deal, then empty another, for
    ever (4-suit Spiderette deal 266 did so for 1,500 actions)."""
    return not _four_suit_classic(view) or not any(view.down)


def _two_suit_spider(view: VisibleView) -> bool:
    """True in 2-suit Spider (ten columns, two decks), whose evaluation was learned from games
    (``_*_TWO_SUITS``).  Not in 2-suit Spiderette: there the same weights lost games (54 wins
    of tuning deals 10,000-10,199 against 72, ``docs/strength.md``)."""
    return view.suits == 2 and view.game == "spider"


def _empty_value(view: VisibleView) -> float:
    """What an empty column is worth: more under the classic rule with 4 suits, and in 2-suit
    Spider."""
    if _four_suit_classic(view):
        return _EMPTY_FOUR_SUITS
    return _EMPTY_TWO_SUITS if _two_suit_spider(view) else _EMPTY


def _run_value(view: VisibleView) -> float:
    """What a run removed is worth: less in 2-suit Spider, where the learned weights also count
    what the run takes off the table (links, cards over face-down ones)."""
    return _RUN_TWO_SUITS if _two_suit_spider(view) else _RUN


class _Reveal:
    """What the unknown cards of a lookahead position are expected to be worth.

    The unseen cards (:meth:`VisibleView.unseen_cards`: the deck minus the face-up cards and the
    runs removed) are equally likely to be any card just turned, so for each unknown top card
    the chances are taken over them, against the known top cards of the other columns:

    * it can move onto a top card one rank higher (any suit): that frees its column, which
      turns the next card, or empties the column when no face-down card is left, worth
      ``_REVEAL_FREE`` times the value of a turn or of an empty column;
    * it links in one suit: it is one rank below a top card of its suit, or one rank above the
      bottom card of a movable group of its suit (``_REVEAL_SUITED``);
    * it can take a *loose* group (one on a face-down card, at the bottom of its column or on
      a card that is not one rank higher) of any suit (``_REVEAL_LOOSE``).

    Only visible facts take part.  This replaces the flat value of a turned card, so lines are
    judged by what the cards they turn will probably allow, and the last card of a column is
    worth more than others (the column may empty).
    """

    def __init__(self, view: VisibleView) -> None:
        counts = view.unseen_cards()
        total = sum(counts.values()) or 1
        self.card = [0.0] * 64  # chance by engine int (suit << 4 | rank; ranks 0 and 14-15 stay 0)
        self.rank = [0.0] * 16  # chance by rank
        for card, count in sorted(counts.items()):
            self.card[card] += count / total
            self.rank[card & 15] += count / total
        self.turn = _REVEAL_FREE * _TURN
        self.empty = _REVEAL_FREE * _empty_value(view)

    def value(self, columns: Columns, down: tuple[int, ...]) -> float:
        """The expected worth of the unknown top cards of ``columns`` (0 when there are none)."""
        card, rank = self.card, self.rank
        top_cards: set[int] = set()
        top_ranks: set[int] = set()
        bases: set[int] = set()
        loose_ranks: set[int] = set()
        unknown: list[int] = []
        facts_of = _reveal_facts
        for index, column in enumerate(columns):
            if not column:
                continue
            facts = facts_of.get(column)
            if facts is None:
                facts = _column_reveal_facts(column)
            top, base, is_loose = facts
            if top == UNKNOWN:
                unknown.append(index)
                continue
            top_cards.add(top)
            top_ranks.add(top & 15)
            if base >= 0:
                bases.add(base)
                if is_loose:
                    loose_ranks.add(base & 15)
        if not unknown:
            return 0.0
        moves = sum(rank[top - 1] for top in sorted(top_ranks))
        suited = sum(card[top - 1] for top in sorted(top_cards))
        suited += sum(card[base + 1] for base in sorted(bases))
        loose = sum(rank[base + 1] for base in sorted(loose_ranks))
        common = _REVEAL_SUITED * suited + _REVEAL_LOOSE * loose
        total = 0.0
        for index in unknown:
            total += common + (self.turn if down[index] else self.empty) * moves
        return total


_RevealFacts = tuple[int, int, bool]
_reveal_facts: dict[tuple[int, ...], _RevealFacts] = {}
"""What :meth:`_Reveal.value` reads of each (non-empty) column, by column: a column recurs in
many positions of a search, and its facts cost more to find than to look up."""


def _column_reveal_facts(column: tuple[int, ...]) -> _RevealFacts:
    """A column's top card, the bottom card of its top one-suit group unless that is a King (-1
    then, or when the top is unknown) and whether that group is loose (cached)."""
    top = column[-1]
    base, loose = -1, False
    if top != UNKNOWN:
        length = group_length(column, False)
        if (column[-length] & 15) < 13:
            base, loose = column[-length], _is_loose(column, length)
    if len(_reveal_facts) > 100_000:
        _reveal_facts.clear()
    facts = _reveal_facts[column] = (top, base, loose)
    return facts


class Evaluation:
    """The hint's heuristic value of the visible positions of one game, with the weights of its
    variant: runs removed, cards turned, empty columns and each column's score.

    Values are relative to a root position: ``total0`` cards on the table (face up and down)
    and ``down0`` face down there.  Only visible facts take part, so a bot may use it on any
    :class:`~spider.solver.view.VisibleView`::

        view = VisibleView.from_game(game)
        value = Evaluation(view).value(view.columns, view.down, view.table_cards, sum(view.down))
    """

    def __init__(self, view: VisibleView) -> None:
        self.run = _run_value(view)
        self.empty = _empty_value(view)
        self.column_scores = _column_scores(view)

    def value(self, columns: Columns, down: tuple[int, ...], total0: int, down0: int) -> float:
        """Heuristic value of a visible position reached from the root by card moves."""
        down_now = sum(down)
        cards = sum(map(len, columns)) + down_now
        runs = (total0 - cards) // RUN_LENGTH
        score = float(self.run * runs + _TURN * (down0 - down_now) + self.empty * columns.count(()))
        column_score = self.column_scores.score
        for column, count in zip(columns, down, strict=True):
            score += column_score(column, count)
        return score


class _Search:
    """Best-first lookahead over card moves, with a transposition set.

    Nodes are ordered by value minus ``_STEP`` per move; the search stops when the positions it
    has generated plus those it has expanded reach ``budget``.
    For each first move it keeps the best node reached through it.  In 4-suit classic games a
    turned card counts no flat bonus: every position with unknown cards adds their expected
    worth (:class:`_Reveal`) instead.
    """

    def __init__(self, view: VisibleView, budget: int) -> None:
        self.flexible = view.flexible
        self.evaluation = evaluation = Evaluation(view)
        self.scores = evaluation.column_scores
        self.reveal = _Reveal(view) if _four_suit_classic(view) else None
        turn = 0 if self.reveal is not None else _TURN
        self.weights = (evaluation.empty, turn, evaluation.run)
        self.total0 = sum(map(len, view.columns)) + sum(view.down)
        self.down0 = sum(view.down)
        self.refills = view.deal_ever_possible and _judges_refilled(view)
        self.deals_to_come = view.deal_ever_possible
        self.stock_cards = view.stock_cards
        self.budget = budget
        self.nodes = 0
        self.seen: set[tuple[Columns, tuple[int, ...]]] = set()
        self.parents: list[tuple[int, Move]] = []  # node id -> (parent id, move); root: -1
        self.best: dict[int, tuple[float, int]] = {}  # first-move node -> (net value, node)
        self.heap: list[_Node] = []

    def refill_loss(self, columns: Columns, down: tuple[int, ...]) -> float:
        """What filling the empty columns of a position again would cost, while a deal is still
        to come (nothing otherwise).

        The deal needs every column filled, so positions are compared after those fills (each
        the best move into an empty column, as :func:`fill_move` picks it); fills never add
        value.  Without this, a line that only empties a column looks like a gain: a player who
        followed the hint would empty a column, be told to fill it to deal, then to empty
        another, and so on.  Not in 4-suit classic games while cards are face down: there an
        empty column is what takes off-suit builds apart, and keeping it until nothing else
        helps won more games (see ``docs/solver.md`` and :func:`_judges_refilled`).
        """
        if not self.refills or () not in columns:
            return 0.0
        total0, down0, evaluation = self.total0, self.down0, self.evaluation
        before = evaluation.value(columns, down, total0, down0)
        start = columns
        while () in columns:
            move = _refill_move(columns, down, self.flexible, evaluation, (total0, down0))
            if move is None:
                break
            applied = apply_visible(columns, down, move)
            columns, down = applied.columns, applied.down
        if columns is start:  # nothing could be filled: the value is the one just worked out
            return 0.0
        after = evaluation.value(columns, down, total0, down0)
        # A fill that gains (it turns a card, say) is a move of its own, not part of this
        # position.
        return max(0.0, before - after)

    def run(
        self,
        columns: Columns,
        down: tuple[int, ...],
        root: float,
        stop: Callable[[], bool] | None = None,
    ) -> dict[Move, _Best]:
        """The best line (and its net value) found for each useful first move; ``stop`` is
        asked every :data:`_STOP_CHECK_EVERY` expansions and ends the search early when true."""
        self.seen.add((columns, down))
        self._expand((0.0, -1, columns, down, root, 0, -1, False, None))
        expanded = 0
        while self.heap and self.nodes < self.budget:
            self.nodes += 1
            self._expand(heapq.heappop(self.heap))
            expanded += 1
            if stop is not None and expanded % _STOP_CHECK_EVERY == 0 and stop():
                break
        parents = self.parents
        return {
            parents[first][1]: (net, _line(parents, node))
            for first, (net, node) in self.best.items()
        }

    def _blocks_deals(self, columns: Columns, down: tuple[int, ...]) -> bool:
        """True when removing a run from this position (the one a move is made from) leaves
        fewer cards on the table than columns while the stock still holds cards: no deal could
        ever happen again, so the game could not be won.  Such a line is never offered; the
        player fills the columns and deals first, and completes the run after."""
        if not self.deals_to_come:
            return False
        table_after = sum(map(len, columns)) + sum(down) - RUN_LENGTH
        return deal_blocked_forever(self.stock_cards, table_after, len(columns))

    def _expand(self, node: _Node) -> None:
        """Push every unseen child of ``node`` and update the best line of its first move.

        The inner loop of the hint, written out to spare calls per child.  A child's value is
        its parent's plus what its move changed: only the move's two columns change, so their
        scores (:class:`_ColumnScores`) before and after, an empty column more or fewer, a card
        turned (worth nothing here where :class:`_Reveal` values it) and a run removed."""
        _, node_id, columns, down, value, depth, first, unknown, inherited = node
        depth += 1
        reveal = self.reveal
        infos = _node_infos(columns, self.flexible, inherited)
        back = None if inherited is None else inherited[2]
        seen, scores, best, parents, heap = (
            self.seen,
            self.scores,
            self.best,
            self.parents,
            self.heap,
        )
        empty, turn, run = self.weights
        step = _STEP * depth
        generated = 0
        for move in _useful_moves(columns, down, self.flexible, infos):
            if move == back:
                continue  # it leads back to the parent, which is seen
            new_columns, new_down, flipped, run_suit = apply_visible(columns, down, move)
            size = len(seen)
            seen.add((new_columns, new_down))
            if len(seen) == size:
                continue  # seen before (one hash instead of a lookup and an add)
            generated += 1
            if run_suit >= 0 and self._blocks_deals(columns, down):
                continue
            src, dst, _ = move
            child = value + (
                empty
                * (
                    (not new_columns[src])
                    + (not new_columns[dst])
                    - (not columns[src])
                    - (not columns[dst])
                )
                + scores[new_columns[src], new_down[src]]
                + scores[new_columns[dst], new_down[dst]]
                - scores[columns[src], down[src]]
                - scores[columns[dst], down[dst]]
                + turn * flipped
                + (run if run_suit >= 0 else 0)
            )
            child_id = len(parents)
            parents.append((node_id, move))
            root_move = child_id if first < 0 else first
            net = child - step
            turned = unknown or flipped > 0
            if turned and reveal is not None:
                net += reveal.value(new_columns, new_down)
            known = best.get(root_move)
            if known is None or net > known[0]:
                best[root_move] = (net, child_id)
            heapq.heappush(
                heap,
                (
                    -net,
                    child_id,
                    new_columns,
                    new_down,
                    child,
                    depth,
                    root_move,
                    turned,
                    (infos, move, None if run_suit >= 0 else (dst, src, move.count)),
                ),
            )
        self.nodes += generated


def _refill_move(
    columns: Columns,
    down: tuple[int, ...],
    flexible: bool,
    evaluation: Evaluation,
    roots: tuple[int, int],
) -> Move | None:
    """The move into an empty column that :func:`_best_fill` would choose with nothing
    visited (the first of the best), or None; ``roots`` are the search root's ``total0`` and
    ``down0``.

    Only the two columns of a fill change, so fills are first compared by how their column
    scores change, which needs no sum over the table; the few whose change is the best (to
    within rounding) are then valued whole, in :func:`_best_fill`'s order, so that the same
    one wins (values that agree but for rounding are told apart exactly as there)."""
    column_score = evaluation.column_scores.score
    changes: list[tuple[float, int, int]] = []
    for src, column in enumerate(columns):
        length = group_length(column, flexible) if column else 0
        if not length:
            continue
        removed = column_score(column, down[src])
        for count in range(1, length + 1):
            rest = column[:-count]
            if rest:
                change = column_score(rest, down[src]) - removed
            elif down[src]:
                change = column_score((UNKNOWN,), down[src] - 1) - removed + _TURN
            else:
                continue  # the whole column: that leaves a column empty
            changes.append((change + column_score(column[-count:], 0), src, count))
    if not changes:
        return None
    best_change = max(change for change, _, _ in changes)
    empties = [index for index, column in enumerate(columns) if not column]
    closest = (
        Move(src, dst, count)
        for change, src, count in changes
        if change >= best_change - _ROUNDING
        for dst in empties
    )
    best = _first_best_fill(columns, down, closest, roots, evaluation, _NOTHING_VISITED)
    return None if best is None else best[1]


_ROUNDING: Final = 1e-6
"""Far above the rounding error of a sum of weights: fills whose changes are closer than this
are valued whole (one that loses by more loses in the whole value too)."""


def _node_infos(columns: Columns, flexible: bool, inherited: _Inherited | None) -> list[_Info]:
    """The :func:`_column_info` of every column of a node: its parent's, but for the two
    columns its move changed (every column for the root)."""
    if inherited is None:
        return [_column_info(column, flexible) for column in columns]
    parent_infos, move, _ = inherited
    infos = list(parent_infos)
    infos[move.src] = _column_info(columns[move.src], flexible)
    infos[move.dst] = _column_info(columns[move.dst], flexible)
    return infos


_Best = tuple[float, tuple[Move, ...]]
_Inherited = tuple["list[_Info]", Move, "tuple[int, int, int] | None"]
"""What a node takes from its parent: the parent's column infos, the move from there and that
move's reverse, which leads straight back (None when the move removed a run: then its reverse
moves other cards)."""
# A search node: (-net value, id, columns, down, value, depth, id of its first move's node,
# whether a card was turned on the way, what it inherits, or None at the root); ``value``
# leaves out the worth of unknown cards.  After a move that turned a card its reverse is never
# generated (nothing can go onto the unknown card), so skipping it changes nothing there.
_Node = tuple[float, int, Columns, tuple[int, ...], float, int, int, bool, "_Inherited | None"]


def _line(parents: list[tuple[int, Move]], node: int) -> tuple[Move, ...]:
    moves = []
    while node >= 0:
        node, move = parents[node]
        moves.append(move)
    return tuple(reversed(moves))


def _useful_moves(
    columns: Columns, down: tuple[int, ...], flexible: bool, infos: list[_Info] | None = None
) -> list[Move]:
    """Legal moves minus ones that cannot help (a pruned subset of ``visible_moves``).

    Dropped: every empty destination but the first (empty columns are interchangeable for the
    lookahead); a whole column without face-down cards into an empty column (it only swaps the
    two); and *sideways* moves.  A group that sits on the card one rank higher moves only onto
    a card of its own suit, and when it sits on one of its own suit only onto a longer run of
    that suit; unless the card it frees is *wanted* (some movable group has, at the bottom of a
    one-suit segment, the card one rank lower of the same suit), then it may move anywhere.
    Under the classic rule a group sitting on an off-suit card one rank higher may also move
    anywhere when that frees a *loose* group (see :func:`_frees_loose_group`): in 4-suit games
    most builds are off-suit, and untangling them is what turns cards.

    ``infos`` are the :func:`_column_info` of the columns, when the caller has them.
    """
    if infos is None:
        infos = [_column_info(column, flexible) for column in columns]
    targets, empties = destination_index([column[-1] if column else EMPTY for column in columns])
    first_empty = empties[0] if empties else -1
    wanted: set[int] | None = None  # the cards the columns want, found when first needed
    moves: list[Move] = []
    append = moves.append
    new = tuple.__new__  # without the frame of Move's generated __new__
    for src, (pieces, _) in enumerate(infos):
        whole = len(columns[src])
        for count, moved, below, leave in pieces:
            onto = targets[moved & 15]
            if below:
                if wanted is None:
                    # An empty or unknown-topped column wants nothing (it has no pieces).
                    wanted = set().union(*[info[1] for info in infos])
                if below not in wanted:
                    for dst in onto:
                        target = columns[dst]
                        if target[-1] == moved + 1 and group_length(target, False) > leave:
                            append(new(Move, (src, dst, count)))
                    continue
            for dst in onto:
                append(new(Move, (src, dst, count)))
            if first_empty >= 0 and (count < whole or down[src]):
                append(new(Move, (src, first_empty, count)))
    return moves


_Piece = tuple[int, int, int, int]
_Info = tuple[list[_Piece], set[int]]
_info_cache: dict[tuple[tuple[int, ...], bool], _Info] = {}


def _column_info(column: tuple[int, ...], flexible: bool) -> _Info:
    """The groups a column can move and the cards its one-suit segments want (cached).

    A piece is ``(count, moved card, parent, leave)``: ``parent`` is the card under the group
    when it is one rank higher and moving off it is sideways (else 0) and ``leave`` the length
    of the one-suit run the group would leave when that parent is of its own suit (else 0).
    """
    key = (column, flexible)
    cached = _info_cache.get(key)
    if cached is not None:
        return cached
    length = group_length(column, flexible)
    size = len(column)
    pieces = []
    wanted = set()
    for count in range(1, length + 1):
        moved = column[-count]
        below = column[-count - 1] if count < size else UNKNOWN
        if below == moved + 1 or (
            below
            and (below & 15) == (moved & 15) + 1
            and (flexible or not _frees_loose_group(column[: size - count]))
        ):
            leave = group_length(column[: size - count], False) if below == moved + 1 else 0
            pieces.append((count, moved, below, leave))
        else:
            pieces.append((count, moved, 0, 0))
        if below != moved + 1:
            wanted.add(moved + 1)
    if len(_info_cache) > 100_000:
        _info_cache.clear()
    info = (pieces, wanted)
    _info_cache[key] = info
    return info


def _frees_loose_group(rest: tuple[int, ...]) -> bool:
    """True when the one-suit group on top of ``rest`` could move somewhere new.

    That group is *loose* when it does not sit on the card one rank higher: it lies on a
    face-down card, at the bottom of its column or on an unrelated card, so moving it would turn
    a card, empty a column or untangle the column.
    """
    return _is_loose(rest, group_length(rest, False))


def _is_loose(column: tuple[int, ...], length: int) -> bool:
    """True when the top ``length`` cards of ``column`` (its one-suit group) are loose."""
    return length == len(column) or (column[-length - 1] & 15) != (column[-length] & 15) + 1


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


def _leads_back(columns: Columns, down: tuple[int, ...], move: Move, visited: Visited) -> bool:
    """True when ``move`` returns to a position in ``visited``."""
    if not visited:
        return False
    applied = apply_visible(columns, down, move)
    return (applied.columns, applied.down) in visited


def _line_end(view: VisibleView, line: tuple[Move, ...]) -> tuple[Columns, tuple[int, ...]]:
    """The visible position ``line`` leads to (turned cards are :data:`UNKNOWN`)."""
    columns, down = view.columns, view.down
    for move in line:
        applied = apply_visible(columns, down, move)
        columns, down = applied.columns, applied.down
    return columns, down


def _ends_deals(view: VisibleView, line: tuple[Move, ...]) -> bool:
    """True when ``line`` removes a run that leaves too few cards on the table for any deal
    while the stock still holds cards (see :meth:`_Search._blocks_deals`)."""
    if not view.deal_ever_possible:
        return False
    columns, down = _line_end(view, line)
    table_cards = sum(map(len, columns)) + sum(down)
    return deal_blocked_forever(view.stock_cards, table_cards, view.column_count)


def _visited_of(source: Game | VisibleView, visited: Visited | None) -> Visited:
    if visited is not None:
        return visited
    return visited_positions(source) if isinstance(source, Game) else _NOTHING_VISITED


def hint_report(
    source: Game | VisibleView,
    node_budget: int | None = None,
    visited: Visited | None = None,
    *,
    endgame: bool = True,
    weigh_cards: bool | None = None,
    stop: Callable[[], bool] | None = None,
) -> HintReport:
    """Rank every helpful move of the visible position, best first.

    ``node_budget`` bounds the lookahead; by default :func:`default_node_budget` of the
    variant.  A move that leads back to a position in ``visited`` is never offered; by default
    that is :func:`visited_positions` of a game (none for a bare view).  With
    ``endgame=False`` the full solver is never asked (see :mod:`.endgame`): the options are the
    lookahead's, as a search that weighs lines itself ("Think harder") wants them.  Where the
    quick hint weighs turned cards (:func:`weighs_next_card`: 2-suit Spider under the classic
    rule) the lookahead's best :data:`CHANCE_LINES` lines are then weighed over every card the
    one each turns could be (:mod:`.chance`) and offered best first by that expectation (their
    ``gain`` stays the lookahead's).  ``weigh_cards=True`` weighs them in any variant (for a
    slower search that can afford it), ``False`` keeps the lookahead's order (for a search's
    play-outs that cannot); the default, None, weighs where the quick hint does.  ``stop``,
    asked now and then during the lookahead, ends it early when it returns True: the report
    then rests on the positions seen so far (a caller with a clock uses it; without one the
    report depends on nothing but the position).

    Deterministic: the same visible position (and visited positions) always gives the same
    report, whatever the hidden cards are (they are not even available here).
    """
    view = _as_view(source)
    visited = _visited_of(source, visited)
    deal_possible = view.deal_ever_possible
    if view.is_won:
        return HintReport((), "won", "The game is won.", False, False)
    ending = endgame_line(view) if endgame else None
    if ending is not None:
        return _endgame_report(view, ending)
    if node_budget is None:
        node_budget = default_node_budget(view)
    search, helpful = _lookahead(view, node_budget, visited, stop)
    weighs = weighs_next_card(view) if weigh_cards is None else weigh_cards
    if weighs and len(helpful) > 1:
        helpful = _weigh_next_card(view, helpful, visited, search, stop)
    options = []
    for gain, _move, line in helpful:
        reason, text = _describe(view, line)
        options.append(HintOption(line[0], reason, text, gain, line))
    if options and not deal_possible and not _reaches_progress(options) and _proven_stuck(view):
        # A move may still look better by the heuristic (one more suited link), but nothing it
        # leads to turns a card or completes a run: the hint says what "no more moves" says.
        return _no_moves_report(search.nodes)
    if options:
        return HintReport(
            tuple(options), options[0].reason, options[0].text, deal_possible, False, search.nodes
        )
    return _no_helpful_move(view, search.nodes, visited)


_Gain = tuple[float, Move, tuple[Move, ...]]
"""A helpful first move: the gain of its best line, the move and the line."""


_Results = dict[Move, "_Best"]


def _search_from(
    view: VisibleView, node_budget: int, stop: Callable[[], bool] | None
) -> tuple[_Search, _Results, float]:
    """The lookahead's best line for each first move, the search, and the root's value as
    gains are measured from it (with its empty columns refilled while a deal is still to
    come)."""
    columns, down = view.columns, view.down
    search = _Search(view, node_budget)
    root_value = search.evaluation.value(columns, down, search.total0, search.down0)
    results = search.run(columns, down, root_value, stop)
    return search, results, root_value - search.refill_loss(columns, down)


def _lookahead(
    view: VisibleView, node_budget: int, visited: Visited, stop: Callable[[], bool] | None
) -> tuple[_Search, list[_Gain]]:
    """The lookahead's helpful first moves, best first, each with its best line and gain."""
    columns, down = view.columns, view.down
    search, results, root_refilled = _search_from(view, node_budget, stop)
    gains = [
        (_line_gain(view, search, value, line, root_refilled), move, line)
        for move, (value, line) in results.items()
        if not _leads_back(columns, down, move, visited)
    ]
    helpful = sorted(
        (item for item in gains if item[0] > _HELPS), key=lambda item: (-item[0], item[1])
    )
    return search, helpful


def _line_gain(
    view: VisibleView, search: _Search, value: float, line: tuple[Move, ...], root_refilled: float
) -> float:
    """The gain of ``line``, worth ``value`` in ``search``: its end against the root, both with
    their empty columns refilled while a deal is still to come."""
    return value - search.refill_loss(*_line_end(view, line)) - root_refilled


def lookahead_gain(view: VisibleView, node_budget: int, visited: Visited = frozenset()) -> float:
    """The largest gain the hint's lookahead finds from ``view`` within ``node_budget``
    positions (0 when no move helps), without leading back to a position in ``visited``: how
    much better, by the hint's evaluation, the best position in reach is (the gain of the
    first option :func:`hint_report` would rank, before any weighing of turned cards).

    Cached: a player who follows a line asks about its end again at each of its moves (the
    key holds the weights as now set, which a tuning run may change)."""
    key = (view, node_budget, visited, _weights_now())
    known = _gains_seen.get(key)
    if known is not None:
        return known
    if len(_gains_seen) >= _GAINS_SEEN_LIMIT:
        _gains_seen.clear()
    gain = _gains_seen[key] = _best_gain(view, node_budget, visited)
    return gain


_GAINS_SEEN_LIMIT: Final = 20_000
_gains_seen: dict[tuple[VisibleView, int, Visited, tuple[float, ...]], float] = {}


def _weights_now() -> tuple[float, ...]:
    """Every weight the lookahead's values depend on, as the module holds it now."""
    return (
        _RUN, _TURN, _EMPTY, _EMPTY_FOUR_SUITS, _SUITED, _LINKED, _BREAK, _COVER,
        _SUITED_FOUR_SUITS, _LINKED_FOUR_SUITS, _BREAK_FOUR_SUITS, _COVER_FOUR_SUITS,
        _RUN_TWO_SUITS, _EMPTY_TWO_SUITS, _SUITED_TWO_SUITS, _LINKED_TWO_SUITS, _BREAK_TWO_SUITS,
        _COVER_TWO_SUITS, _COVERED_BREAK_TWO_SUITS, _STEP, _HELPS, _REVEAL_FREE, _REVEAL_SUITED,
        _REVEAL_LOOSE,
    )  # fmt: skip


def _best_gain(view: VisibleView, node_budget: int, visited: Visited) -> float:
    """:func:`lookahead_gain`, worked out."""
    columns, down = view.columns, view.down
    search, results, root_refilled = _search_from(view, node_budget, None)
    best = _HELPS
    # Refilling never adds value, so a line whose value before refilling is no better than the
    # best gain so far cannot beat it: the refills of the others are never worked out.
    for value, line in sorted(results.values(), key=lambda item: -item[0]):
        if value - root_refilled <= best:
            break
        if not _leads_back(columns, down, line[0], visited):
            best = max(best, _line_gain(view, search, value, line, root_refilled))
    return best if best > _HELPS else 0.0


def weighs_next_card(view: VisibleView) -> bool:
    """True where the quick hint weighs its best lines over the card each turns: 2-suit
    Spider under the classic rule, where it won more games (``docs/strength.md``).  At 1 suit
    and under the Flexible rule it won no more; at 4-suit Classic it costs about four times
    the quick hint's time, so there only "Think harder" weighs (at its root)."""
    return _two_suit_spider(view) and not view.flexible


def _weigh_next_card(
    view: VisibleView,
    helpful: list[_Gain],
    visited: Visited,
    search: _Search,
    stop: Callable[[], bool] | None,
) -> list[_Gain]:
    """``helpful`` with its best :data:`CHANCE_LINES` reordered by their expected value over
    the card each line turns (:func:`~.chance.expected_values`); unchanged when ``stop`` ends
    the weighing first.  Positions are valued as ``search`` (the lookahead from ``view``)
    values them."""
    top = helpful[:CHANCE_LINES]
    evaluation, total0, down0 = search.evaluation, search.total0, search.down0

    def value(reached: VisibleView) -> float:
        return evaluation.value(reached.columns, reached.down, total0, down0)

    def follow(world: World) -> float:
        return lookahead_gain(world.view(), CHANCE_FOLLOW_NODES, world.visited)

    lines = [truncate_line(view, line) for _, _, line in top]
    values = expected_values(view, lines, World.from_view(view, visited), value, follow, stop)
    if values is None:
        return helpful
    order = sorted(range(len(top)), key=lambda index: -values[index])
    return [top[index] for index in order] + helpful[CHANCE_LINES:]


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


def _no_helpful_move(view: VisibleView, positions: int, visited: Visited) -> HintReport:
    """What to say (and maybe suggest) when the lookahead finds no gain."""
    limit = _DEEP_SEARCH_NODES if view.deal_ever_possible else _ENDGAME_SEARCH_NODES
    deep = find_useful_line(view, limit)
    positions += deep.positions
    if deep.status == "unknown":
        # A shortest line is past the budget; depth first may still reach a long one.
        deep = find_useful_line(view, limit, order="depth")
        positions += deep.positions
    if (
        deep.status == "useful"
        and not _leads_back(view.columns, view.down, deep.line[0], visited)
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
        fill = None if view.can_deal else fill_move(view, visited)
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


def _proven_stuck(view: VisibleView) -> bool:
    """True when the exhaustive search proves that no line of card moves turns a card or
    completes a run (with no deal ever possible, that is "no more moves")."""
    return find_useful_line(view, _STUCK_PROOF_NODES).no_more_moves


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


def fill_move(source: Game | VisibleView, visited: Visited | None = None) -> Move | None:
    """The best move into an empty column (to make a deal possible), or None.

    Every move into an empty column is judged by the evaluation; a whole column without
    face-down cards is never moved, since that leaves a column empty.  A move that leads back to
    a position in ``visited`` (see :func:`hint_report`) is chosen only when every one does.
    """
    view = _as_view(source)
    columns, down = view.columns, view.down
    best = _best_fill(
        columns,
        down,
        view.flexible,
        sum(map(len, columns)) + sum(down),
        sum(down),
        Evaluation(view),
        _visited_of(source, visited),
    )
    return None if best is None else best[1]


def _best_fill(
    columns: Columns,
    down: tuple[int, ...],
    flexible: bool,
    total0: int,
    down0: int,
    evaluation: Evaluation,
    visited: Visited,
) -> tuple[float, Move] | None:
    """(value after it, move) of the best move into an empty column; see :func:`fill_move`."""
    fills = (
        move
        for move in visible_moves(columns, flexible)
        if not columns[move.dst] and (move.count < len(columns[move.src]) or down[move.src])
    )
    return _first_best_fill(columns, down, fills, (total0, down0), evaluation, visited)


def _first_best_fill(
    columns: Columns,
    down: tuple[int, ...],
    fills: Iterable[Move],
    roots: tuple[int, int],
    evaluation: Evaluation,
    visited: Visited,
) -> tuple[float, Move] | None:
    """(value after it, move) of the best of ``fills``, valued whole from the search root's
    ``roots`` (``total0``, ``down0``): one that leads to a position not in ``visited`` first,
    then the higher value, then the first of equals; None when there is none."""
    total0, down0 = roots
    best: tuple[bool, float, Move] | None = None
    for move in fills:
        applied = apply_visible(columns, down, move)
        value = evaluation.value(applied.columns, applied.down, total0, down0)
        # With nothing visited (the quick refill) there is no need to hash the position.
        new = not visited or (applied.columns, applied.down) not in visited
        if best is None or (new, value) > best[:2]:
            best = (new, value, move)
    return None if best is None else best[1:]


def hint(
    source: Game | VisibleView,
    index: int = 0,
    node_budget: int | None = None,
    visited: Visited | None = None,
) -> Hint:
    """The ``index``-th best hint for a game or view (0 = best; indices cycle); see
    :func:`hint_report`."""
    return hint_report(source, node_budget, visited).pick(index)
