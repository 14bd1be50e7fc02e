"""Fair play benchmark: a player follows the quick hint or "Think harder"; no undo, no peeking.

    .venv/bin/python benchmarks/fairplay.py --deals 200 --jobs 2 [--first N] [--variants ...]
    .venv/bin/python benchmarks/fairplay.py --players hint,think --iterations 30 \\
        --variants spider-4-classic --deals 20 --jobs 2 --out results/fairplay.jsonl

Players:

- ``hint``: takes the quick hint's best move; deals when it offers none.  With ``--hint-nodes N``
  its lookahead looks at N positions instead of the variant's own budget.
- ``think``: asks "Think harder" (``spider.solver.think.harder``) with ``--iterations`` play-outs
per
  decision (seed: ``--seed`` plus the decision's index) and plays its whole line (up to the next
  card turned or run removed, nothing new is seen before); deals when it offers the deal.
- ``think-first``: the same, but plays only the first action of each line, then asks again.
- ``ismcts`` and ``mcts``: OpenSpiel's ``ISMCTSBot`` and ``MCTSBot`` on the ``spider_solitaire``
  game (``spider.research.openspiel``, the ``openspiel`` extra) with ``--simulations`` searches per
  decision, each valued by a random play-out of ``--rollout`` actions (seed: ``--seed``), for at
  most ``--bot-actions`` actions.  The game deals each card when it shows, from the cards not yet
  seen; here the card dealt is the numbered deal's, so the bots play the same deals as the others.

``--think-jobs N`` grows N trees per decision on N processes (``think(..., jobs=N)``), each with
the whole ``--iterations`` budget; with ``--jobs J`` that is up to J x N processes.

Reports the win rate per player and variant with a 95% Wilson interval, the mean runs removed and
face-down cards left at the end (denser measures of strength than wins), time per game, and the
command used.  With ``--out`` every game is appended to a JSON-lines file as it ends; run the same
command again and the games already in the file are read back, not played again (an interrupted
run resumes; a long run can span sessions).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from variants import Variant, add_variants_option, selected_variants

from spider import Game
from spider.solver.full.analyze import wilson_interval
from spider.solver.hint.quick import HintReport, hint_action, hint_report
from spider.solver.params import hint_params
from spider.solver.think.harder import think

MAX_ACTIONS = 1500
PLAYERS = ("hint", "think", "think-first", "ismcts", "mcts")
BOTS = ("ismcts", "mcts")

Task = tuple[str, str, int, str, int, int, int, tuple[int, int], int, int]
"""(player, game, suits, rule, deal number, think iterations or bot simulations, seed, (bot
roll-out, bot actions), think trees, the hint's lookahead budget or 0 for the variant's own);
the player ``think-first`` is ``think`` playing only the first action of each line."""


def act(game: Game, report: HintReport) -> bool:
    """Do what the hint says, as a player pressing H would (:func:`~spider.solver.hint.hint_action`:
    its first move, a fill when the deal needs one, or the deal when it offers no move); False
    when it has nothing left to suggest."""
    action = hint_action(game, report)
    if action is None:
        return False
    game.push(action)
    return True


def play_out(
    game: Game,
    max_actions: int = MAX_ACTIONS,
    ask: Callable[[Game], HintReport] = hint_report,
) -> int:
    """Play ``game`` by the hint (``ask`` gives the report) until it is won, nothing is left to
    do or ``max_actions`` actions were played; returns the number of actions played.  The game
    must keep its history (the hint reads the positions since the last deal from it, so it
    never leads back to one)."""
    actions = 0
    while not game.is_won and actions < max_actions:
        if not act(game, ask(game)):
            break
        actions += 1
    return actions


def think_out(
    game: Game,
    iterations: int,
    seed: int,
    first_only: bool = False,
    max_actions: int = MAX_ACTIONS,
    trees: int = 1,
) -> int:
    """Play ``game`` by "Think harder" (its whole line each time, or only its first action when
    ``first_only``; ``trees`` trees on as many processes), dealing when it offers the deal,
    until won, stuck or ``max_actions`` actions; returns the actions played."""
    actions = decisions = 0
    while not game.is_won and actions < max_actions:
        report = think(game, iterations=iterations, seed=seed + decisions, jobs=trees)
        decisions += 1
        if not report.line:
            if not game.can_deal:
                break
            game.deal()
            actions += 1
            continue
        for action in report.line[:1] if first_only else report.line:
            game.push(action)
            actions += 1
    return actions


def play(task: Task) -> dict[str, Any]:
    """Play one deal with one player; the record written to the output file."""
    player, game_name, suits, rule, number, iterations, seed, bots, trees, hint_nodes = task
    rollout, bot_actions = bots
    game = Game.new(game_name, suits=suits, rule=rule, number=number, undo_limit=None)
    started = time.perf_counter()
    if player in BOTS:
        from spider.research.openspiel import play_deal

        actions = play_deal(game, player, iterations, rollout, seed, bot_actions)
    elif player == "hint":
        params = hint_params(game)
        if hint_nodes:
            params = dataclasses.replace(params, nodes=hint_nodes)
        actions = play_out(game, ask=lambda current: hint_report(current, params=params))
    else:
        first_only = player == "think-first"
        actions = think_out(game, iterations, seed, first_only=first_only, trees=trees)
    return {
        **_key_fields(task),
        "won": game.is_won,
        "runs": len(game.completed),
        "actions": actions,
        "seconds": round(time.perf_counter() - started, 3),
        "down": sum(game.face_down),
    }


def _key_fields(task: Task) -> dict[str, Any]:
    player, game_name, suits, rule, number, iterations, seed, bots, trees, hint_nodes = task
    rollout, bot_actions = bots
    budget: dict[str, Any] = {"iterations": iterations, "seed": seed} if player != "hint" else {}
    if player == "hint" and hint_nodes:  # the variant's own budget is written as before
        budget["hint_nodes"] = hint_nodes
    if player in BOTS:
        budget.update(rollout=rollout, max_actions=bot_actions)
    elif trees > 1:  # one tree is written as before, so older files still resume
        budget["trees"] = trees
    return {
        "player": player,
        "game": game_name,
        "suits": suits,
        "rule": rule,
        "deal": number,
        **budget,
    }


def _key(record: dict[str, Any]) -> str:
    """What identifies a game in the output file: player, budget, variant and deal."""
    fields: tuple[str, ...] = ("player", "game", "suits", "rule", "deal", "iterations", "seed")
    fields += ("trees", "hint_nodes")
    if record.get("player") in BOTS:
        fields += ("rollout", "max_actions")
    return json.dumps([record.get(name) for name in fields])


def read_done(path: Path | None) -> dict[str, dict[str, Any]]:
    """The games already in the output file, by key (a torn last line is ignored)."""
    done: dict[str, dict[str, Any]] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # the line being written when the run was interrupted
        if isinstance(record, dict) and "won" in record:
            done[_key(record)] = record
    return done


def run(
    tasks: list[Task], jobs: int, out: Path | None, done: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every task's record: read back from ``done`` or played (on ``jobs`` processes) and
    appended to ``out`` as it ends."""
    records = {_key(_key_fields(task)): done.get(_key(_key_fields(task))) for task in tasks}
    todo = [task for task in tasks if records[_key(_key_fields(task))] is None]
    if todo:
        print(f"playing {len(todo)} games ({len(tasks) - len(todo)} read back)", file=sys.stderr)
    sink = out.open("a", encoding="utf-8") if out is not None else None
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play, task) for task in todo]
            for count, future in enumerate(as_completed(futures), 1):
                record = future.result()
                records[_key(record)] = record
                if sink is not None:
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                print(f"\r{count}/{len(todo)} games", end="", file=sys.stderr, flush=True)
    finally:
        if sink is not None:
            sink.close()
        if todo:
            print(file=sys.stderr)
    return [record for record in records.values() if record is not None]


def table(rows: Iterable[tuple[str, list[dict[str, Any]]]]) -> list[str]:
    """The Markdown table of the results, one row per (player, variant)."""
    lines = [
        "| player | variant | deals | wins | win % | 95% CI | mean runs | mean down left "
        "| median s/game | mean s/game |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, results in rows:
        wins = sum(result["won"] for result in results)
        low, high = wilson_interval(wins, len(results))
        seconds = [result["seconds"] for result in results]
        lines.append(
            f"| {label} | {len(results)} | {wins} "
            f"| {100 * wins / len(results):.1f}% | {100 * low:.1f}-{100 * high:.1f}% "
            f"| {statistics.mean(result['runs'] for result in results):.2f} "
            f"| {statistics.mean(result['down'] for result in results):.1f} "
            f"| {statistics.median(seconds):.1f} | {statistics.mean(seconds):.1f} |"
        )
    return lines


def _players(text: str) -> list[str]:
    players = [name.strip() for name in text.split(",") if name.strip()]
    unknown = sorted(set(players) - set(PLAYERS))
    if unknown or not players:
        raise argparse.ArgumentTypeError(
            f"players are a comma list of {', '.join(PLAYERS)}, not {text!r}"
        )
    return players


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=200, help="deals per variant")
    parser.add_argument(
        "--first", type=int, default=0, help="first deal number (tune on deals >= 10000)"
    )
    parser.add_argument("--jobs", "--workers", dest="jobs", type=int, default=1)
    parser.add_argument(
        "--players",
        type=_players,
        default=["hint"],
        help="comma list: hint, think, think-first, ismcts, mcts",
    )
    parser.add_argument("--iterations", type=int, default=30, help="think: play-outs per decision")
    parser.add_argument("--seed", type=int, default=0, help="think: seed of the first decision")
    parser.add_argument("--simulations", type=int, default=10, help="bots: searches per decision")
    parser.add_argument("--rollout", type=int, default=10, help="bots: actions per play-out")
    parser.add_argument("--bot-actions", type=int, default=200, help="bots: most actions in a game")
    parser.add_argument(
        "--think-jobs",
        type=int,
        default=1,
        help="think: trees per decision, each on its own process (jobs x think-jobs processes)",
    )
    parser.add_argument(
        "--hint-nodes",
        type=int,
        default=0,
        help="hint: the lookahead's budget in positions (default: the variant's own)",
    )
    parser.add_argument("--out", type=Path, default=None, help="JSON-lines results; resumes")
    add_variants_option(parser)
    args = parser.parse_args()
    counts = (args.deals, args.jobs, args.iterations, args.simulations, args.bot_actions)
    if min(*counts, args.think_jobs) < 1:
        parser.error(
            "--deals, --jobs, --iterations, --simulations, --bot-actions and --think-jobs must "
            "be at least 1"
        )
    if args.first < 0 or args.rollout < 0 or args.hint_nodes < 0:
        parser.error("--first, --rollout and --hint-nodes must be at least 0")
    variants: list[Variant] = selected_variants(args.variants)
    numbers = range(args.first, args.first + args.deals)
    tasks: list[Task] = [
        (
            player,
            game_name,
            suits,
            rule,
            number,
            args.simulations if player in BOTS else args.iterations,
            args.seed,
            (args.rollout, args.bot_actions),
            args.think_jobs,
            args.hint_nodes,
        )
        for player in args.players
        for game_name, suits, rule in variants
        for number in numbers
    ]
    print("Command: " + shlex.join([".venv/bin/python", "benchmarks/fairplay.py", *sys.argv[1:]]))
    print()
    try:
        records = run(tasks, args.jobs, args.out, read_done(args.out))
    except KeyboardInterrupt:
        where = f"; the games so far are in {args.out}" if args.out else ""
        raise SystemExit(f"\ninterrupted{where}: run the same command again to resume") from None
    rows = []
    for player in args.players:
        for game_name, suits, rule in variants:
            results = [
                record
                for record in records
                if (record["player"], record["game"], record["suits"], record["rule"])
                == (player, game_name, suits, rule)
            ]
            if player in BOTS:
                name = f"{player} {args.simulations}x{args.rollout} (<= {args.bot_actions})"
            else:
                name = f"{player} {args.iterations}" if player != "hint" else "hint"
                if player == "hint" and args.hint_nodes:
                    name += f" {args.hint_nodes:,} positions"
                if player != "hint" and args.think_jobs > 1:
                    name += f" x{args.think_jobs} trees"
            rows.append((f"{name} | {game_name} {suits} {rule}", results))
    for line in table(rows):
        print(line, flush=True)


if __name__ == "__main__":
    main()
