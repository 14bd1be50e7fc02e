"""``spider solve``, ``spider review`` and ``spider analyze``: the full solver, which sees every
card, on one game, back over a played game, and over many deals.

The solver is imported when a command runs, so other commands do not load it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from spider.cli.arguments import (
    CommandParser,
    Commands,
    add_variant_options,
    int_type,
    positive_number,
)
from spider.cli.game_source import load_game
from spider.progress_line import ProgressLine

__all__ = ["MAX_DEALS", "add_solve_commands"]

MAX_DEALS = 1_000_000
"""The most deals one ``spider analyze`` run takes (``--deals``)."""

_SECONDS = positive_number(86_400 * 365, "a number of seconds")
_MEGABYTES = positive_number(1 << 30, "a number of megabytes")
_WORKERS = int_type(1, 1024, "a number of workers")


def _dask_address(text: str) -> str:
    """An argparse type: a ``--dask`` value (checked by the solver's batch analysis)."""
    from spider.solver.full.analyze import parse_dask_address

    try:
        return parse_dask_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--dask ")) from None


def _command_solve(args: argparse.Namespace) -> int:
    from spider.solver.full.search import SolveProgress, solve

    game = load_game(args.source)
    with ProgressLine() as line:

        def show(progress: SolveProgress) -> None:
            line.update(f"{progress.positions} positions, {progress.elapsed:.1f}s")

        result = solve(
            game,
            time_limit=args.time_limit,
            memory_limit_mb=args.memory,
            progress=None if args.json or args.quiet else show,
            progress_every=20_000,
        )
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        label = game.code or "position"
        print(
            f"{label}: {result.status} ({result.reason}) after {result.positions} positions "
            f"in {result.elapsed:.2f}s"
        )
        if result.solution:
            print(f"Solution ({len(result.solution)} actions, replayed through the engine):")
            print(" ".join(result.solution))
    return 0 if result.status != "undecided" else 1


def _command_review(args: argparse.Namespace) -> int:
    from spider.solver.review import ReviewProgress, review

    game = load_game(args.source)
    with ProgressLine() as line:

        def show(progress: ReviewProgress) -> None:
            line.update(
                f"position {progress.probing} of {progress.moves}, "
                f"{progress.probes} searched, {progress.elapsed:.1f}s"
            )

        report = review(
            game,
            time_limit=args.time,
            position_time_limit=min(args.time, args.position_time),
            memory_limit_mb=args.memory,
            progress=None if args.json or args.quiet else show,
            progress_every=20_000,
        )
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if report.proven else 1


def _command_analyze(args: argparse.Namespace) -> int:
    from spider.solver.full.analyze import analyze, parse_deals

    deals = parse_deals(args.deals, limit=MAX_DEALS)
    out = Path(args.out)
    if out.suffix.lower() not in (".csv", ".json"):
        raise ValueError("--out must end in .csv or .json")
    try:
        summary = analyze(
            args.game,
            args.suits,
            args.rule,
            deals,
            out,
            time_limit=args.time_limit,
            workers=args.workers,
            memory_mb=args.memory,
            dask_address=args.dask,
        )
    except RuntimeError as error:
        print(f"spider: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "\ninterrupted: the results so far are in "
            + str(out)
            + "; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    for line in summary.lines():
        print(line)
    return 0


def add_solve_commands(commands: Commands) -> None:
    """solve, review and analyze."""
    _add_solve_command(commands)
    _add_review_command(commands)
    _add_analyze_command(commands)


def _add_solve_command(commands: Commands) -> None:
    """The ``solve`` command: the full solver on one deal or position."""
    solve = commands.add_parser(
        "solve",
        help="decide whether a deal or position can be won",
        description="Decide whether a deal or position can be won, seeing every card (a spoiler). "
        "A solution is replayed through the engine before it is printed.",
        epilog="Exit status: 0 when the answer is winnable or unwinnable, 1 when undecided "
        "within the limits, 2 for bad input. Ctrl+C stops the search and prints what it has.",
    )
    solve.add_argument("source", help="game code, position text, or a file holding one")
    solve.add_argument(
        "--time-limit", type=_SECONDS, default=60.0, help="seconds, more than 0 (default: 60)"
    )
    _add_solver_output_options(solve, "result")
    solve.set_defaults(handler=_command_solve)


def _add_solver_output_options(parser: CommandParser, printed: str) -> None:
    """The options every full-solver command shares: its memory bound, JSON output (of what
    ``printed`` names) and quiet progress."""
    parser.add_argument(
        "--memory", type=_MEGABYTES, default=2048, help="memory bound in MB (default: 2048)"
    )
    parser.add_argument("--json", action="store_true", help=f"print the {printed} as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _add_review_command(commands: Commands) -> None:
    """The ``review`` command: "where did I lose it?"."""
    review = commands.add_parser(
        "review",
        help='"where did I lose it?": the move that made a game unwinnable',
        description="Walk back over a saved game's played line (undone actions are not on it) "
        "with the full solver and find the last position from which it could still be won, "
        "the move that lost it, and what the fair hint would have played there. Without a "
        "proof in time, it says where the game was probably lost and the evidence (marked not "
        "proven). A spoiler: the solver sees the face-down cards and the stock.",
        epilog="Exit status: 0 for a proven answer (won, still winnable, lost at a move, never "
        "winnable), 1 for an unproven one (probably lost at about a move, with the evidence, or "
        "could not tell within the limits), 2 for bad input.",
    )
    review.add_argument("source", help="saved game (JSON file), game code or position text")
    review.add_argument(
        "--time",
        type=_SECONDS,
        default=60.0,
        metavar="S",
        help="seconds for the whole review (default: 60)",
    )
    review.add_argument(
        "--position-time",
        type=_SECONDS,
        default=10.0,
        metavar="S",
        help="seconds of the first solver run on a position, twice as many when it is searched "
        "again (default: 10)",
    )
    _add_solver_output_options(review, "review")
    review.set_defaults(handler=_command_review)


def _add_analyze_command(commands: Commands) -> None:
    """The ``analyze`` command: the solver over many deals."""
    analyze = commands.add_parser(
        "analyze",
        help="solve many deals and summarise",
        description="Solve many deals and print a summary: the winnable share with its 95% "
        "interval, the unwinnable and undecided shares, median and p95 time. Every result is "
        "written to --out as it comes in; running the same command again resumes.",
        epilog="Exit status: 0 when done, 2 for bad input, 130 when interrupted (the results so "
        "far are kept).",
    )
    add_variant_options(analyze)
    analyze.add_argument(
        "--deals",
        default="0-99",
        help=f"deal numbers, such as 0-999 or 1,5,7-9, at most {MAX_DEALS:,} of them "
        "(default: 0-99)",
    )
    analyze.add_argument(
        "--time-limit", type=_SECONDS, default=10.0, help="seconds per deal (default: %(default)s)"
    )
    analyze.add_argument(
        "--memory", type=_MEGABYTES, default=2048, help="memory bound per deal, MB (default: 2048)"
    )
    analyze.add_argument(
        "--workers",
        type=_WORKERS,
        default=os.cpu_count() or 1,
        help="worker processes, also of --dask local (default: one per core, %(default)s here)",
    )
    analyze.add_argument("--out", required=True, help="results file (.csv or .json); resumes")
    analyze.add_argument(
        "--dask",
        type=_dask_address,
        default=None,
        metavar="ADDRESS",
        help="run on Dask: 'local' starts a cluster of --workers processes on this machine for "
        "the run ('local:N', of N); HOST:PORT or tcp://HOST:PORT joins a scheduler started "
        "there with 'dask scheduler' (and its workers)",
    )
    analyze.set_defaults(handler=_command_analyze)
