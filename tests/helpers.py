"""Helpers for building test positions."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from spider import Game, Options
from spider.cards import parse_card_int
from spider.moves import Action, action_from_text

GOLDEN = Path(__file__).parent / "golden"

# A real 2-suit game (deal SP1-S2C-AAAAAAE played by the hint) with one deal left and two empty
# columns: no move helps, so the hint offers to fill one (6H from column i into column d).
FILL_POSITION = (
    "spider 2 classic standard #4 / score=972 moves=128 removed=HHSSHS / KH / 10H 9H 8H / 6S 5S / "
    "- / 4H 3H 2H AH / - / AS / 9S / 7S 6H / KS QS / 10s 7h js qh 2s 3s 8s jh 4s 5h"
)

# Words that would tell the player to deal, by language: a hint never does (when to deal stays
# the player's choice).
ADVICE_TO_DEAL = {
    "en": re.compile(r"\bdeal (a|the|now|again)\b|\b(can|could|would let you|then) deal\b", re.I),
    "ca": re.compile(r"\breparteix\b|\brepartiu\b|\b(pugueu|podreu|podeu) repartir\b", re.I),
    "es": re.compile(r"\breparte\b|\brepartas?\b|\b(puedas|podrás|puedes) repartir\b", re.I),
    "it": re.compile(r"\bdistribuisci\b|\b(puoi|potrai|possa) distribuire\b", re.I),
    "fr": re.compile(
        r"\bdistribuez\b|\bdistribue (une|la|le|maintenant)\b"
        r"|\b(pouvez|pourrez|puissiez|pourriez) (\w+ )?distribuer\b",
        re.I,
    ),
    "de": re.compile(
        r"\bteile? (\w+ ){0,3}aus\b|\bausteilen (kannst|könntest|darfst)\b"
        r"|\b(kannst|könntest|darfst) du (\w+ )?austeilen\b",
        re.I,
    ),
    "pt": re.compile(r"\bdistribua\b|\b(possa|poderá|pode|poderia) distribuir\b", re.I),
    "nl": re.compile(
        r"\bdeel (een|nu|opnieuw|de)\b|\b(kun|kunt|kan) je (\w+ )?delen\b|\bje kunt delen\b", re.I
    ),
}

VARIANTS = [
    ("spider", 1, "classic"),
    ("spider", 2, "classic"),
    ("spider", 4, "classic"),
    ("spider", 2, "flexible"),
    ("spider", 4, "flexible"),
    ("spiderette", 1, "classic"),
    ("spiderette", 2, "classic"),
    ("spiderette", 4, "classic"),
]


def random_play(game: Game, steps: int, rng: random.Random, deal_chance: float = 0.1) -> Game:
    """Play ``steps`` random actions (moves, sometimes a deal) through the public API."""
    for _ in range(steps):
        moves = game.legal_moves()
        if game.can_deal and (not moves or rng.random() < deal_chance):
            game.deal()
        elif moves:
            game.move(*rng.choice(moves))
        else:
            break
    return game


def random_game(
    variant: tuple[str, int, str],
    number: int,
    steps: int,
    rng: random.Random | None = None,
    deal_chance: float = 0.1,
) -> Game:
    """Deal ``number`` of ``variant`` (game, suits, rule) and play ``steps`` random actions
    (:func:`random_play`, with ``rng`` or else a generator seeded by ``number``)."""
    game_name, suits, rule = variant
    game = Game.new(game_name, suits=suits, rule=rule, number=number)
    return random_play(game, steps, rng or random.Random(number), deal_chance)


def position(
    game: str,
    suits: int,
    columns: list[str],
    stock: str = "",
    removed: str = "",
    rule: str = "classic",
    scoring: str = "standard",
    score: int = 500,
) -> Game:
    """A hand-made position for rule tests (the card composition is not checked).

    Columns are written bottom to top, face-down cards in lower case: ``"5h 3s KD QD"``.
    """
    options = Options.make(game, suits, rule, scoring)
    cols: list[list[int]] = []
    down: list[int] = []
    for text in columns:
        tokens = text.split()
        cols.append([parse_card_int(token) for token in tokens])
        down.append(sum(1 for token in tokens if token == token.lower()))
    stock_cards = [parse_card_int(token) for token in stock.split()]
    removed_suits = ["SHDC".index(letter) for letter in removed]
    return Game(options, cols, down, stock_cards, removed_suits, score, 0)


def reshuffle_hidden(game: Game, rng: random.Random) -> Game:
    """The same visible position with the face-down cards and the stock shuffled together."""
    hidden = game.hidden_cards()
    rng.shuffle(hidden)
    # The same history too: the player saw the same moves (the hint reads the positions since
    # the last deal or turned card from it).
    return game.with_hidden_cards(hidden)


def golden_game(name: str, key: str | None = None) -> Game:
    """The game recorded in ``tests/golden/<name>`` (under ``key`` when the file holds several),
    replayed through the engine from its deal: ``game``, ``suits``, ``rule``, ``deal`` and the
    ``actions`` played, in notation."""
    record: dict[str, Any] = json.loads((GOLDEN / name).read_text())
    if key is not None:
        record = record[key]
    return replayed(record)


def replayed(record: dict[str, Any]) -> Game:
    """The game a golden record describes (``game``, ``suits``, ``rule``, ``deal`` and the
    ``actions`` played, in notation), replayed through the engine from its deal."""
    game = Game.new(
        record["game"],
        suits=record["suits"],
        rule=record["rule"],
        number=record["deal"],
        undo_limit=None,
    )
    for text in record["actions"]:
        game.push(action_from_text(text))
    return game


def turns_a_card(game: Game, line: tuple[Action, ...]) -> bool:
    """True when playing ``line`` on a copy of ``game`` leaves fewer cards face down."""
    played = game.copy(history=False)
    for action in line:
        played.push(action)
    return sum(played.face_down) < sum(game.face_down)
