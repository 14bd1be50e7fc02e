"""Exceptions raised by the engine."""

from __future__ import annotations

__all__ = ["IllegalMove", "InvalidCode"]


class IllegalMove(ValueError):
    """A move or deal the rules refuse.

    ``code`` is a stable string a user interface can translate; ``str(error)`` says the same
    thing in English words.  The codes are ``no-such-column``, ``same-column``, ``bad-count``,
    ``not-movable``, ``no-target``, ``stock-empty`` and ``empty-column``.
    """

    CODES = frozenset(
        {
            "no-such-column",
            "same-column",
            "bad-count",
            "not-movable",
            "no-target",
            "stock-empty",
            "empty-column",
        }
    )

    def __init__(self, code: str, message: str) -> None:
        if code not in self.CODES:
            raise AssertionError(f"unknown IllegalMove code {code!r}")
        super().__init__(message)
        self.code = code


class InvalidCode(ValueError):
    """A game code that cannot be read; the message says what is wrong with it."""
