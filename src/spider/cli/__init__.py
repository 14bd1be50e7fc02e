"""The ``spider`` command line: :func:`main`, and one module per family of commands.

Every bad argument or file ends with a one-line ``spider: error: ...`` on stderr and exit
status 2, never a traceback.

:mod:`~spider.cli.parser` builds the parser from the families: :mod:`~spider.cli.game_commands`
(``new``, ``show``, ``play``, whose game in the terminal is :mod:`~spider.cli.play`),
:mod:`~spider.cli.share_commands` (``daily``, ``replay``), :mod:`~spider.cli.backup_command`
(``backup``), :mod:`~spider.cli.serve_commands` (``serve``, ``build-site``),
:mod:`~spider.cli.hint_command` (``hint``) and :mod:`~spider.cli.solve_commands` (``solve``,
``review``, ``analyze``). They share :mod:`~spider.cli.arguments` (the parser class, checked number
types, the deal options), :mod:`~spider.cli.game_source` (the game a SOURCE argument names) and
:mod:`spider.progress_line`, which the batch analysis draws its progress with too.
"""

from __future__ import annotations

import os
import sys

from spider.cli.parser import build_parser
from spider.cli.solve_commands import MAX_DEALS
from spider.errors import IllegalMove, InvalidCode

__all__ = ["MAX_DEALS", "main"]


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
