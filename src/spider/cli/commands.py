"""The ``spider`` command line.

Every bad argument or file ends with a one-line ``spider: error: ...`` on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from spider import __version__
from spider.cli.backup_command import add_backup_command
from spider.daily import daily_deals, parse_day
from spider.errors import IllegalMove, InvalidCode
from spider.game import Game
from spider.limits import MAX_SAVED_CHARS, excerpt
from spider.moves import action_from_text, action_text
from spider.render import render_text
from spider.replay import InvalidReplay, Replay, decode_replay, encode_replay, replay_notation
from spider.serve.headers import KEEP_ALIVE_TIMEOUT, REQUEST_TIMEOUT, SEND_TIMEOUT
from spider.shuffle import MAX_NUMBER

if TYPE_CHECKING:  # imported when used: the solver is not loaded for other commands
    from spider.solver.hint.endgame import EndgameLine
    from spider.solver.think.report import ThinkReport

__all__ = ["MAX_DEALS", "load_game", "main"]

MAX_DEALS = 1_000_000
"""The most deals one ``spider analyze`` run takes (``--deals``)."""

_MAX_FILE_BYTES = MAX_SAVED_CHARS * 4
"""A game file larger than this is refused before it is read (a saved game is at most
:data:`~spider.limits.MAX_SAVED_CHARS` characters, at most 4 bytes each)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``spider COMMAND: error: ...``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive_number(high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a finite number greater than 0 and at most ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{excerpt(text)} is not {what}") from None
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"{what} must be greater than 0 and at most {high:,.0f}, not {excerpt(text)}"
            )
        return value

    return parse


_SECONDS = _positive_number(86_400 * 365, "a number of seconds")
_MEGABYTES = _positive_number(1 << 30, "a number of megabytes")


def _int_type(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        stripped = text.strip()
        if not (stripped.isascii() and stripped.removeprefix("-").isdigit()):
            raise argparse.ArgumentTypeError(f"{excerpt(text)} is not {what}")
        # A whole number of any length is out of range, not "not a number"; only short ones
        # are converted (int() of a huge string is slow and refused by Python over 4,300 digits).
        value = int(stripped) if len(stripped) < 20 else None
        if value is None or not low <= value <= high:
            shown = excerpt(stripped) if value is None else value
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, not {shown}")
        return value

    return parse


_PORT = _int_type(1, 65535, "a port number")
_DEAL_NUMBER = _int_type(0, MAX_NUMBER, "a deal number")
_WORKERS = _int_type(1, 1024, "a number of workers")
_SERVE_WORKERS = _int_type(1, 64, "a number of worker processes")
_TIMEOUT = _int_type(1, 3600, "a number of seconds")
_WRITE_RATE = _int_type(0, 1_000_000, "a number of writes a minute")
_INDEX = _int_type(0, 1_000_000, "a hint index")
_ITERATIONS = _int_type(1, 10_000_000, "a number of iterations")
_SEED = _int_type(0, 2**32 - 1, "a seed")
_JOBS = _int_type(1, 64, "a number of processes")
_THINK_SECONDS = _positive_number(86_400, "a number of seconds")


def _source_text(source: str) -> str:
    """The text of ``source``: the file it names (within a size bound), else ``source`` itself."""
    text = source.strip()
    try:
        is_file = len(text) < 4096 and Path(text).is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        path = Path(text)
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise ValueError(f"{excerpt(text)}: the file is too large to be a game")
        try:
            text = path.read_text(encoding="utf-8").strip()
        except UnicodeDecodeError:
            raise ValueError(f"{excerpt(text)}: the file is not UTF-8 text") from None
    return text


def load_game(source: str) -> Game:
    """A game from a code, a position text, a file holding either, or a saved-game JSON file."""
    text = _source_text(source)
    if text.startswith("{"):
        return Game.from_json(text)
    if text.upper().startswith(("SP1-", "SD1-")):
        return Game.from_code(text)
    if " / " in text or text.count("/") >= 5:
        return Game.from_text(text)
    raise ValueError(
        f"{excerpt(source)} is neither a game code (such as SP1-S2C-AAAAAAD), a position text, "
        "nor a file holding one"
    )


def _new_game(args: argparse.Namespace) -> Game:
    """The deal chosen by the options of :func:`_add_deal_options`."""
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


def _command_serve(args: argparse.Namespace) -> int:
    try:
        from spider.serve.app import serve
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(
            f"spider serve needs the web extra (pip install 'spider-solitaire[web]'): {error}",
            file=sys.stderr,
        )
        return 2
    from spider.serve.app import ServeOptions
    from spider.serve.listen import ListenProblem
    from spider.serve.pyodide_runtime import RuntimeProblem
    from spider.serve.syncstore import StoreError

    unused = _unused_sync_option(args)
    if unused is not None:
        print(f"spider serve: error: {unused}", file=sys.stderr)
        return 2
    options = ServeOptions(
        workers=args.workers,
        timeout_keep_alive=args.timeout_keep_alive,
        timeout_request=args.timeout_request,
        timeout_send=args.timeout_send,
        sync=_sync_config(args),
    )
    try:
        serve(host=args.host, port=args.port, open_browser=args.open, options=options)
    except (RuntimeProblem, ListenProblem, StoreError) as problem:
        print(f"spider serve: error: {problem}", file=sys.stderr)
        return 2
    return 0


def _unused_sync_option(args: argparse.Namespace) -> str | None:
    """Why the sync options given cannot all apply, or None when they can."""
    if args.no_sync and args.database is not None:
        return "--database names the sync service's database: it cannot go with --no-sync"
    if args.no_sync and args.data_dir is not None:
        return "--data-dir holds the sync service's database: it cannot go with --no-sync"
    if args.database is not None and args.data_dir is not None:
        return "--data-dir holds the SQLite database: it cannot go with --database (PostgreSQL)"
    return None


def _sync_config(args: argparse.Namespace) -> Any:
    """The sync service's configuration of ``spider serve`` (None with ``--no-sync``)."""
    from spider.serve.sync import SyncConfig

    if args.no_sync:
        return None
    return SyncConfig(
        database=args.database,
        data_dir=Path(args.data_dir).absolute() if args.data_dir is not None else None,
        key_writes_per_minute=args.sync_key_writes,
        client_writes_per_minute=args.sync_client_writes,
    )


def _command_build_site(args: argparse.Namespace) -> int:
    try:
        from spider.serve.site import SiteError, build_site
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(
            f"spider build-site needs the web extra (pip install 'spider-solitaire[web]'): {error}",
            file=sys.stderr,
        )
        return 2
    deploy = Path(args.deploy_dir) if args.deploy_dir is not None else None
    try:
        report = build_site(
            Path(args.directory), deploy_dir=deploy, port=args.port, sync_url=args.sync
        )
    except SiteError as error:
        print(f"spider build-site: error: {error}", file=sys.stderr)
        return 2
    print(
        f"spider build-site: {report.files} files ({report.bytes:,} bytes, "
        f"{report.compressed} precompressed forms beside them), Pyodide "
        f"{report.pyodide_version}, in {report.directory}: serve public/ with nginx/spider.conf, "
        "Caddyfile or public/_headers (see docs/hosting.md)"
        + (f"; /api/sync passed on to {args.sync}" if args.sync else "")
    )
    return 0


def _command_play(args: argparse.Namespace) -> int:
    from spider.cli.play import play

    game = load_game(args.source) if args.source is not None else _new_game(args)
    return play(game, symbols=not args.ascii)


def _add_variant_options(parser: argparse.ArgumentParser) -> None:
    """The options that choose a variant: game, suits and rule."""
    parser.add_argument(
        "--game",
        choices=("spider", "spiderette"),
        default="spider",
        help="spider: two decks, ten columns; spiderette: one deck, seven columns "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--suits", type=int, choices=(1, 2, 4), default=1, help="number of suits (default: 1)"
    )
    parser.add_argument(
        "--rule",
        choices=("classic", "flexible"),
        default="classic",
        help="classic: only one-suit runs move together; flexible: any descending run "
        "(spider only; default: %(default)s)",
    )


def _add_deal_options(parser: argparse.ArgumentParser) -> None:
    """The options of a new deal: the variant, the scoring, and which deal."""
    _add_variant_options(parser)
    parser.add_argument(
        "--scoring",
        choices=("standard", "reveal"),
        default="standard",
        help="standard: 500 to start, -1 a move or deal, +100 a run; reveal: 0 to start, "
        "+5 a turned card, +100 a run (default: %(default)s)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--number",
        type=_DEAL_NUMBER,
        default=None,
        help=f"deal number, 0 to {MAX_NUMBER} (random if omitted)",
    )
    which.add_argument(
        "--winnable",
        action="store_true",
        help="a random deal from the catalogue of deals the solver proved winnable",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``spider`` command."""
    parser = _Parser(
        prog="spider",
        description="Spider and Spiderette solitaire: deal, show, play, hint, solve and serve "
        "games.",
        epilog="Columns are lettered a-j in move notation: 'ad' moves one card from the first "
        "column to the fourth, 'bc3' moves three cards, 'deal' deals from the stock.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_game_commands(commands)
    _add_share_commands(commands)  # daily, replay (see the block below)
    add_backup_command(commands)

    _add_serve_commands(commands)
    _add_solver_commands(commands)  # hint, solve, analyze (see the block below)
    return parser


def _add_game_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """new, show and play."""
    new = commands.add_parser("new", help="deal a game and print its code and layout")
    _add_deal_options(new)
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
    _add_deal_options(play)
    play.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    play.set_defaults(handler=_command_play)


def _add_serve_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """serve and build-site."""
    serve = commands.add_parser("serve", help="serve the web app")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=_PORT, default=8000, help="port, 1 to 65535 (default: %(default)s)"
    )
    serve.add_argument("--open", action="store_true", help="open the app in a web browser")
    serve.add_argument(
        "--workers",
        type=_SERVE_WORKERS,
        default=1,
        help="worker processes sharing the port, 1 to 64 (default: %(default)s)",
    )
    serve.add_argument(
        "--timeout-keep-alive",
        type=_TIMEOUT,
        default=KEEP_ALIVE_TIMEOUT,
        metavar="SECONDS",
        help="close a connection idle this long after a response, 1 to 3600 (default: %(default)s)",
    )
    serve.add_argument(
        "--timeout-request",
        type=_TIMEOUT,
        default=REQUEST_TIMEOUT,
        metavar="SECONDS",
        help="close a connection whose request has not arrived whole in this time, counted "
        "from its first byte or the connection's opening, 1 to 3600 (default: %(default)s)",
    )
    serve.add_argument(
        "--timeout-send",
        type=_TIMEOUT,
        default=SEND_TIMEOUT,
        metavar="SECONDS",
        help="close a connection whose client reads nothing of a response this long, "
        "1 to 3600 (default: %(default)s)",
    )
    _add_sync_options(serve)
    serve.set_defaults(handler=_command_serve)
    site = commands.add_parser(
        "build-site",
        help="write the web app as static files with nginx, Caddy and _headers configurations",
        description="Write the whole web app into DIRECTORY as static files, precompressed, "
        "with configurations for nginx, Caddy and hosts that read a _headers file.",
    )
    site.add_argument("directory", help="new or empty directory, or an earlier build to replace")
    site.add_argument(
        "--deploy-dir",
        default=None,
        help="absolute path DIRECTORY will have on the web server, named in the nginx and "
        "Caddy configurations (default: DIRECTORY's own)",
    )
    site.add_argument(
        "--port",
        type=_PORT,
        default=80,
        help="port the nginx server block and the Caddyfile listen on, 1 to 65535 "
        "(default: %(default)s)",
    )
    site.add_argument(
        "--sync",
        default=None,
        metavar="URL",
        help="address of a sync service (spider serve), such as http://127.0.0.1:8001: the "
        "configurations pass /api/sync on to it and the page offers sync (default: no sync)",
    )
    site.set_defaults(handler=_command_build_site)


def _add_sync_options(serve: argparse.ArgumentParser) -> None:
    """The sync service's options of ``spider serve``."""
    sync = serve.add_argument_group("sync service (docs/sync.md)")
    sync.add_argument(
        "--no-sync", action="store_true", help="no sync service (the page offers no sync)"
    )
    sync.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help="directory of the SQLite sync database (default: $XDG_DATA_HOME/spider-solitaire "
        "or ~/.local/share/spider-solitaire)",
    )
    sync.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="keep sync data in PostgreSQL instead: postgresql://user@host/dbname "
        "(needs the postgres extra)",
    )
    sync.add_argument(
        "--sync-key-writes",
        type=_WRITE_RATE,
        default=60,
        metavar="PER_MINUTE",
        help="writes a minute allowed to one sync key, 0 for no limit (default: %(default)s)",
    )
    sync.add_argument(
        "--sync-client-writes",
        type=_WRITE_RATE,
        default=600,
        metavar="PER_MINUTE",
        help="writes a minute allowed from one client address, 0 for no limit "
        "(default: %(default)s)",
    )


# ----------------------------------------------------------------- solver commands
# hint, solve and analyze: thin wrappers over spider.solver, imported when a command runs.


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


def _progress_line(text: str) -> None:
    """Show ``text`` as the progress line on stderr, over the previous one."""
    print(f"\r{text}", end="", file=sys.stderr, flush=True)


def _think_harder(game: Game, args: argparse.Namespace) -> int:
    """``spider hint --strong``: "Think harder" (visible information only), with progress."""
    from spider.solver.think.harder import ThinkProgress, think

    if game.is_won:
        print("The game is won.")
        return 0
    show_progress = not (args.json or args.quiet)

    def show(progress: ThinkProgress) -> None:
        _progress_line(
            f"{progress.iterations} iterations, {progress.elapsed:.1f}s, best {progress.best} "
            f"({100 * progress.share:.0f}%)\033[K"
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
    if show_progress:
        print(file=sys.stderr)
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


def _command_solve(args: argparse.Namespace) -> int:
    from spider.solver.full.search import SolveProgress, solve

    game = load_game(args.source)

    def show(progress: SolveProgress) -> None:
        _progress_line(f"{progress.positions} positions, {progress.elapsed:.1f}s")

    result = solve(
        game,
        time_limit=args.time_limit,
        memory_limit_mb=args.memory,
        progress=None if args.json or args.quiet else show,
        progress_every=20_000,
    )
    if not (args.json or args.quiet):
        print(file=sys.stderr)
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

    def show(progress: ReviewProgress) -> None:
        _progress_line(
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
    if not (args.json or args.quiet):
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print("\n".join(report.lines()))
    return 1 if report.status == "could-not-tell" else 0


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


def _add_solver_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """hint, solve, review and analyze."""
    _add_hint_command(commands)
    _add_solve_command(commands)
    _add_review_command(commands)
    _add_analyze_command(commands)


def _add_hint_command(commands: argparse._SubParsersAction[_Parser]) -> None:
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


def _add_solve_command(commands: argparse._SubParsersAction[_Parser]) -> None:
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


def _add_solver_output_options(parser: _Parser, printed: str) -> None:
    """The options every full-solver command shares: its memory bound, JSON output (of what
    ``printed`` names) and quiet progress."""
    parser.add_argument(
        "--memory", type=_MEGABYTES, default=2048, help="memory bound in MB (default: 2048)"
    )
    parser.add_argument("--json", action="store_true", help=f"print the {printed} as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _add_review_command(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The ``review`` command: "where did I lose it?"."""
    review = commands.add_parser(
        "review",
        help='"where did I lose it?": the move that made a game unwinnable',
        description="Walk back over a saved game's played line (undone actions are not on it) "
        "with the full solver and find the last position from which it could still be won, "
        "the move that lost it, and what the fair hint would have played there. A spoiler: "
        "the solver sees the face-down cards and the stock.",
        epilog="Exit status: 0 when decided (won, still winnable, lost at a move, never "
        "winnable), 1 when the solver could not tell within the limits, 2 for bad input.",
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
        help="seconds of solver per position (default: 10)",
    )
    _add_solver_output_options(review, "review")
    review.set_defaults(handler=_command_review)


def _add_analyze_command(commands: argparse._SubParsersAction[_Parser]) -> None:
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
    _add_variant_options(analyze)
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
        help="worker processes (default: one per core, %(default)s here)",
    )
    analyze.add_argument("--out", required=True, help="results file (.csv or .json); resumes")
    analyze.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run on a Dask distributed scheduler at ADDRESS",
    )
    analyze.set_defaults(handler=_command_analyze)


# ----------------------------------------------------------------- end of solver commands


# ----------------------------------------------------------------------- daily and replays


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
    text = _source_text(args.source)
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


def _add_share_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
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


# ----------------------------------------------------------------- end of daily and replays


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status: int = args.handler(args)
    except BrokenPipeError:
        # The reader stopped early (``spider new | head``): not an error. Send what is left of
        # the output nowhere, so the interpreter's last flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (InvalidCode, IllegalMove, ValueError, LookupError, OSError) as error:
        print(f"spider: error: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
