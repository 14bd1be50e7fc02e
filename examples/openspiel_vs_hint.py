"""OpenSpiel's ISMCTS or MCTS against the quick hint, on the same numbered deals, neither seeing
a face-down card.

    pip install 'spider-solitaire[openspiel]'
    python examples/openspiel_vs_hint.py                 # ISMCTS, 60 simulations a decision
    python examples/openspiel_vs_hint.py --bot mcts      # MCTS, 100 simulations a decision

Both searches play the ``spider_solitaire`` OpenSpiel game, whose chance nodes deal each card
only when it shows, so no state holds a face-down card to peek at and plain MCTS is as fair as
ISMCTS: MCTS samples the cards it has not seen from those left; ISMCTS (information-set MCTS)
keys its tree by what the player sees (the observation string), so positions that look alike
share a node whatever cards chance dealt on the way.  Here chance is given the numbered deal's
own cards, so the search and the hint meet the same game.  Each decision runs ``--simulations``
searches (by default 60 for ISMCTS, 100 for MCTS: about a minute for the two default deals),
each valued by a random play-out of ``--rollout`` actions; the bot stops after
``--max-actions``.
"""

from __future__ import annotations

import argparse
import time

from spider import Game
from spider.research.openspiel import play_deal
from spider.solver.hint.quick import hint_action

BOTS = ("ismcts", "mcts")
DEFAULT_SIMULATIONS = {"ismcts": 60, "mcts": 100}


def hint_game(deal: Game, max_actions: int) -> None:
    """Play ``deal`` by the quick hint: its first move, or a deal when it offers none."""
    for _ in range(max_actions):
        action = None if deal.is_won else hint_action(deal)
        if action is None:
            return
        deal.push(action)


def play(player: str, number: int, args: argparse.Namespace) -> str:
    """Play deal ``number`` as ``player``; its row of the table."""
    deal = Game.new("spider", suits=args.suits, number=number, undo_limit=None)
    face_down = sum(deal.face_down)
    start = time.perf_counter()
    if player == "hint":
        hint_game(deal, args.max_actions)
    else:
        play_deal(deal, player, args.simulations, args.rollout, args.seed, args.max_actions)
    seconds = time.perf_counter() - start
    cells = [deal.code, player, "yes" if deal.is_won else "no", len(deal.completed)]
    cells += [face_down - sum(deal.face_down), f"{seconds:.1f}", deal.moves]
    return "| " + " | ".join(map(str, cells)) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[0, 1], help="deal numbers")
    parser.add_argument("--suits", type=int, default=1, choices=(1, 2, 4))
    parser.add_argument("--bot", choices=BOTS, default="ismcts", help="the OpenSpiel search")
    parser.add_argument("--simulations", type=int, help="searches a decision (ISMCTS 60, MCTS 100)")
    parser.add_argument("--rollout", type=int, default=10, help="actions per random play-out")
    parser.add_argument("--max-actions", type=int, default=300, help="actions before stopping")
    parser.add_argument("--seed", type=int, default=0, help="the search's random seed")
    args = parser.parse_args()
    if args.simulations is None:
        args.simulations = DEFAULT_SIMULATIONS[args.bot]
    if args.simulations < 1 or args.max_actions < 1 or args.rollout < 0:
        parser.error("--simulations and --max-actions must be at least 1, --rollout at least 0")
    print("| deal | player | won | runs removed | cards turned | seconds | actions |")
    print("|---|---|---|---|---|---|---|")
    for number in args.deals:
        for player in (args.bot, "hint"):
            print(play(player, number, args), flush=True)


if __name__ == "__main__":
    main()
