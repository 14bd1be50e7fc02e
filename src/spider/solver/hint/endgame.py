"""The quick hint's endgame: the full solver's answers once (almost) every card is in sight.

With the stock empty, all a player does not know is which unseen card lies in which face-down place,
and every arrangement is equally likely.  When no card is face down the player sees everything, and
the full solver decides the position itself.  When a few are
(:attr:`~spider.solver.params.EndgameParams.sampled_hidden` at most), the solver is asked about
several arrangements: *each* one when there are few
(:attr:`~spider.solver.params.EndgameParams.all_orders_hidden` cards), else
:attr:`~spider.solver.params.EndgameParams.samples` of them drawn at random with a seed made from
the visible position:

* every arrangement the solver wins gives a candidate, its winning line up to the first card it
  turns (those moves are legal whatever the hidden cards are; after them the player sees
  something new and asks again);
* every candidate is scored by the number of arrangements in which the position after it can
  still be won, and the best is chosen.

The solver of one arrangement knows where each card lies, so its line may win there by a luck
the player cannot count on; scoring every candidate on every arrangement is what keeps the
choice fair.  This is hindsight optimisation (Bjarnason, Fern & Tadepalli, ICAPS 2009), which
near the end, with little left to learn, is close to the best fair play.  Node limits, not
time, bound the solver, and the draws depend on the visible position alone, so the answer is
the same on every machine and whatever the face-down cards really are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations
from typing import Final

from spider.game import Game
from spider.moves import Move
from spider.solver.full.search import solve
from spider.solver.params import EndgameParams
from spider.solver.view import VisibleView, apply_visible, truncate_line

__all__ = ["EndgameLine", "EndgameParams", "endgame_line"]

_MEMORY_MB: Final = 128
"""The memory each solve may use."""


@dataclass(frozen=True, slots=True)
class EndgameLine:
    """A line chosen by the solver and how sure it is.

    ``line`` wins outright when ``arrangements`` is 0 (every card in sight); otherwise it ends
    with the first card it turns, and the position after it can still be won in ``wins`` of
    the ``arrangements`` arrangements of the face-down cards tried: every one, or as many
    drawn at random when ``sampled``.
    """

    line: tuple[Move, ...]
    wins: int
    arrangements: int
    sampled: bool = False

    @property
    def odds(self) -> str:
        """The arrangements still won after the line, in words (not for a certain line)."""
        ways = (
            f"{self.arrangements} ways the face-down cards may lie, drawn at random"
            if self.sampled
            else f"the {self.arrangements} ways the face-down cards may lie"
        )
        return f"a win is still possible in {self.wins} of {ways}"

    @property
    def certain(self) -> bool:
        """True when the line wins whatever happens (every card is in sight)."""
        return self.arrangements == 0


_Key = tuple[object, ...]
_decided: dict[_Key, EndgameLine | None] = {}
"""Endgames already decided, by visible position.  A player who follows a line asks again at
each step; the rest of the line answers at once."""


def endgame_line(view: VisibleView, params: EndgameParams | None = None) -> EndgameLine | None:
    """The solver's line for an endgame (stock empty, at most
    :attr:`~spider.solver.params.EndgameParams.sampled_hidden` cards face down), or None: not such
    an endgame, or the solver found no line that keeps a win.  ``params`` bounds the solver (by
    default :class:`~spider.solver.params.EndgameParams`' defaults)."""
    if params is None:
        params = _DEFAULTS
    if view.stock_cards or sum(view.down) > params.sampled_hidden:
        return None
    if len(view.removed_suits) != view.removed:
        return None
    key = _key(view.columns, view.down, view.removed_suits, view, params)
    if key in _decided:
        return _decided[key]
    found = _open_line(view, params) if not any(view.down) else _hindsight_line(view, params)
    if len(_decided) > 1000:
        _decided.clear()
    _decided[key] = found
    if found is not None:
        _remember_rest(view, found, params)
    return found


_DEFAULTS: Final = EndgameParams()


def _key(
    columns: tuple[tuple[int, ...], ...],
    down: tuple[int, ...],
    removed: tuple[int, ...],
    view: VisibleView,
    params: EndgameParams,
) -> _Key:
    return (columns, down, removed, view.game, view.suits, view.flexible, params)


def _remember_rest(view: VisibleView, found: EndgameLine, params: EndgameParams) -> None:
    """Store the rest of ``found`` under each position along it, up to its last move."""
    columns, down, removed = view.columns, view.down, view.removed_suits
    line = found.line
    for step, move in enumerate(line[:-1], 1):
        applied = apply_visible(columns, down, move)
        columns, down = applied.columns, applied.down
        if applied.run_suit >= 0:
            removed += (applied.run_suit,)
        rest = EndgameLine(line[step:], found.wins, found.arrangements, found.sampled)
        _decided[_key(columns, down, removed, view, params)] = rest


def _solution(game: Game, nodes: int) -> tuple[Move, ...] | None:
    """The solver's winning line for ``game`` (card moves only: the stock is empty), or None
    when it finds none within ``nodes`` positions."""
    result = solve(game, time_limit=None, node_limit=nodes, memory_limit_mb=_MEMORY_MB)
    if result.status != "winnable":
        return None
    return tuple(map(Move.from_text, result.solution))


def _without_loops(view: VisibleView, line: tuple[Move, ...]) -> tuple[Move, ...]:
    """``line`` with every stretch that comes back to a position it passed cut out.

    The solver's line may move a card away and back (a loop it never needed).  Left in, the
    rest of the line stored under the position it came back to would replace the whole line
    there, so the same position asked twice would get two answers."""
    position = (view.columns, view.down)
    passed = [position]
    kept: list[Move] = []
    for move in line:
        applied = apply_visible(*position, move)
        position = (applied.columns, applied.down)
        if position in passed:
            back = passed.index(position)
            del passed[back + 1 :], kept[back:]
        else:
            passed.append(position)
            kept.append(move)
    return tuple(kept)


def _open_line(view: VisibleView, params: EndgameParams) -> EndgameLine | None:
    """Every card in sight: the solver's winning line, if it finds one."""
    game = view.arranged(())
    line = None if game is None else _solution(game, params.open_nodes)
    return EndgameLine(_without_loops(view, line), 0, 0) if line else None


def _hindsight_line(view: VisibleView, params: EndgameParams) -> EndgameLine | None:
    """A few cards face down: the candidate line that keeps a win in most arrangements tried."""
    unseen = sorted(card for card, copies in view.unseen_cards().items() for _ in range(copies))
    if len(unseen) != sum(view.down):
        return None  # a hand-built view whose cards are not a whole deck
    arrangements = [
        game
        for order in _orders(view, unseen, params)
        if (game := view.arranged(order)) is not None
    ]
    candidates: list[tuple[Move, ...]] = []
    for game in arrangements:
        solution = _solution(game, params.arrangement_nodes)  # solve() leaves the game as it is
        if solution is not None:
            segment = truncate_line(view, solution, at_runs=False)  # to the first card turned
            segment = _without_loops(view, segment)
            if segment not in candidates:
                candidates.append(segment)
        if len(candidates) == params.candidates:
            break
    best: EndgameLine | None = None
    for segment in candidates:
        wins = sum(
            _still_winnable(game, segment, params.arrangement_nodes) for game in arrangements
        )
        if best is None or wins > best.wins:
            sampled = len(unseen) > params.all_orders_hidden
            best = EndgameLine(segment, wins, len(arrangements), sampled)
        if wins == len(arrangements):
            break
    return best


def _orders(view: VisibleView, unseen: list[int], params: EndgameParams) -> list[tuple[int, ...]]:
    """Every distinct order of ``unseen`` when there are few, else
    :attr:`~spider.solver.params.EndgameParams.samples` shuffles drawn with a seed made from the
    visible position alone (so the same position always gets the same ones, whatever the face-down
    cards really are)."""
    if len(unseen) <= params.all_orders_hidden:
        return sorted(set(permutations(unseen)))
    seed = repr((view.game, view.suits, view.flexible, view.columns, view.down, view.removed_suits))
    chance = random.Random(seed)  # a str seed is hashed by SHA-512: the same in every process
    orders = []
    for _ in range(params.samples):
        order = list(unseen)
        chance.shuffle(order)
        orders.append(tuple(order))
    return orders


def _still_winnable(game: Game, segment: tuple[Move, ...], nodes: int) -> bool:
    """True when the solver (over ``nodes`` positions) wins ``game`` after ``segment`` (whose
    moves only use visible cards, so they are legal in every arrangement)."""
    played = game.copy(history=False)
    for move in segment:
        played.move(*move)
    return _solution(played, nodes) is not None
