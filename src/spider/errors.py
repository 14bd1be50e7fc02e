"""Exceptions raised by the engine."""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = [
    "ACTION_ERRORS",
    "CODE_ERRORS",
    "POSITION_ERRORS",
    "ActionErrorCode",
    "CodeErrorCode",
    "IllegalMove",
    "IllegalMoveCode",
    "InvalidAction",
    "InvalidCode",
    "InvalidPosition",
    "PositionErrorCode",
]


IllegalMoveCode = Literal[
    "no-such-column",
    "same-column",
    "bad-count",
    "not-movable",
    "no-target",
    "stock-empty",
    "empty-column",
]
"""Why the rules refuse a move or deal (:attr:`IllegalMove.code`)."""


class IllegalMove(ValueError):
    """A move or deal the rules refuse.

    ``code`` is a stable string a user interface can translate; ``str(error)`` says the same
    thing in English words.  The codes are ``no-such-column``, ``same-column``, ``bad-count``,
    ``not-movable``, ``no-target``, ``stock-empty`` and ``empty-column``.
    """

    CODES: Final[frozenset[str]] = frozenset(get_args(IllegalMoveCode))

    def __init__(self, code: IllegalMoveCode, message: str) -> None:
        if code not in self.CODES:
            raise AssertionError(f"unknown IllegalMove code {code!r}")
        super().__init__(message)
        self.code: IllegalMoveCode = code


ActionErrorCode = Literal["not-text", "too-long", "bad-shape", "not-a-move"]
"""Why an action's text is refused (:attr:`InvalidAction.code`)."""

ACTION_ERRORS: Final[frozenset[str]] = frozenset(get_args(ActionErrorCode))


class InvalidAction(ValueError):
    """Text that is not an action in move notation (``'ad'``, ``'bc3'`` or ``'deal'``).

    A text that reads as an action but that the rules refuse is an :class:`IllegalMove`
    instead.  ``code`` is stable: ``not-text`` (not a str), ``too-long``, ``bad-shape`` (not two
    column letters ``a``-``j`` with an optional count from 1, nor ``deal``) or ``not-a-move``
    (``'deal'`` given where only a card move is read, as by :meth:`spider.Move.from_text`).
    """

    def __init__(self, message: str, code: ActionErrorCode) -> None:
        if code not in ACTION_ERRORS:
            raise AssertionError(f"unknown InvalidAction code {code!r}")
        super().__init__(message)
        self.code: ActionErrorCode = code


CodeErrorCode = Literal["not-text", "too-long", "not-ascii", "bad-shape", "bad-suits", "bad-rule"]
"""Why a game code is refused (:attr:`InvalidCode.code`)."""

CODE_ERRORS: Final[frozenset[str]] = frozenset(get_args(CodeErrorCode))


class InvalidCode(ValueError):
    """A game code that cannot be read; the message says what is wrong with it.

    ``code`` is stable: ``not-text`` (not a str), ``too-long``, ``not-ascii`` (codes are ASCII
    only), ``bad-shape`` (not ``SP1-S<suits><C|F>-<7 letters>`` nor ``SD1-S<suits>-<7 letters>``),
    ``bad-suits`` (not 1, 2 or 4) or ``bad-rule`` (a missing, unknown or extra rule letter).
    """

    def __init__(self, message: str, code: CodeErrorCode = "bad-shape") -> None:
        if code not in CODE_ERRORS:
            raise AssertionError(f"unknown InvalidCode code {code!r}")
        super().__init__(message)
        self.code: CodeErrorCode = code


PositionErrorCode = Literal[
    "not-text",
    "too-long",
    "not-ascii",
    "bad-header",
    "bad-sections",
    "bad-counters",
    "bad-card",
    "bad-column",
    "bad-stock",
    "bad-cards",
    "not-this-deal",
    "impossible-counters",
]
"""Why a position text is refused (:attr:`InvalidPosition.code`)."""

POSITION_ERRORS: Final[frozenset[str]] = frozenset(get_args(PositionErrorCode))


class InvalidPosition(ValueError):
    """A position text that cannot be read; the message names the section and character.

    ``code`` is stable: ``not-text``, ``too-long``, ``not-ascii`` (position texts are ASCII
    only, so no look-alike letter or digit is read as another), ``bad-header``,
    ``bad-sections`` (not one section per column plus header, counters and stock),
    ``bad-counters``, ``bad-card`` (a token that is not a card), ``bad-column`` (face-down
    cards after face-up ones, a face-down last card, a complete run left on the table),
    ``bad-stock`` (a size no game has), ``bad-cards`` (not the cards of the game),
    ``not-this-deal`` (it says ``#N`` but its face-down cards, the card on them, a card no play
    of deal N puts where it lies, or its stock are not deal N's), ``impossible-counters``
    (face-down cards, moves, runs and score that no game can show together).
    See ``docs/notation.md``.
    """

    def __init__(self, message: str, code: PositionErrorCode) -> None:
        if code not in POSITION_ERRORS:
            raise AssertionError(f"unknown InvalidPosition code {code!r}")
        super().__init__(message)
        self.code: PositionErrorCode = code
