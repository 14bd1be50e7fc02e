"""Write the golden data files of tests/golden/ from the current engine.

Run it only when a change of the data is intended (a new vector or a new perft deal); the tests
then pin the new data forever.  Usage: python scripts/make_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

from spider import Game
from spider.moves import action_text
from spider.solver import hint_action, hint_report

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

VECTOR_CODES = [
    "SP1-S1C-AAAAAAA",
    "SP1-S1C-AAAAAAD",
    "SP1-S2C-AAAAAAD",
    "SP1-S4C-AAAAAAD",
    "SP1-S4F-ZZZZZZZ",
    "SD1-S1-AAAAABD",
    "SD1-S2-AAAAAAD",
    "SD1-S4-BCDEFGH",
]

PERFT_CODES = ["SP1-S1C-AAAAAAD", "SP1-S2F-AAAAAAK", "SP1-S4C-AAAABCD", "SD1-S4-AAAAABD"]


def perft(game: Game, depth: int) -> list[int]:
    """Distinct positions (by position text) reachable in exactly 1..depth actions."""
    frontier = {game.to_text(): game}
    counts = []
    for _ in range(depth):
        following: dict[str, Game] = {}
        for current in frontier.values():
            actions: list[object] = list(current.legal_moves())
            if current.can_deal:
                actions.append("deal")
            for action in actions:
                child = current.copy(history=False)
                child.push(action)  # type: ignore[arg-type]
                following.setdefault(child.to_text(), child)
        counts.append(len(following))
        frontier = following
    return counts


PLAYTHROUGHS = [("spiderette", 1, "classic", 0), ("spider", 4, "flexible", 1)]
"""Seeds of the environment transcripts: (game, suits, rule, seed)."""


def playthrough(
    game: str, suits: int, rule: str, seed: int, steps: int = 40
) -> tuple[dict[str, object], list[dict[str, object]]]:
    """An OpenSpiel-style transcript of :class:`spider.env.SpiderEnv`: from ``reset(seed=...)``,
    the last legal action at each step (deals are 0, so it prefers moves), with what was seen.
    Returns the episode's header and its steps."""
    from spider.env import SpiderEnv

    env = SpiderEnv(game, suits=suits, rule=rule)
    observation, info = env.reset(seed=seed)
    header: dict[str, object] = {"env": repr(env), "seed": seed, "code": info["code"]}
    steps_seen: list[dict[str, object]] = []
    for _ in range(steps):
        action = info["legal_actions"][-1]
        observation, reward, terminated, truncated, info = env.step(action)
        steps_seen.append(
            {
                "action": action,
                "text": env.action_to_string(action),
                "reward": reward,
                "terminated": terminated,
                "truncated": truncated,
                "legal": len(info["legal_actions"]),
                "face_down": list(observation.face_down),
                "tops": [column[-1] if column else 0 for column in observation.columns],
            }
        )
        if terminated or truncated:
            break
    return header, steps_seen


OPENSPIEL_DEAL = ("SD1-S2-AAAAAAD", 40)
"""The deal of the OpenSpiel playthrough, and how many player actions it plays."""


def openspiel_playthrough(code: str, actions: int) -> dict[str, object]:
    """A playthrough of the OpenSpiel game on deal ``code``, in the spirit of OpenSpiel's
    playthrough files: every state (chance outcomes or legal actions, observation string, the
    tensor's nonzero places) and the action applied.  Chance gives the deal's own cards (the
    deal is played alongside, each action once its cards are dealt); the player takes a
    random legal action (``random.Random(1)``), which here turns cards and deals."""
    import random

    import pyspiel

    from spider.moves import Action
    from spider.research.openspiel import GAME_NAME, true_outcome

    deal = Game.from_code(code, undo_limit=0)
    params = {"game": deal.game, "suits": deal.suits, "rule": deal.rule, "max_moves": actions}
    game = pyspiel.load_game(GAME_NAME, params)
    state = game.new_initial_state()
    states: list[dict[str, object]] = []
    waiting: Action | None = None
    rng = random.Random(1)
    while not state.is_terminal():
        tensor = state.observation_tensor(0)
        record: dict[str, object] = {
            "player": state.current_player(),
            "observation": state.observation_string(0),
            "tensor": [index for index, value in enumerate(tensor) if value],
        }
        if state.is_chance_node():
            record["chance"] = [[outcome, round(p, 6)] for outcome, p in state.chance_outcomes()]
            action = true_outcome(state, deal)
        else:
            legal = state.legal_actions()
            record["legal"] = legal
            action = rng.choice(legal)
            waiting = game.layout.action_to_move(action)
        record["action"] = action
        record["text"] = state.action_to_string(state.current_player(), action)
        states.append(record)
        state.apply_action(action)
        if waiting is not None and not state.is_chance_node():
            deal.push(waiting)
            waiting = None
    return {
        "game": str(game),
        "code": code,
        "returns": state.returns(),
        "information_state": state.information_state_string(0),
        "states": states,
    }


def write_openspiel_playthrough() -> None:
    """Write tests/golden/openspiel_playthrough.json, one state per line."""
    playthrough = openspiel_playthrough(*OPENSPIEL_DEAL)
    states = ",\n  ".join(json.dumps(state) for state in playthrough.pop("states"))  # type: ignore[arg-type]
    (GOLDEN / "openspiel_playthrough.json").write_text(
        json.dumps(playthrough)[:-1] + f', "states": [\n  {states}\n ]}}\n', encoding="utf-8"
    )


HINT_PLAYOUTS = [
    ("spider", 1, "classic", 0),
    ("spider", 2, "classic", 0),
    ("spider", 2, "classic", 1),
    ("spider", 4, "classic", 0),
    ("spider", 4, "flexible", 0),
    ("spiderette", 4, "classic", 0),
    ("spiderette", 2, "classic", 0),
]
"""Deals whose quick-hint play-outs give the positions of tests/golden/hint_reports.json."""


def hint_reports(
    game_name: str, suits: int, rule: str, deal: int, actions: int = 60, every: int = 10
) -> list[dict[str, object]]:
    """Every ``every``-th position of the quick hint's own play-out of a deal (its first option
    played, or the deal when it has none) with the report it gives there, to the sixth decimal
    of each gain."""
    game = Game.new(game_name, suits=suits, rule=rule, number=deal, undo_limit=None)
    played: list[str] = []
    records: list[dict[str, object]] = []
    for step in range(1, actions + 1):
        report = hint_report(game)
        if step % every == 0:
            records.append(
                {
                    "game": game_name,
                    "suits": suits,
                    "rule": rule,
                    "deal": deal,
                    "actions": list(played),
                    "reason": report.reason,
                    "positions": report.positions,
                    "options": [
                        {
                            "line": [move.text() for move in option.line],
                            "gain": round(option.gain, 6),
                        }
                        for option in report.options
                    ],
                }
            )
        action = hint_action(game, report)
        if action is None:
            break
        game.push(action)
        played.append(action_text(action))
    return records


def write_hint_reports() -> None:
    """Write tests/golden/hint_reports.json, one position per line."""
    records = [record for seeds in HINT_PLAYOUTS for record in hint_reports(*seeds)]
    about = (
        "Positions of the quick hint's own play-outs (every tenth action of the first sixty)"
        " with the report it gives there: a change to the lookahead's speed must leave these"
        " exactly as they are. Written by scripts/make_golden.py."
    )
    lines = ",\n  ".join(json.dumps(record) for record in records)
    (GOLDEN / "hint_reports.json").write_text(
        f'{{"about": {json.dumps(about)}, "positions": [\n  {lines}\n]}}\n', encoding="utf-8"
    )


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    vectors = []
    for code in VECTOR_CODES:
        game = Game.from_code(code)
        vectors.append(
            {
                "code": code,
                "number": game.number,
                "columns": [
                    " ".join(
                        str(card).lower() if index < column.face_down else str(card)
                        for index, card in enumerate(column.cards)
                    )
                    for column in game.columns
                ],
                "stock": " ".join(str(card) for card in game.stock),
                "position": game.to_text(),
            }
        )
    (GOLDEN / "deals.json").write_text(json.dumps(vectors, indent=1) + "\n", encoding="utf-8")
    perfts = [{"code": code, "counts": perft(Game.from_code(code), 3)} for code in PERFT_CODES]
    (GOLDEN / "perft.json").write_text(json.dumps(perfts, indent=1) + "\n", encoding="utf-8")
    # One step per line, so that a change shows as the steps it touches.
    transcripts = []
    for seeds in PLAYTHROUGHS:
        header, steps_seen = playthrough(*seeds)
        steps = ",\n  ".join(json.dumps(step) for step in steps_seen)
        transcripts.append(json.dumps(header)[:-1] + f', "steps": [\n  {steps}\n ]}}')
    (GOLDEN / "env_playthrough.json").write_text(
        "[\n " + ",\n ".join(transcripts) + "\n]\n", encoding="utf-8"
    )
    write_openspiel_playthrough()
    write_hint_reports()


if __name__ == "__main__":
    main()
