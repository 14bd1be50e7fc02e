"""``spider daily`` and ``spider replay``: the daily deals, and what a replay link or a saved game
holds."""

from __future__ import annotations

import argparse
import contextlib
from datetime import date

from spider.cli.arguments import Commands
from spider.cli.game_source import source_text
from spider.daily import daily_deals, parse_day
from spider.game import Game
from spider.render import render_text
from spider.replay import InvalidReplay, Replay, decode_replay, encode_replay, replay_notation

__all__ = ["add_share_commands"]


def _day(text: str) -> date:
    """An argparse type: a date written YYYY-MM-DD."""
    try:
        return parse_day(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _command_daily(args: argparse.Namespace) -> int:
    day: date = args.date or date.today()
    print(f"Daily deals of {day.isoformat()} (each proven winnable):")
    for deal in daily_deals(day):
        options = deal.options
        name = f"{options.game} {options.suits} suit{'s' if options.suits > 1 else ''}"
        if options.game == "spider" and options.suits > 1:
            name += f" {options.rule}"
        print(f"  {name:26s} {deal.code}")
    return 0


def _command_replay(args: argparse.Namespace) -> int:
    text = source_text(args.source)
    if text.startswith("{"):
        game = Game.from_json(text)
        replay = Replay(game.code or "", game.scoring, game.played)
        start = game.start_position()
        link = None
        # A game without a code, or opened mid-game, is shown but makes no link.
        with contextlib.suppress(InvalidReplay):
            link = encode_replay(game)
    else:
        replay = decode_replay(text)
        start = replay.start()
        link = None
    label = start.code or "position"
    count = len(replay.actions)
    print(f"{label} ({start.scoring} scoring), {count} action{'' if count == 1 else 's'}:")
    print(replay_notation(replay) or "(none)")
    final = start
    for action in replay.actions:
        final.push(action)
    print()
    print(render_text(final.position(), symbols=not args.ascii))
    if final.is_won:
        print("\nWon.")
    if args.text:
        print()
        print(final.to_text())
    if link is not None:
        print(f"\nReplay link: {link}")
    return 0


def add_share_commands(commands: Commands) -> None:
    daily = commands.add_parser(
        "daily",
        help="print the daily deal of every variant (the same for every player)",
        description="Print the daily deal of every variant: a deal proven winnable, the same for "
        "every player on the same date (see docs/shuffle.md).",
    )
    daily.add_argument(
        "--date", type=_day, default=None, help="YYYY-MM-DD (default: today, local date)"
    )
    daily.set_defaults(handler=_command_daily)

    replay = commands.add_parser(
        "replay",
        help="print the moves and the final position of a replay link or a saved game",
        description="Print the moves and the final position of a replay link (#replay=...), an "
        "address holding one, a text file holding one, or a saved game (JSON).",
    )
    replay.add_argument("source", metavar="LINK_OR_FILE", help="replay link or file")
    replay.add_argument("--text", action="store_true", help="also print the position text")
    replay.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    replay.set_defaults(handler=_command_replay)
