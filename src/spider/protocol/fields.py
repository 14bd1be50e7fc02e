"""What the protocol's operations share: error codes, answers, and readers of request fields
that check type and range (see ``docs/protocol.md``).

Operations live in :mod:`spider.protocol.session` (the game) and :mod:`spider.protocol.solver_ops`
(hints, the no-moves check, the solver); both build on this module only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, Literal, NamedTuple, Protocol, get_args

from spider.errors import IllegalMoveCode
from spider.game import Game
from spider.limits import check_undo_limit, excerpt
from spider.shuffle import MAX_NUMBER

__all__ = [
    "ERROR_CODES",
    "Answer",
    "ErrorCode",
    "GameHolder",
    "Handler",
    "ProtocolError",
    "bool_field",
    "choice_field",
    "int_field",
    "int_list_field",
    "is_int",
    "number_field",
    "ranged_int_field",
    "text_field",
    "undo_limit_field",
]

_ProtocolOnlyCode = Literal[
    "no-destination",
    "other-suit-only",
    "nothing-to-undo",
    "nothing-to-redo",
    "invalid-code",
    "invalid-position",
    "invalid-saved",
    "invalid-replay",
    "not-replayable",
    "not-backup",
    "backup-version",
    "bad-backup",
    "backup-too-large",
    "bad-request",
    "no-game",
    "internal-error",
]

ErrorCode = IllegalMoveCode | _ProtocolOnlyCode
"""Every error code a reply can carry (``docs/protocol.md`` says when each is given)."""

ERROR_CODES: Final[frozenset[str]] = frozenset(get_args(IllegalMoveCode)) | frozenset(
    get_args(_ProtocolOnlyCode)
)

INT_RANGE: Final = 2**31
"""Integer fields outside ±this are refused as ``bad-request`` before the engine sees them."""


class ProtocolError(Exception):
    """A request that cannot be answered; ``code`` is the stable error code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        if code not in ERROR_CODES:
            raise AssertionError(f"unknown protocol error code {code!r}")
        super().__init__(message)
        self.code: ErrorCode = code


def is_int(value: object, low: int = -INT_RANGE, high: int = INT_RANGE) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def int_field(request: dict[str, Any], name: str, default: int | None = None) -> int:
    value = request.get(name, default)
    if not isinstance(value, int) or not is_int(value):
        raise ProtocolError(
            "bad-request", f"field {name!r} must be an integer, not {excerpt(value)}"
        )
    return value


def ranged_int_field(
    request: dict[str, Any], name: str, low: int, high: int, default: int | None = None
) -> int:
    """An integer field from ``low`` to ``high`` (``default`` when absent)."""
    value = int_field(request, name, default)
    if not low <= value <= high:
        raise ProtocolError(
            "bad-request",
            f"field {name!r} must be an integer from {low} to {high}, not {excerpt(value)}",
        )
    return value


def int_list_field(request: dict[str, Any], name: str) -> list[int]:
    values = request.get(name, [])
    if not isinstance(values, list) or not all(is_int(value, 0, MAX_NUMBER) for value in values):
        raise ProtocolError(
            "bad-request", f"field {name!r} must be a list of deal numbers (0 to {MAX_NUMBER})"
        )
    return values


def choice_field(request: dict[str, Any], name: str, choices: tuple[Any, ...]) -> Any:
    """A field that must be one of ``choices`` exactly (the first is the default)."""
    value = request.get(name, choices[0])
    if not any(type(value) is type(choice) and value == choice for choice in choices):
        allowed = ", ".join(repr(choice) for choice in choices)
        raise ProtocolError(
            "bad-request", f"field {name!r} must be one of {allowed}, not {excerpt(value)}"
        )
    return value


def text_field(request: dict[str, Any], name: str, code: ErrorCode) -> str:
    value = request.get(name)
    if not isinstance(value, str):
        raise ProtocolError(code, f"field {name!r} must be text, not {excerpt(value)}")
    return value


def bool_field(request: dict[str, Any], name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise ProtocolError("bad-request", f"field {name!r} must be true or false")
    return value


def undo_limit_field(request: dict[str, Any], default: int | None) -> int | None:
    if "undo_limit" not in request:
        return default
    try:
        return check_undo_limit(request["undo_limit"], "field 'undo_limit'")
    except ValueError as error:
        raise ProtocolError("bad-request", str(error)) from None


class Answer(NamedTuple):
    """What an operation returns: the events for the page, and fields the reply carries besides
    the state (such as ``hint`` or ``solve``)."""

    events: list[dict[str, Any]]
    fields: dict[str, Any] = {}  # noqa: RUF012  # never modified: a fresh dict per reply


Handler = Callable[[dict[str, Any]], Answer]
"""An operation: the request in, the answer out (or :class:`ProtocolError`)."""


class GameHolder(Protocol):
    """What an operation may ask of the session: its game, and where progress goes."""

    progress: Callable[[dict[str, Any]], None] | None

    def require_game(self) -> Game:
        """The game, or :class:`ProtocolError` ``no-game``."""
        ...


def number_field(
    request: dict[str, Any], name: str, default: float, low: float, high: float
) -> float:
    """A number field (integer or finite float) from ``low`` to ``high``."""
    value = request.get(name, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not math.isfinite(value))
        or not low <= value <= high
    ):
        raise ProtocolError("bad-request", f"field {name!r} must be a number from {low} to {high}")
    return float(value)
