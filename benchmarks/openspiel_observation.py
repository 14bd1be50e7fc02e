"""OpenSpiel observation tensor: floats and microseconds per ``observation_tensor`` call.

Usage: python benchmarks/openspiel_observation.py [--against REV] [--positions N] [--rounds R]

Each variant collects ``--positions`` player positions of random play (seed 1), then times
``state.observation_tensor(0)`` on all of them, ``--rounds`` times, and keeps the best round (CPU
time, ``time.process_time``).  With ``--against REV`` the game of ``src/spider/research/
openspiel.py`` at git revision ``REV`` is loaded beside today's (under another name) and timed
on the same positions in the same process, so the ratio is one run's.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pyspiel

from spider.research.openspiel import GAME_NAME

VARIANTS = [("spider", 1), ("spider", 2), ("spider", 4), ("spiderette", 4)]
BEFORE: str = GAME_NAME + "_before"
SOURCE = "src/spider/research/openspiel.py"


def register_before(revision: str) -> None:
    """Register the game as it was at ``revision`` under the name ``BEFORE``."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{SOURCE}"], capture_output=True, text=True, check=True
    ).stdout
    text = text.replace(f'GAME_NAME: Final = "{GAME_NAME}"', f'GAME_NAME: Final = "{BEFORE}"')
    if BEFORE not in text:
        sys.exit(f"{SOURCE} at {revision} does not define GAME_NAME as this script expects")
    path = Path(tempfile.mkdtemp()) / "openspiel_before.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("openspiel_before", path)
    assert spec is not None and spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def positions(name: str, params: dict[str, Any], count: int) -> tuple[Any, list[Any]]:
    """The game and ``count`` player states of random play."""
    game = pyspiel.load_game(name, params)
    rng, states = random.Random(1), []
    state = game.new_initial_state()
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return game, states


def microseconds(states: list[Any], rounds: int) -> float:
    """The best round's CPU microseconds per ``observation_tensor`` call."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for state in states:
            state.observation_tensor(0)
        best = min(best, (time.process_time() - start) / len(states) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", help="a git revision to compare with")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.positions < 1 or args.rounds < 1:
        parser.error("--positions and --rounds must be at least 1")
    names = {GAME_NAME: "now"}
    if args.against:
        register_before(args.against)
        names = {BEFORE: args.against, **names}
    labels = [f"{label} floats | {label} µs/call" for label in names.values()]
    print("| variant | " + " | ".join(labels) + " |")
    print("|---|" + "---|---|" * len(names))
    for game_name, suits in VARIANTS:
        cells = [f"{game_name} {suits}"]
        for name in names:
            params = {"game": game_name, "suits": suits, "max_moves": 300}
            game, states = positions(name, params, args.positions)
            cells += [
                f"{game.observation_tensor_size():,}",
                f"{microseconds(states, args.rounds):.0f}",
            ]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
