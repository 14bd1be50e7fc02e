"""The argument parser of the ``spider`` command: every family of commands adds its own."""

from __future__ import annotations

import argparse

from spider import __version__, native
from spider.cli.arguments import CommandParser
from spider.cli.backup_command import add_backup_command
from spider.cli.game_commands import add_game_commands
from spider.cli.hint_command import add_hint_command
from spider.cli.serve_commands import add_serve_commands
from spider.cli.share_commands import add_share_commands
from spider.cli.solve_commands import add_solve_commands

__all__ = ["build_parser"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``spider`` command."""
    parser = CommandParser(
        prog="spider",
        description="Spider and Spiderette solitaire: deal, show, play, hint, solve and serve "
        "games.",
        epilog="Columns are lettered a-j in move notation: 'ad' moves one card from the first "
        "column to the fourth, 'bc3' moves three cards, 'deal' deals from the stock.",
    )
    # The version, and which build of the engine runs: "compiled" or "pure" (spider.native).
    version = f"%(prog)s {__version__} ({native.build()})"
    parser.add_argument("--version", action="version", version=version)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    add_game_commands(commands)  # new, show, play
    add_share_commands(commands)  # daily, replay
    add_backup_command(commands)
    add_serve_commands(commands)  # serve, build-site
    add_hint_command(commands)
    add_solve_commands(commands)  # solve, review, analyze
    return parser
