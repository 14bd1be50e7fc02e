"""Spider and Spiderette solitaire: the rules engine.

Examples:
    >>> from spider import Game
    >>> g = Game.new("spider", suits=2, number=3)
    >>> g.code
    'SP1-S2C-AAAAAAD'
    >>> g.move(*g.legal_moves()[0]) if g.legal_moves() else g.deal()

The engine uses only the Python standard library; it runs unchanged under Pyodide.
"""

from __future__ import annotations

from spider.autoplace import best_destination
from spider.cards import Card
from spider.codes import format_code, parse_code
from spider.errors import IllegalMove, InvalidCode, InvalidPosition
from spider.game import DEFAULT_UNDO_LIMIT, Column, Effects, Game
from spider.moves import DEAL, Action, Move
from spider.options import Options

__all__ = [
    "DEAL",
    "DEFAULT_UNDO_LIMIT",
    "Action",
    "Card",
    "Column",
    "Effects",
    "Game",
    "IllegalMove",
    "InvalidCode",
    "InvalidPosition",
    "Move",
    "Options",
    "best_destination",
    "format_code",
    "parse_code",
]

__version__ = "0.1.0"
