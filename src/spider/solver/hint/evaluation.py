"""The quick hint's evaluation: what a visible position is worth, from visible facts only.

:class:`Evaluation` scores a position reached by card moves against a root position: runs
removed, cards turned, empty columns, and each column's one-suit and any-suit links, less its
breaks and the disorder piled on face-down cards (:class:`ColumnScores`), with the weights of the
variant (in 2-suit Spider learned from games, ``benchmarks/learn_evaluation.py``).  In 4-suit
classic games a turned card is worth what it can be expected to do over the cards the player has
not seen (:class:`Reveal`), not a flat bonus.

The weights are fields of a :class:`~spider.solver.params.HintParams` (by default the variant's,
:meth:`~spider.solver.params.HintParams.for_view`), so a tuning run (``benchmarks/hint_weights.py``)
passes its own.
"""

from __future__ import annotations

from typing import Final

from spider.rules import RUN_LENGTH, link_counts
from spider.solver.params import HintParams
from spider.solver.view import UNKNOWN, VisibleView, group_length

__all__ = [
    "EMPTY_COLUMN",
    "UNKNOWN_TOP",
    "ColumnScores",
    "ColumnWeights",
    "Columns",
    "Evaluation",
    "Reveal",
    "column_reveal_facts",
    "column_scores",
    "four_suit_classic",
    "is_loose",
    "judges_refilled",
    "score_pair",
    "two_suit_spider",
]

Columns = tuple[tuple[int, ...], ...]
"""The face-up cards of every column, bottom first (engine ints;
:data:`~spider.solver.view.UNKNOWN` for a turned card the lookahead has not seen yet)."""

ColumnWeights = tuple[float, float, float, float, float]
"""(one-suit link, any-suit link, break, cover, covered break): what a column's face-up cards
are worth; the last two count only in columns over face-down cards (per face-up card, and per
break on top of the first break weight)."""


class ColumnScores(dict[tuple[tuple[int, ...], int], float]):
    """Scores of single columns under one set of :data:`ColumnWeights`, by ``(column, face-down
    count)``: a column recurs in many positions of a search, and across searches.

    A missing key is worked out on first use (``scores[column, down]``), so the lookahead's inner
    loop reads a score with one subscript and no call of its own."""

    _LIMIT: Final = 200_000

    def __init__(self, weights: ColumnWeights) -> None:
        super().__init__()
        self.weights = weights

    def __missing__(self, key: tuple[tuple[int, ...], int]) -> float:
        column, down = key
        uncovered, covered = score_pair(self.weights, column)
        score = covered if down else uncovered
        if len(self) > self._LIMIT:
            self.clear()
        self[key] = score
        return score

    def score(self, column: tuple[int, ...], down: int) -> float:
        """One-suit and any-suit links, less breaks (with a weight of their own over face-down
        cards) and the cards piled on face-down ones.  An empty column scores 0: its worth
        depends on the variant."""
        return self[column, down]


def score_pair(weights: ColumnWeights, column: tuple[int, ...]) -> tuple[float, float]:
    """:meth:`ColumnScores.score` of ``column`` under ``weights``, with no face-down card under
    it and with some (a plain function: the compiled build calls it directly, where a method of
    a ``dict`` subclass is looked up by name on every call)."""
    if not column:
        return 0.0, 0.0
    suited_weight, linked_weight, breaks_weight, cover, covered_breaks = weights
    suited, linked, breaks = link_counts(column)
    score = suited_weight * suited + linked_weight * linked - breaks_weight * breaks
    return score, score - (cover * len(column) + covered_breaks * breaks)


_column_scores_by_weights: dict[ColumnWeights, ColumnScores] = {}


def column_scores(params: HintParams) -> ColumnScores:
    """The column scores under the column weights of ``params`` (one table per set of
    weights, shared by every search that uses them)."""
    weights: ColumnWeights = (
        params.suited,
        params.linked,
        params.breaks,
        params.cover,
        params.covered_breaks,
    )
    scores = _column_scores_by_weights.get(weights)
    if scores is None:
        scores = _column_scores_by_weights[weights] = ColumnScores(weights)
    return scores


def four_suit_classic(view: VisibleView) -> bool:
    """True in 4-suit games under the classic rule, where the hint weighs things differently:
    an empty column is worth more, a turned card is valued by expectation (:class:`Reveal`)
    and, while cards are face down, empty columns are not judged refilled before a deal
    (:func:`judges_refilled`)."""
    return view.suits == 4 and not view.flexible


def judges_refilled(view: VisibleView) -> bool:
    """True where the lookahead judges a position with its empty columns filled again while a
    deal is to come (:meth:`Lookahead.refill_loss`): everywhere but in 4-suit classic games that
    still have face-down cards.  There an empty column kept is what takes off-suit builds apart
    to turn them; once every card is face up it has nothing left to turn, and a hint that valued
    it for itself would empty a column, offer to fill it for the deal, then empty another, for
    ever."""
    return not four_suit_classic(view) or not any(view.down)


def two_suit_spider(view: VisibleView) -> bool:
    """True in 2-suit Spider (ten columns, two decks), whose evaluation was learned from games
    (:meth:`~spider.solver.params.HintParams.for_variant`).  Not in 2-suit Spiderette, where the
    same weights win fewer games."""
    return view.suits == 2 and view.game == "spider"


class Reveal:
    """What the unknown cards of a lookahead position are expected to be worth.

    The unseen cards (:meth:`VisibleView.unseen_cards`: the deck minus the face-up cards and the
    runs removed) are equally likely to be any card just turned, so for each unknown top card
    the chances are taken over them, against the known top cards of the other columns:

    * it can move onto a top card one rank higher (any suit): that frees its column, which
      turns the next card, or empties the column when no face-down card is left, worth
      :attr:`~spider.solver.params.HintParams.reveal_free` times the value of a turn or of an empty
      column;
    * it links in one suit: it is one rank below a top card of its suit, or one rank above the
      bottom card of a movable group of its suit
      (:attr:`~spider.solver.params.HintParams.reveal_suited`);
    * it can take a *loose* group (one on a face-down card, at the bottom of its column or on
      a card that is not one rank higher) of any suit
      (:attr:`~spider.solver.params.HintParams.reveal_loose`).

    Only visible facts take part.  This replaces the flat value of a turned card, so lines are
    judged by what the cards they turn will probably allow, and the last card of a column is
    worth more than others (the column may empty).  The weights are those of ``params``, by
    default the variant's.
    """

    def __init__(self, view: VisibleView, params: HintParams | None = None) -> None:
        if params is None:
            params = HintParams.for_view(view)
        counts = view.unseen_counts()
        total = 0
        for count in counts:
            total += count
        total = total or 1
        self.card = [0.0] * 64  # chance by engine int (suit << 4 | rank; ranks 0 and 14-15 stay 0)
        self.rank = [0.0] * 16  # chance by rank
        for card, count in enumerate(counts):  # by card, in increasing order
            if count:
                self.card[card] += count / total
                self.rank[card & 15] += count / total
        self.turn = params.reveal_free * params.turn
        self.empty = params.reveal_free * params.empty
        self.suited = params.reveal_suited
        self.loose = params.reveal_loose
        # The sums over sets of cards or ranks (as bits) met so far, by set (see value_of_facts).
        self._moves: dict[int, float] = {}
        self._suited: dict[int, float] = {}
        self._also: dict[int, float] = {}
        self._loose: dict[int, float] = {}

    def value(self, columns: Columns, down: tuple[int, ...]) -> float:
        """The expected worth of the unknown top cards of ``columns`` (0 when there are none)."""
        known = _reveal_facts
        facts = []
        for column in columns:
            fact = known.get(column)
            if fact is None:
                if len(known) > 100_000:
                    known.clear()
                fact = known[column] = column_reveal_facts(column)
            facts.append(fact)
        return self.value_of_facts(facts, down)

    def value_of_facts(self, facts: list[int], down: tuple[int, ...]) -> float:
        """:meth:`value` of the columns whose :func:`column_reveal_facts` are ``facts``.

        The facts are gathered as bits (by card or rank, a set of small ints), and each sum
        is taken over them in increasing order, as over a sorted set, from 0.0; the sums of a
        search's few distinct sets of bits are kept."""
        top_cards = top_ranks = bases = loose_ranks = 0
        unknown = False
        for fact in facts:
            if fact < 0:
                if fact == UNKNOWN_TOP:
                    unknown = True
                continue
            top = fact & 63
            top_cards |= 1 << top
            top_ranks |= 1 << (top & 15)
            base = fact >> 6 & 63
            if base:
                bases |= 1 << base
                if fact >> 12:
                    loose_ranks |= 1 << (base & 15)
        if not unknown:
            return 0.0
        card, rank = self.card, self.rank
        moves = self._moves.get(top_ranks)
        if moves is None:
            moves = self._moves[top_ranks] = _bits_sum(top_ranks, rank, -1)
        suited = self._suited.get(top_cards)
        if suited is None:
            suited = self._suited[top_cards] = _bits_sum(top_cards, card, -1)
        also = self._also.get(bases)
        if also is None:
            also = self._also[bases] = _bits_sum(bases, card, 1)
        suited += also
        loose = self._loose.get(loose_ranks)
        if loose is None:
            loose = self._loose[loose_ranks] = _bits_sum(loose_ranks, rank, 1)
        common = self.suited * suited + self.loose * loose
        total = 0.0
        for index, fact in enumerate(facts):
            if fact == UNKNOWN_TOP:
                total += common + (self.turn if down[index] else self.empty) * moves
        return total


def _bits_sum(bits: int, chances: list[float], offset: int) -> float:
    """The sum of ``chances[b + offset]`` over the set bits ``b`` of ``bits``, lowest first, from
    0.0: the order of a sum over a sorted set, so the same float."""
    total = 0.0
    index = 0
    while bits:
        if bits & 1:
            total += chances[index + offset]
        bits >>= 1
        index += 1
    return total


EMPTY_COLUMN: Final = -2
"""The :func:`column_reveal_facts` of an empty column."""

_LOOSE: Final = 1 << 12
"""The bit of :func:`column_reveal_facts` that says its top group is loose."""

UNKNOWN_TOP: Final = -1
"""The :func:`column_reveal_facts` of a column whose top card is unknown."""

_reveal_facts: dict[tuple[int, ...], int] = {}
"""What :meth:`Reveal.value` reads of each column, by column: a column recurs in many positions
of a search, and its facts cost more to find than to look up."""


def column_reveal_facts(column: tuple[int, ...]) -> int:
    """What :meth:`Reveal.value` reads of a column, as one int: :data:`EMPTY_COLUMN`,
    :data:`UNKNOWN_TOP`, or its top card, plus ``<< 6`` the bottom card of its top one-suit
    group unless that is a King (0 then) and ``<< 12`` whether that group is loose."""
    if not column:
        return EMPTY_COLUMN
    top = column[-1]
    if top == UNKNOWN:
        facts = UNKNOWN_TOP
    else:
        facts = top
        length = group_length(column, False)
        if (column[-length] & 15) < 13:
            facts |= column[-length] << 6 | (_LOOSE if is_loose(column, length) else 0)
    return facts


class Evaluation:
    """The hint's heuristic value of the visible positions of one game, with the weights of
    ``params`` (by default its variant's): runs removed, cards turned, empty columns and each
    column's score.

    Values are relative to a root position: ``total0`` cards on the table (face up and down)
    and ``down0`` face down there.  Only visible facts take part, so a bot may use it on any
    :class:`~spider.solver.view.VisibleView`::

        view = VisibleView.from_game(game)
        value = Evaluation(view).value(view.columns, view.down, view.table_cards, sum(view.down))
    """

    def __init__(self, view: VisibleView, params: HintParams | None = None) -> None:
        if params is None:
            params = HintParams.for_view(view)
        self.run = params.run
        self.turn = params.turn
        self.empty = params.empty
        self.column_scores = column_scores(params)

    def counted(self, runs: int, turned: int, empty_columns: int) -> float:
        """The part of :meth:`value` that counts: ``runs`` removed and ``turned`` cards since
        the root, and ``empty_columns``; the column scores are added to it."""
        return float(self.run * runs + self.turn * turned + self.empty * empty_columns)

    def value(self, columns: Columns, down: tuple[int, ...], total0: int, down0: int) -> float:
        """Heuristic value of a visible position reached from the root by card moves."""
        if len(columns) != len(down):
            raise ValueError(f"{len(columns)} columns but {len(down)} face-down counts")
        down_now = 0
        cards = 0
        for index, column in enumerate(columns):
            down_now += down[index]
            cards += len(column)
        cards += down_now
        runs = (total0 - cards) // RUN_LENGTH
        score = self.counted(runs, down0 - down_now, columns.count(()))
        scores = self.column_scores
        for index, column in enumerate(columns):
            score += scores[column, down[index]]
        return score


def is_loose(column: tuple[int, ...], length: int) -> bool:
    """True when the top ``length`` cards of ``column`` (its one-suit group) are *loose*: they
    do not sit on the card one rank higher, but on a face-down card, at the bottom of the column
    or on an unrelated card, so moving them would turn a card, empty the column or untangle it."""
    return length == len(column) or (column[-length - 1] & 15) != (column[-length] & 15) + 1
