"""The moves the hint's lookahead tries: legal card moves minus those that cannot help.

:func:`useful_packed_moves` is the rule (see :func:`~.lookahead.useful_moves` for what it
drops and why); it reads each column through its :func:`column_info`, worked out once per
column, and gives each move as one small number (:func:`pack`), which the lookahead turns into a
:class:`~spider.moves.Move` only for the lines it returns.
"""

from __future__ import annotations

from typing import final

from spider.moves import Move
from spider.rules import CARD_MOVES, EMPTY, MOST_COLUMNS, MOVE_STRIDE, UNKNOWN, destination_index
from spider.solver.hint.evaluation import is_loose
from spider.solver.view import group_length

__all__ = [
    "Info",
    "Piece",
    "column_info",
    "pack",
    "unpack",
    "useful_packed_moves",
]

Piece = tuple[int, int, int, int]
"""A group a column can move: ``(count, moved card, parent, leave)``, see :func:`column_info`."""


@final
class Info:
    """What move generation asks of a column (see :func:`column_info`).

    ``pieces``: the groups it can move, smallest first; ``wanted``: the cards its one-suit
    segments want, as bits (card ``c`` is ``1 << (c - 1)``); ``top_run``: the length of its top
    one-suit group; ``size``: its length; ``top``: its top card (:data:`~spider.rules.EMPTY` when
    empty); ``ranks``: the ranks of its pieces' lowest cards, as bits (``1 << rank``).

    A class rather than a tuple: the compiled build reads its fields in place, where it would
    convert a tuple field by field each time one moved between lists.
    """

    __slots__ = ("pieces", "ranks", "size", "top", "top_run", "wanted")

    def __init__(
        self, pieces: list[Piece], wanted: int, top_run: int, size: int, top: int, ranks: int
    ) -> None:
        self.pieces = pieces
        self.wanted = wanted
        self.top_run = top_run
        self.size = size
        self.top = top
        self.ranks = ranks


def pack(src: int, dst: int, count: int) -> int:
    """A move as one number: ``src | dst << 4 | count << 8`` (columns are fewer than 16)."""
    return src | dst << 4 | count << 8


def unpack(packed: int) -> Move:
    """The :class:`~spider.moves.Move` of a :func:`pack`\\ ed number: one of the moves made
    once (:data:`~spider.rules.CARD_MOVES`), where a named tuple made here would run its
    ``__new__`` in the interpreter also in the compiled build."""
    pair = (packed & 15) * MOST_COLUMNS + (packed >> 4 & 15)
    return CARD_MOVES[pair * MOVE_STRIDE + (packed >> 8)]


def column_info(column: tuple[int, ...], flexible: bool) -> Info:
    """The groups a column can move, the cards its one-suit segments want, the length of its
    top one-suit group, its length, its top card and the ranks its groups' lowest cards have
    (:class:`Info`).

    A piece is ``(count, moved card, parent, leave)``: ``parent`` is the card under the group
    when it is one rank higher and moving off it is sideways (else 0) and ``leave`` the length
    of the one-suit run the group would leave when that parent is of its own suit (else 0).
    """
    length = group_length(column, flexible)
    size = len(column)
    pieces = []
    wanted = 0
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
            wanted |= 1 << moved  # the card moved + 1
    top_run = length if not flexible else group_length(column, False)
    ranks = 0
    for _, moved, _, _ in pieces:
        ranks |= 1 << (moved & 15)
    return Info(pieces, wanted, top_run, size, column[-1] if column else EMPTY, ranks)


def _frees_loose_group(rest: tuple[int, ...]) -> bool:
    """True when the one-suit group on top of ``rest`` could move somewhere new.

    That group is *loose* when it does not sit on the card one rank higher: it lies on a
    face-down card, at the bottom of its column or on an unrelated card, so moving it would turn
    a card, empty a column or untangle the column.
    """
    return is_loose(rest, group_length(rest, False))


def useful_packed_moves(infos: list[Info], down: tuple[int, ...]) -> list[int]:
    """The useful moves of the columns whose :func:`column_info` are ``infos``, packed, in the
    order of ``visible_moves``.

    A group that sits on the card one rank higher (a *sideways* move) goes only onto a card of
    its own suit, and when that card is of its suit too only onto a longer run of it, unless
    some column wants the card it frees; only the first empty column is a destination, and
    never for a whole column without face-down cards.
    """
    targets, empties = destination_index([info.top for info in infos])
    first_empty = empties[0] if empties else -1
    reachable = 0  # the ranks that have a destination, as bits
    for rank, columns in enumerate(targets):
        if columns:
            reachable |= 1 << rank
    wanted = -1  # the cards the columns want, as bits, found when first needed
    moves: list[int] = []
    for src, info in enumerate(infos):
        if first_empty < 0 and not info.ranks & reachable:
            continue  # no group of this column has anywhere to go
        whole = info.size
        for count, moved, below, leave in info.pieces:
            onto = targets[moved & 15]
            if below:
                if wanted < 0:
                    # An empty or unknown-topped column wants nothing (it has no pieces).
                    wanted = 0
                    for other in infos:
                        wanted |= other.wanted
                if not wanted >> (below - 1) & 1:  # nobody wants the card it frees
                    for dst in onto:
                        target = infos[dst]
                        if target.top == moved + 1 and target.top_run > leave:
                            moves.append(src | dst << 4 | count << 8)
                    continue
            for dst in onto:
                moves.append(src | dst << 4 | count << 8)
            if first_empty >= 0 and (count < whole or down[src]):
                moves.append(src | first_empty << 4 | count << 8)
    return moves
