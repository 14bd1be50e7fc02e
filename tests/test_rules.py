"""The rules of docs/rules.md, one by one, for each game and rule."""

from __future__ import annotations

import pytest

from spider import Card, Game, IllegalMove, Move, Options
from tests.helpers import position

# ------------------------------------------------------------------ set-up


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_spider_layout(suits: int) -> None:
    game = Game.new("spider", suits=suits, number=12345)
    assert [len(column) for column in game.columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert [column.face_down for column in game.columns] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert sum(column.face_down for column in game.columns) == 44
    assert len(game.stock) == 50
    assert game.deals_left == 5
    assert game.completed == ()
    assert game.score == 500 and game.moves == 0


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_spiderette_layout(suits: int) -> None:
    game = Game.new("spiderette", suits=suits, number=99)
    assert [len(column) for column in game.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert sum(column.face_down for column in game.columns) == 21
    assert len(game.stock) == 24
    assert game.deals_left == 4


@pytest.mark.parametrize(
    ("game_name", "suits", "expected"),
    [
        ("spider", 1, {"S": 104}),
        ("spider", 2, {"S": 52, "H": 52}),
        ("spider", 4, {"S": 26, "H": 26, "D": 26, "C": 26}),
        ("spiderette", 1, {"S": 52}),
        ("spiderette", 2, {"S": 26, "H": 26}),
        ("spiderette", 4, {"S": 13, "H": 13, "D": 13, "C": 13}),
    ],
)
def test_composition(game_name: str, suits: int, expected: dict[str, int]) -> None:
    game = Game.new(game_name, suits=suits, number=7)
    cards = [card for column in game.columns for card in column.cards] + list(game.stock)
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.suit] = counts.get(card.suit, 0) + 1
    assert counts == expected
    copies = len(cards) // (13 * suits)
    for suit in expected:
        for rank in range(1, 14):
            assert cards.count(Card(rank, suit)) == copies


def test_rule_options() -> None:
    assert Game.new("spider", suits=1, rule="flexible", number=0).rule == "classic"
    assert Game.new("spider", suits=2, rule="flexible", number=0).rule == "flexible"
    with pytest.raises(ValueError, match="classic rule only"):
        Game.new("spiderette", suits=2, rule="flexible")
    for bad in [{"suits": 3}, {"game": "klondike"}, {"rule": "loose"}, {"scoring": "vegas"}]:
        with pytest.raises(ValueError):
            Game.new(**bad)  # type: ignore[arg-type]


def test_a_deal_from_options_refuses_options_that_make_would_not_give() -> None:
    game = Game.from_options(Options.make("spider", 2, "flexible", "reveal"), 42, undo_limit=None)
    assert (game.rule, game.options.scoring, game.number) == ("flexible", "reveal", 42)
    with pytest.raises(ValueError, match="not normalised"):
        Game.from_options(Options("spider", 1, "flexible"), 0)
    with pytest.raises(ValueError, match="classic rule only"):
        Game.from_options(Options("spiderette", 2, "flexible"), 0)
    with pytest.raises(ValueError, match="deal number"):
        Game.from_options(Options(), -1)
    with pytest.raises(TypeError, match="must be an Options"):
        Game.from_options(("spider", 1, "classic"), 0)  # type: ignore[arg-type]


def test_flexible_and_classic_share_the_deal() -> None:
    classic = Game.new("spider", suits=4, rule="classic", number=42)
    flexible = Game.new("spider", suits=4, rule="flexible", number=42)
    assert classic.columns == flexible.columns and classic.stock == flexible.stock


# ------------------------------------------------------------------ placing cards


def test_card_goes_on_one_rank_higher_any_suit() -> None:
    game = position("spider", 4, ["2s 10S", "9H", "kd 9S", "KC"] + ["AD"] * 6)
    game.move(1, 0)
    assert str(game.columns[0].cards[-1]) == "9H"
    with pytest.raises(IllegalMove) as error:
        game.move(2, 3)
    assert error.value.code == "no-target"


def test_nothing_goes_on_an_ace() -> None:
    game = position("spider", 4, ["AS", "2H", "KD", "KC"] + ["QD"] * 6)
    with pytest.raises(IllegalMove) as error:
        game.move(1, 0)
    assert error.value.code == "no-target"
    assert "one rank higher" in str(error.value)
    assert Move(1, 0, 1) not in game.legal_moves()


def test_empty_column_takes_any_card_or_group() -> None:
    game = position("spider", 1, ["qs 8S 7S 6S", "", "5S", ""] + ["2S"] * 6)
    game.move(0, 1, 3)
    assert [str(card) for card in game.columns[1].cards] == ["8S", "7S", "6S"]
    assert str(game.columns[0].cards[-1]) == "QS" and game.columns[0].face_down == 0
    game.move(2, 3)
    assert [str(card) for card in game.columns[3].cards] == ["5S"]


def test_king_only_to_empty_column() -> None:
    game = position("spiderette", 4, ["KS", "QH", "", "AC", "AD", "AH", "2C"])
    with pytest.raises(IllegalMove):
        game.move(0, 1)
    game.move(0, 2)
    assert str(game.columns[2].cards[0]) == "KS"


def test_flip_after_move() -> None:
    game = position("spider", 2, ["5h 3s 10S", "JH"] + ["KS"] * 8)
    game.move(0, 1)
    assert game.columns[0].face_down == 1
    assert str(game.columns[0].cards[-1]) == "3S"
    assert game.columns[0].face_up == (Card(3, "S"),)


# ------------------------------------------------------------------ groups


def test_classic_group_must_be_one_suit() -> None:
    game = position("spider", 2, ["8S 7H 6H", "9S", "8H"] + ["KS"] * 7)
    assert game.movable_count(0) == 2
    with pytest.raises(IllegalMove) as error:
        game.move(0, 1, 3)  # 8S 7H 6H onto 9S: mixed suits
    assert error.value.code == "not-movable"
    assert "one suit" in str(error.value)
    game.move(0, 2, 2)  # 7H 6H onto 8H
    assert game.movable_count(2) == 3


def test_flexible_group_may_mix_suits() -> None:
    game = position("spider", 2, ["8S 7H 6H", "9H", "KS"] + ["KS"] * 7, rule="flexible")
    assert game.movable_count(0) == 3
    game.move(0, 1, 3)
    assert [str(card) for card in game.columns[1].cards] == ["9H", "8S", "7H", "6H"]


def test_group_must_descend() -> None:
    game = position("spider", 2, ["8S 6S 5S", "9S", "7S"] + ["KS"] * 7, rule="flexible")
    assert game.movable_count(0) == 2
    with pytest.raises(IllegalMove) as error:
        game.move(0, 1, 3)
    assert error.value.code == "not-movable"


def test_partial_groups_are_legal() -> None:
    game = position("spider", 1, ["KS QS JS 10S", "QS", "JS", ""] + ["AS"] * 6)
    moves = set(game.legal_moves())
    assert Move(0, 3, 4) in moves and Move(0, 3, 1) in moves
    assert Move(0, 1, 2) in moves  # JS 10S onto QS
    assert Move(0, 2, 1) in moves  # 10S onto JS
    assert Move(0, 1, 1) not in moves


def test_bad_counts_and_columns() -> None:
    game = position("spider", 1, ["ks 3S", "4S"] + ["KS"] * 8)
    cases = [
        ((0, 1, 0), "bad-count"),
        ((0, 1, 2), "bad-count"),
        ((0, 0, 1), "same-column"),
        ((0, 10, 1), "no-such-column"),
        ((-1, 1, 1), "no-such-column"),
    ]
    before = game.to_text()
    for args, code in cases:
        with pytest.raises(IllegalMove) as error:
            game.move(*args)
        assert error.value.code == code
        assert str(error.value)
    assert game.to_text() == before


def test_refused_move_changes_nothing() -> None:
    game = Game.new("spider", suits=4, number=5)
    before = game.to_text()
    for move in [Move(0, 0, 1), Move(0, 1, 3), Move(3, 12, 1)]:
        with pytest.raises(IllegalMove):
            game.move(*move)
    assert game.to_text() == before and not game.can_undo


# ------------------------------------------------------------------ deals


def test_deal_puts_a_card_on_each_column() -> None:
    game = Game.new("spider", suits=4, number=1)
    stock = game.stock
    game.deal()
    assert [column.cards[-1] for column in game.columns] == list(stock[:10])
    assert all(column.face_up[-1] == stock[i] for i, column in enumerate(game.columns))
    assert game.deals_left == 4 and game.moves == 1 and game.score == 499


def test_spiderette_deals_seven_seven_seven_three() -> None:
    game = Game.new("spiderette", suits=1, number=3)
    sizes = []
    while game.deals_left:
        before = sum(len(column) for column in game.columns) + 13 * len(game.completed)
        game.deal()
        sizes.append(
            sum(len(column) for column in game.columns) - before + 13 * len(game.completed)
        )
    assert sizes[:3] == [7, 7, 7]
    assert game.deals_left == 0
    with pytest.raises(IllegalMove) as error:
        game.deal()
    assert error.value.code == "stock-empty"


def test_spiderette_last_deal_goes_to_first_three_columns() -> None:
    game = position("spiderette", 4, ["KS", "KH", "KD", "KC", "QS", "QH", "QD"], stock="2S 3S 4S")
    assert game.deals_left == 1
    game.deal()
    tops = [str(column.cards[-1]) for column in game.columns]
    assert tops == ["2S", "3S", "4S", "KC", "QS", "QH", "QD"]


def test_deal_refused_with_empty_column() -> None:
    game = position("spider", 1, ["KS", ""] + ["QS"] * 8, stock=" ".join(["AS"] * 10))
    before = game.to_text()
    with pytest.raises(IllegalMove) as error:
        game.deal()
    assert error.value.code == "empty-column"
    assert not game.can_deal and game.to_text() == before


def test_deal_blocked_forever_when_too_few_cards() -> None:
    game = position("spider", 1, ["KS"] + [""] * 9, stock=" ".join(["AS"] * 10))
    assert game.deal_blocked_forever()
    assert game.deal_error() is not None and game.deal_error().code == "empty-column"  # type: ignore[union-attr]


# ------------------------------------------------------------------ runs


RUN = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"


def test_completed_run_leaves_after_move_and_card_below_turns() -> None:
    game = position("spider", 1, ["5s " + RUN, "AS"] + ["KS"] * 8)
    game.move(1, 0)
    assert game.completed == ("S",)
    assert [str(card) for card in game.columns[0].cards] == ["5S"]
    assert game.columns[0].face_down == 0
    assert game.score == 500 - 1 + 100
    assert game.moves == 1
    game.undo()
    assert game.completed == () and len(game.columns[0]) == 13 and game.columns[0].face_down == 1
    assert game.score == 500 and game.moves == 0


def test_mixed_suit_run_stays_under_both_rules() -> None:
    mixed = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2H"
    for rule in ("classic", "flexible"):
        game = position("spider", 2, [mixed, "AS"] + ["KS"] * 8, rule=rule)
        game.move(1, 0)
        assert game.completed == ()
        assert len(game.columns[0]) == 13


def test_deal_can_complete_several_runs() -> None:
    run_h = RUN.replace("S", "H")
    game = position(
        "spider",
        2,
        [RUN, run_h, "4h " + RUN] + ["KS"] * 7,
        stock="AS AH AS 2S 2S 2S 2S 2S 2S 2S",
    )
    game.deal()
    assert game.completed == ("S", "H", "S")
    assert [len(column) for column in game.columns[:3]] == [0, 0, 1]
    assert game.columns[2].face_down == 0
    assert game.score == 500 - 1 + 300
    game.undo()
    assert game.completed == () and game.deals_left == 1
    assert [len(column) for column in game.columns[:3]] == [12, 12, 13]


def test_win() -> None:
    game = position("spiderette", 1, [RUN, "AS", "", "", "", "", ""], removed="SSS")
    assert not game.is_won
    game.move(1, 0)
    assert game.is_won and game.completed == ("S", "S", "S", "S")
