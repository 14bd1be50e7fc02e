"""``spider new``, ``spider show`` and ``spider play``: deal a game, print one, play one."""

from __future__ import annotations

import argparse

from spider.cli.arguments import Commands, add_deal_options
from spider.cli.game_source import load_game
from spider.game import Game
from spider.moves import action_from_text
from spider.render import render_text

__all__ = ["add_game_commands"]


def _new_game(args: argparse.Namespace) -> Game:
    """The deal chosen by the options of :func:`add_deal_options`."""
    return Game.new(
        args.game,
        suits=args.suits,
        rule=args.rule,
        number=args.number,
        scoring=args.scoring,
        winnable=args.winnable,
    )


def _command_new(args: argparse.Namespace) -> int:
    game = _new_game(args)
    print(game.code)
    print()
    print(render_text(game.position(), symbols=not args.ascii))
    if args.text:
        print()
        print(game.to_text())
    return 0


def _command_show(args: argparse.Namespace) -> int:
    game = load_game(args.source)
    for token in args.moves:
        game.push(action_from_text(token))
    print(render_text(game.position(), symbols=not args.ascii))
    if args.legal:
        moves = " ".join(move.text() for move in game.legal_moves()) or "none"
        print(f"\nLegal moves: {moves}")
        error = game.deal_error()
        print("Deal: " + ("possible" if error is None else f"refused ({error})"))
    if args.text:
        print()
        print(game.to_text())
    return 0


def _command_play(args: argparse.Namespace) -> int:
    from spider.cli.play import play

    game = load_game(args.source) if args.source is not None else _new_game(args)
    return play(game, symbols=not args.ascii)


def add_game_commands(commands: Commands) -> None:
    """new, show and play."""
    new = commands.add_parser("new", help="deal a game and print its code and layout")
    add_deal_options(new)
    new.add_argument("--text", action="store_true", help="also print the position text")
    new.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    new.set_defaults(handler=_command_new)

    show = commands.add_parser(
        "show", help="print a position readably (from a code, a position text or a file)"
    )
    show.add_argument(
        "source", help="game code, position text, or a file holding one (or a saved game)"
    )
    show.add_argument("moves", nargs="*", help="actions to play first, such as: ad bc3 deal")
    show.add_argument("--legal", action="store_true", help="also list the legal moves")
    show.add_argument("--text", action="store_true", help="also print the position text")
    show.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    show.set_defaults(handler=_command_show)

    play = commands.add_parser(
        "play",
        help="play a game in the terminal, one command per line",
        description="Play in the terminal: type a move such as 'ad' or 'bc3', 'deal', 'undo', "
        "'hint' or 'help'. Without SOURCE a new deal is dealt with the options below.",
    )
    play.add_argument(
        "source",
        nargs="?",
        help="game code, position text, or a file holding one (or a game saved with 'save')",
    )
    add_deal_options(play)
    play.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    play.set_defaults(handler=_command_play)
