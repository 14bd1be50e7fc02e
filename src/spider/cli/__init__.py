"""The ``spider`` command line: :func:`main` and one module per group of commands.

:mod:`~spider.cli.commands` holds the parser and most commands, :mod:`~spider.cli.play` the
game in the terminal, :mod:`~spider.cli.backup_command` ``spider backup``.
"""

from __future__ import annotations

from spider.cli.commands import main

__all__ = ["main"]
