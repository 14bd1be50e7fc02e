"""The parameters of the quick hint and of "Think harder": every number each was tuned by.

A :class:`HintParams` holds the evaluation's weights, the lookahead's budget and costs, how many
lines are weighed over the next card and the budgets of the searches behind "no more moves" and
the endgame (:class:`EndgameParams`).  :meth:`HintParams.for_variant` gives the tuned defaults
of a variant (game, suits, rule); :func:`~spider.solver.hint.quick.hint_report` uses them when
it is given none.  A tuning run passes its own, changed with :func:`dataclasses.replace`::

    from dataclasses import replace

    defaults = HintParams.for_variant("spider", suits=4, rule="classic")
    report = hint_report(game, params=replace(defaults, empty=250, nodes=1000))

The weights are those of one variant: parameters made for 4-suit Spider still value a 2-suit
game with 4-suit weights (what to weigh, such as the expected worth of a turned card in 4-suit
classic games, stays a rule of the variant, :mod:`~spider.solver.hint.evaluation`).

A :class:`ThinkParams` holds the tree search's budgets and constants and, in
:attr:`ThinkParams.hint`, the quick hint's parameters its lines, play-outs and evaluation use
(None: the variant's).  :func:`~spider.solver.think.harder.think` uses the defaults when given
none::

    report = think(game, iterations=200, params=replace(ThinkParams(), rollout_nodes=200))

The objects are frozen and hashable, so a cache whose answers depend on them keys on them.  The
limits of a request (the largest budget, the most processes) are not parameters: they stay
constants of :mod:`~spider.solver.think.harder`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from spider.game import Game
from spider.solver.view import VisibleView

__all__ = ["EndgameParams", "HintParams", "ThinkParams", "hint_params"]


@dataclass(frozen=True, slots=True)
class EndgameParams:
    """How the quick hint asks the full solver once the stock is empty and few cards are face
    down (:mod:`~spider.solver.hint.endgame`); the same in every variant."""

    all_orders_hidden: int = 3
    """The most face-down cards (cards) for which every arrangement of them is tried: at most
    3! = 6 of them."""

    sampled_hidden: int = 8
    """The most face-down cards (cards) for which the hint asks the solver at all; above
    :attr:`all_orders_hidden` it asks about :attr:`samples` arrangements drawn at random."""

    samples: int = 6
    """Arrangements (count) drawn when there are too many to try each."""

    open_nodes: int = 5_000
    """Positions the solver may store for a position with every card in sight: open endgames
    met in play took 100-250; a table of 104 shuffled cards all face up, which play hardly
    reaches, can use them all (about half a second)."""

    arrangement_nodes: int = 2_000
    """Positions the solver may store for each arrangement of a few face-down cards (several
    solves per hint)."""

    candidates: int = 3
    """Different candidate lines (count) scored on every arrangement at most."""


@dataclass(frozen=True, slots=True)
class HintParams:
    """Every tunable of the quick hint, for one variant (see the module doc).

    Values are evaluation points unless a field says otherwise; a turned card is worth
    :attr:`turn` points, and the rest are scaled to it.  Budgets are positions (deterministic,
    never timed).
    """

    nodes: int = 1000
    """Positions the lookahead generates or expands before it stops: the quick hint's budget
    (:meth:`for_variant` gives each variant's)."""

    run: float = 1000
    """Points per run removed."""

    turn: float = 150
    """Points per card turned (where a turned card is valued by expectation, 4-suit classic
    games, the unit of :attr:`reveal_free`)."""

    empty: float = 120
    """Points per empty column."""

    suited: float = 20
    """Points per one-suit link in a column (a card on the card one rank higher of its suit)."""

    linked: float = 3
    """Points per any-suit link (a card on the card one rank higher of another suit)."""

    breaks: float = 5
    """Points taken per break (a card on a card that is not one rank higher)."""

    cover: float = 2
    """Points taken per face-up card of a column that has face-down cards under it."""

    covered_breaks: float = 5
    """Points taken per break in a column over face-down cards, on top of :attr:`breaks`."""

    reveal_free: float = 2.5
    """Where a turned card is valued by expectation (4-suit classic games,
    :class:`~spider.solver.hint.evaluation.Reveal`): how many times a turn (or an empty column, when
    nothing is face down under it) it is worth when the new card can move away (a factor)."""

    reveal_suited: float = 40
    """Points per chance (0..1) that a turned card links in one suit with a top card or takes a
    group of its suit (4-suit classic games)."""

    reveal_loose: float = 30
    """Points per chance (0..1) that a turned card can take a loose group of any suit (4-suit
    classic games)."""

    step: float = 1.0
    """Points a line costs per move, so that shorter lines win ties."""

    helps: float = 0.5
    """Points a line must gain (over the position now) to be offered."""

    chance_lines: int = 3
    """Where the hint weighs the next card (:func:`~spider.solver.hint.quick.weighs_next_card`):
    how many of the lookahead's best lines (count) are weighed over the card each turns
    (:mod:`~spider.solver.hint.chance`)."""

    chance_follow_nodes: int = 150
    """The lookahead's budget (positions) from each card a weighed line could turn."""

    deep_search_nodes: int = 1000
    """Positions the fallback search for a card-turning line may visit while a deal is still
    possible (when the lookahead sees no gain)."""

    no_deal_search_nodes: int = 5000
    """The same when no deal is possible (that search also proves "no more moves")."""

    stuck_proof_nodes: int = 150
    """Positions of the proof that a position offering only heuristic gains has no more moves:
    small, so that the quick hint stays quick (a stuck position has few reachable layouts);
    beyond it the options are offered, and the page's own "no more moves" check, with its
    larger budget, still wins over them."""

    endgame: EndgameParams = field(default_factory=EndgameParams)
    """How the full solver is asked near the end (:mod:`~spider.solver.hint.endgame`)."""

    @staticmethod
    def for_variant(game: str = "spider", suits: int = 4, rule: str = "classic") -> HintParams:
        """The tuned defaults of a variant: ``game`` ``'spider'`` or ``'spiderette'``, ``suits``
        1, 2 or 4, ``rule`` ``'classic'`` or ``'flexible'`` (``ValueError`` for another).

        Lookahead budgets (:attr:`nodes`): 4,000 positions in 1-suit Spider, in 2-suit Spider
        under the classic rule (where the hint weighs its best lines over the card each turns,
        :func:`~spider.solver.hint.quick.weighs_next_card`) and in 4-suit games under the
        classic rule, where a line that turns a card often needs several moves to take off-suit
        builds apart; 3,000 in 4-suit games under the flexible rule; 300 in 1-suit Spiderette,
        whose games branch far more and win no more with a deeper look; 1,000 otherwise (2-suit
        Spider under the flexible rule, 2-suit Spiderette).

        Weights: in 4-suit classic games an empty column is worth 400 (it is what untangles
        off-suit builds), and the column weights there are tuned apart (equal to the others'
        for now).  In 2-suit Spider the weights were learned from games (a logistic regression
        of the outcome on these facts, ``benchmarks/learn_evaluation.py``), scaled so that a
        turned card is :attr:`turn`; not in 2-suit Spiderette, where the same weights win fewer
        games.
        """
        if game not in {"spider", "spiderette"} or suits not in {1, 2, 4}:
            raise ValueError(f"no such variant: {game} with {suits} suits")
        if rule not in {"classic", "flexible"}:
            raise ValueError(f"rule must be 'classic' or 'flexible', not {rule!r}")
        return _variant_defaults(game, suits, rule == "flexible")

    @staticmethod
    def for_view(view: VisibleView) -> HintParams:
        """:meth:`for_variant` of ``view``'s variant (the same object for every view of it)."""
        return _variant_defaults(view.game, view.suits, view.flexible)


def hint_params(source: Game | VisibleView) -> HintParams:
    """The quick hint's defaults for the variant of a game or view
    (:meth:`HintParams.for_variant`)."""
    if isinstance(source, VisibleView):
        return HintParams.for_view(source)
    return _variant_defaults(source.game, source.suits, source.rule == "flexible")


@cache
def _variant_defaults(game: str, suits: int, flexible: bool) -> HintParams:
    """The tuned defaults of a variant, made once (see :meth:`HintParams.for_variant`)."""
    four_suit_classic = suits == 4 and not flexible
    two_suit_spider = suits == 2 and game == "spider"
    if suits == 1:
        nodes = 4000 if game == "spider" else 300
    elif (two_suit_spider and not flexible) or four_suit_classic:
        nodes = 4000
    elif suits == 4:
        nodes = 3000
    else:
        nodes = 1000
    if four_suit_classic:
        return HintParams(
            nodes=nodes, empty=400, suited=20, linked=3, breaks=5, cover=2, covered_breaks=5
        )
    if two_suit_spider:
        return HintParams(
            nodes=nodes,
            run=352,
            empty=304,
            suited=1.9,
            linked=-84.8,  # an off-suit link is worth little more than a break
            breaks=121.5,
            cover=5.9,
            covered_breaks=-95.2,  # a break over face-down cards costs less, not more
        )
    return HintParams(nodes=nodes)


@dataclass(frozen=True, slots=True)
class ThinkParams:
    """Every tunable of "Think harder" (see the module doc); budgets are positions or
    iterations, never seconds, so that an answer is repeatable."""

    hint: HintParams | None = None
    """The quick hint's parameters for the lines a node chooses from, the play-outs and the
    evaluation that scores them; None: the game's variant's."""

    iterations: int = 100
    """Iterations (play-outs) when neither a time nor an iteration budget is given."""

    lookahead_nodes: int = 16_000
    """The root's lookahead budget (positions): the quick hint's search, 4 to 53 times deeper
    than the quick hint looks in each variant (4 times at 4-suit Classic).  Its best line is the
    answer unless the play-outs overrule it (:attr:`hint_lead`)."""

    lookahead_share: float = 0.5
    """Under a time budget, the share of it (0..1) the root lookahead may use at most (then the
    play-outs have the rest)."""

    max_actions: int = 8
    """How many of the quick hint's lines (its best ones) a node considers at most."""

    iterations_per_line: int = 5
    """On an iteration budget, a node considers one line per this many iterations (at least 2,
    at most :attr:`max_actions`): with fewer, each line is tried about once and the choice is
    noise."""

    outcomes_per_action: int = 3
    """Sampled outcomes (cards turned or dealt) kept per action of a node; once it has that
    many, a visit replays one of them, chosen in proportion to how often it came."""

    exploration: float = 0.4
    """The UCT exploration constant (values are 0..1)."""

    rollout_nodes: int = 100
    """The quick hint's lookahead budget (positions) in play-outs."""

    rollout_steps: int = 40
    """The most lines a play-out plays before it is scored."""

    value_scale: float = 1500.0
    """Evaluation points (over the root's) that move a play-out's value from 0.5 to about
    0.73."""

    endgame_hidden: int = 6
    """With the stock empty and at most this many cards face down, play-outs ask the full
    solver."""

    endgame_nodes: int = 3_000
    """The full solver's position budget per endgame sample (a node budget keeps it
    repeatable)."""

    hint_lead: float = 0.1
    """The share of the iterations (0..1) by which another line must outnumber the quick hint's
    best one to be chosen (:func:`~spider.solver.think.report.hint_lead`)."""

    hint_lead_min: int = 2
    """The least such lead, in visits."""

    def hint_for(self, variant: HintParams) -> HintParams:
        """The quick hint's parameters to use: :attr:`hint`, or ``variant`` (the game's
        variant's defaults) when it is None."""
        return variant if self.hint is None else self.hint
