"""Game codes: ``SP1-S2C-AAAAAAD`` (spider) and ``SD1-S4-AAAAABD`` (spiderette).

The seven letters are the deal number in base 26 (A=0), most significant letter first.
"""

from __future__ import annotations

import re
from typing import Final

from spider.errors import InvalidCode
from spider.limits import MAX_CODE_CHARS, excerpt
from spider.options import Options
from spider.shuffle import MAX_NUMBER

__all__ = ["format_code", "number_to_letters", "parse_code"]

_LETTERS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODE_RE: Final = re.compile(r"^(SP|SD)1-S([0-9])([A-Z]?)-([A-Z]*)$", re.ASCII)


def number_to_letters(number: int) -> str:
    """The seven base-26 letters of a deal number: 3 gives 'AAAAAAD', 29 'AAAAABD'."""
    if not 0 <= number <= MAX_NUMBER:
        raise ValueError(f"deal number must be from 0 to {MAX_NUMBER}, not {excerpt(number)}")
    letters = []
    for _ in range(7):
        number, digit = divmod(number, 26)
        letters.append(_LETTERS[digit])
    return "".join(reversed(letters))


def format_code(options: Options, number: int) -> str:
    """The code of deal ``number`` with these options (scoring is not part of a code)."""
    letters = number_to_letters(number)
    if options.game == "spider":
        return f"SP1-S{options.suits}{options.rule[0].upper()}-{letters}"
    return f"SD1-S{options.suits}-{letters}"


def parse_code(code: object, scoring: str = "standard") -> tuple[Options, int]:
    """Read a code into its options and deal number, or raise :class:`InvalidCode` (also for
    anything that is not text)."""
    if not isinstance(code, str):
        raise InvalidCode(f"a game code is text, not {type(code).__name__}", "not-text")
    if len(code) > MAX_CODE_CHARS:
        raise InvalidCode(
            f"{excerpt(code)} is not a game code: a code has 15 characters", "too-long"
        )
    if not code.isascii():
        raise InvalidCode(
            f"{excerpt(code)} is not a game code: codes use only ASCII letters and digits",
            "not-ascii",
        )
    text = code.strip().upper()
    shown = excerpt(code)
    match = _CODE_RE.match(text)
    if match is None:
        raise InvalidCode(
            f"{shown} is not a game code: expected SP1-S<suits><C|F>-<7 letters> for spider "
            "or SD1-S<suits>-<7 letters> for spiderette, such as SP1-S2C-AAAAAAD"
        )
    prefix, suits_text, rule_letter, letters = match.groups()
    suits = int(suits_text)
    if suits not in (1, 2, 4):
        raise InvalidCode(f"{shown}: the suit count must be 1, 2 or 4, not {suits}", "bad-suits")
    if prefix == "SP":
        if rule_letter not in ("C", "F"):
            raise InvalidCode(
                f"{shown}: a spider code gives the rule after the suits, C (classic) or F "
                "(flexible)",
                "bad-rule",
            )
        rule = "classic" if rule_letter == "C" else "flexible"
        game = "spider"
    else:
        if rule_letter:
            raise InvalidCode(
                f"{shown}: a spiderette code has no rule letter (classic only)", "bad-rule"
            )
        rule = "classic"
        game = "spiderette"
    if len(letters) != 7:
        raise InvalidCode(
            f"{shown}: the deal part must be exactly 7 letters A-Z, not {excerpt(letters)}"
        )
    number = 0
    for letter in letters:
        number = number * 26 + _LETTERS.index(letter)
    return Options.make(game, suits, rule, scoring), number
