"""The catalogue of deals proven winnable, behind "Winnable deals only"."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from spider import Game
from spider.cli import main
from spider.moves import action_from_text
from spider.protocol import Session
from spider.winnable import random_winnable_number, winnable_numbers
from spider.winnable_deals import WINNABLE_DEALS

GOLDEN = Path(__file__).parent / "golden" / "winnable.json"
SOLUTIONS: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
VARIANTS = [(game, suits) for game in ("spider", "spiderette") for suits in (1, 2, 4)]


def solutions(game: str, suits: int) -> dict[str, str]:
    deals = SOLUTIONS[f"{game}-{suits}"]["deals"]
    assert isinstance(deals, dict)
    return deals


@pytest.mark.parametrize(("game", "suits"), VARIANTS)
def test_every_variant_has_a_catalogue_matching_its_solutions(game: str, suits: int) -> None:
    numbers = winnable_numbers(game, suits)
    assert len(numbers) >= 50
    assert len(set(numbers)) == len(numbers)
    assert sorted(numbers) == sorted(int(number) for number in solutions(game, suits))


@pytest.mark.parametrize(("game", "suits"), VARIANTS)
def test_every_solution_wins_its_deal_when_replayed(game: str, suits: int) -> None:
    rules = ["classic", "flexible"] if game == "spider" and suits > 1 else ["classic"]
    for number, line in solutions(game, suits).items():
        for rule in rules:
            replay = Game.new(game, suits=suits, rule=rule, number=int(number), undo_limit=0)
            for token in line.split():
                replay.push(action_from_text(token))
            assert replay.is_won, f"{replay.code} is not won by its catalogue solution"


def test_flexible_rule_shares_the_classic_list() -> None:
    assert winnable_numbers("spider", 4, "flexible") == winnable_numbers("spider", 4, "classic")
    assert set(WINNABLE_DEALS) == set(VARIANTS)


def test_random_number_prefers_deals_not_avoided() -> None:
    numbers = winnable_numbers("spiderette", 2)
    rng = random.Random(7)
    keep = numbers[0]
    avoid = set(numbers) - {keep}
    assert random_winnable_number("spiderette", 2, avoid=avoid, rng=rng) == keep
    # Once every deal is avoided, any deal of the catalogue may come again.
    assert random_winnable_number("spiderette", 2, avoid=set(numbers), rng=rng) in numbers


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="suits"):
        winnable_numbers("spider", 3)
    with pytest.raises(ValueError, match="classic rule only"):
        random_winnable_number("spiderette", 4, "flexible")


def test_game_new_deals_a_catalogue_deal() -> None:
    game = Game.new("spider", suits=4, rule="flexible", winnable=True)
    assert game.number in winnable_numbers("spider", 4)
    assert game.options.rule == "flexible"
    with pytest.raises(ValueError, match="not both"):
        Game.new("spider", number=3, winnable=True)


def test_protocol_new_with_winnable() -> None:
    session = Session()
    reply = session.handle({"op": "new", "game": "spiderette", "suits": 4, "winnable": True})
    assert reply["ok"]
    assert reply["state"]["number"] in winnable_numbers("spiderette", 4)
    refused = session.handle({"op": "new", "winnable": "yes"})
    assert not refused["ok"] and refused["error"]["code"] == "bad-request"
    both = session.handle({"op": "new", "number": 5, "winnable": True})
    assert not both["ok"] and "not both" in both["error"]["message"]
    bad_avoid = session.handle({"op": "new", "winnable": True, "avoid": [1, "2"]})
    assert not bad_avoid["ok"] and "avoid" in bad_avoid["error"]["message"]


def test_protocol_new_avoids_recent_deals_while_others_remain() -> None:
    session = Session()
    numbers = winnable_numbers("spider", 2)
    recent: list[int] = []
    for _ in range(len(numbers)):
        reply = session.handle({"op": "new", "suits": 2, "winnable": True, "avoid": recent})
        recent.append(reply["state"]["number"])
    assert sorted(recent) == sorted(numbers)  # every deal once before any comes again
    again = session.handle({"op": "new", "suits": 2, "winnable": True, "avoid": recent})
    assert again["state"]["number"] in numbers


def test_cli_new_winnable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--game", "spiderette", "--suits", "2", "--winnable"]) == 0
    code = capsys.readouterr().out.splitlines()[0]
    assert Game.from_code(code).number in winnable_numbers("spiderette", 2)
