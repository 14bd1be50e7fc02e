"""Where a group goes on a double-click, a tap or an auto-placed drop."""

from __future__ import annotations

from typing import Literal, NamedTuple

from spider.errors import IllegalMove
from spider.game import Game
from spider.limits import excerpt
from spider.moves import Move
from spider.rules import accepts

__all__ = ["NoDestination", "best_destination", "no_destination_reason"]

NoDestination = Literal["other-suit-only", "no-destination"]
"""Why a group has no automatic destination (see :func:`no_destination_reason`)."""


class _Targets(NamedTuple):
    """The first column of each kind, to the right of ``src`` and wrapping, that takes a group."""

    same_suit: Move | None
    other_suit: Move | None
    empty: Move | None
    whole_column: bool  # the group is the whole of its column


def _targets(game: Game, src: int, count: int) -> _Targets:
    """Where the group of ``count`` top cards of ``src`` may go, by kind of column; raises
    :class:`IllegalMove` when the group itself cannot be lifted."""
    position = game.position()
    columns = position.columns
    size = len(columns)
    if isinstance(src, bool) or not isinstance(src, int) or not 0 <= src < size:
        raise IllegalMove("no-such-column", f"there is no column {excerpt(src)}")
    if isinstance(count, bool) or not isinstance(count, int):
        raise IllegalMove("bad-count", f"the count must be an int, not {excerpt(count)}")
    face_up = len(columns[src]) - position.face_down[src]
    if count < 1 or count > face_up:
        raise IllegalMove(
            "bad-count", f"column {src} has {face_up} face-up cards; cannot lift {count}"
        )
    if count > game.movable_count(src):
        raise IllegalMove("not-movable", f"these {count} cards do not move together")
    lead = columns[src][-count]
    same_suit: Move | None = None
    other_suit: Move | None = None
    empty: Move | None = None
    for step in range(1, size):
        dst = (src + step) % size
        target = columns[dst]
        if not accepts(target, lead):
            continue
        if not target:
            if empty is None:
                empty = Move(src, dst, count)
        else:
            if target[-1] >> 4 == lead >> 4:
                if same_suit is None:
                    same_suit = Move(src, dst, count)
            elif other_suit is None:
                other_suit = Move(src, dst, count)
    return _Targets(same_suit, other_suit, empty, count == len(columns[src]))


def best_destination(game: Game, src: int, count: int) -> Move | None:
    """The column the group of ``count`` top cards of ``src`` goes to, or None when none takes it.

    The policy, the same for every interface:

    * spider: first a column whose last card is one rank higher and of the same suit, then one
      that is one rank higher of another suit, then an empty column;
    * spiderette: first a column one rank higher of the same suit, else an empty column (a
      different-suit target is never chosen automatically).

    Among equal choices the nearest column to the right of ``src`` wins, wrapping around, so
    that repeated clicks sweep the table predictably.  Raises :class:`IllegalMove` when the group
    itself cannot be lifted (bad column, bad count or not a movable group).
    """
    found = _targets(game, src, count)
    if found.same_suit is not None:
        return found.same_suit
    if game.game == "spider" and found.other_suit is not None:
        return found.other_suit
    if found.whole_column:
        # A whole column moved into an empty one changes nothing: never do it automatically.
        return None
    return found.empty


def no_destination_reason(game: Game, src: int, count: int) -> NoDestination:
    """Why :func:`best_destination` sends the group nowhere, as a stable code.

    ``"other-suit-only"``: in Spiderette the group could go onto a card of another suit, which a
    tap or a double-click never chooses (drag it there); ``"no-destination"``: no column chooses
    it.  Call it only after :func:`best_destination` returned None.
    """
    if game.game == "spiderette" and _targets(game, src, count).other_suit is not None:
        return "other-suit-only"
    return "no-destination"
