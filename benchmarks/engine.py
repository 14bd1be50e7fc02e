"""Engine speed: legal_moves() calls and move+undo pairs per second on mid-game positions.

Usage: python benchmarks/engine.py [--games N] [--seed S]

Times are CPU time of this process (time.process_time), so other work on the machine does not
distort them.  Positions come from random play of 4-suit spider (classic and flexible) through
the public API, taken between the 20th and the 120th action, so they are mid-game: deals made,
columns mixed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from spider import Game


def mid_game_positions(games: int, seed: int, rule: str) -> list[Game]:
    rng = random.Random(seed)
    positions = []
    for index in range(games):
        game = Game.new("spider", suits=4, rule=rule, number=rng.randrange(10**9), undo_limit=None)
        stop = rng.randrange(20, 120)
        for _ in range(stop):
            moves = game.legal_moves()
            if game.can_deal and (not moves or rng.random() < 0.08):
                game.deal()
            elif moves:
                game.move(*rng.choice(moves))
            else:
                break
        if game.legal_moves():
            positions.append(game.copy(history=False))
        del index
    return positions


def rate(work: int, seconds: float) -> str:
    return f"{work / seconds:,.0f}"


def bench_legal_moves(positions: list[Game], rounds: int) -> tuple[int, float]:
    # Each call follows a move, as in play: the engine knows the groups of the eight columns the
    # move left alone.  Only the legal_moves call is timed, not the move and its undo.
    rng = random.Random(7)
    calls = 0
    elapsed = 0.0
    clock = time.process_time
    for _ in range(rounds):
        for game in positions:
            moves = game.legal_moves()
            if not moves:
                continue
            game.push(rng.choice(moves))
            start = clock()
            game.legal_moves()
            elapsed += clock() - start
            calls += 1
            game.undo()
    return calls, elapsed


def bench_move_undo(positions: list[Game], rounds: int) -> tuple[int, float]:
    plans = [(game, game.legal_moves()) for game in positions]
    pairs = 0
    start = time.process_time()
    for _ in range(rounds):
        for game, moves in plans:
            for src, dst, count in moves:
                game.move(src, dst, count)
                game.undo()
            pairs += len(moves)
    return pairs, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions (median shown)")
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"python {sys.version.split()[0]}, one core, CPU time\n")
    rows = []
    for rule in ("classic", "flexible"):
        positions = mid_game_positions(args.games, args.seed, rule)
        moves_per_position = statistics.mean(len(game.legal_moves()) for game in positions)
        legal = [bench_legal_moves(positions, 20) for _ in range(args.repeat)]
        pairs = [bench_move_undo(positions, 5) for _ in range(args.repeat)]
        legal_rate = statistics.median(calls / seconds for calls, seconds in legal)
        pair_rate = statistics.median(count / seconds for count, seconds in pairs)
        rows.append(
            (f"spider 4 suits {rule}", len(positions), moves_per_position, legal_rate, pair_rate)
        )
    header = ("positions", "variant", "moves/pos", "legal_moves()/s", "move+undo/s")
    print(
        f"| {header[1]:<24} | {header[0]:>9} | {header[2]:>9} | {header[3]:>15} | {header[4]:>12} |"
    )
    print(f"|{'-' * 26}|{'-' * 11}|{'-' * 11}|{'-' * 17}|{'-' * 14}|")
    for variant, count, per, legal_rate, pair_rate in rows:
        print(
            f"| {variant:<24} | {count:>9} | {per:>9.1f} | {legal_rate:>15,.0f} | "
            f"{pair_rate:>12,.0f} |"
        )
    print("\ntargets: 50,000 legal_moves()/s and 200,000 move+undo/s")


if __name__ == "__main__":
    main()
