"""Nothing fools the engine: each input that once raised, or was wrongly accepted, at a boundary
(protocol, saved game, position text, game code, command line) now gets a clear refusal."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from spider import Game, IllegalMove, InvalidCode, parse_code
from spider.cli import main
from spider.errors import POSITION_ERRORS, InvalidPosition
from spider.limits import MAX_JSON_DEPTH, MAX_MESSAGE_CHARS, MAX_UNDO_LIMIT
from spider.protocol import ERROR_CODES, Session
from spider.protocol.fields import Answer
from tests.helpers import random_play

DOCS = Path(__file__).resolve().parent.parent / "docs"
HUGE = 2**63
START_3 = Game.from_code("SP1-S1C-AAAAAAD").to_text()


def ask(session: Session, request: Any) -> dict[str, Any]:
    """Send ``request`` as JSON text (as the worker does) and read the reply."""
    text = request if isinstance(request, str) else json.dumps(request)
    reply: dict[str, Any] = json.loads(session.handle_json(text))
    return reply


def refused(reply: dict[str, Any], code: str) -> str:
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply["error"]
    message: str = reply["error"]["message"]
    assert len(message) <= MAX_MESSAGE_CHARS
    return message


def playing() -> Session:
    """A session with deal 3 (2 suits) and one move played."""
    session = Session()
    state = ask(session, {"op": "new", "suits": 2, "number": 3})["state"]
    src, column = next((i, c) for i, c in enumerate(state["columns"]) if c["dests"][0])
    assert ask(session, {"op": "move", "src": src, "dst": column["dests"][0][0]})["ok"]
    return session


def snapshot(session: Session) -> tuple[str, str]:
    assert session.game is not None
    return session.game.to_json(), json.dumps(ask(session, {"op": "state"})["state"])


# ----------------------------------------------------------------- the protocol


def test_a_float_where_an_integer_is_meant_is_refused() -> None:
    session = Session()
    refused(ask(session, {"op": "new", "suits": 2.0}), "bad-request")
    refused(ask(session, {"op": "new", "suits": True}), "bad-request")
    refused(ask(session, {"op": "new", "number": 3.0}), "bad-request")
    refused(ask(session, {"op": "new", "game": ["spider"]}), "bad-request")
    assert session.game is None


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "new", "undo_limit": HUGE},
        {"op": "open", "code": "SP1-S2C-AAAAAAD", "undo_limit": HUGE},
        {"op": "open", "position": START_3, "undo_limit": HUGE},
        {"op": "load", "saved": Game.from_code("SP1-S2C-AAAAAAD").to_json(), "undo_limit": HUGE},
        {"op": "set", "undo_limit": HUGE},
        {"op": "set", "undo_limit": MAX_UNDO_LIMIT + 1},
        {"op": "set", "undo_limit": 2.5},
    ],
)
def test_an_undo_limit_out_of_range_is_refused_and_changes_nothing(
    request_: dict[str, Any],
) -> None:
    session = playing()
    before = snapshot(session)
    message = refused(ask(session, request_), "bad-request")
    assert f"{MAX_UNDO_LIMIT:,}" in message
    assert snapshot(session) == before
    # The next action is applied and answered as usual: page and engine agree.
    reply = ask(session, {"op": "deal"})
    assert reply["ok"] and reply["state"]["undo_limit"] == 400


def test_the_largest_undo_limit_and_none_are_accepted() -> None:
    session = playing()
    assert ask(session, {"op": "set", "undo_limit": MAX_UNDO_LIMIT})["state"]["undo_limit"] == (
        MAX_UNDO_LIMIT
    )
    assert ask(session, {"op": "set", "undo_limit": None})["state"]["undo_limit"] is None


def test_numbers_json_cannot_hold_or_python_cannot_read_are_refused() -> None:
    session = playing()
    before = snapshot(session)
    for text in (
        '{"op": "new", "number": ' + "9" * 4301 + "}",
        '{"op": "new", "number": NaN}',
        '{"op": "new", "number": Infinity}',
        '{"op": "set", "undo_limit": 1e999}',
    ):
        refused(ask(session, text), "bad-request")
    assert snapshot(session) == before


def test_deep_nesting_and_huge_requests_are_refused() -> None:
    session = playing()
    before = snapshot(session)
    deep = '{"op": "new", "avoid": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert "nest" in refused(ask(session, deep), "bad-request")
    just_deep = '{"op": "state", "x": ' + "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    assert ask(session, just_deep + "}")["ok"]
    big = json.dumps({"op": "open", "code": "x" * 10_000_000})
    assert "characters" in refused(ask(session, big), "bad-request")
    assert snapshot(session) == before


def test_messages_never_repeat_a_long_input() -> None:
    session = playing()
    for request in (
        {"op": "open", "code": "S" * 1_000_000},
        {"op": "open", "position": "spider " + "x" * 1_000_000},
        {"op": "open", "position": START_3 + " Q" + "S" * 5000},
        {"op": "load", "saved": "{" + "x" * 1_000_000},
        {"op": "x" * 100_000},
        {"op": "move", "src": 10**4000, "dst": 1},
    ):
        reply = json.loads(session.handle_json(json.dumps(request)))
        assert reply["ok"] is False
        assert len(reply["error"]["message"]) <= MAX_MESSAGE_CHARS


def test_a_request_id_is_echoed_only_when_plain() -> None:
    session = Session()
    assert ask(session, {"op": "state", "id": 7})["id"] == 7
    reply = ask(session, {"op": "state", "id": [[1]]})
    refused(reply, "bad-request")
    assert reply["id"] is None


def test_a_fault_inside_an_operation_is_a_reply_and_the_game_is_put_back() -> None:
    session = playing()
    before = snapshot(session)

    def faulty(request: dict[str, Any]) -> Answer:
        assert session.game is not None
        session.game.deal()  # changes the game, then fails
        raise RuntimeError("x" * 10_000)

    session.register("faulty", faulty)
    message = refused(ask(session, {"op": "faulty", "id": 5}), "internal-error")
    assert message.startswith("RuntimeError")
    assert snapshot(session) == before


def test_error_codes_are_a_closed_set_documented_in_protocol_md() -> None:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    table = text.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z-]+)`", table, flags=re.MULTILINE))
    assert documented == ERROR_CODES
    assert IllegalMove.CODES <= ERROR_CODES


# ----------------------------------------------------------------- saved games


def test_from_json_raises_only_value_error() -> None:
    saved = json.loads(Game.from_code("SP1-S2C-AAAAAAD").to_json())
    for document in (
        {**saved, "undo_limit": HUGE},
        {**saved, "undo_limit": 1.5},
        {**saved, "version": 1.0},
    ):
        with pytest.raises(ValueError, match="saved game"):
            Game.from_json(json.dumps(document))
    with pytest.raises(ValueError, match="nest"):
        Game.from_json('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ValueError, match="undo_limit"):
        Game.from_json(json.dumps(saved), undo_limit=HUGE)
    with pytest.raises(ValueError, match="undo_limit"):
        Game.from_code("SP1-S2C-AAAAAAD", undo_limit=HUGE)


# ----------------------------------------------------------------- positions


def with_counters(text: str, counters: str) -> str:
    header, _, rest = text.split(" / ", 2)
    return f"{header} / {counters} / {rest}"


def position_error(text: str) -> InvalidPosition:
    with pytest.raises(InvalidPosition) as error:
        Game.from_text(text)
    assert isinstance(error.value, ValueError)
    assert "position text" in str(error.value)
    return error.value


def test_a_position_that_claims_a_deal_but_holds_other_cards_is_refused() -> None:
    # A forged position: 7 runs gone and 13 cards left, 'moves=0', a huge score, '#3'.
    left = "KS 3S 2S AS / QS / JS / 10S / 9S / 8S / 7S / 6S / 5S / 4S"
    forged = f"spider 1 classic standard #3 / score=99999 moves=0 removed=SSSSSSS / {left} / -"
    assert position_error(forged).code == "impossible-counters"
    # Believable counters do not make it deal 3: 3S lies on KS, where no move puts it and no
    # deal of deal 3 dealt one.
    later = forged.replace("score=99999 moves=0", "score=1100 moves=100")
    assert position_error(later).code == "not-this-deal"
    assert "3S lies on KS" in str(position_error(later))
    assert position_error(later.replace("score=1100", "score=99999")).code == (
        "impossible-counters"
    )


def test_a_won_deal_in_five_moves_is_refused() -> None:
    # Five deals and no card move cannot remove 7 runs nor turn 44 cards.
    example = (
        "spider 1 classic standard #3 / score=1195 moves=5 removed=SSSSSSS / KS QS JS 10S 9S 8S "
        "7S 6S 5S 4S 3S 2S / AS / - / - / - / - / - / - / - / - / -"
    )
    error = position_error(example)
    assert error.code == "impossible-counters"
    assert "7 runs removed and 44 cards turned take at least 42" in str(error)
    assert position_error(example.replace(" #3", "")).code == "impossible-counters"
    message = refused(ask(Session(), {"op": "open", "position": example}), "invalid-position")
    assert "moves=5" in message


def test_a_position_opened_mid_game_keeps_its_code_but_not_its_start() -> None:
    game = random_play(Game.from_code("SP1-S1C-AAAAAAD"), 60, random.Random(5), 0.2)
    assert game.moves > 30 and game.deals_left < 5
    assert Game.from_text(game.to_text()).code == "SP1-S1C-AAAAAAD"
    state = ask(Session(), {"op": "open", "position": game.to_text()})["state"]
    assert state["from_deal_start"] is False


def test_a_deal_start_with_swapped_cards_is_refused() -> None:
    sections = START_3.split(" / ")
    down = sections[2].split()
    down[0], down[1] = down[1], down[0]
    swapped_down = " / ".join([*sections[:2], " ".join(down), *sections[3:]])
    if swapped_down != START_3:
        assert position_error(swapped_down).code == "not-this-deal"
    up = [section.split() for section in sections[2:12]]
    first = next(i for i in range(1, 10) if up[i][-1] != up[0][-1])
    up[0][-1], up[first][-1] = up[first][-1], up[0][-1]
    swapped_up = " / ".join([*sections[:2], *(" ".join(s) for s in up), sections[12]])
    assert position_error(swapped_up).code == "not-this-deal"
    stock = sections[12].split()
    stock.reverse()
    other_stock = " / ".join([*sections[:12], " ".join(stock)])
    assert position_error(other_stock).code == "not-this-deal"


def test_counters_no_game_can_show_are_refused() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD")
    game.deal()
    dealt = game.to_text()  # score=499 moves=1
    assert Game.from_text(dealt).code == "SP1-S2C-AAAAAAD"
    for counters in ("score=600 moves=1 removed=-", "score=499 moves=0 removed=-"):
        assert position_error(with_counters(dealt, counters)).code == "impossible-counters"
    # One deal needs at least one move, with or without a deal number.
    no_number = with_counters(dealt.replace(" #3", ""), "score=500 moves=0 removed=-")
    assert position_error(no_number).code == "impossible-counters"
    # moves=0 on a layout that is not a start.
    assert position_error(with_counters(START_3, "score=500 moves=0 removed=S")).code in (
        "impossible-counters",
        "bad-cards",
    )
    # An impossible score, even without a deal number: spider's standard score never drops
    # below 0 and never passes 500 + 100 per run.
    for score in ("-1", "701"):
        text = with_counters(dealt.replace(" #3", ""), f"score={score} moves=5 removed=-")
        assert position_error(text).code == "impossible-counters"


def test_more_face_down_cards_than_a_deal_gives_are_refused() -> None:
    game = Game.from_code("SP1-S1C-AAAAAAD")
    game.deal()
    sections = game.to_text().split(" / ")
    first, dealt = sections[2].rsplit(" ", 2)[1:]
    sections[2] = sections[2].rsplit(" ", 2)[0] + f" {first.lower()} {dealt}"
    more_down = " / ".join(sections)  # 45 face-down cards, a deal leaves 44
    assert position_error(more_down).code == "impossible-counters"
    assert position_error(more_down.replace(" #3", "")).code == "impossible-counters"
    # 44 in all, but 6 in a column where deal 3 left 5: not deal 3 (a puzzle may do it).
    game = Game.from_code("SP1-S1C-AAAAAAD")
    move = next(m for m in game.legal_moves() if m.src >= 4)  # turns a card: 43 left
    game.move(*move)
    sections = game.to_text().split(" / ")
    cards = sections[2 + move.dst].split()
    sections[2 + move.dst] = " ".join([*(c.lower() for c in cards[:-1]), cards[-1]])
    assert position_error(" / ".join(sections)).code == "not-this-deal"
    assert Game.from_text(" / ".join(sections).replace(" #3", "")).code is None


def test_a_real_position_of_a_deal_keeps_its_code() -> None:
    game = Game.from_code("SP1-S2C-AAAAAAD", scoring="reveal")
    for _ in range(30):
        moves = game.legal_moves()
        if moves:
            game.move(*moves[-1])
        else:
            game.deal()
    again = Game.from_text(game.to_text())
    assert again.code == "SP1-S2C-AAAAAAD" and again.to_text() == game.to_text()


@pytest.mark.parametrize(
    ("ascii_", "lookalike"),
    [("AS", "A\u017f"), ("score=500", "score=5\u0660\u0660"), (" #3", " #\u0663")],
)
def test_position_texts_are_ascii_only(ascii_: str, lookalike: str) -> None:
    assert ascii_ in START_3
    assert position_error(START_3.replace(ascii_, lookalike, 1)).code == "not-ascii"


def test_position_error_codes_are_documented_in_notation_md() -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    assert {code for code in POSITION_ERRORS if f"`{code}`" in text} == POSITION_ERRORS


# ----------------------------------------------------------------- codes


@pytest.mark.parametrize(
    "code", ["SP1-S\u0662C-AAAAAAD", "\u017fp1-s2c-aaaaaad", "SP1-S2C-AAAAAA\u212a"]
)
def test_codes_are_ascii_only(code: str) -> None:
    with pytest.raises(InvalidCode) as error:
        parse_code(code)
    assert error.value.code == "not-ascii"
    refused(ask(Session(), {"op": "open", "code": code}), "invalid-code")


def test_code_errors_have_stable_codes_and_short_messages() -> None:
    cases = {
        "SP1-S3C-AAAAAAD": "bad-suits",
        "SP1-S2-AAAAAAD": "bad-rule",
        "nonsense": "bad-shape",
        "S" * 10_000_000: "too-long",
    }
    for text, code in cases.items():
        with pytest.raises(InvalidCode) as error:
            parse_code(text)
        assert error.value.code == code
        assert len(str(error.value)) <= MAX_MESSAGE_CHARS
    with pytest.raises(InvalidCode) as error:
        parse_code(3)  # type: ignore[arg-type]
    assert error.value.code == "not-text"


# ----------------------------------------------------------------- statistics: deal starts


def test_the_state_says_whether_the_game_began_at_its_deal_start() -> None:
    session = Session()
    assert ask(session, {"op": "new", "number": 3})["state"]["from_deal_start"] is True
    moved = ask(session, {"op": "deal"})
    assert moved["state"]["from_deal_start"] is True  # still the deal's game
    saved = moved["saved"]
    assert ask(Session(), {"op": "load", "saved": saved})["state"]["from_deal_start"] is True
    assert session.game is not None
    later = session.game.to_text()  # deal 3 after one deal: real, but not its start
    assert ask(session, {"op": "open", "position": later})["state"]["from_deal_start"] is False
    assert ask(session, {"op": "open", "position": START_3})["state"]["from_deal_start"] is True
    puzzle = START_3.replace(" #3", "")
    assert ask(session, {"op": "open", "position": puzzle})["state"]["from_deal_start"] is False
    code = ask(session, {"op": "open", "code": "SD1-S4-AAAAABD"})
    assert code["state"]["from_deal_start"] is True


# ----------------------------------------------------------------- the command line


@pytest.fixture
def huge_undo_file(tmp_path: Path) -> Path:
    document = json.loads(Game.from_code("SP1-S2C-AAAAAAD").to_json())
    document["undo_limit"] = HUGE
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("command", ["show", "hint", "solve", "play", "review"])
def test_cli_refuses_a_saved_game_with_a_huge_undo_limit(
    command: str, huge_undo_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, str(huge_undo_file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spider: error: saved game:") and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "99999"],
        ["serve", "--port", "0"],
        ["solve", "SP1-S1C-AAAAAAD", "--time-limit", "nan"],
        ["solve", "SP1-S1C-AAAAAAD", "--time-limit", "-5"],
        ["solve", "SP1-S1C-AAAAAAD", "--time-limit", "inf"],
        ["solve", "SP1-S1C-AAAAAAD", "--memory", "0"],
        ["review", "SP1-S1C-AAAAAAD", "--time", "nan"],
        ["review", "SP1-S1C-AAAAAAD", "--position-time", "-1"],
        ["analyze", "--deals", "0-9", "--time-limit", "nan", "--out", "x.csv"],
        ["analyze", "--deals", "0-9", "--workers", "0", "--out", "x.csv"],
        ["new", "--number", "99999999999"],
        ["hint", "SP1-S1C-AAAAAAD", "--index", "-1"],
    ],
)
def test_cli_refuses_bad_arguments_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err and "Traceback" not in err


@pytest.mark.parametrize("deals", ["0-99999999999", "0-1000000", "5-1", "-3", "0-8031810176"])
def test_cli_analyze_limits_its_deals(
    deals: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.csv"
    assert main(["analyze", "--deals", deals, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spider: error:") and err.count("\n") == 1
    assert not out.exists()
