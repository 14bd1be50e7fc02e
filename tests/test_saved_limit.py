"""Any saved game the engine writes, it reads back: past
``MAX_SAVED_ACTIONS`` actions a game is written from a later start instead of growing past the
1,000,000-character read limit."""

from __future__ import annotations

import json

from spider import Game, Move
from spider.limits import MAX_SAVED_ACTIONS, MAX_SAVED_CHARS
from spider.moves import action_from_text
from spider.protocol import Session
from spider.solver import solve

# Seven runs gone, King to 2 of spades in column a, the ace in b, eight empty columns: the
# twelve cards go back and forth between a and c, the longest action text ("ac12", 7 characters
# with its quotes and comma in a saved game).
LONG_MOVES = (
    "spider 1 classic standard / score=1100 moves=100 removed=SSSSSSS / KS QS JS 10S 9S 8S 7S "
    "6S 5S 4S 3S 2S / AS / - / - / - / - / - / - / - / - / -"
)


def back_and_forth(game: Game, actions: int) -> Game:
    for index in range(actions):
        game.move(*((0, 2, 12) if index % 2 == 0 else (2, 0, 12)))
    return game


def test_the_longest_saved_game_fits_the_read_limit() -> None:
    game = back_and_forth(Game.from_text(LONG_MOVES, undo_limit=None), MAX_SAVED_ACTIONS)
    text = game.to_json()
    assert MAX_SAVED_CHARS - 20_000 < len(text) <= MAX_SAVED_CHARS
    again = Game.from_json(text)
    assert again.to_text() == game.to_text()
    assert again.played == game.played
    assert again.start_position().to_text() == LONG_MOVES


def test_a_longer_game_is_saved_from_a_later_start_and_loads() -> None:
    game = back_and_forth(Game.from_text(LONG_MOVES), MAX_SAVED_ACTIONS + 1_001)
    for _ in range(5):
        game.undo()
    text = game.to_json()
    assert len(text) <= MAX_SAVED_CHARS
    again = Game.from_json(text)
    assert again.to_text() == game.to_text()
    # 1,001 actions too many: the 5 undone ones go first, then the 996 oldest played.
    assert again.redo_actions == ()
    assert again.played == game.played[-MAX_SAVED_ACTIONS:]
    start = json.loads(text)["start"]
    assert "moves=" + str(100 + 996) in start
    again.undo()
    assert again.to_text() != game.to_text()


def test_undone_actions_beyond_the_limit_are_left_out_before_any_played_one() -> None:
    game = back_and_forth(Game.from_text(LONG_MOVES, undo_limit=None), MAX_SAVED_ACTIONS + 10)
    for _ in range(20):
        game.undo()
    again = Game.from_json(game.to_json())
    assert again.start_position().to_text() == LONG_MOVES
    assert again.played == game.played
    assert again.redo_actions == game.redo_actions[10:]


def reversible_move(game: Game) -> Move | None:
    """A one-card move that its reverse undoes, turning nothing: the card lies face up on a
    card one rank higher (and is no ace, which could complete a run)."""
    for move in game.legal_moves():
        cards, down = game.columns[move.src].cards, game.columns[move.src].face_down
        face_up_pair = len(cards) - down >= 2 and cards[-2].rank == cards[-1].rank + 1
        if move.count == 1 and face_up_pair and cards[-1].rank > 1:
            return move
    return None


def test_a_deal_played_long_keeps_its_code_through_the_protocol() -> None:
    game = Game.from_code("SP1-S1C-AAAAAAD", undo_limit=None)
    move = reversible_move(game)
    for text in solve(game.copy(history=False), time_limit=5).solution:
        if move is not None:
            break
        game.push(action_from_text(text))
        move = reversible_move(game)
    assert move is not None
    for index in range(MAX_SAVED_ACTIONS + 2):
        game.move(*((move.src, move.dst) if index % 2 == 0 else (move.dst, move.src)))
    saved = game.to_json()
    assert len(saved) <= MAX_SAVED_CHARS
    reply = json.loads(Session().handle_json(json.dumps({"op": "load", "saved": saved})))
    assert reply["ok"], reply
    assert reply["state"]["code"] == "SP1-S1C-AAAAAAD"
    assert reply["state"]["from_deal_start"] is False
