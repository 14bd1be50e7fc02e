"""Position text, move notation and saved games: round trips and clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider import DEAL, Game, Move
from spider.moves import action_from_text

START = Game.from_code("SP1-S2C-AAAAAAD").to_text()


def test_position_text_shape() -> None:
    sections = START.split(" / ")
    assert sections[0] == "spider 2 classic standard #3"
    assert sections[1] == "score=500 moves=0 removed=-"
    assert len(sections) == 13
    column = sections[2].split()
    assert all(token == token.lower() for token in column[:-1])
    assert column[-1] == column[-1].upper()


def test_position_without_number_has_no_code() -> None:
    text = START.replace(" #3", "")
    game = Game.from_text(text)
    assert game.number is None and game.code is None
    assert game.to_text() == text


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace("spider 2", "spider 3", 1), "suits must be 1, 2 or 4"),
        (lambda t: t.replace("classic", "loose", 1), "rule must be"),
        (lambda t: t.replace("score=500", "score=many"), "whole number"),
        (lambda t: t.replace("moves=0 ", ""), "moves= is missing"),
        (lambda t: t.replace("removed=-", "removed=D"), "removed lists suit letters"),
        (lambda t: t.replace(" AH / ", " XH / ", 1), "'XH' is not a card"),
        (lambda t: t.replace(" AH / ", " ah / ", 1), "always face up"),
        (lambda t: t.replace("6s ks 10s 6s jh AH", "6s ks 10S 6s jh AH", 1), "must all come"),
        (lambda t: t.rsplit(" / ", 1)[0], "sections"),
        (lambda t: t.replace(" AH / ", " AS / ", 1), "instead of"),
        (lambda t: t + " 3s", "stock cannot hold"),
        (lambda t: t.replace("#3", "#x"), "deal number"),
        (lambda t: "", "expected 'GAME SUITS RULE SCORING"),
    ],
)
def test_bad_position_text_says_where(change: object, words: str) -> None:
    text = change(START)  # type: ignore[operator]
    with pytest.raises(ValueError, match=words) as error:
        Game.from_text(text)
    assert "position text" in str(error.value)


def test_error_names_the_character() -> None:
    bad = START.replace(" AH / ", " ZZ / ", 1)
    with pytest.raises(ValueError) as error:
        Game.from_text(bad)
    offset = bad.index("ZZ") + 1
    assert f"character {offset}" in str(error.value)


def test_complete_run_in_text_is_refused() -> None:
    run = " ".join(
        f"{rank}S" for rank in ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    )
    text = (
        "spiderette 1 classic standard / score=0 moves=0 removed=SSS / "
        + run
        + (" / -" * 6)
        + " / -"
    )
    with pytest.raises(ValueError, match="complete run"):
        Game.from_text(text)


@given(st.integers(0, 9), st.integers(0, 9), st.integers(1, 13))
def test_move_notation_round_trip(src: int, dst: int, count: int) -> None:
    move = Move(src, dst, count)
    assert Move.from_text(move.text()) == move
    assert action_from_text(move.text()) == move


def test_move_notation_examples() -> None:
    assert Move(0, 3).text() == "ad"
    assert Move(1, 2, 3).text() == "bc3"
    assert action_from_text("deal") == DEAL
    for bad in ["", "a", "ak", "ad0", "adx", "1-2"]:
        with pytest.raises(ValueError, match="not a move"):
            Move.from_text(bad)


def test_saved_game_keeps_history_and_redo() -> None:
    game = Game.new("spider", suits=4, number=21, undo_limit=100)
    game.deal()
    game.move(*game.legal_moves()[0])
    game.deal()
    game.undo()
    restored = Game.from_json(game.to_json())
    assert restored.undo_limit == 100
    assert restored.to_text() == game.to_text()
    assert restored.can_redo
    restored.redo()
    restored.undo()
    restored.undo()
    restored.undo()
    assert restored.to_text() == Game.new("spider", suits=4, number=21).to_text()
    assert Game.from_json(game.to_json(), undo_limit=None).undo_limit is None


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: "not json", "not JSON"),
        (lambda d: "[]", "JSON object"),
        (lambda d: {**d, "format": "chess"}, "format"),
        (lambda d: {**d, "version": 99}, "version 99"),
        (lambda d: {k: v for k, v in d.items() if k != "start"}, "'start' is missing"),
        (lambda d: {**d, "played": ["deal", "zz"]}, "field 'played', action 1"),
        (lambda d: {**d, "played": [1]}, "list of strings"),
        (lambda d: {**d, "position": "x"}, "does not match"),
        (lambda d: {**d, "undo_limit": -4}, "undo_limit"),
        (lambda d: {**d, "start": "spider 9"}, "field 'start'"),
    ],
)
def test_bad_saved_games_are_refused(mutate: object, words: str) -> None:
    game = Game.new("spider", suits=2, number=5)
    game.deal()
    document = json.loads(game.to_json())
    changed = mutate(document)  # type: ignore[operator]
    text = changed if isinstance(changed, str) else json.dumps(changed)
    with pytest.raises(ValueError, match=words):
        Game.from_json(text)


def test_illegal_replay_is_refused() -> None:
    game = Game.new("spider", suits=2, number=5)
    document = json.loads(game.to_json())
    document["played"] = ["aa"]
    with pytest.raises(ValueError, match="field 'played', action 0"):
        Game.from_json(json.dumps(document))
