"""``spider hint``: the quick hint, or "Think harder" with ``--strong``.

The solver is imported when the command runs, so other commands do not load it.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from spider.cli.arguments import Commands, int_type, positive_number
from spider.cli.game_source import load_game
from spider.game import Game
from spider.moves import action_from_text, action_text
from spider.progress_line import ProgressLine

if TYPE_CHECKING:
    from spider.solver.hint.endgame import EndgameLine
    from spider.solver.think.report import ThinkReport

__all__ = ["add_hint_command"]

_INDEX = int_type(0, 1_000_000, "a hint index")
_ITERATIONS = int_type(1, 10_000_000, "a number of iterations")
_SEED = int_type(0, 2**32 - 1, "a seed")
_JOBS = int_type(1, 64, "a number of processes")
_THINK_SECONDS = positive_number(86_400, "a number of seconds")


def _command_hint(args: argparse.Namespace) -> int:
    from spider.solver.hint.quick import hint_report

    strong_only = [
        flag
        for flag, value in (
            ("--time", args.time),
            ("--iterations", args.iterations),
            ("--seed", args.seed),
            ("--jobs", args.jobs),
            ("--quiet", args.quiet or None),
        )
        if value is not None
    ]
    if args.strong and args.index is not None:
        raise ValueError("--index goes with the quick hint, not with --strong")
    if strong_only and not args.strong:
        verb = "works" if len(strong_only) == 1 else "work"
        raise ValueError(f"{' and '.join(strong_only)} only {verb} with --strong")
    game = load_game(args.source)
    for token in args.moves:
        game.push(action_from_text(token))
    if args.strong:
        return _think_harder(game, args)
    index = args.index or 0
    report = hint_report(game)
    if args.json:
        chosen = report.pick(index)
        print(json.dumps(chosen.to_json(), indent=2))
        return 0
    if not report.options:
        print(report.text)
        return 0
    for rank, option in enumerate(report.options):
        marker = "*" if rank == index % len(report.options) else " "
        print(
            f"{marker} {rank + 1:2d}. {option.move.text():5s} {option.text}"
            f"  (line: {' '.join(move.text() for move in option.line)})"
        )
    print("Deal possible: " + ("yes" if report.deal_possible else "no"))
    return 0


def _think_harder(game: Game, args: argparse.Namespace) -> int:
    """``spider hint --strong``: "Think harder" (visible information only), with progress."""
    from spider.solver.think.harder import ThinkProgress, think

    if game.is_won:
        print("The game is won.")
        return 0
    show_progress = not (args.json or args.quiet)
    with ProgressLine() as progress_line:

        def show(progress: ThinkProgress) -> None:
            progress_line.update(
                f"{progress.iterations} iterations, {progress.elapsed:.1f}s, best {progress.best} "
                f"({100 * progress.share:.0f}%)"
            )

        report = think(
            game,
            iterations=args.iterations,
            time_limit=args.time,
            seed=args.seed or 0,
            jobs=args.jobs or 1,
            progress=show if show_progress else None,
            progress_every=1,
        )
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0
    if report.action is None:
        print("No move seems to help, and no deal is possible.")
        return 0
    line = " ".join(action_text(action) for action in report.line)
    print(f"Best: {action_text(report.action)}  (line: {line})")
    if report.endgame is not None:
        print(_endgame_text(report.endgame))
        return 0
    print(
        f"Chosen in {report.visits} of {report.iterations} iterations "
        f"({100 * report.share:.0f}%), value {report.value:.3f}, {report.elapsed:.1f}s "
        f"({report.reason})"
    )
    kept = _kept_by_the_lead(report)
    if kept:
        print(kept)
    print("  visits  value  line")
    for option in report.options:
        text = " ".join(action_text(action) for action in option.line)
        marker = "*" if option.line == report.line else " "
        print(f"{marker} {option.visits:6d}  {option.value:.3f}  {text}")
    return 0


def _kept_by_the_lead(report: ThinkReport) -> str:
    """Why the quick hint's line was chosen although another was visited more (it counts
    :func:`~spider.solver.think.report.hint_lead` visits more), or "" when the table says it by
    itself."""
    from spider.solver.think.report import hint_lead

    first = report.options[0] if report.options else None
    if first is None or first.line != report.line:
        return ""
    if not any(option.visits > first.visits for option in report.options[1:]):
        return ""
    lead = hint_lead(sum(option.visits for option in report.options))
    return (
        "Kept the quick hint's line: another line must be visited "
        f"{lead} more times than it to overrule it."
    )


def _endgame_text(ending: EndgameLine) -> str:
    """How the full solver chose an endgame line, in one sentence."""
    if ending.certain:
        return "Every card is in sight: the full solver's line wins."
    return f"Chosen by the full solver: after it, {ending.odds}."


def add_hint_command(commands: Commands) -> None:
    """The ``hint`` command: the fair hint, or "Think harder" with ``--strong``."""
    hint = commands.add_parser(
        "hint", help="suggest the best move, judged from the visible cards only"
    )
    hint.add_argument("source", help="game code, position text, or a file holding one")
    hint.add_argument("moves", nargs="*", help="actions to play first, such as: ad bc3 deal")
    hint.add_argument(
        "--index", type=_INDEX, default=None, help="which hint: 0 the best (default), 1 the next..."
    )
    hint.add_argument("--json", action="store_true", help="print the hint as JSON")
    hint.add_argument(
        "--strong",
        action="store_true",
        help='"Think harder": a search over what the player knows (slower, stronger)',
    )
    hint.add_argument(
        "--time",
        type=_THINK_SECONDS,
        default=None,
        metavar="S",
        help="with --strong: think at most S seconds",
    )
    hint.add_argument(
        "--iterations",
        type=_ITERATIONS,
        default=None,
        metavar="N",
        help="with --strong: at most N play-outs (default 100 when --time is not given); "
        "the answer depends only on what the player sees, N and --seed",
    )
    hint.add_argument(
        "--seed", type=_SEED, default=None, metavar="N", help="with --strong: seed (default 0)"
    )
    hint.add_argument(
        "--jobs",
        type=_JOBS,
        default=None,
        metavar="N",
        help="with --strong: grow N independent trees on N processes and add up their "
        "statistics (default 1); the answer depends on N as well",
    )
    hint.add_argument("--quiet", action="store_true", help="with --strong: no progress on stderr")
    hint.set_defaults(handler=_command_hint)
