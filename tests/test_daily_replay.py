"""The daily deal (its documented vectors, the CLI, the protocol) and replay links (round trips
for random legal games of every variant, tampering, the CLI, the protocol)."""

from __future__ import annotations

import base64
import json
import random
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider import Game, Options, format_code
from spider.cli import main
from spider.daily import daily_deals, daily_number, parse_day
from spider.protocol import Session
from spider.replay import (
    MAX_REPLAY_ACTIONS,
    REPLAY_ERRORS,
    InvalidReplay,
    decode_replay,
    encode_replay,
    legal_actions,
)
from spider.winnable import winnable_numbers
from tests.helpers import VARIANTS, random_play

DOCS = Path(__file__).resolve().parents[1] / "docs"


# ----------------------------------------------------------------- daily deal


def _documented_vectors() -> list[tuple[str, str, str]]:
    """(date, variant prefix, code) from the table of docs/shuffle.md."""
    text = (DOCS / "shuffle.md").read_text(encoding="utf-8")
    section = text.split("## The daily deal", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert header[0] == "date"
    vectors = []
    for row in rows[1:]:
        cells = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
        vectors += [
            (cells[0], prefix, code) for prefix, code in zip(header[1:], cells[1:], strict=True)
        ]
    return vectors


def test_the_documented_vectors_are_what_the_function_gives() -> None:
    vectors = _documented_vectors()
    assert len(vectors) >= 4 * 8
    prefixes = {format_code(o, 0).rsplit("-", 1)[0] for o in Options.variants()}
    assert {prefix for _, prefix, _ in vectors} == prefixes  # every variant has its column
    for day, prefix, code in vectors:
        deals = {d.code.rsplit("-", 1)[0]: d.code for d in daily_deals(date.fromisoformat(day))}
        assert deals[prefix] == code, (day, prefix)


def test_the_documented_worked_example() -> None:
    text = (DOCS / "shuffle.md").read_text(encoding="utf-8")
    assert "`2026-11-30/SP1-S2C` hashes to `h = 0x98F95D46FBDDB19C`" in text
    assert "`h mod 200 = 44`" in text and "number 1,835,125,635" in text
    catalogue = sorted(winnable_numbers("spider", 2))
    assert catalogue[0x98F95D46FBDDB19C % len(catalogue)] == 1_835_125_635
    assert daily_number(date(2026, 11, 30), Options.make("spider", 2)) == 1_835_125_635


def test_every_daily_deal_is_proven_winnable_and_days_differ() -> None:
    start = date(2026, 1, 1)
    seen: dict[str, set[int]] = {}
    for offset in range(60):
        for deal in daily_deals(start + timedelta(days=offset)):
            options = deal.options
            assert deal.number in winnable_numbers(options.game, options.suits, options.rule)
            seen.setdefault(deal.code[:7], set()).add(deal.number)
    assert len(seen) == 8
    # 60 days draw from 200 deals each: most days bring a new one.
    assert all(len(numbers) > 40 for numbers in seen.values())


def test_classic_and_flexible_get_their_own_deal() -> None:
    day = date(2026, 11, 30)
    classic = daily_number(day, Options.make("spider", 2, "classic"))
    flexible = daily_number(day, Options.make("spider", 2, "flexible"))
    assert classic != flexible


@pytest.mark.parametrize(
    "text", ["2026-2-30", "2026-02-30", "30/11/2026", "", "\uff12\uff10\uff12\uff16-11-30"]
)
def test_bad_dates_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a date"):
        parse_day(text)


def test_spider_daily_prints_the_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["daily", "--date", "2026-11-30"]) == 0
    out = capsys.readouterr().out
    codes = re.findall(r"S[PD]1-S\w+-[A-Z]{7}", out)
    assert codes == [deal.code for deal in daily_deals(date(2026, 11, 30))]
    assert out.startswith("Daily deals of 2026-11-30")


def test_spider_daily_defaults_to_today(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["daily"]) == 0
    out = capsys.readouterr().out
    assert daily_deals(date.today())[0].code in out  # (a test run across midnight may differ)


@pytest.mark.parametrize("text", ["2026-13-01", "tomorrow", "2026-11-31"])
def test_spider_daily_bad_date_is_one_line_and_exit_2(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["daily", "--date", text])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a date" in err


def test_protocol_daily_needs_no_game_and_checks_the_date() -> None:
    session = Session()
    reply = session.handle({"op": "daily", "date": "2026-11-30", "id": 1})
    assert reply["ok"] and "state" not in reply and "saved" not in reply
    daily = reply["daily"]
    assert daily["date"] == "2026-11-30"
    assert [d["code"] for d in daily["deals"]] == [d.code for d in daily_deals(date(2026, 11, 30))]
    assert daily["deals"][1] == {
        "game": "spider",
        "suits": 2,
        "rule": "classic",
        "code": "SP1-S2C-FYLUWXF",
        "number": 1_835_125_635,
    }
    for bad in ("2026-02-30", 20261130, None):
        refused = session.handle({"op": "daily", "date": bad})
        assert refused["error"]["code"] == "bad-request"
    replayed = session.handle({"op": "replay", "link": "#replay=SD1-S1-AAAAABD.AQAFAgEDBQAPPRv7"})
    assert replayed["ok"] and "state" not in replayed and replayed["replay"]["steps"] == 5
    # An op that needs a game still says so.
    assert session.handle({"op": "replay_link"})["error"]["code"] == "no-game"


# ----------------------------------------------------------------- replay links

_SCORINGS = ("standard", "reveal")


def _random_game(data: st.DataObject) -> Game:
    variant = data.draw(st.sampled_from(VARIANTS), label="variant")
    scoring = data.draw(st.sampled_from(_SCORINGS), label="scoring")
    number = data.draw(st.integers(0, 26**7 - 1), label="number")
    steps = data.draw(st.integers(0, 120), label="steps")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    game = Game.new(variant[0], suits=variant[1], rule=variant[2], number=number, scoring=scoring)
    return random_play(game, steps, random.Random(seed), deal_chance=0.15)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_links_round_trip_for_random_legal_games(data: st.DataObject) -> None:
    game = _random_game(data)
    link = encode_replay(game)
    assert re.fullmatch(r"#replay=S[PD]1-S[124][CF]?-[A-Z]{7}\.[A-Za-z0-9_-]+", link)
    replay = decode_replay(link)
    assert replay.code == game.code and replay.scoring == game.scoring
    assert replay.actions == game.played
    assert replay.final().to_text() == game.to_text()
    # An address holding the link, and the bare CODE.PACKED, read the same.
    assert decode_replay("https://example.org/?lang=ca" + link) == replay
    assert decode_replay(link.removeprefix("#replay=")) == replay


def _tampered(link: str, data: st.DataObject) -> str:
    """The link with one character of its code or packed part changed, or cut short."""
    head = len("#replay=")
    how = data.draw(st.sampled_from(["change", "cut"]), label="how")
    if how == "cut":
        end = data.draw(st.integers(head + 16, len(link) - 1), label="end")
        return link[:end]
    at = data.draw(st.integers(head, len(link) - 1), label="at")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    other = data.draw(st.sampled_from([c for c in alphabet if c != link[at]]), label="char")
    return link[:at] + other + link[at + 1 :]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_tampered_or_cut_links_are_refused(data: st.DataObject) -> None:
    game = _random_game(data)
    link = encode_replay(game)
    tampered = _tampered(link, data)
    try:
        replay = decode_replay(tampered)
    except InvalidReplay as error:
        assert error.code in REPLAY_ERRORS
        assert str(error)
    else:
        # Only a change of case in the code part reads as the same game (codes ignore case).
        assert tampered.upper() == link.upper()
        assert replay.actions == game.played


def _link(game_code: str, body: bytes) -> str:
    import zlib

    packed = body + zlib.crc32(game_code.encode() + body).to_bytes(4, "big")
    return f"#replay={game_code}." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_each_refusal_has_its_code() -> None:
    code = "SP1-S1C-AAAAAAD"
    game = Game.from_code(code)
    game.push(legal_actions(game)[0])
    link = encode_replay(game)
    cases = {
        "not-text": 5,
        "too-long": "#replay=" + "A" * 100_001,
        "not-ascii": link + "é",
        "bad-shape": "#replay=SP1-S1C-AAAAAAD",
        "bad-code": link.replace("SP1-S1C", "SP1-S3C"),
        "bad-base64": link + "!",
        "bad-version": _link(code, bytes([2, 0, 0])),
        "truncated": _link(code, bytes([1, 0, 3, 0])),
        "bad-checksum": link[:-1] + ("A" if link[-1] != "A" else "B"),
        "bad-flags": _link(code, bytes([1, 2, 0])),
        "too-many-actions": _link(code, bytes([1, 0]) + b"\xa1\x9c\x01"),
        "illegal-action": _link(code, bytes([1, 0, 1, 120])),
        "trailing-data": _link(code, bytes([1, 0, 0, 0])),
    }
    for expected, text in cases.items():
        with pytest.raises(InvalidReplay) as error:
            decode_replay(text)
        assert error.value.code == expected, (expected, str(error.value))
    assert MAX_REPLAY_ACTIONS < 20_001  # the number in "too-many-actions" above is 20,001
    # A last letter whose unused bits are set spells the same bytes: it is refused too.
    short = _link(code, bytes([1, 0, 0]))  # 7 bytes: the last letter carries 2 unused bits
    assert len(short.split(".")[1]) % 4 == 2
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = letters.index(short[-1])
    with pytest.raises(InvalidReplay, match="last letter"):
        decode_replay(short[:-1] + letters[last | 1])


def test_only_games_from_their_deal_start_make_links() -> None:
    puzzle = Game.from_text(Game.from_code("SP1-S1C-AAAAAAD").to_text().replace(" #3", ""))
    with pytest.raises(InvalidReplay) as error:
        encode_replay(puzzle)
    assert error.value.code == "not-replayable"
    later = Game.from_code("SP1-S1C-AAAAAAD")
    later.deal()
    with pytest.raises(InvalidReplay) as error:
        encode_replay(Game.from_text(later.to_text()))
    assert error.value.code == "not-replayable"


def test_the_documented_example_link() -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    link = "#replay=SD1-S1-AAAAABD.AQAFAgEDBQAPPRv7"
    assert link in text and "after `de cg fc deal bg`" in text
    replay = decode_replay(link)
    assert " ".join(a if isinstance(a, str) else a.text() for a in replay.actions) == (
        "de cg fc deal bg"
    )
    section = text.split("## Replay links", 1)[1]
    documented = set(re.findall(r"`([a-z0-9-]+)`", section.split("| code | when |", 1)[1]))
    assert REPLAY_ERRORS - {"not-replayable"} <= documented
    assert "`not-replayable`" in section


def _played(actions: int = 30, seed: int = 4) -> Game:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    return random_play(game, actions, random.Random(seed))


def test_spider_replay_prints_moves_and_final_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _played()
    link = encode_replay(game)
    moves = " ".join(a if isinstance(a, str) else a.text() for a in game.played)
    assert main(["replay", "https://example.org/" + link, "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"SP1-S2C-AAAAAAD (standard scoring), {len(game.played)} actions:\n")
    assert moves in out and game.to_text() in out
    # A text file holding the link; a saved game (which also prints its link).
    linked = tmp_path / "link.txt"
    linked.write_text(link + "\n")
    assert main(["replay", str(linked), "--text"]) == 0
    assert game.to_text() in capsys.readouterr().out
    saved = tmp_path / "game.json"
    saved.write_text(game.to_json())
    assert main(["replay", str(saved), "--text"]) == 0
    out = capsys.readouterr().out
    assert moves in out and game.to_text() in out and f"Replay link: {link}" in out


def test_spider_replay_refuses_a_tampered_link_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    link = encode_replay(_played())
    assert main(["replay", link[:-3]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("spider: error: ") and "replay link" in err


def test_protocol_replay_never_touches_the_players_game() -> None:
    session = Session()
    session.handle({"op": "open", "code": "SP1-S1C-AAAAAAD"})
    session.handle({"op": "deal"})
    before = session.handle({"op": "state"})["state"]
    saved = session.handle({"op": "export"})["saved"]
    other = _played(20)
    link = encode_replay(other)
    for step in (0, 5, 20, 19, 3, 20):
        reply = session.handle({"op": "replay", "link": link, "step": step})
        assert reply["ok"], reply
        shown = reply["replay"]
        assert (shown["steps"], shown["step"], shown["code"]) == (20, step, other.code)
        expected = Game.from_code(other.code or "")
        for action in other.played[:step]:
            expected.push(action)
        assert shown["view"]["moves"] == expected.moves
        assert shown["view"]["columns"][0]["up"] == [
            c for c in expected.to_text().split(" / ")[2].split() if c.isupper()
        ]
        assert reply["state"] == before and reply["saved"] == saved
    assert session.handle({"op": "replay", "link": link, "step": 21})["error"]["code"] == (
        "bad-request"
    )
    refused = session.handle({"op": "replay", "link": link[:-2]})
    assert refused["error"]["code"] == "invalid-replay"
    assert refused["error"]["message"].startswith(("bad-checksum:", "truncated:"))
    assert refused["state"] == before
    mine = session.handle({"op": "replay_link"})
    assert decode_replay(mine["replay_link"]).final().to_text() == session.game.to_text()  # type: ignore[union-attr]
    session.handle({"op": "open", "position": session.game.to_text().replace(" #3", "")})  # type: ignore[union-attr]
    assert session.handle({"op": "replay_link"})["error"]["code"] == "not-replayable"
    assert json.loads(session.handle_json('{"op": "replay", "link": 7}'))["error"]["code"] == (
        "invalid-replay"
    )


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["2026-11-30", "#replay=SD1-S1-AAAAABD.AQAFAgEDBQAPPRv7", "0000-00-00"]),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=100, deadline=None)
@given(
    op=st.sampled_from(["daily", "replay", "replay_link"]),
    fields=st.dictionaries(st.sampled_from(["date", "link", "step"]), _VALUES, max_size=3),
)
def test_share_operations_answer_any_request_without_touching_the_game(
    op: str, fields: dict[str, object]
) -> None:
    session = Session()
    session.handle({"op": "open", "code": "SP1-S2C-AAAAAAD"})
    session.handle({"op": "move", "src": 1, "dst": 4, "count": 1})
    before = session.handle({"op": "export"})
    reply = session.handle({"op": op, **fields})
    if not reply["ok"]:
        assert reply["error"]["code"] in {"bad-request", "invalid-replay", "not-replayable"}
    after = session.handle({"op": "export"})
    assert after["saved"] == before["saved"] and after["state"] == before["state"]
