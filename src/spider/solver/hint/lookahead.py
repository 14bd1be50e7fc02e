"""The quick hint's lookahead: a best-first search over card moves from a visible position.

:class:`Lookahead` searches the sequences of card moves the player could make (a deterministic
node budget, a transposition set and pruned sideways moves, :func:`useful_moves`); a move that
turns a card ends in an unknown card (:data:`~spider.solver.view.UNKNOWN`) that nothing can be put
on, exactly as the player knows it.  Each position is valued by the hint's
:class:`~.evaluation.Evaluation`, and for each first move the search keeps the best line through
it.  :func:`helpful_lines` ranks the first moves whose best line gains; :func:`lookahead_gain` is
the best gain alone (cached).

While a deal is still to come, positions are compared as they will be once their empty columns
are filled again for it (:meth:`Lookahead.refill_loss`, each fill the one :func:`best_fill`
picks), so a line that only empties a column is no gain; a move that leads back to a position
the game has been in (``visited``) is never ranked.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable
from typing import Final

from spider.moves import Move
from spider.rules import RUN_LENGTH, deal_blocked_forever, turns_over
from spider.solver.hint.column_table import EMPTY_ID, UNKNOWN_ID, column_table
from spider.solver.hint.evaluation import (
    Columns,
    Evaluation,
    Reveal,
    four_suit_classic,
    judges_refilled,
)
from spider.solver.hint.pruned_moves import column_info, unpack, useful_packed_moves
from spider.solver.params import HintParams
from spider.solver.view import (
    UNKNOWN,
    VisibleView,
    apply_visible,
    group_length,
    one_less_down,
    visible_moves,
)

__all__ = [
    "NOTHING_VISITED",
    "Gain",
    "Lookahead",
    "Visited",
    "best_fill",
    "helpful_lines",
    "leads_back",
    "line_end",
    "lookahead_gain",
    "refill_move",
    "useful_moves",
]

_STOP_CHECK_EVERY: Final = 200
"""How many expansions the lookahead makes between two questions to its ``stop`` callable."""

Visited = frozenset[tuple[Columns, tuple[int, ...]]]
"""Visible positions a game has been in, as ``(columns, down)`` of its :class:`VisibleView`."""

NOTHING_VISITED: Visited = frozenset()


class Lookahead:
    """Best-first lookahead over card moves, with a transposition set.

    Nodes are ordered by value minus :attr:`~spider.solver.params.HintParams.step` per move; the
    search stops when the positions it has generated plus those it has expanded reach ``budget``.
    Positions are valued with the weights of ``params``. For each first move it keeps the best node
    reached through it.  In 4-suit classic games a turned card counts no flat bonus: every position
    with unknown cards adds their expected worth (:class:`Reveal`, made when the search first
    turns a card: most searches from a stuck position turn none) instead.
    """

    def __init__(self, view: VisibleView, budget: int, params: HintParams) -> None:
        self.view = view
        self.params = params
        self.flexible = view.flexible
        self.evaluation = evaluation = Evaluation(view, params)
        self.scores = evaluation.column_scores
        self.values_unknown = four_suit_classic(view)
        self._reveal: Reveal | None = None
        self.step = params.step
        turn = 0.0 if self.values_unknown else evaluation.turn
        self.weights = (evaluation.empty, turn, evaluation.run)
        self.total0 = sum(map(len, view.columns)) + sum(view.down)
        self.down0 = sum(view.down)
        self.refills = view.deal_ever_possible and judges_refilled(view)
        self.deals_to_come = view.deal_ever_possible
        self.stock_cards = view.stock_cards
        self.budget = budget
        self.nodes = 0
        self.table = table = column_table(view.flexible)
        self.id_scores = table.scores_for(self.scores)
        # The column ids of the positions met, by face-down counts: a move that turns no card
        # keeps its position's counts, so a child is looked up by its ids alone.
        self.seen: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        self.parents: list[tuple[int, int]] = []  # node id -> (parent id, packed move); root: -1
        self.best: dict[int, tuple[float, int]] = {}  # first-move node -> (net value, node)
        # The open nodes, best first: their distinct keys (-net value) in a heap, and the nodes
        # of each key in the order they were made (the lower id first among equals).
        self.keys: list[float] = []
        self.open: dict[float, deque[_Node]] = {}

    def reveal(self) -> Reveal:
        """The expected worth of unknown cards (where :attr:`values_unknown`), made on first use."""
        reveal = self._reveal
        if reveal is None:
            reveal = self._reveal = Reveal(self.view, self.params)
        return reveal

    def refill_loss(self, columns: Columns, down: tuple[int, ...]) -> float:
        """What filling the empty columns of a position again would cost, while a deal is still
        to come (nothing otherwise).

        The deal needs every column filled, so positions are compared after those fills (each
        the best move into an empty column, as :func:`fill_move` picks it); fills never add
        value.  Without this, a line that only empties a column looks like a gain: a player who
        followed the hint would empty a column, be told to fill it to deal, then to empty
        another, and so on.  Not in 4-suit classic games while cards are face down: there an
        empty column is what takes off-suit builds apart, and keeping it until nothing else
        helps won more games (see ``docs/solver.md`` and :func:`judges_refilled`).
        """
        if not self.refills or () not in columns:
            return 0.0
        total0, down0, evaluation = self.total0, self.down0, self.evaluation
        before = evaluation.value(columns, down, total0, down0)
        start = columns
        while () in columns:
            move = refill_move(columns, down, self.flexible, evaluation, (total0, down0))
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
        stop: Callable[[], bool] | None = None,
    ) -> tuple[dict[Move, _Best], float]:
        """The best line (and its net value) found for each useful first move, and the value of
        the root (``columns``, ``down``); ``stop`` is asked every :data:`_STOP_CHECK_EVERY`
        expansions and ends the search early when true."""
        table = self.table
        ids = tuple([table.intern(column) for column in columns])
        root = self._root_value(ids, down)
        self.seen[down] = {ids}
        self._expand((-1, ids, down, root, 0, -1, False, -1))
        expanded = 0
        keys, open_nodes = self.keys, self.open
        while keys and self.nodes < self.budget:
            self.nodes += 1
            key = keys[0]
            nodes = open_nodes[key]
            node = nodes.popleft()
            if not nodes:
                heapq.heappop(keys)
                del open_nodes[key]
            self._expand(node)
            expanded += 1
            if stop is not None and expanded % _STOP_CHECK_EVERY == 0 and stop():
                break
        parents = self.parents
        results = {
            unpack(parents[first][1]): (net, _line(parents, node))
            for first, (net, node) in self.best.items()
        }
        return results, root

    def _root_value(self, ids: tuple[int, ...], down: tuple[int, ...]) -> float:
        """:meth:`~.evaluation.Evaluation.value` of the root, whose column ids are ``ids``: no run
        removed nor card turned yet, and the column scores read by id (the same floats, added in
        the same order), where the evaluation would look each new column up again."""
        if len(ids) != len(down):
            raise ValueError(f"{len(ids)} columns but {len(down)} face-down counts")
        scores = self.id_scores.current()
        value = self.evaluation.counted(0, 0, ids.count(EMPTY_ID))
        for index, column_id in enumerate(ids):
            value += scores[2 * column_id + (down[index] > 0)]
        return value

    def _blocks_deals(self, ids: tuple[int, ...], down: tuple[int, ...]) -> bool:
        """True when removing a run from this position (the one a move is made from) leaves
        fewer cards on the table than columns while the stock still holds cards: no deal could
        ever happen again, so the game could not be won.  Such a line is never offered; the
        player fills the columns and deals first, and completes the run after."""
        if not self.deals_to_come:
            return False
        infos = self.table.infos
        table_after = sum(infos[column_id].size for column_id in ids) + sum(down) - RUN_LENGTH
        return deal_blocked_forever(self.stock_cards, table_after, len(ids))

    def _expand(self, node: _Node) -> None:
        """Push every unseen child of ``node`` and update the best line of its first move.

        The inner loop of the hint, written out to spare calls per child.  Columns are ids of
        the search's :class:`~.column_table.ColumnTable` and moves small numbers
        (:func:`~.pruned_moves.pack`), so a move is one lookup of the two columns it leaves, a
        position hashes twenty small numbers and the moves of a position met before are looked
        up.  A child's value is its parent's plus what its move changed: only the move's two columns
        change, so their scores before and after, an empty column more or fewer, a card turned
        (worth nothing here where :class:`Reveal` values it) and a run removed."""
        node_id, ids, down, value, depth, first, unknown, back = node
        depth += 1
        values_unknown, table = self.values_unknown, self.table
        moves = table.children.get((ids, down))
        if moves is None:
            moves = table.children_of(ids, down)
        id_scores = self.id_scores
        seen_by_down, scores, best, parents, keys, open_nodes = (
            self.seen,
            id_scores.current(),
            self.best,
            self.parents,
            self.keys,
            self.open,
        )
        table_moves = table.moves
        facts = table.current_reveal_facts() if values_unknown else _NO_FACTS
        seen_here = seen_by_down[down]
        empty, turn, run = self.weights
        step = self.step * depth
        generated = 0
        for packed in moves:
            if packed == back:
                continue  # it leads back to the parent, which is seen
            src = packed & 15
            dst = packed >> 4 & 15
            count = packed >> 8
            old_src, old_dst = ids[src], ids[dst]
            moved = table_moves.get(old_src << 32 | old_dst << 4 | count)  # move_key
            if moved is None:
                moved = table.move(old_src, old_dst, count)
                # With the scores (and facts) of any column the move made:
                scores = id_scores.current()
                if values_unknown:
                    facts = table.current_reveal_facts()
            new_src, new_dst, run_suit = moved
            new_down = down  # a new tuple only when a card turns (most moves turn none)
            flipped = 0
            # A card turns as apply_visible turns it (the kernel's rule, ``turns_over``).
            if not new_src and turns_over(down[src], down[src]):
                new_down = one_less_down(new_down, src)
                new_src = UNKNOWN_ID
                flipped = 1
            if run_suit >= 0 and not new_dst and turns_over(new_down[dst], new_down[dst]):
                new_down = one_less_down(new_down, dst)
                new_dst = UNKNOWN_ID
                flipped += 1
            placed = list(ids)
            placed[src] = new_src
            placed[dst] = new_dst
            new_ids = tuple(placed)
            if flipped:
                seen = seen_by_down.get(new_down)
                if seen is None:
                    seen = seen_by_down[new_down] = set()
            else:
                seen = seen_here
            size = len(seen)
            seen.add(new_ids)
            if len(seen) == size:
                continue  # seen before (one hash instead of a lookup and an add)
            generated += 1
            if run_suit >= 0 and self._blocks_deals(ids, down):
                continue
            child = value + (
                empty * ((not new_src) + (not new_dst) - (not old_src) - (not old_dst))
                + scores[2 * new_src + (new_down[src] > 0)]
                + scores[2 * new_dst + (new_down[dst] > 0)]
                - scores[2 * old_src + (down[src] > 0)]
                - scores[2 * old_dst + (down[dst] > 0)]
                + turn * flipped
                + (run if run_suit >= 0 else 0.0)
            )
            child_id = len(parents)
            parents.append((node_id, packed))
            root_move = child_id if first < 0 else first
            net = child - step
            turned = unknown or flipped > 0
            if turned and values_unknown:
                net += self.reveal().value_of_facts(
                    [facts[column_id] for column_id in new_ids], new_down
                )
            known = best.get(root_move)
            if known is None or net > known[0]:
                best[root_move] = (net, child_id)
            node = (
                child_id,
                new_ids,
                new_down,
                child,
                depth,
                root_move,
                turned,
                -1 if run_suit >= 0 else dst | src << 4 | count << 8,
            )
            key = -net
            nodes = open_nodes.get(key)
            if nodes is None:
                open_nodes[key] = deque((node,))
                heapq.heappush(keys, key)
            else:
                nodes.append(node)
        self.nodes += generated


def refill_move(
    columns: Columns,
    down: tuple[int, ...],
    flexible: bool,
    evaluation: Evaluation,
    roots: tuple[int, int],
) -> Move | None:
    """The move into an empty column that :func:`best_fill` would choose with nothing
    visited (the first of the best), or None; ``roots`` are the search root's ``total0`` and
    ``down0``.

    Only the two columns of a fill change, so fills are first compared by how their column
    scores change, which needs no sum over the table; the few whose change is the best (to
    within rounding) are then valued whole, in :func:`best_fill`'s order, so that the same
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
                change = column_score((UNKNOWN,), down[src] - 1) - removed + evaluation.turn
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
    best = _first_best_fill(columns, down, closest, roots, evaluation, NOTHING_VISITED)
    return None if best is None else best[1]


_ROUNDING: Final = 1e-6
"""Far above the rounding error of a sum of weights: fills whose changes are closer than this
are valued whole (one that loses by more loses in the whole value too)."""


_NO_FACTS: Final[list[int]] = []
"""The reveal facts a lookahead that values no unknown card reads (none)."""

_Best = tuple[float, tuple[Move, ...]]
# A search node: (id, column ids, down, value, depth, id of its first move's node,
# whether a card was turned on the way, the packed reverse of the move that led to it, which
# leads straight back, or -1 at the root and after a run removed: then the reverse moves other
# cards); ``value`` leaves out the worth of unknown cards.  After a move that turned a card its
# reverse is never generated (nothing can go onto the unknown card), so skipping it changes
# nothing there.
_Node = tuple[int, tuple[int, ...], tuple[int, ...], float, int, int, bool, int]


def _line(parents: list[tuple[int, int]], node: int) -> tuple[Move, ...]:
    moves = []
    while node >= 0:
        node, move = parents[node]
        moves.append(unpack(move))
    return tuple(reversed(moves))


def useful_moves(columns: Columns, down: tuple[int, ...], flexible: bool) -> list[Move]:
    """Legal moves minus ones that cannot help (a pruned subset of ``visible_moves``).

    Dropped: every empty destination but the first (empty columns are interchangeable for the
    lookahead); a whole column without face-down cards into an empty column (it only swaps the
    two); and *sideways* moves.  A group that sits on the card one rank higher moves only onto
    a card of its own suit, and when it sits on one of its own suit only onto a longer run of
    that suit; unless the card it frees is *wanted* (some movable group has, at the bottom of a
    one-suit segment, the card one rank lower of the same suit), then it may move anywhere.
    Under the classic rule a group sitting on an off-suit card one rank higher may also move
    anywhere when that frees a *loose* group (see :func:`~.pruned_moves.column_info`): in 4-suit
    games most builds are off-suit, and untangling them is what turns cards.
    """
    infos = [column_info(column, flexible) for column in columns]
    return [unpack(move) for move in useful_packed_moves(infos, down)]


def leads_back(columns: Columns, down: tuple[int, ...], move: Move, visited: Visited) -> bool:
    """True when ``move`` returns to a position in ``visited``."""
    if not visited:
        return False
    applied = apply_visible(columns, down, move)
    return (applied.columns, applied.down) in visited


def line_end(view: VisibleView, line: tuple[Move, ...]) -> tuple[Columns, tuple[int, ...]]:
    """The visible position ``line`` leads to (turned cards are :data:`UNKNOWN`)."""
    columns, down = view.columns, view.down
    for move in line:
        applied = apply_visible(columns, down, move)
        columns, down = applied.columns, applied.down
    return columns, down


Gain = tuple[float, Move, tuple[Move, ...]]
"""A helpful first move: the gain of its best line, the move and the line."""


_Results = dict[Move, "_Best"]


def _search_from(
    view: VisibleView, node_budget: int, stop: Callable[[], bool] | None, params: HintParams
) -> tuple[Lookahead, _Results, float]:
    """The lookahead's best line for each first move, the search, and the root's value as
    gains are measured from it (with its empty columns refilled while a deal is still to
    come)."""
    columns, down = view.columns, view.down
    search = Lookahead(view, node_budget, params)
    results, root_value = search.run(columns, down, stop)
    return search, results, root_value - search.refill_loss(columns, down)


def helpful_lines(
    view: VisibleView,
    node_budget: int,
    visited: Visited,
    stop: Callable[[], bool] | None,
    params: HintParams,
) -> tuple[Lookahead, list[Gain]]:
    """The lookahead's helpful first moves, best first, each with its best line and gain (more
    than :attr:`~spider.solver.params.HintParams.helps` of ``params``)."""
    columns, down = view.columns, view.down
    search, results, root_refilled = _search_from(view, node_budget, stop, params)
    helps = params.helps
    gains = [
        (_line_gain(view, search, value, line, root_refilled), move, line)
        for move, (value, line) in results.items()
        if not leads_back(columns, down, move, visited)
    ]
    helpful = sorted(
        (item for item in gains if item[0] > helps), key=lambda item: (-item[0], item[1])
    )
    return search, helpful


def _line_gain(
    view: VisibleView, search: Lookahead, value: float, line: tuple[Move, ...], root_refilled: float
) -> float:
    """The gain of ``line``, worth ``value`` in ``search``: its end against the root, both with
    their empty columns refilled while a deal is still to come."""
    return value - search.refill_loss(*line_end(view, line)) - root_refilled


def lookahead_gain(
    view: VisibleView,
    node_budget: int,
    visited: Visited = frozenset(),
    params: HintParams | None = None,
) -> float:
    """The largest gain the hint's lookahead finds from ``view`` within ``node_budget``
    positions (0 when no move helps), without leading back to a position in ``visited``: how
    much better, by the hint's evaluation (with the weights of ``params``, by default the
    variant's), the best position in reach is (the gain of the first option :func:`hint_report`
    would rank, before any weighing of turned cards).

    Cached: a player who follows a line asks about its end again at each of its moves."""
    if params is None:
        params = HintParams.for_view(view)
    key = (view, node_budget, visited, params)
    known = _gains_seen.get(key)
    if known is not None:
        return known
    if len(_gains_seen) >= _GAINS_SEEN_LIMIT:
        _gains_seen.clear()
    gain = _gains_seen[key] = _best_gain(view, node_budget, visited, params)
    return gain


_GAINS_SEEN_LIMIT: Final = 20_000
_gains_seen: dict[tuple[VisibleView, int, Visited, HintParams], float] = {}


def _best_gain(view: VisibleView, node_budget: int, visited: Visited, params: HintParams) -> float:
    """:func:`lookahead_gain`, worked out."""
    columns, down = view.columns, view.down
    search, results, root_refilled = _search_from(view, node_budget, None, params)
    helps = best = params.helps
    # Refilling never adds value, so a line whose value before refilling is no better than the
    # best gain so far cannot beat it: the refills of the others are never worked out.
    for value, line in sorted(results.values(), key=lambda item: -item[0]):
        if value - root_refilled <= best:
            break
        if not leads_back(columns, down, line[0], visited):
            best = max(best, _line_gain(view, search, value, line, root_refilled))
    return best if best > helps else 0.0


def best_fill(
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
