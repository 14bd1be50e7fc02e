"""Spider and Spiderette solitaire: the rules engine.

Examples:
    >>> from spider import Game, parse_action
    >>> g = Game.new("spider", suits=2, number=3)
    >>> g.code
    'SP1-S2C-AAAAAAD'
    >>> g.move(*g.legal_moves()[0]) if g.legal_moves() else g.deal()
    >>> g.push("deal")                      # actions as text too: "ad", "bc3", "deal"
    >>> g.outcome().status
    'in-play'
    >>> parse_action("bc3")
    Move(src=1, dst=2, count=3)

The engine uses only the Python standard library; it runs unchanged under Pyodide.
"""

from __future__ import annotations

from spider.autoplace import best_destination
from spider.cards import Card
from spider.codes import format_code, parse_code
from spider.errors import IllegalMove, InvalidAction, InvalidCode, InvalidPosition
from spider.game import DEFAULT_UNDO_LIMIT, Column, Effects, Game, Outcome
from spider.moves import DEAL, Action, Move, action_text, parse_action
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
    "InvalidAction",
    "InvalidCode",
    "InvalidPosition",
    "Move",
    "Options",
    "Outcome",
    "action_text",
    "best_destination",
    "format_code",
    "parse_action",
    "parse_code",
]

__version__ = "0.1.0"
