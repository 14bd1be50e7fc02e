"""Moves and their text notation.

A card move is written with column letters ``a`` (the first column) to ``j`` and the number of
cards when it is more than one: ``ad`` moves one card from column a to column d, ``bc3`` moves the
three top cards of column b onto column c.  A deal is written ``deal``.  A game record is these
tokens separated by spaces.

:func:`parse_action` reads either kind (``spider.parse_action("deal") == "deal"``,
``spider.parse_action("bc3") == Move(1, 2, 3)``) and :func:`action_text` writes it back, so
``parse_action(action_text(action)) == action`` for every action.  Bad text raises
:class:`~spider.errors.InvalidAction`, a ``ValueError`` with a stable ``code``.
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple, TypeAlias

from spider.errors import InvalidAction
from spider.limits import excerpt

__all__ = [
    "DEAL",
    "MAX_ACTION_TEXT",
    "Action",
    "Move",
    "action_from_text",
    "action_text",
    "parse_action",
]

_COLUMN_LETTERS: Final = "abcdefghij"
_MOVE_RE: Final = re.compile(r"^([a-j])([a-j])([1-9][0-9]{0,2})?$", re.ASCII)

MAX_ACTION_TEXT: Final = 64
"""The longest action text read (spaces around it included); longer is ``too-long``."""


def _clean(text: object, what: str) -> str:
    """``text`` stripped and lower-cased, or :class:`InvalidAction` when it cannot be one."""
    if not isinstance(text, str):
        raise InvalidAction(
            f"not {what}: {excerpt(text)} (an action is text such as 'ad', 'bc3' or 'deal')",
            "not-text",
        )
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(
            f"not {what}: {excerpt(text)} is longer than {MAX_ACTION_TEXT} characters", "too-long"
        )
    return text.strip().lower()


class Move(NamedTuple):
    """A card move: the ``count`` top cards of column ``src`` onto column ``dst`` (0-based)."""

    src: int
    dst: int
    count: int = 1  # type: ignore[assignment]  # the field shadows tuple.count on purpose

    def text(self) -> str:
        """The move in notation: ``Move(0, 3, 2).text() == 'ad2'``."""
        letters = _COLUMN_LETTERS[self.src] + _COLUMN_LETTERS[self.dst]
        return letters if self.count == 1 else f"{letters}{self.count}"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read a card move such as ``'ad'`` or ``'bc3'``.

        Raises :class:`~spider.errors.InvalidAction` (a ``ValueError``) if it is not one; for
        ``'deal'`` its code is ``not-a-move``: read text that may be a deal with
        :func:`parse_action`.
        """
        cleaned = _clean(text, "a move")
        if cleaned == DEAL:
            raise InvalidAction(
                "not a move: 'deal' is a deal, not a card move (read either with "
                "spider.parse_action)",
                "not-a-move",
            )
        return _read_move(cleaned, text, "a move")


def _read_move(cleaned: str, text: object, what: str) -> Move:
    """The move written ``cleaned`` (``text`` as given, for the message)."""
    match = _MOVE_RE.match(cleaned) if cleaned.isascii() else None
    if match is None:
        tail = ")" if what == "a move" else ", or 'deal')"
        raise InvalidAction(
            f"not {what}: {excerpt(text)} (expected two column letters a-j and an optional "
            "count, such as 'ad' or 'bc3'" + tail,
            "bad-shape",
        )
    src, dst, count = match.groups()
    return Move(_COLUMN_LETTERS.index(src), _COLUMN_LETTERS.index(dst), int(count or 1))


DEAL: Final = "deal"
"""The action of dealing from the stock, in game records and redo lists."""

Action: TypeAlias = Move | Literal["deal"]


def action_text(action: Action) -> str:
    """Notation of a move or a deal."""
    return DEAL if isinstance(action, str) else action.text()


def parse_action(text: object) -> Action:
    """Read an action in notation: ``'deal'`` gives :data:`DEAL`, ``'bc3'`` gives
    ``Move(1, 2, 3)``.  Spaces around it and upper case are accepted.

    Raises :class:`~spider.errors.InvalidAction` (a ``ValueError``; ``code`` is ``not-text``,
    ``too-long`` or ``bad-shape``) when the text is neither.  Whether the rules allow the action
    is not checked here: :meth:`spider.Game.push` does that.

    Examples:
        >>> parse_action("deal"), parse_action("BC3")
        ('deal', Move(src=1, dst=2, count=3))
    """
    cleaned = _clean(text, "an action")
    return DEAL if cleaned == DEAL else _read_move(cleaned, text, "an action")


action_from_text = parse_action
"""The former name of :func:`parse_action`, kept for callers that use it."""
