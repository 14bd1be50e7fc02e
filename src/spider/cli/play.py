"""``spider play``: a whole game in the terminal, one command per line.

The loop reads commands, plays them through the engine and prints the table again; the hint
and the "no more moves" check come from :mod:`spider.solver`, as in the web app.  It reads and
writes through two callables, so a test (or another front end) can drive it without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from spider.cards import SUIT_NAMES
from spider.errors import IllegalMove
from spider.game import Game
from spider.limits import excerpt
from spider.moves import DEAL, Action, Move
from spider.render import render_text
from spider.solver import check_no_moves, hint_report

__all__ = ["HELP", "play"]

HELP = """Commands:
  ad, bc3       move cards: from column a to d; bc3 moves the top three cards of b to c
  deal, d       deal a row from the stock
  undo, u       take the last action back; redo, r plays it again
  restart       back to the start of the deal
  hint, h       the best move, judged from the visible cards; again for the next best
  moves, m      list the legal moves
  show, s       print the table again
  save FILE     save the game with its history; `spider play FILE` goes on with it
  help, ?       this list
  quit, q       stop (the game is not saved unless you saved it)"""

# A proof of "no more moves" is searched this far after each action; past it nothing is said.
_NO_MOVES_NODES = 20_000


def play(
    game: Game,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    symbols: bool = True,
) -> int:
    """Play ``game`` until it is won, the player quits or the input ends; returns 0, or 130
    when interrupted (Ctrl+C).

    ``read(prompt)`` returns one line (``EOFError`` ends the game); ``write(text)`` prints.
    """
    session = _Session(game, write, symbols)
    session.show()
    write("Type a move such as 'ad', 'deal', 'hint' or 'help'.")
    if not game.is_won:
        session.report_no_moves()
    while not game.is_won:
        try:
            line = read("> ")
        except EOFError:
            write("")
            return 0
        except KeyboardInterrupt:
            write("")
            return 130
        if not session.command(line.strip()):
            return 0
    write(f"You won! Score {game.score} in {game.moves} moves.")
    return 0


class _Session:
    """The state of one terminal game: the game, and which hint was shown last."""

    def __init__(self, game: Game, write: Callable[[str], None], symbols: bool) -> None:
        self.game = game
        self.write = write
        self.symbols = symbols
        self.hint_key: str | None = None
        self.hint_index = 0

    def show(self) -> None:
        self.write(render_text(self.game.position(), self.symbols))

    def command(self, line: str) -> bool:
        """Carry out one command line; False when the player quits."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not word:
            return True
        if word in ("quit", "q", "exit"):
            return False
        if word in ("help", "?"):
            self.write(HELP)
        elif word in ("show", "s"):
            self.show()
        elif word in ("moves", "m"):
            self.list_moves()
        elif word in ("hint", "h"):
            self.hint()
        elif word == "save":
            self.save(rest.strip())
        elif word in ("undo", "u", "redo", "r", "restart"):
            self.history(word)
        else:
            self.action(word)
        return True

    def action(self, word: str) -> None:
        game = self.game
        action: Action
        try:
            action = DEAL if word in (DEAL, "d") else Move.from_text(word)
        except ValueError:
            self.write(f"Not a command: {excerpt(word)}. Type 'help' for the list.")
            return
        try:
            game.push(action)
        except IllegalMove as refused:
            self.write(f"Refused: {refused}.")
            return
        self.show()
        effects = game.last_effects
        if effects is not None:
            for _column, suit in effects.runs:
                self.write(f"A run of {SUIT_NAMES[suit]} is complete and leaves the table.")
        if not game.is_won:
            self.report_no_moves()

    def history(self, word: str) -> None:
        game = self.game
        if word == "restart":
            game.restart()
        elif word in ("undo", "u"):
            if not game.can_undo:
                self.write("Nothing to undo.")
                return
            game.undo()
        else:
            if not game.can_redo:
                self.write("Nothing to redo.")
                return
            game.redo()
        self.show()

    def list_moves(self) -> None:
        game = self.game
        moves = " ".join(move.text() for move in game.legal_moves()) or "none"
        refused = game.deal_error()
        deal = "deal" if refused is None else f"no deal ({refused})"
        self.write(f"Legal moves: {moves}; {deal}.")

    def hint(self) -> None:
        key = self.game.to_text()
        self.hint_index = self.hint_index + 1 if key == self.hint_key else 0
        self.hint_key = key
        report = hint_report(self.game)
        chosen = report.pick(self.hint_index)
        if chosen.move is None:
            self.write(f"Hint: {chosen.text}")
            return
        place = f" ({chosen.rank + 1} of {chosen.count})" if chosen.count > 1 else ""
        self.write(f"Hint{place}: {chosen.move.text()}, {chosen.text}.")

    def save(self, name: str) -> None:
        if not name:
            self.write("Save where? Type 'save FILE'.")
            return
        path = Path(name).expanduser()
        try:
            path.write_text(self.game.to_json() + "\n", encoding="utf-8")
        except OSError as error:
            self.write(f"Could not save to {path}: {error.strerror or error}.")
            return
        self.write(f"Saved to {path}. Go on later with: spider play {path}")

    def report_no_moves(self) -> None:
        if check_no_moves(self.game, _NO_MOVES_NODES).no_more_moves:
            self.write(
                "No more moves: no card can be turned and no run completed. "
                "Type 'undo', 'restart' or 'quit'."
            )
