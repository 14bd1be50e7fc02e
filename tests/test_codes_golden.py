"""Deal numbers, game codes, the documented shuffle and the golden data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scripts.make_golden import perft
from spider import Game, InvalidCode, Options, format_code, parse_code
from spider.shuffle import MAX_NUMBER, SplitMix64, seed_for

GOLDEN = Path(__file__).parent / "golden"


def test_splitmix64_reference_outputs() -> None:
    generator = SplitMix64(0)
    assert [generator.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_seed_layout() -> None:
    assert seed_for(Options.make("spider", 2), 3) == (1 << 40) | (2 << 32) | 3
    assert seed_for(Options.make("spiderette", 4), 0) == (2 << 40) | (4 << 32)


def test_seed_examples_parse() -> None:
    options, number = parse_code("SP1-S1C-AAAAAAD")
    assert (options.game, options.suits, options.rule, number) == ("spider", 1, "classic", 3)
    options, number = parse_code("SD1-S1-AAAAABD")
    assert (options.game, options.suits, options.rule, number) == ("spiderette", 1, "classic", 29)
    game = Game.from_code("SP1-S2C-AAAAAAD")
    assert (game.game, game.suits, game.rule, game.number, game.code) == (
        "spider",
        2,
        "classic",
        3,
        "SP1-S2C-AAAAAAD",
    )


def test_codes_accept_lower_case_and_spaces() -> None:
    assert Game.from_code("  sp1-s4f-zzzzzzz ").code == "SP1-S4F-ZZZZZZZ"
    assert parse_code("SP1-S4F-ZZZZZZZ")[1] == MAX_NUMBER


@given(
    st.sampled_from(["spider", "spiderette"]),
    st.sampled_from([1, 2, 4]),
    st.sampled_from(["classic", "flexible"]),
    st.integers(0, MAX_NUMBER),
)
def test_code_round_trip(game: str, suits: int, rule: str, number: int) -> None:
    if game == "spiderette":
        rule = "classic"
    options = Options.make(game, suits, rule)
    assert parse_code(format_code(options, number)) == (options, number)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("", "not a game code"),
        ("SP1-S3C-AAAAAAA", "1, 2 or 4"),
        ("SP1-S2-AAAAAAA", "rule"),
        ("SP1-S2X-AAAAAAA", "C \\(classic\\) or F"),
        ("SD1-S2C-AAAAAAA", "no rule letter"),
        ("SP1-S2C-AAAAAA", "7 letters"),
        ("SP1-S2C-AAAAAAAA", "7 letters"),
        ("SP2-S2C-AAAAAAA", "not a game code"),
        ("SP1-S2C-AAAA1AA", "not a game code"),
    ],
)
def test_malformed_codes(code: str, words: str) -> None:
    with pytest.raises(InvalidCode, match=words) as error:
        Game.from_code(code)
    assert isinstance(error.value, ValueError)


def test_code_must_be_text() -> None:
    with pytest.raises(InvalidCode):
        Game.from_code(3)  # type: ignore[arg-type]


def test_deal_vectors_are_pinned() -> None:
    vectors = json.loads((GOLDEN / "deals.json").read_text(encoding="utf-8"))
    assert len(vectors) >= 8
    for vector in vectors:
        game = Game.from_code(vector["code"])
        assert game.number == vector["number"]
        columns = [
            " ".join(
                str(card).lower() if index < column.face_down else str(card)
                for index, card in enumerate(column.cards)
            )
            for column in game.columns
        ]
        assert columns == vector["columns"], vector["code"]
        assert " ".join(str(card) for card in game.stock) == vector["stock"]
        assert game.to_text() == vector["position"]


def test_perft_counts_are_pinned() -> None:
    for entry in json.loads((GOLDEN / "perft.json").read_text(encoding="utf-8")):
        assert perft(Game.from_code(entry["code"]), 3) == entry["counts"], entry["code"]
