"""``spider play``: a whole game in the terminal, driven line by line."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from spider import Game
from spider.cli import main
from spider.cli.game_source import load_game
from spider.cli.play import HELP, play
from spider.moves import action_from_text
from spider.solver import hint, solve
from tests.helpers import FILL_POSITION

EASY = "SD1-S1-AAAAABD"
# Spiderette, one suit, stock empty: no card can turn and no run can complete, though a few
# useless moves remain (7S from column a onto 8S in column e).
STUCK = (
    "spiderette 1 classic standard / score=400 moves=100 removed=SS / 2s 6s 3s 7S 5S 7S / "
    "ks qs 10S KS / 4s 2S / 9s 8s JS / 3s as 4s 8S / as 9s JS / 6s qs 5S 10S / -"
)


class Terminal:
    """Feeds ``play`` the given lines (then end of input) and keeps what it writes."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.out.append(text)

    def run(self, game: Game) -> str:
        assert play(game, self.read, self.write, symbols=False) == 0
        return "\n".join(self.out)


def test_a_whole_game_is_won_in_the_terminal() -> None:
    game = Game.from_code(EASY)
    line = solve(Game.from_code(EASY), time_limit=30).solution
    out = Terminal(line).run(game)
    assert game.is_won
    assert out.count("A run of spades is complete and leaves the table.") == 4
    assert out.endswith(f"You won! Score {game.score} in {game.moves} moves.")
    assert out.count("> ") == len(line)  # it stopped asking once the game was won


def test_refusals_and_unknown_commands_change_nothing() -> None:
    game = Game.from_code(EASY)
    before = game.to_text()
    out = Terminal(["aa", "xyz", "ad7", "", "u", "r"]).run(game)
    assert "Refused: a group cannot move onto its own column." in out
    assert "Not a command: 'xyz'. Type 'help' for the list." in out
    assert out.count("Refused:") == 2
    assert "Nothing to undo." in out and "Nothing to redo." in out
    assert game.to_text() == before


def test_undo_redo_restart_deal_and_moves() -> None:
    game = Game.from_code(EASY)
    first = game.legal_moves()[0].text()
    out = Terminal([first, "deal", "u", "u", "r", "m", "restart", "d", "help", "s"]).run(game)
    expected = Game.from_code(EASY)
    expected.deal()
    assert game.to_text() == expected.to_text()
    assert HELP in out
    assert "Legal moves: " in out and "; deal." in out


def test_hint_then_the_next_best_on_the_same_table() -> None:
    game = Game.from_code(EASY)
    out = Terminal(["h", "hint"]).run(game)
    best, second = hint(game, 0), hint(game, 1)
    assert best.move is not None and second.move is not None
    assert f"Hint (1 of {best.count}): {best.move.text()}, {best.text}." in out
    assert f"Hint (2 of {best.count}): {second.move.text()}, {second.text}." in out


def test_the_hint_leaves_dealing_to_the_player() -> None:
    """No deal is ever suggested (that choice stays the player's); a fill is called a fill."""
    out = Terminal(["h"]).run(Game.from_code("SP1-S4C-AAAAAEC"))
    assert "Hint: No move seems to help. 5 deals are left." in out
    out = Terminal(["h"]).run(Game.from_text(FILL_POSITION))
    assert "Hint: id, fills an empty column." in out


def test_no_more_moves_is_said_once_proven() -> None:
    # Said on opening the stuck position and again after a useless move; never in a live game.
    game = Game.from_text(STUCK)
    out = Terminal(["ae"]).run(game)
    assert game.moves == 101
    assert out.count("No more moves: no card can be turned and no run completed.") == 2
    assert "No more moves" not in Terminal(["h", "d", "u"]).run(Game.from_code(EASY))


def test_save_and_go_on_later(tmp_path: Path) -> None:
    game = Game.from_code(EASY)
    first = game.legal_moves()[0].text()
    saved = tmp_path / "game.json"
    out = Terminal([first, f"save {saved}", "save", f"save {tmp_path}/missing/x.json"]).run(game)
    assert f"Saved to {saved}. Go on later with: spider play {saved}" in out
    assert "Save where? Type 'save FILE'." in out
    assert "Could not save to" in out
    resumed = load_game(str(saved))
    assert resumed.to_text() == game.to_text() and resumed.can_undo
    resumed.undo()
    assert resumed.to_text() == Game.from_code(EASY).to_text()


def test_spider_play_command_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.from_code(EASY)
    move = game.legal_moves()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{move.text()}\nquit\n"))
    assert main(["play", EASY, "--ascii"]) == 0
    out = capsys.readouterr().out
    game.push(action_from_text(move.text()))
    assert "Moves 1" in out and "Type a move such as 'ad'" in out
    # A new deal from the options, with a number.
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--game", "spiderette", "--suits", "2", "--number", "29"]) == 0
    assert "SD1-S2-AAAAABD" in capsys.readouterr().out


def test_ctrl_c_ends_the_game_quietly() -> None:
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    out: list[str] = []
    assert play(Game.from_code(EASY), interrupted, out.append) == 130
    assert out[-1] == ""  # a clean line for the shell, no traceback
