"""OpenSpiel's ISMCTS against the quick hint, on the same numbered deals, neither seeing a
face-down card.

    pip install 'spider-solitaire[openspiel]'
    python examples/openspiel_ismcts_vs_hint.py --deals 0 1 --suits 1 --simulations 20

ISMCTS plays the ``spider_solitaire`` OpenSpiel game, whose chance nodes deal each card when it
shows; here chance is given the numbered deal's own cards, so both players meet the same game.
"""

from __future__ import annotations

import argparse

from spider import Game
from spider.research.openspiel import play_deal
from spider.solver.hint.quick import hint_action


def hint_game(deal: Game, max_actions: int) -> None:
    """Play ``deal`` by the quick hint: its first move, or a deal when it offers none."""
    for _ in range(max_actions):
        if deal.is_won:
            return
        action = hint_action(deal)
        if action is None:
            return
        deal.push(action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--suits", type=int, default=1, choices=(1, 2, 4))
    parser.add_argument("--simulations", type=int, default=20, help="ISMCTS searches a decision")
    parser.add_argument("--rollout", type=int, default=10, help="actions per random play-out")
    parser.add_argument("--max-actions", type=int, default=200)
    args = parser.parse_args()
    print("| deal | player | won | runs removed | face-down left | actions |")
    print("|---|---|---|---|---|---|")
    for number in args.deals:
        for player in ("ismcts", "hint"):
            deal = Game.new("spider", suits=args.suits, number=number, undo_limit=None)
            if player == "hint":
                hint_game(deal, args.max_actions)
            else:
                play_deal(deal, "ismcts", args.simulations, args.rollout, 0, args.max_actions)
            print(
                f"| {deal.code} | {player} | {'yes' if deal.is_won else 'no'} "
                f"| {len(deal.completed)} | {sum(deal.face_down)} | {deal.moves} |"
            )


if __name__ == "__main__":
    main()
