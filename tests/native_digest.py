"""One digest of everything the engine kernel answers over many random games, for comparing the
compiled build with the pure-Python one to the bit (tests/test_native.py runs it on both).

Run as a script it prints ``<build> <digest>`` for ``--games N`` games (``spider.native.build()``
says which build answered). Every game is dealt from a seeded generator in each variant and
scoring, then played at random to its end: at every step the legal moves, the position, its
text, the score, the outcome, the effects of the last action, and every refused action with its
error code and message go into the digest; undo and redo are exercised on the way, and the
text, code, JSON and pickle of the game are read back. Then one mid-game position of each
variant gets the quick hint's report and a bounded solve.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import random

from spider import Game, IllegalMove, InvalidAction, InvalidCode, InvalidPosition, native
from spider.moves import DEAL, parse_action
from spider.options import Options
from spider.rules import group_length, legal_moves, link_counts
from spider.solver import hint_report, solve

LINES: list[str] | None = None
"""Every line digested, when ``--lines`` asks for them (to find where two builds differ)."""

BAD_INPUTS: tuple[object, ...] = ("", "zz", "ad0", "kk", "deal!", 3, None, "a" * 100, "jj99")


def _error(call: object) -> str:
    """What a call answers: its value's repr, or the class, code and text of its error."""
    try:
        return repr(call() if callable(call) else call)
    except (IllegalMove, InvalidAction, InvalidCode, InvalidPosition) as error:
        return f"{type(error).__name__}:{error.code}:{error}"
    except ValueError as error:
        return f"{type(error).__name__}:{error}"
    except TypeError:
        # An argument of a type the signature does not allow: both builds refuse it with a
        # TypeError, in their own words (the compiled build checks the declared types).
        return "TypeError"


def game_digest(game: Game, rng: random.Random, update: hashlib._Hash) -> None:
    def put(*items: object) -> None:
        update.update(repr(items).encode())
        update.update(b"\n")
        if LINES is not None:
            LINES.append(repr(items))

    for _ in range(400):
        moves = game.legal_moves()
        position = game.position()
        put(moves, position, game.score, game.outcome(), game.last_effects, game.can_deal)
        put([game.movable_count(column) for column in range(len(position.columns))])
        flexible = game.options.flexible
        lengths = [
            group_length(column, down, flexible)
            for column, down in zip(position.columns, position.face_down, strict=True)
        ]
        put(lengths, legal_moves(position.columns, lengths) == moves)
        put([link_counts(up) for up in position.face_up])
        bad = rng.choice(BAD_INPUTS)
        put(
            _error(lambda bad=bad: parse_action(bad)), _error(lambda bad=bad: game.copy().push(bad))
        )
        put(_error(lambda: game.copy().move(rng.randrange(12), rng.randrange(12), 1)))
        if rng.random() < 0.05:
            text = game.to_text()
            put(text, Game.from_text(text) == game, game.code)
            restored = pickle.loads(pickle.dumps(game))
            put(restored.to_json() == game.to_json(), restored == game)
        if rng.random() < 0.1 and game.can_undo:
            game.undo()
            put("undo", game.position())
            if rng.random() < 0.5 and game.can_redo:
                game.redo()
                put("redo", game.position())
            continue
        if game.can_deal and (not moves or rng.random() < 0.05):
            game.push(DEAL)
        elif moves:
            game.push(rng.choice(moves))
        else:
            break
    put(game.to_json(), game.outcome())


def solver_digest(variants: list[Options], rng: random.Random, update: hashlib._Hash) -> None:
    """The quick hint's report and a bounded solve (node limit, no time limit: the same work on
    any machine) of one mid-game position of each variant."""
    for options in variants:
        game = Game.from_options(options, rng.randrange(10**9))
        for _ in range(rng.randrange(10, 60)):
            moves = game.legal_moves()
            if moves:
                game.push(rng.choice(moves))
            elif game.can_deal:
                game.push(DEAL)
        report = hint_report(game)
        solved = solve(game, time_limit=None, node_limit=1500)
        found = (solved.status, solved.reason, solved.solution, solved.expanded, solved.positions)
        for line in (repr(report), repr(found)):
            update.update(line.encode() + b"\n")
            if LINES is not None:
                LINES.append(line)


def digest(games: int, seed: int = 1) -> str:
    update = hashlib.sha256()
    rng = random.Random(seed)
    variants = [
        Options.make(o.game, o.suits, o.rule, scoring)
        for o in Options.variants()
        for scoring in ("standard", "reveal")
    ]
    for index in range(games):
        options = variants[index % len(variants)]
        game = Game.from_options(options, rng.randrange(10**9), undo_limit=None)
        game_digest(game, rng, update)
    solver_digest(variants, rng, update)
    for code in ("SP1-S2C-AAAAAAD", "SD1-S4-ZZ", "sp1-s1c-b", 7, "SP1-S3C-AAAAAAD"):
        update.update(_error(lambda code=code: Game.from_code(code).to_text()).encode())
    return update.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", action="store_true", help="print what is digested, too")
    args = parser.parse_args()
    global LINES
    if args.lines:
        LINES = []
    result = digest(args.games, args.seed)
    print(native.build(), result)
    for line in LINES or ():
        print(line)


if __name__ == "__main__":
    main()
