"""The player's view of a game, as JSON: what the page may show and where each group may go.

Face-down cards appear as counts only, never their identities. The protocol answers every request
with this view (:func:`spider.protocol.game_view` is this function), and a backup's game is checked
against it (:mod:`spider.backup`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from spider.cards import card_text
from spider.game import Game
from spider.options import Options

__all__ = ["VARIANTS", "card_names", "from_deal_start", "game_view"]


def from_deal_start(game: Game) -> bool:
    """True when ``game`` began at the first layout of its deal (a new deal, a code, or that
    deal's starting position): only such games count in the player's statistics."""
    return game.number is not None and game.start_position().moves == 0


VARIANTS: Final = [
    {"game": options.game, "suits": options.suits, "rule": options.rule}
    for options in Options.variants()
]
"""The games the player can choose, for the page's menus and statistics."""


def card_names(cards: Sequence[int]) -> list[str]:
    """The cards' text names (``"AS"``, ``"10H"``), in order."""
    return [card_text(card) for card in cards]


def game_view(game: Game) -> dict[str, Any]:
    """The player's view of ``game``: what the page may show and where each group may go."""
    columns = []
    all_moves = game.legal_moves()
    position = game.position()
    for index, column in enumerate(position.columns):
        down = position.face_down[index]
        pickup = game.movable_count(index)
        dests: list[list[int]] = [[] for _ in range(pickup)]
        for move in all_moves:
            if move.src == index:
                dests[move.count - 1].append(move.dst)
        columns.append(
            {"down": down, "up": card_names(column[down:]), "pickup": pickup, "dests": dests}
        )
    error = game.deal_error()
    return {
        "game": game.game,
        "suits": game.suits,
        "rule": game.rule,
        "scoring": game.scoring,
        "code": game.code,
        "number": game.number,
        "columns": columns,
        "deals_left": game.deals_left,
        "stock_cards": len(position.stock),
        "can_deal": error is None,
        "deal_error": None if error is None else error.code,
        "blocked_deal": game.deal_blocked_forever(),
        "deal_possible": game.deals_left > 0 and not game.deal_blocked_forever(),
        "runs_to_win": game.options.runs_to_win,
        "variants": VARIANTS,
        "completed": list(game.completed),
        "score": game.score,
        "moves": game.moves,
        "won": game.is_won,
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "undo_limit": game.undo_limit,
        "has_moves": bool(all_moves),
        "from_deal_start": from_deal_start(game),
    }
