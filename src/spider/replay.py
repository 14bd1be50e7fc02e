"""Replay links: a game's code and every action played, packed into a short URL-safe text.

A link is ``#replay=`` + the game code + ``.`` + the actions packed in base64url (see
``docs/notation.md``, "Replay links")::

    #replay=SD1-S1-AAAAABD.AQAFAgEDBQAPPRv7

The packed bytes are a version byte (1), a flags byte (bit 0: reveal scoring), the number of
actions and, for each action, its index among the legal actions of the position it was played
in (legal moves sorted by source, destination and count, then ``deal`` when a deal is allowed),
numbers written as unsigned LEB128; then the CRC-32 of the code's ASCII bytes followed by every
byte before it, four bytes big-endian.  Decoding replays every action through the rules, so a
link either gives back exactly the game that made it or is refused with an
:class:`InvalidReplay` whose ``code`` says why.  A game has exactly one link: a code written
other than :func:`~spider.codes.format_code` writes it (lower case, ``SP1-S1F-…`` for
``SP1-S1C-…``) and a number padded with zero bytes are refused.

Examples:
    >>> from spider import Game
    >>> game = Game.from_code("SP1-S1C-AAAAAAD")
    >>> game.push(game.legal_moves()[0])
    >>> link = encode_replay(game)
    >>> decode_replay(link).final().to_text() == game.to_text()
    True
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from dataclasses import dataclass
from typing import Final, Literal, get_args

from spider.codes import format_code, parse_code
from spider.errors import InvalidCode
from spider.game import Game
from spider.limits import excerpt
from spider.moves import DEAL, Action, action_text

__all__ = [
    "LINK_PREFIX",
    "MAX_REPLAY_ACTIONS",
    "MAX_REPLAY_CHARS",
    "REPLAY_ERRORS",
    "REPLAY_VERSION",
    "InvalidReplay",
    "Replay",
    "ReplayErrorCode",
    "decode_replay",
    "encode_replay",
    "legal_actions",
    "replay_notation",
]

LINK_PREFIX: Final = "#replay="
REPLAY_VERSION: Final = 1
MAX_REPLAY_ACTIONS: Final = 20_000
"""The most actions a link holds (a real game has a few hundred)."""
MAX_REPLAY_CHARS: Final = 100_000
"""The longest link text read (20,000 actions of one byte fit in about 27,000 characters)."""

_FLAG_REVEAL: Final = 1
_CHECKSUM_BYTES: Final = 4
_BASE64URL_RE: Final = re.compile(r"^[A-Za-z0-9_-]*$", re.ASCII)

ReplayErrorCode = Literal[
    "not-text",
    "too-long",
    "not-ascii",
    "bad-shape",
    "bad-code",
    "bad-base64",
    "bad-version",
    "truncated",
    "bad-checksum",
    "bad-flags",
    "too-many-actions",
    "padded-number",
    "illegal-action",
    "trailing-data",
    "not-replayable",
]
"""Why a replay link is refused, or a game cannot be made into one (:attr:`InvalidReplay.code`)."""

REPLAY_ERRORS: Final[frozenset[str]] = frozenset(get_args(ReplayErrorCode))


class InvalidReplay(ValueError):
    """A replay link that cannot be read, or a game that cannot be shared as one.

    ``code`` is stable (see ``docs/notation.md``): ``bad-checksum`` for a link changed after it
    was made, ``truncated`` for one cut short, ``bad-version`` for one from a newer version, and
    so on; ``str(error)`` says the same in English.
    """

    def __init__(self, code: ReplayErrorCode, message: str) -> None:
        if code not in REPLAY_ERRORS:
            raise AssertionError(f"unknown InvalidReplay code {code!r}")
        super().__init__(message)
        self.code: ReplayErrorCode = code


@dataclass(frozen=True, slots=True)
class Replay:
    """A decoded link: the game code, its scoring and the actions played from the deal's start."""

    code: str
    scoring: str
    actions: tuple[Action, ...]

    def start(self) -> Game:
        """A new game at the deal's first layout, with no undo limit (a replay steps back)."""
        return Game.from_code(self.code, self.scoring, undo_limit=None)

    def final(self) -> Game:
        """The game after every action of the replay."""
        game = self.start()
        for action in self.actions:
            game.push(action)
        return game


def legal_actions(game: Game) -> list[Action]:
    """The actions a link indexes: legal moves by source, destination and count, then ``deal``
    when a deal is allowed."""
    actions: list[Action] = sorted(game.legal_moves())
    if game.can_deal:
        actions.append(DEAL)
    return actions


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _checksum(code: str, body: bytes) -> bytes:
    return zlib.crc32(code.encode("ascii") + body).to_bytes(_CHECKSUM_BYTES, "big")


def encode_replay(game: Game) -> str:
    """The replay link of ``game``: ``#replay=CODE.PACKED`` (see the module docstring).

    Only a game with a code that began at its deal's first layout can be replayed from its code:
    any other raises :class:`InvalidReplay` with code ``not-replayable``.
    """
    code = game.code
    if code is None or game.start_position().moves != 0:
        raise InvalidReplay(
            "not-replayable",
            "only a game with a code, played from its deal's start, can be shared as a replay",
        )
    if len(game.played) > MAX_REPLAY_ACTIONS:
        raise InvalidReplay(
            "too-many-actions", f"a replay holds at most {MAX_REPLAY_ACTIONS:,} actions"
        )
    replay = game.start_position()
    replay.undo_limit = 0
    body = bytearray([REPLAY_VERSION, _FLAG_REVEAL if game.scoring == "reveal" else 0])
    body += _varint(len(game.played))
    for action in game.played:
        body += _varint(legal_actions(replay).index(action))
        replay.push(action)
    body += _checksum(code, bytes(body))
    packed = base64.urlsafe_b64encode(bytes(body)).decode("ascii").rstrip("=")
    return f"{LINK_PREFIX}{code}.{packed}"


def _split(link: object) -> tuple[str, str]:
    """The code and the packed part of a link, an address holding one, or its bare text."""
    if not isinstance(link, str):
        raise InvalidReplay("not-text", f"a replay link is text, not {type(link).__name__}")
    if len(link) > MAX_REPLAY_CHARS:
        raise InvalidReplay(
            "too-long", f"a replay link has at most {MAX_REPLAY_CHARS:,} characters"
        )
    if not link.isascii():
        raise InvalidReplay("not-ascii", f"{excerpt(link)}: a replay link is ASCII only")
    text = link.strip()
    if LINK_PREFIX in text:
        text = text[text.rindex(LINK_PREFIX) + len(LINK_PREFIX) :]
    code, dot, packed = text.partition(".")
    if not dot or not code or not packed:
        raise InvalidReplay(
            "bad-shape",
            f"{excerpt(link)} is not a replay link: expected #replay=CODE.MOVES, such as "
            "#replay=SD1-S1-AAAAABD.AQAFAgEDBQAPPRv7",
        )
    return code, packed


def _unpack(packed: str) -> bytes:
    if not _BASE64URL_RE.match(packed) or len(packed) % 4 == 1:
        raise InvalidReplay("bad-base64", "the moves of a replay link are not base64url")
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
    except (binascii.Error, ValueError):  # pragma: no cover - the checks above rule it out
        raise InvalidReplay("bad-base64", "the moves of a replay link are not base64url") from None
    # Unused low bits of the last character must be zero: each byte string has one spelling.
    if base64.urlsafe_b64encode(data).decode("ascii").rstrip("=") != packed:
        raise InvalidReplay("bad-checksum", "the replay link was changed: its last letter is wrong")
    return data


class _Reader:
    """Reads the LEB128 numbers of a link's body."""

    def __init__(self, data: bytes, start: int) -> None:
        self.data = data
        self.at = start

    def number(self) -> int:
        value = shift = 0
        while True:
            if self.at >= len(self.data):
                raise InvalidReplay("truncated", "the replay link is cut short")
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                if byte == 0 and shift > 7:  # a zero last byte only pads: one number, one form
                    raise InvalidReplay(
                        "padded-number",
                        "a number of the replay link is padded with zero bytes (a link writes "
                        "each number in as few bytes as it takes)",
                    )
                return value
            if shift > 28:
                raise InvalidReplay("too-many-actions", "a number of the replay link is too large")


def _checked_body(code: str, data: bytes) -> bytes:
    """The body of a link's bytes once the version and the checksum are right."""
    if not data:
        raise InvalidReplay("truncated", "the replay link holds no moves")
    if data[0] != REPLAY_VERSION:
        raise InvalidReplay(
            "bad-version",
            f"replay link version {data[0]} is not supported (this app reads version "
            f"{REPLAY_VERSION})",
        )
    if len(data) < 3 + _CHECKSUM_BYTES:
        raise InvalidReplay("truncated", "the replay link is cut short")
    body, checksum = data[:-_CHECKSUM_BYTES], data[-_CHECKSUM_BYTES:]
    if _checksum(code, body) != checksum:
        raise InvalidReplay(
            "bad-checksum", "the replay link was changed or cut short: its checksum is wrong"
        )
    if data[1] & ~_FLAG_REVEAL:
        raise InvalidReplay("bad-flags", f"unknown flags {data[1]:#04x} in the replay link")
    return body


def decode_replay(link: object) -> Replay:
    """Read a replay link (``#replay=CODE.PACKED``, an address ending so, or ``CODE.PACKED``),
    replaying every action through the rules; :class:`InvalidReplay` says what is wrong."""
    code_text, packed = _split(link)
    try:
        options, number = parse_code(code_text)
    except InvalidCode as error:
        raise InvalidReplay("bad-code", f"replay link: {error}") from None
    code = format_code(options, number)
    if code_text != code:
        raise InvalidReplay(
            "bad-code",
            f"replay link: the game code is written {code} in a link, not {excerpt(code_text)} "
            "(each game has one link)",
        )
    body = _checked_body(code, _unpack(packed))
    scoring = "reveal" if body[1] & _FLAG_REVEAL else "standard"
    reader = _Reader(body, 2)
    count = reader.number()
    if count > MAX_REPLAY_ACTIONS:
        raise InvalidReplay(
            "too-many-actions", f"a replay holds at most {MAX_REPLAY_ACTIONS:,} actions"
        )
    game = Game.from_code(code, scoring, undo_limit=0)
    actions: list[Action] = []
    for step in range(count):
        index = reader.number()
        choices = legal_actions(game)
        if index >= len(choices):
            raise InvalidReplay(
                "illegal-action",
                f"action {step + 1} of the replay link is not a legal action of its position",
            )
        actions.append(choices[index])
        game.push(choices[index])
    if reader.at != len(body):
        raise InvalidReplay("trailing-data", "the replay link holds bytes after its last action")
    return Replay(code, scoring, tuple(actions))


def replay_notation(replay: Replay) -> str:
    """The replay's actions in move notation, separated by spaces."""
    return " ".join(action_text(action) for action in replay.actions)
