"""One game, one replay link: a link whose code is not written as links
write it, or whose numbers are padded with zero bytes, is refused, and every link the engine
reads is the very link it would make of that game."""

from __future__ import annotations

import base64
import random
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider import Game
from spider.replay import InvalidReplay, decode_replay, encode_replay
from tests.helpers import random_play


def made_link(code: str = "SP1-S1C-AAAAAAD", actions: int = 30, seed: int = 1) -> str:
    game = random_play(Game.from_code(code, undo_limit=None), actions, random.Random(seed))
    return encode_replay(game)


def repacked(code: str, body: bytes) -> str:
    """A link of ``body`` under ``code`` with the checksum a link of them carries."""
    checksum = zlib.crc32(code.upper().encode("ascii") + body).to_bytes(4, "big")
    packed = base64.urlsafe_b64encode(body + checksum).decode("ascii").rstrip("=")
    return f"#replay={code}.{packed}"


def body_of(link: str) -> bytes:
    packed = link.partition(".")[2]
    return base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))[:-4]


def refusal(link: str) -> InvalidReplay:
    with pytest.raises(InvalidReplay) as error:
        decode_replay(link)
    return error.value


def test_a_lower_case_code_is_refused() -> None:
    link = made_link()
    assert decode_replay(link).code == "SP1-S1C-AAAAAAD"
    lower = link.replace("SP1-S1C-AAAAAAD", "sp1-s1c-aaaaaad")
    error = refusal(lower)
    assert error.code == "bad-code"
    assert "SP1-S1C-AAAAAAD" in str(error)
    assert refusal(link.replace("SP1-S1C-AAAAAAD", "Sp1-S1C-AAAAAAd")).code == "bad-code"


def test_a_one_suit_spider_code_with_the_flexible_letter_is_refused() -> None:
    # One suit plays the same under both rules: the game's code says C, so F is a second link.
    link = made_link()
    assert refusal(link.replace("SP1-S1C-", "SP1-S1F-")).code == "bad-code"


def test_a_number_padded_with_zero_bytes_is_refused() -> None:
    code = "SD1-S1-AAAAABD"
    link = made_link(code, 5)
    body = body_of(link)
    assert body[2] == 5  # version, flags, then the number of actions in one byte
    padded = repacked(code, body[:2] + bytes([0x85, 0x00]) + body[3:])
    error = refusal(padded)
    assert error.code == "padded-number"
    first = body[3]
    padded_index = repacked(code, body[:3] + bytes([first | 0x80, 0x80, 0x00]) + body[4:])
    assert refusal(padded_index).code == "padded-number"
    # A zero alone is one byte: deal 29's own link reads.
    assert decode_replay(repacked(code, body)).actions == decode_replay(link).actions


@given(st.integers(0, 2**32), st.integers(0, 60), st.data())
def test_every_link_read_is_the_link_of_its_game(
    seed: int, steps: int, data: st.DataObject
) -> None:
    """Change a link's text (a letter's case, a byte of its body with the checksum made right
    again): it is refused, or it reads as a game whose link is exactly that text."""
    link = made_link("SP1-S2C-AAAAAAD", steps, seed)
    code, _, packed = link.removeprefix("#replay=").partition(".")
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(code) - 1))
        code = code[:at] + code[at].swapcase() + code[at + 1 :]
        changed = f"#replay={code}.{packed}"
    else:
        body = bytearray(body_of(link))
        at = data.draw(st.integers(2, len(body) - 1))
        body[at : at + 1] = data.draw(
            st.sampled_from([bytes([0x80 | body[at], 0x00]), b"\x00", bytes([body[at] ^ 1])])
        )
        changed = repacked(code, bytes(body))
    try:
        replay = decode_replay(changed)
    except InvalidReplay:
        return
    assert encode_replay(replay.final()) == changed
