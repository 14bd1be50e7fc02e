"""The limits every boundary enforces, and the small checks that apply them.

Input from outside (a protocol request, a saved game, a position text, a game code, a command-line
argument) is checked against these bounds before the engine touches it, so no input can make the
engine raise anything but a ``ValueError`` with a short message.  ``docs/protocol.md`` and
``docs/notation.md`` document the values.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from typing import Any, Final, NoReturn

__all__ = [
    "MAX_CODE_CHARS",
    "MAX_JSON_DEPTH",
    "MAX_MESSAGE_CHARS",
    "MAX_POSITION_CHARS",
    "MAX_REQUEST_CHARS",
    "MAX_SAVED_ACTIONS",
    "MAX_SAVED_CHARS",
    "MAX_UNDO_LIMIT",
    "check_undo_limit",
    "excerpt",
    "json_depth",
    "load_json",
]

MAX_UNDO_LIMIT: Final = 1_000_000
"""The largest undo depth (``None`` means no limit at all)."""

MAX_REQUEST_CHARS: Final = 2_000_000
"""The longest protocol request, in characters (a saved game of many thousand moves fits)."""

MAX_SAVED_CHARS: Final = 1_000_000
"""The longest saved game (``Game.to_json`` text), in characters."""

MAX_SAVED_ACTIONS: Final = 140_000
"""The most actions (played and to redo) a saved game holds.  An action takes at most 7
characters in it (``"ab13",``) and the rest of a saved game at most about 2,000, so a game the
engine writes always fits :data:`MAX_SAVED_CHARS`; a longer game is written from a later start
(see :meth:`spider.game.Game.to_json`)."""

MAX_JSON_DEPTH: Final = 16
"""How deeply arrays and objects may nest in a request or a saved game (real ones use 2)."""

MAX_POSITION_CHARS: Final = 10_000
"""The longest position text (a real one has about 450 characters)."""

MAX_CODE_CHARS: Final = 64
"""The longest text read as a game code (a code has 15 characters)."""

MAX_MESSAGE_CHARS: Final = 200
"""Error messages stay under about this many characters: they never repeat a whole input."""

_EXCERPT_CHARS: Final = 40


def _short_repr(limit: int) -> reprlib.Repr:
    """A :class:`reprlib.Repr` that shows a few items of a container and short scalars."""
    short = reprlib.Repr()
    short.maxlevel = 2
    for name in ("maxtuple", "maxlist", "maxarray", "maxdict", "maxset", "maxfrozenset"):
        setattr(short, name, 4)
    short.maxdeque = 4
    short.maxstring = short.maxother = short.maxlong = limit
    return short


def excerpt(value: object, limit: int = _EXCERPT_CHARS) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for quoting input in an error message.

    Every error message that quotes what it was given goes through this, so none repeats a huge
    argument: a long text shows its start and length, a huge integer its size, a container its
    first items (:mod:`reprlib`), anything else its repr cut short.

    Examples:
        >>> excerpt("x" * 100)
        "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)"
        >>> excerpt(list(range(1000)))
        '[0, 1, 2, 3, ...]'
    """
    if isinstance(value, str) and len(value) > limit - 4:
        return f"{value[: limit - 4]!r}… ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a {value.bit_length()}-bit integer"
    if isinstance(value, (bytes, bytearray)) and len(value) > limit:
        text = f"{bytes(value[: limit // 2])!r}… ({len(value)} bytes)"
    elif isinstance(value, (str, int, float, bool, type(None))):
        text = repr(value)
    else:
        text = _short_repr(limit).repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_undo_limit(value: object, what: str = "undo_limit") -> int | None:
    """``value`` as an undo depth: an int from 0 to :data:`MAX_UNDO_LIMIT`, or None (no limit).

    Raises ``ValueError`` for anything else (floats, booleans, strings, out of range).
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_UNDO_LIMIT:
        raise ValueError(
            f"{what} must be an integer from 0 to {MAX_UNDO_LIMIT:,} or null (no limit), "
            f"not {excerpt(value)}"
        )
    return value


_STRING_RE: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET_RE: Final = re.compile(r"[\[\]{}]")


def json_depth(text: str, stop: int = MAX_JSON_DEPTH) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (strings ignored); stops counting
    once past ``stop``.  Text that is not JSON may give any number: the parser refuses it."""
    depth = deepest = 0
    for match in _BRACKET_RE.finditer(_STRING_RE.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {excerpt(text)} is too large")
    return value


def load_json(text: object, what: str, max_chars: int) -> Any:
    """Parse JSON ``text`` within the limits; ``ValueError`` naming ``what`` otherwise.

    Refused: text that is not a ``str``, longer than ``max_chars``, nested deeper than
    :data:`MAX_JSON_DEPTH`, holding ``NaN``/``Infinity``, a float too large for a double, or an
    integer of more digits than Python converts.
    """
    if not isinstance(text, str):
        raise ValueError(f"{what}: expected JSON text, not {type(text).__name__}")
    if len(text) > max_chars:
        raise ValueError(f"{what}: {len(text):,} characters is more than the {max_chars:,} allowed")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"{what}: arrays and objects nest more than {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as error:
        detail = str(error).split("\n", 1)[0]
        if len(detail) > 100:
            detail = detail[:99] + "…"
        raise ValueError(f"{what}: not JSON ({detail})") from None
