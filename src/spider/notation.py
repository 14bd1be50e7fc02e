"""Position notation: a whole position on one line of text, like FEN for chess.

Sections are separated by ``/``::

    spider 2 classic standard #3 / score=500 moves=0 removed=- / 5h 3s kd 10S / ... / 3h 4s

1. header: game, suits, rule, scoring, and ``#N`` when the position comes from deal number N;
2. counters: ``score=``, ``moves=`` and ``removed=`` (suit letters of removed runs in order,
   ``-`` for none);
3. one section per column, bottom to top: face-down cards in lower case, face-up cards in upper
   case, ``-`` for an empty column;
4. the stock in dealing order (written in lower case: it is face down), ``-`` when empty.

``docs/notation.md`` documents it with examples.  Every error is an
:class:`~spider.errors.InvalidPosition` (a ``ValueError``) with a stable ``code``, naming the
section, the token and its character offset.  A position that gives a deal number is checked
against that deal (:mod:`spider.position_checks`).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from spider.cards import RANK_NAMES, SUITS, card_text, parse_card_int
from spider.errors import InvalidPosition, PositionErrorCode
from spider.limits import MAX_POSITION_CHARS, excerpt
from spider.options import Options
from spider.position import Position
from spider.position_checks import check_counters, check_deal
from spider.shuffle import MAX_NUMBER

__all__ = ["format_position", "parse_position"]

_TOKEN_RE: Final = re.compile(r"\S+")
_COUNTER_RE: Final = re.compile(r"^(score|moves|removed)=(.*)$")


def format_position(position: Position) -> str:
    """The position in text notation."""
    options = position.options
    header = f"{options.game} {options.suits} {options.rule} {options.scoring}"
    if position.number is not None:
        header += f" #{position.number}"
    removed = "".join(SUITS[suit] for suit in position.removed) or "-"
    sections = [header, f"score={position.score} moves={position.moves} removed={removed}"]
    for column, face_down in zip(position.columns, position.face_down, strict=True):
        sections.append(_format_column(column, face_down))
    stock = " ".join(card_text(card).lower() for card in position.stock)
    sections.append(stock or "-")
    return " / ".join(sections)


def _format_column(column: tuple[int, ...], face_down: int) -> str:
    if not column:
        return "-"
    return " ".join(
        card_text(card).lower() if position < face_down else card_text(card)
        for position, card in enumerate(column)
    )


class _Reader:
    """Splits the text into sections and reports errors with their place."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections: list[tuple[int, str]] = []
        start = 0
        for part in text.split("/"):
            self.sections.append((start, part))
            start += len(part) + 1

    def tokens(self, index: int) -> list[tuple[int, str]]:
        offset, part = self.sections[index]
        return [(offset + match.start(), match.group()) for match in _TOKEN_RE.finditer(part)]

    def error(
        self, section: int, offset: int | None, message: str, code: PositionErrorCode
    ) -> InvalidPosition:
        names = {0: "header", 1: "counters"}
        name = names.get(section, f"section {section + 1}")
        where = f"{name}" if offset is None else f"{name}, character {offset + 1}"
        return InvalidPosition(f"position text, {where}: {message}", code)


def parse_position(text: str) -> Position:
    """Read position text; :class:`InvalidPosition` (a ``ValueError``) says where it is bad."""
    if not isinstance(text, str):
        raise InvalidPosition(f"position text must be a str, not {type(text).__name__}", "not-text")
    if len(text) > MAX_POSITION_CHARS:
        raise InvalidPosition(
            f"position text: {len(text):,} characters is more than the {MAX_POSITION_CHARS:,} "
            "allowed",
            "too-long",
        )
    if not text.isascii():
        at = next(index for index, char in enumerate(text) if not char.isascii())
        raise InvalidPosition(
            f"position text, character {at + 1}: {text[at]!r} is not ASCII (cards, counters and "
            "names are written in ASCII letters and digits)",
            "not-ascii",
        )
    reader = _Reader(text.strip())
    options, number = _parse_header(reader)
    expected = 2 + options.column_count + 1
    if len(reader.sections) != expected:
        raise InvalidPosition(
            f"position text: a {options.game} position has {expected} sections separated by '/' "
            f"(header, counters, {options.column_count} columns, stock), "
            f"not {len(reader.sections)}",
            "bad-sections",
        )
    score, moves, removed = _parse_counters(reader, options)
    columns: list[list[int]] = []
    face_down: list[int] = []
    for column_number in range(options.column_count):
        section = 2 + column_number
        cards, down = _parse_column(reader, section, column_number)
        columns.append(cards)
        face_down.append(down)
    stock_section = 2 + options.column_count
    stock = _parse_cards(reader, stock_section, allow_upper=True)[0]
    valid_size = len(stock) == 0 or (options.stock_size - len(stock)) % options.column_count == 0
    if not valid_size or len(stock) > options.stock_size:
        raise reader.error(
            stock_section,
            None,
            f"a {options.game} stock cannot hold {len(stock)} cards (it starts with "
            f"{options.stock_size} and each deal takes {options.column_count})",
            "bad-stock",
        )
    _check_composition(options, columns, stock, removed)
    check_counters(options, columns, face_down, len(stock), removed, score, moves)
    if number is not None:
        check_deal(options, number, columns, face_down, stock, removed, score, moves)
    return Position(
        options,
        number,
        tuple(map(tuple, columns)),
        tuple(face_down),
        tuple(stock),
        tuple(removed),
        score,
        moves,
    )


def _parse_header(reader: _Reader) -> tuple[Options, int | None]:
    tokens = reader.tokens(0)
    words = [word for _, word in tokens]
    if len(words) not in (4, 5):
        raise reader.error(
            0,
            None,
            "expected 'GAME SUITS RULE SCORING [#NUMBER]', such as 'spider 2 classic standard'",
            "bad-header",
        )
    for offset, word in tokens[:4]:
        if len(word) > 12:
            raise reader.error(
                0,
                offset,
                f"{excerpt(word)} is not a game, suit count, rule or scoring",
                "bad-header",
            )
    game, suits_text, rule, scoring = (word.lower() for word in words[:4])
    if not suits_text.isdigit():
        raise reader.error(
            0, tokens[1][0], f"suits must be 1, 2 or 4, not {excerpt(suits_text)}", "bad-header"
        )
    try:
        options = Options.make(game, int(suits_text), rule, scoring)
    except ValueError as error:
        raise reader.error(0, None, str(error), "bad-header") from None
    number = None
    if len(words) == 5:
        offset, word = tokens[4]
        digits = word[1:]
        if not (
            word.startswith("#")
            and digits.isascii()
            and digits.isdigit()
            and len(digits) <= 10
            and int(digits) <= MAX_NUMBER
        ):
            raise reader.error(
                0,
                offset,
                f"expected '#' and a deal number 0-{MAX_NUMBER}, not {excerpt(word)}",
                "bad-header",
            )
        number = int(word[1:])
    return options, number


def _parse_counters(reader: _Reader, options: Options) -> tuple[int, int, list[int]]:
    values: dict[str, str] = {}
    for offset, token in reader.tokens(1):
        match = _COUNTER_RE.match(token)
        if match is None:
            raise reader.error(
                1,
                offset,
                f"expected score=N, moves=N or removed=SUITS, not {excerpt(token)}",
                "bad-counters",
            )
        key, value = match.groups()
        if key in values:
            raise reader.error(1, offset, f"{key} is given twice", "bad-counters")
        values[key] = value
        if key in ("score", "moves") and not re.fullmatch(r"-?[0-9]{1,9}", value):
            raise reader.error(
                1,
                offset,
                f"{key} must be a whole number of at most 9 digits, not {excerpt(value)}",
                "bad-counters",
            )
        if (
            key == "removed"
            and value != "-"
            and not all(letter in options.suit_letters for letter in value.upper())
        ):
            raise reader.error(
                1,
                offset,
                f"removed lists suit letters among {''.join(options.suit_letters)}, or '-', "
                f"not {excerpt(value)}",
                "bad-counters",
            )
    for key in ("score", "moves", "removed"):
        if key not in values:
            raise reader.error(1, None, f"{key}= is missing", "bad-counters")
    moves = int(values["moves"])
    if moves < 0:
        raise reader.error(1, None, "moves cannot be negative", "bad-counters")
    removed_text = values["removed"].upper()
    removed = [] if removed_text == "-" else [SUITS.index(letter) for letter in removed_text]
    if len(removed) > options.runs_to_win:
        raise reader.error(
            1, None, f"{options.game} has only {options.runs_to_win} runs to remove", "bad-counters"
        )
    return int(values["score"]), moves, removed


def _parse_cards(
    reader: _Reader, section: int, allow_upper: bool
) -> tuple[list[int], list[bool], list[int]]:
    tokens = reader.tokens(section)
    if len(tokens) == 1 and tokens[0][1] == "-":
        return [], [], []
    if not tokens:
        raise reader.error(section, None, "empty section: write '-' for no cards", "bad-card")
    cards: list[int] = []
    hidden: list[bool] = []
    offsets: list[int] = []
    for offset, token in tokens:
        try:
            card = parse_card_int(token)
        except ValueError:
            raise reader.error(
                section,
                offset,
                f"{excerpt(token)} is not a card (rank A,2-10,J,Q,K then suit S,H,D,C)",
                "bad-card",
            ) from None
        cards.append(card)
        hidden.append(token == token.lower() and not allow_upper)
        offsets.append(offset)
    return cards, hidden, offsets


def _parse_column(reader: _Reader, section: int, column_number: int) -> tuple[list[int], int]:
    cards, hidden, offsets = _parse_cards(reader, section, allow_upper=False)
    down = 0
    while down < len(hidden) and hidden[down]:
        down += 1
    for position in range(down, len(cards)):
        if hidden[position]:
            raise reader.error(
                section,
                offsets[position],
                f"column {column_number}: face-down cards (lower case) must all come before the "
                "face-up ones",
                "bad-column",
            )
    if cards and down == len(cards):
        raise reader.error(
            section,
            None,
            f"column {column_number}: the last card of a column is always face up",
            "bad-column",
        )
    face_up = cards[down:]
    if (
        len(face_up) >= 13
        and face_up[-1] & 15 == 1
        and all(face_up[-1 - step] == face_up[-1] + step for step in range(1, 13))
    ):
        raise reader.error(
            section,
            None,
            f"column {column_number} ends in a complete run, which would already have left the "
            "table",
            "bad-column",
        )
    return cards, down


def _check_composition(
    options: Options, columns: list[list[int]], stock: list[int], removed: list[int]
) -> None:
    present: Counter[int] = Counter(stock)
    for column in columns:
        present.update(column)
    for suit in removed:
        present.update(suit << 4 | rank for rank in range(1, 14))
    expected = Counter(options.composition())
    if present == expected:
        return
    problems = []
    for card in sorted(set(expected) | set(present)):
        have, want = present[card], expected[card]
        if have != want:
            name = RANK_NAMES[card & 15] + SUITS[card >> 4]
            problems.append(f"{name} {have} time{'s' if have != 1 else ''} instead of {want}")
    raise InvalidPosition(
        f"position text: the cards are not those of a {options.suits}-suit {options.game} game: "
        + "; ".join(problems[:4])
        + ("; …" if len(problems) > 4 else ""),
        "bad-cards",
    )
