"""Where the solver's sound phase spends its positions, and how independent its moves are.

    .venv/bin/python benchmarks/sound_space.py --game spiderette --suits 4 --number 44

Runs the sound (exhaustive, best-first) search of one deal until it has stored ``--positions``
positions, then prints two tables:

- the *plans* holding most expanded positions: a plan is the face-down count of every column
  and the cards on the table, so positions of one plan differ only in how the face-up cards are
  arranged (no card was turned and no run removed between them);
- for ``--sample`` expanded positions with an empty stock, how the columns touched by the legal
  moves split into groups (two columns are in one group when a move goes from one to the other).
  Moves of different groups touch different columns and commute; a partial-order reduction
  could only save work where a position has more than one group.

An analysis, not a timed test: the figures are counts, the same on every machine.
"""

from __future__ import annotations

import argparse
import heapq
import random
import shlex
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spider import Game
from spider.solver.full.encoding import State
from spider.solver.full.generate import Solver


def explore(solver: Solver, positions: int) -> tuple[list[State], bool]:
    """The positions the sound phase expands (in its order) until it stores ``positions``;
    the flag says whether it found a win first."""
    start = solver.start
    seen = {solver.key(start)}
    states = [start]
    heap = [(-solver.score(start), 0)]
    expanded: list[State] = []
    while heap and len(seen) < positions:
        negative, index = heapq.heappop(heap)
        state = states[index]
        expanded.append(state)
        for child_score, _, child in solver.children(state, -negative, 0):
            child_key = solver.key(child)
            if child_key in seen:
                continue
            if solver.is_won(child):
                return expanded, True
            seen.add(child_key)
            states.append(child)
            heapq.heappush(heap, (-child_score, len(states) - 1))
    return expanded, False


def move_groups(solver: Solver, state: State) -> tuple[int, ...]:
    """The sizes (in columns) of the groups of columns that the legal moves connect."""
    columns = state[0]
    parent = list(range(len(columns)))

    def root(index: int) -> int:
        while parent[index] != index:
            index = parent[index]
        return index

    touched: set[int] = set()
    for _, action, _ in solver.children(state, 0, 0):
        codes = action if isinstance(action, tuple) else (action,)
        for code in codes:
            if code < 0:
                continue
            source, target = code >> 8, (code >> 4) & 15
            touched.update((source, target))
            parent[root(source)] = root(target)
    return tuple(sorted(Counter(root(index) for index in touched).values(), reverse=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("spider", "spiderette"), default="spiderette")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    parser.add_argument("--rule", choices=("classic", "flexible"), default="classic")
    parser.add_argument("--number", type=int, default=44, help="deal number (default: 44)")
    parser.add_argument(
        "--positions", type=int, default=300_000, help="positions to store (default: 300000)"
    )
    parser.add_argument(
        "--sample", type=int, default=300, help="positions whose moves are grouped (default: 300)"
    )
    args = parser.parse_args()
    command = [".venv/bin/python", "benchmarks/sound_space.py", *sys.argv[1:]]
    print("Command: " + shlex.join(command))
    print()
    game = Game.new(args.game, suits=args.suits, rule=args.rule, number=args.number)
    solver = Solver(game)
    expanded, won = explore(solver, args.positions)
    endgame = [state for state in expanded if not state[1]]
    with_empty = sum(1 for columns, _ in endgame if any(len(column) == 1 for column in columns))
    print(
        f"{game.code}: {len(expanded):,} positions expanded"
        f"{' (a win was found first)' if won else ''}; {len(endgame):,} with an empty stock, "
        f"{with_empty:,} of them with an empty column."
    )
    print()
    plans = Counter(
        (tuple(sorted(column[0] for column in columns)), sum(map(len, columns)) - len(columns))
        for columns, _ in endgame
    )
    print("| plan: face-down cards per column (sorted) | cards on the table | positions |")
    print("|---|---|---|")
    for (downs, cards), count in plans.most_common(5):
        print(f"| {' '.join(map(str, downs))} | {cards} | {count:,} |")
    print(f"| ({len(plans)} plans in all) | | {len(endgame):,} |")
    print()
    sample = random.Random(1).sample(endgame, min(args.sample, len(endgame)))
    groups = Counter(move_groups(solver, state) for state in sample)
    several = sum(count for sizes, count in groups.items() if len(sizes) > 1)
    print("| columns per group of moves | positions |")
    print("|---|---|")
    for sizes, count in groups.most_common(8):
        print(f"| {' + '.join(map(str, sizes)) or 'no moves'} | {count} |")
    print(f"| more than one group | {several} of {len(sample)} |")


if __name__ == "__main__":
    main()
