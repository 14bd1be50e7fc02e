"""``spider serve`` and ``spider build-site``: the web app from this computer or as static files.

Both need the ``web`` extra, imported when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spider.cli.arguments import Commands, int_type
from spider.serve.headers import KEEP_ALIVE_TIMEOUT, REQUEST_TIMEOUT, SEND_TIMEOUT

__all__ = ["add_serve_commands"]

_PORT = int_type(1, 65535, "a port number")
_SERVE_WORKERS = int_type(1, 64, "a number of worker processes")
_TIMEOUT = int_type(1, 3600, "a number of seconds")
_WRITE_RATE = int_type(0, 1_000_000, "a number of writes a minute")
_SEARCHES = int_type(1, 1024, "a number of searches")


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
        solver=_solver_limits(args),
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


def _solver_limits(args: argparse.Namespace) -> Any:
    """The solver API's bounds of ``spider serve`` (None with ``--no-solver-api``)."""
    from spider.serve.solver_limits import SolverLimits

    if args.no_solver_api:
        return None
    return SolverLimits(
        think_seconds=args.think_seconds,
        review_seconds=args.review_seconds,
        per_client=min(args.solver_per_client, args.solver_jobs),
        total=args.solver_jobs,
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


def add_serve_commands(commands: Commands) -> None:
    """serve and build-site."""
    _add_serve_command(commands)
    _add_build_site_command(commands)


def _add_serve_command(commands: Commands) -> None:
    """The ``serve`` command: the web app and its sync service."""
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
    _add_solver_options(serve)
    serve.set_defaults(handler=_command_serve)


def _add_build_site_command(commands: Commands) -> None:
    """The ``build-site`` command: the web app as static files."""
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


def _add_solver_options(serve: argparse.ArgumentParser) -> None:
    """The solver API's options of ``spider serve``."""
    from spider.serve.solver_limits import SolverLimits

    defaults = SolverLimits()
    solver = serve.add_argument_group(
        '"Think harder" and the review on the server (docs/hosting.md)'
    )
    solver.add_argument(
        "--no-solver-api",
        action="store_true",
        help="no /api/think and /api/review: the page runs these searches in the browser",
    )
    solver.add_argument(
        "--think-seconds",
        type=_TIMEOUT,
        default=int(defaults.think_seconds),
        metavar="SECONDS",
        help='the longest "Think harder", 1 to 3600 (default: %(default)s)',
    )
    solver.add_argument(
        "--review-seconds",
        type=_TIMEOUT,
        default=int(defaults.review_seconds),
        metavar="SECONDS",
        help="the longest review, 1 to 3600 (default: %(default)s)",
    )
    solver.add_argument(
        "--solver-jobs",
        type=_SEARCHES,
        default=defaults.total,
        metavar="N",
        help="searches at once, in each worker process (default: %(default)s, the CPUs or 2)",
    )
    solver.add_argument(
        "--solver-per-client",
        type=_SEARCHES,
        default=defaults.per_client,
        metavar="N",
        help="searches at once from one client address (default: %(default)s)",
    )
