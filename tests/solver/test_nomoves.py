"""'No more moves' is never a false alarm: compared with brute force over the engine."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spider import Game, Options
from spider.solver import check_no_moves, no_more_moves
from spider.solver.hint import nomoves
from spider.solver.hint.nomoves import find_useful_line
from spider.solver.view import VisibleView
from tests.helpers import position


def _key(game: Game) -> tuple[object, ...]:
    return tuple(sorted(zip(game.face_down, game.position().columns, strict=True)))


def brute_force_useful(game: Game, limit: int = 5_000) -> bool | None:
    """True when some sequence of card moves (played through the engine, one copy per
    position) turns a card or completes a run; None when the space is too big to settle here."""
    seen = {_key(game)}
    stack = [game.copy(history=False)]
    while stack:
        current = stack.pop()
        for move in current.legal_moves():
            current.move(*move)
            effects = current.last_effects
            assert effects is not None
            if effects.flipped or effects.runs:
                return True
            key = _key(current)
            if key not in seen:
                seen.add(key)
                if len(seen) > limit:
                    return None
                stack.append(current.copy(history=False))
            current.undo()
    return False


@st.composite
def small_positions(draw: st.DrawFn) -> Game:
    """Small spiderette positions with an empty stock (a deal is impossible)."""
    suits = draw(st.sampled_from([1, 2, 4]))
    options = Options.make("spiderette", suits, "classic")
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deck = options.composition()
    rng.shuffle(deck)
    columns: list[list[int]] = [[] for _ in range(7)]
    down = [0] * 7
    if draw(st.integers(0, 3)) == 0:
        # A nearly finished run (King to 2) somewhere, so completing a run can happen.
        suit = rng.randrange(suits)
        run = [suit << 4 | rank for rank in range(13, 1, -1)]
        for card in run:
            deck.remove(card)
        columns[rng.randrange(7)].extend(run)
    size = draw(st.integers(4, 10))
    for place, card in enumerate(deck[:size]):
        # The first cards go one per column, so few columns stay empty (small search spaces).
        columns[place if place < 6 else rng.randrange(7)].append(card)
    for index, column in enumerate(columns):
        if len(column) > 1 and draw(st.booleans()):
            down[index] = draw(st.integers(0, len(column) - 1))
    pairs = list(zip(columns, down, strict=True))
    rng.shuffle(pairs)
    return Game(options, [c for c, _ in pairs], [d for _, d in pairs], [], [], 500, 0)


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(small_positions())
def test_no_more_moves_matches_brute_force(game: Game) -> None:
    brute = brute_force_useful(game)
    assume(brute is not None)
    report = check_no_moves(game)
    assert report.status in {"no-moves", "useful", "won"}
    assert report.no_more_moves == (not brute)


@given(small_positions())
def test_useful_line_is_real(game: Game) -> None:
    report = check_no_moves(game, node_limit=5_000)
    if report.status == "useful":
        replay = game.copy(history=False)
        for move in report.line[:-1]:
            replay.move(*move)
            effects = replay.last_effects
            assert effects is not None and not effects.flipped and not effects.runs
        replay.move(*report.line[-1])
        effects = replay.last_effects
        assert effects is not None and (effects.flipped or effects.runs)


@given(small_positions())
def test_both_orders_agree_and_breadth_first_is_shortest(game: Game) -> None:
    view = VisibleView.from_game(game)
    breadth = find_useful_line(view, 5_000)
    depth = find_useful_line(view, 5_000, order="depth")
    assume("unknown" not in (breadth.status, depth.status))
    assert breadth.status == depth.status
    assert len(breadth.line) <= len(depth.line)


def test_deal_possible_is_never_no_moves() -> None:
    # An empty column, but 7 table cards can fill all 7 columns: a deal is still possible.
    game = position("spiderette", 1, ["KS", "QS", "", "JS", "10S", "9S", "8S 4S"], stock="2s 3s")
    assert check_no_moves(game).status == "deal"
    assert not no_more_moves(game)


def test_blocked_deal_with_dead_table_is_no_moves() -> None:
    # Fewer table cards than columns: the deal is refused for good; nothing turns.
    game = Game(
        Options.make("spiderette", 4, "classic"),
        [[0x11], [0x22], [], [], [], [], []],
        [0] * 7,
        [0x33, 0x34],
        [],
        500,
        0,
    )
    view = VisibleView.from_game(game)
    assert view.deal_blocked_forever
    assert no_more_moves(game)


def test_turnable_card_is_not_no_moves() -> None:
    game = position("spiderette", 1, ["5s 9S", "10S", "", "", "", "", ""])
    report = check_no_moves(game)
    assert report.status == "useful"
    assert not report.no_more_moves


def test_search_limit_claims_nothing() -> None:
    game = position("spiderette", 1, ["5s 9S", "KS", "QS", "JS", "", "", ""])
    assert check_no_moves(game, node_limit=1).status in {"unknown", "useful"}
    assert not check_no_moves(game, node_limit=1).no_more_moves


def test_won_game_is_not_no_moves() -> None:
    game = Game(
        Options.make("spiderette", 1, "classic"),
        [[] for _ in range(7)],
        [0] * 7,
        [],
        [0, 0, 0, 0],
        500,
        0,
    )
    assert check_no_moves(game).status == "won"


def test_finds_a_short_line_among_many_empty_columns() -> None:
    # An endgame of 1-suit Spider (deal 33, as the quick hint played it): four empty columns and
    # many loose groups to shuffle between them.  Moving the two Kings off the face-down cards
    # turns one; the search must find that before it wanders through rearrangements.
    game = position(
        "spider",
        1,
        [
            "",
            "6S 5S 4S 3S 2S AS",
            "10S 9S 8S",
            "2s 3s 7s qs qs KS KS",
            "",
            "",
            "AS",
            "",
            "JS",
            "JS 10S 9S 8S 7S 6S 5S 4S",
        ],
        removed="SSSSSS",
    )
    report = check_no_moves(game, node_limit=5_000)
    assert report.status == "useful"
    assert len(report.line) == 2
    replay = game.copy(history=False)
    for move in report.line:
        replay.move(*move)
    assert replay.face_down[3] == 4


@st.composite
def _key_changes(draw: st.DrawFn) -> tuple[tuple[int, ...], int, int, int, int]:
    """A sorted position key of 2 to 10 column values (repeats allowed, as two empty columns
    with nothing under them repeat), two of its values a move changes and their new values."""
    values = draw(st.lists(st.integers(0, 40), min_size=2, max_size=10))
    key = tuple(sorted(values))
    first, second = draw(st.permutations(range(len(key))))[:2]
    new_a, new_b = draw(st.integers(0, 40)), draw(st.integers(0, 40))
    return key, key[first], key[second], new_a, new_b


@given(_key_changes(), st.data())
def test_a_childs_key_is_its_parents_with_two_values_replaced(
    change: tuple[tuple[int, ...], int, int, int, int], data: st.DataObject
) -> None:
    """The search builds a child's key by merging into its parent's, and tells a child seen
    before without building it: both must equal sorting the changed values again."""
    key, old_a, old_b, new_a, new_b = change
    rest = list(key)
    rest.remove(old_a)
    rest.remove(old_b)
    expected = tuple(sorted([*rest, new_a, new_b]))
    replaced, same = nomoves._replaced, nomoves._same  # noqa: SLF001 - the merge is the subject
    assert replaced(key, old_a, old_b, new_a, new_b) == expected
    assert same(expected, key, old_a, old_b, new_a, new_b)
    other = list(expected)
    index = data.draw(st.integers(0, len(other) - 1))
    other[index] = data.draw(st.integers(0, 41).filter(lambda value: value != expected[index]))
    assert not same(tuple(other), key, old_a, old_b, new_a, new_b)
