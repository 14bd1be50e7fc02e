""" "Think harder": fair (the hidden cards never change its answer), legal, checked input."""

from __future__ import annotations

import json
import random
import sys
import threading
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider import Game, Move
from spider.cli import main
from spider.env import SpiderEnv
from spider.options import Options
from spider.protocol import Session
from spider.solver.full.search import solve
from spider.solver.hint.quick import hint_report, weighs_next_card
from spider.solver.params import hint_params
from spider.solver.think.harder import (
    MAX_LOOKAHEAD_NODES,
    ThinkParams,
    ThinkProgress,
    hint_lead,
    root_weighs_cards,
    think,
)
from spider.solver.think.pool import tree_seed
from spider.solver.view import VisibleView, truncate_line, visible_moves
from spider.solver.worlds import World
from tests.helpers import golden_game, position, random_game, reshuffle_hidden, turns_a_card

LOOKAHEAD_NODES = ThinkParams().lookahead_nodes
"""The root lookahead's budget (positions) by default."""
DEFAULT_HINT_NODES = 1000
"""The quick hint's budget in the variants without one of their own."""

_CHEAP_VARIANTS = [
    ("spiderette", 1, "classic"),
    ("spiderette", 2, "classic"),
    ("spider", 1, "classic"),
]


@settings(max_examples=6)
@given(
    st.sampled_from(_CHEAP_VARIANTS),
    st.integers(0, 9_999),
    st.integers(0, 60),
    st.integers(0, 2**32 - 1),
    st.integers(0, 1000),
)
def test_hidden_cards_do_not_change_the_answer(
    variant: tuple[str, int, str], number: int, steps: int, shuffle: int, seed: int
) -> None:
    game = random_game(variant, number, steps)
    other = reshuffle_hidden(game, random.Random(shuffle))
    first = think(game, iterations=5, seed=seed)
    second = think(other, iterations=5, seed=seed)
    assert first.line == second.line
    assert first.options == second.options
    assert (first.visits, first.value, first.reason) == (second.visits, second.value, second.reason)


@settings(max_examples=5, deadline=None)
@given(
    st.sampled_from([("spider", 4, "classic"), ("spider", 2, "classic")]),
    st.integers(0, 10**6),
    st.integers(0, 30),
    st.sampled_from([6, 10, 16]),
)
def test_the_hints_best_line_stands_unless_clearly_outvisited(
    variant: tuple[str, int, str], number: int, steps: int, iterations: int
) -> None:
    game = random_game(variant, number, steps)
    report = think(game, iterations=iterations, seed=number)
    if len(report.options) < 2:
        return
    first, chosen = (
        report.options[0],
        report.options.index(next(o for o in report.options if o.line == report.line)),
    )
    lead = hint_lead(report.iterations)
    others = [o.visits for o in report.options[1:]]
    if chosen == 0:
        assert max(others) <= first.visits + lead
    else:
        assert report.visits > first.visits + lead
        assert report.visits == max(others)


def test_the_answer_is_a_legal_line_played_through_the_engine() -> None:
    game = Game.new("spider", suits=4, number=10_000)
    report = think(game, iterations=12, seed=3)
    assert report.reason == "iterations" and report.iterations == 12
    assert report.action == report.line[0]
    assert sum(option.visits for option in report.options) == 12
    assert 0 < report.share <= 1 and 0 <= report.value <= 1
    down = sum(game.face_down)
    for index, action in enumerate(report.line):
        assert sum(game.face_down) == down, "only the last move of a line may turn a card"
        assert isinstance(action, Move) and action in game.legal_moves(), (index, action)
        game.push(action)


def _answer(game: Game, **budget: int) -> tuple[object, ...]:
    """What a report says, without its elapsed time."""
    report = think(game, **budget)
    return (report.line, report.options, report.visits, report.value, report.reason)


def test_seed_and_budget_make_it_repeatable() -> None:
    game = Game.new("spiderette", suits=2, number=10_001)
    assert _answer(game, iterations=8, seed=5) == _answer(game, iterations=8, seed=5)
    seeds = {_answer(game, iterations=8, seed=seed)[1] for seed in range(4)}
    assert len(seeds) > 1, "the seed drives the sampling"


@settings(max_examples=20)
@given(st.integers(0, 9_999), st.integers(0, 2**32 - 1))
def test_the_world_draws_only_unseen_cards(number: int, seed: int) -> None:
    game = random_game(("spiderette", 2, "classic"), number, 30)
    view = VisibleView.from_game(game)
    world = World.from_view(view, frozenset())
    rng = random.Random(seed)
    deck = Counter(Options.make("spiderette", 2).composition())
    for _ in range(40):
        seen = Counter(card for column in world.columns for card in column)
        for suit in world.removed:
            seen.update(suit << 4 | rank for rank in range(1, 14))
        assert seen + Counter(world.pool) == deck
        assert len(world.pool) == world.hidden + world.stock
        current = world.view()
        options = visible_moves(current.columns, current.flexible)
        if current.can_deal and (not options or rng.random() < 0.2):
            world.play(("deal",), rng)
        elif options:
            world.play((rng.choice(options),), rng)
        else:
            break


def _spades_endgame(face_down: tuple[str, ...]) -> Game:
    """A 1-suit Spider endgame, stock empty, six runs removed; ``face_down`` gives columns 0-4
    with their face-down cards in lower case."""
    return position("spider", 1, [*face_down, "AS", "", "", "", ""], removed="SSSSSS")


def test_an_endgame_takes_the_full_solvers_line_and_stays_fair() -> None:
    # Stock empty, five cards face down: the quick hint's endgame applies, so no tree grows and
    # the answer is the solver's line, weighed over the arrangements of the face-down cards.
    game = _spades_endgame(("ks JS 10S 9S 8S", "qs 6S 5S", "7s KS QS JS 10S 9S 8S",
                            "4s 7S 6S 5S 4S 3S", "2s 3S 2S AS"))  # fmt: skip
    other = reshuffle_hidden(game, random.Random(1))
    report = think(game, iterations=6, seed=2)
    assert report.reason == "endgame" and report.iterations == 0
    ending = report.endgame
    assert ending is not None and ending.arrangements > 0
    assert report.value == ending.wins / ending.arrangements == 1.0, "every arrangement is won"
    assert report.to_json()["endgame"] == {
        "wins": ending.wins,
        "arrangements": ending.arrangements,
        "sampled": ending.sampled,
    }
    assert _answer(game, iterations=6, seed=2) == _answer(other, iterations=6, seed=2)
    for action in report.line:  # the whole line is legal whatever lies face down
        assert action in game.legal_moves()
        game.push(action)


def test_play_outs_ask_the_full_solver_near_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nine face down, one more than the endgame takes: the tree grows, and its play-outs, once a
    # few cards are turned, sample the face-down cards and ask the solver, which wins them all.
    game = _spades_endgame(("ks js 10S 9S 8S", "qs 6S 5S", "7s ks qs JS 10S 9S 8S",
                            "4s 7s 6S 5S 4S 3S", "2s 3S 2S AS"))  # fmt: skip
    assert sum(game.face_down) == 9
    other = reshuffle_hidden(game, random.Random(1))
    module = sys.modules["spider.solver.think.tree"]
    asked: list[int] = []

    def counted_solve(sample: Game, **limits: object) -> object:
        asked.append(sum(sample.face_down))
        return solve(sample, **limits)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "solve", counted_solve)
    report = think(game, iterations=6, seed=2)
    hidden = ThinkParams().endgame_hidden
    assert asked and max(asked) <= hidden, "samples of the last few cards"
    assert report.reason == "iterations" and report.endgame is None
    assert report.action in game.legal_moves()
    assert report.value == 1.0, "every sample of this endgame is won, and the solver says so"
    assert _answer(game, iterations=6, seed=2) == _answer(other, iterations=6, seed=2)


def test_bad_budgets_and_finished_games_are_refused() -> None:
    game = Game.new("spiderette", suits=1, number=3)
    for bad in (0, -1, 10**9):
        with pytest.raises(ValueError, match="iterations must be from 1"):
            think(game, iterations=bad)
    with pytest.raises(TypeError, match="iterations must be an integer"):
        think(game, iterations=True)
    for seconds in (0, -2.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time_limit must be more than 0"):
            think(game, time_limit=seconds)
    with pytest.raises(TypeError, match="seed must be an integer"):
        think(game, iterations=1, seed="7")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be 0 or more, not -1"):
        think(game, iterations=1, seed=-1)  # else the same search as seed 1
    for lookahead in (0, -5, 10**8):
        with pytest.raises(ValueError, match="lookahead must be from 1"):
            think(game, iterations=1, lookahead=lookahead)
    with pytest.raises(TypeError, match="lookahead must be an integer"):
        think(game, iterations=1, lookahead=2.5)  # type: ignore[arg-type]
    won = position("spider", 1, ["KS"] * 10, removed="SSSSSSSS")
    with pytest.raises(ValueError, match="the game is won"):
        think(won, iterations=1)


def test_the_root_looks_deeper_than_the_quick_hint() -> None:
    # 4-suit Classic tuning deal 10,343: no line of the quick hint turns a card; the root's
    # deeper lookahead finds one (after a run removed), and its first segment is the answer
    # (one play-out cannot overrule it).
    game = golden_game("deep_lookahead.json", "think")
    view = VisibleView.from_game(game)
    quick = hint_report(game, endgame=False)
    assert quick.options and not any(turns_a_card(game, o.line) for o in quick.options)
    deep = hint_report(game, LOOKAHEAD_NODES, endgame=False).options[0].line
    assert turns_a_card(game, deep)
    report = think(game, iterations=1, seed=0)
    assert report.line == truncate_line(view, deep)
    shallow = think(game, iterations=1, seed=0, lookahead=DEFAULT_HINT_NODES)
    assert shallow.line == truncate_line(
        view, hint_report(game, DEFAULT_HINT_NODES, endgame=False).options[0].line
    )


def test_the_root_weighs_turned_cards_at_four_suit_classic() -> None:
    # 4-suit Classic tuning deal 10,500 after six moves: the root lookahead's best line and its
    # best line weighed over the cards each could turn differ.  "Think harder" answers the
    # weighed one (one play-out cannot overrule it); the quick hint does not weigh at 4 suits.
    game = golden_game("weighed_root.json")
    view = VisibleView.from_game(game)
    assert root_weighs_cards(view) and not weighs_next_card(view)
    weighed = hint_report(game, LOOKAHEAD_NODES, endgame=False, weigh_cards=True).options[0]
    plain = hint_report(game, LOOKAHEAD_NODES, endgame=False, weigh_cards=False).options[0]
    assert truncate_line(view, weighed.line) != truncate_line(view, plain.line)
    assert think(game, iterations=1, seed=0).line == truncate_line(view, weighed.line)
    assert hint_report(game) == hint_report(game, weigh_cards=False)


@pytest.mark.parametrize(
    ("game_name", "suits", "rule", "weighs"),
    [
        ("spider", 1, "classic", False),
        ("spider", 2, "classic", True),
        ("spider", 2, "flexible", False),
        ("spider", 4, "classic", True),
        ("spider", 4, "flexible", False),
        ("spiderette", 2, "classic", False),
        ("spiderette", 4, "classic", False),
    ],
)
def test_the_root_weighs_where_it_was_measured_to_help(
    game_name: str, suits: int, rule: str, weighs: bool
) -> None:
    game = Game.new(game_name, suits=suits, rule=rule, number=10_000)
    assert root_weighs_cards(VisibleView.from_game(game)) is weighs


def test_a_time_budget_or_a_stop_cuts_the_root_lookahead_short() -> None:
    # Ten million positions would take many minutes; the clock or a stop request ends the
    # lookahead with the lines it has, and the answer is still a legal move.
    game = golden_game("deep_lookahead.json", "think")
    timed = think(game, time_limit=0.2, seed=0, lookahead=MAX_LOOKAHEAD_NODES)
    assert timed.reason == "time-limit" and timed.action in game.legal_moves()
    assert timed.elapsed < 30
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    stopped = think(game, iterations=50, seed=0, lookahead=MAX_LOOKAHEAD_NODES, stop=stop)
    assert stopped.reason == "stopped" and stopped.iterations == 0
    assert stopped.action in game.legal_moves()


def test_progress_and_stop() -> None:
    game = Game.new("spider", suits=2, number=10_002)
    seen: list[ThinkProgress] = []
    stop = threading.Event()

    def report(progress: ThinkProgress) -> None:
        seen.append(progress)
        if progress.iterations >= 4:
            stop.set()

    result = think(game, iterations=1000, seed=1, progress=report, progress_every=2, stop=stop)
    assert result.reason == "stopped" and result.iterations == 4
    assert [item.iterations for item in seen] == [2, 4]
    assert seen[-1].best and 0 < seen[-1].share <= 1
    timed = think(game, time_limit=0.05, seed=1)
    assert timed.reason == "time-limit" and timed.action in game.legal_moves()


def test_a_deal_when_the_hint_has_nothing() -> None:
    # No card move helps and every column holds cards: the only line is the deal.
    game = position("spider", 1, ["ks 5S"] * 10, stock="as " * 10)
    report = think(game, iterations=3)
    assert report.action == "deal" and report.reason == "only-action"


def test_a_four_suit_game_with_history_gets_the_same_answer_whatever_is_hidden() -> None:
    game = random_game(("spider", 4, "classic"), 10_003, 30)
    assert game.positions_since_progress(), "a history since the last card turned is read"
    first = think(game, iterations=4, seed=9)
    assert first.reason == "iterations", "a search, not a single line"
    other = think(reshuffle_hidden(game, random.Random(0)), iterations=4, seed=9)
    assert (other.line, other.options) == (first.line, first.options)


def test_an_ensemble_adds_up_its_trees_repeatably_whatever_is_hidden() -> None:
    game = random_game(("spiderette", 2, "classic"), 10_007, 12)
    ensemble = think(game, iterations=6, seed=4, jobs=2)
    assert ensemble.reason == "iterations" and ensemble.iterations == 12
    # Two trees on two processes: the first seeded with the seed, the second with a derived one;
    # the root statistics are their sums, so each tree is the single search with its seed.
    trees = [think(game, iterations=6, seed=tree_seed(4, index)) for index in (0, 1)]
    assert tree_seed(4, 0) == 4 and tree_seed(4, 1) not in (4, tree_seed(5, 1))
    first_options, second_options = (tree.options for tree in trees)
    for option, first, second in zip(ensemble.options, first_options, second_options, strict=True):
        assert option.line == first.line == second.line
        assert option.visits == first.visits + second.visits
        total = first.value * first.visits + second.value * second.visits
        assert option.value == pytest.approx(total / option.visits if option.visits else 0.0)
    answer = (ensemble.line, ensemble.options, ensemble.visits, ensemble.value, ensemble.reason)
    assert _answer(game, iterations=6, seed=4, jobs=2) == answer  # repeatable
    other = reshuffle_hidden(game, random.Random(7))
    assert _answer(other, iterations=6, seed=4, jobs=2) == answer  # the hidden cards are not read
    # A stop request in the caller stops the other process's tree too.
    stop = threading.Event()
    stopped = think(
        game, iterations=100_000, seed=1, jobs=2, progress=lambda _: stop.set(), stop=stop
    )
    assert stopped.reason == "stopped" and 10 <= stopped.iterations < 1_000
    for bad in (0, 65):
        with pytest.raises(ValueError, match="jobs must be from 1 to 64"):
            think(game, iterations=2, jobs=bad)
    with pytest.raises(TypeError, match="jobs must be an integer"):
        think(game, iterations=2, jobs=2.0)  # type: ignore[arg-type]


def test_cli_hint_strong(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "SD1-S1-AAAAAAC", "--strong", "--iterations", "6", "--seed", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Best: ") and "of 6 iterations" in captured.out
    # Progress on stderr; not a terminal here, so plain lines: the first, and the last at the end.
    assert captured.err.splitlines()[-1].startswith("6 iterations") and "\r" not in captured.err
    args = ["hint", "SD1-S1-AAAAAAC", "--strong", "--iterations", "6", "--json"]
    assert main(args) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert captured.err == "" and data["iterations"] == 6 and data["line"][0] == data["notation"]
    game = Game.from_code("SD1-S1-AAAAAAC")
    assert data["notation"] == think(game, iterations=6).action.text()  # type: ignore[union-attr]
    args = ["hint", "SD1-S1-AAAAAAC", "--strong", "--iterations", "6", "--jobs", "2", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["iterations"] == 12  # two trees of 6
    assert data == {**think(game, iterations=6, jobs=2).to_json(), "elapsed": data["elapsed"]}


def test_cli_hint_strong_marks_its_line_and_says_when_the_lead_kept_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Seed 1, 10 iterations: the quick hint's line has 4 play-outs, the other 6; the other would
    # need hint_lead(10) = 2 more than 4 + 2 to overrule it, so the table alone would mislead.
    args = ["hint", "SD1-S1-AAAAAAC", "--strong", "--iterations", "10", "--seed", "1", "--quiet"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    report = think(Game.from_code("SD1-S1-AAAAAAC"), iterations=10, seed=1)
    assert [option.visits for option in report.options] == [4, 6]
    assert lines[2] == (
        "Kept the quick hint's line: another line must be visited 2 more times than it to "
        "overrule it."
    )
    assert lines[3] == "  visits  value  line"
    rows = lines[4:]
    assert [row[0] for row in rows] == ["*", " "]  # the chosen line, the quick hint's first
    assert rows[0].split()[1:] == ["4", f"{report.options[0].value:.3f}", report.line[0].text()]
    # Where the most visited line is chosen, nothing needs saying.
    args[args.index("1")] = "0"
    assert main(args) == 0
    assert "Kept" not in capsys.readouterr().out


def test_cli_hint_strong_says_when_the_solver_chose(capsys: pytest.CaptureFixture[str]) -> None:
    game = _spades_endgame(("ks JS 10S 9S 8S", "qs 6S 5S", "7s KS QS JS 10S 9S 8S",
                            "4s 7S 6S 5S 4S 3S", "2s 3S 2S AS"))  # fmt: skip
    text = game.to_text().replace("moves=0", "moves=300")  # played to here, not a deal's start
    assert main(["hint", text, "--strong", "--iterations", "6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Best: ")
    assert "Chosen by the full solver: after it, a win is still possible in 6 of 6 ways" in out
    assert main(["hint", text, "--strong", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reason"] == "endgame" and data["endgame"]["wins"] == 6


@pytest.mark.parametrize(
    "extra",
    [
        ["--strong", "--iterations", "0"],
        ["--strong", "--iterations", "many"],
        ["--strong", "--time", "-1"],
        ["--strong", "--time", "nan"],
        ["--strong", "--seed", "-3"],
        ["--strong", "--jobs", "0"],
        ["--strong", "--jobs", "65"],
    ],
)
def test_cli_hint_strong_refuses_bad_arguments(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["hint", "SD1-S1-AAAAAAC", *extra])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_cli_strong_options_need_strong(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "SD1-S1-AAAAAAC", "--time", "3"]) == 2
    assert capsys.readouterr().err == "spider: error: --time only works with --strong\n"
    assert main(["hint", "SD1-S1-AAAAAAC", "--time", "3", "--seed", "1"]) == 2
    assert capsys.readouterr().err == "spider: error: --time and --seed only work with --strong\n"
    assert main(["hint", "SD1-S1-AAAAAAC", "--strong", "--index", "1"]) == 2
    assert "--index" in capsys.readouterr().err


def test_protocol_think_reports_progress_and_a_playable_action() -> None:
    session = Session()
    reports: list[dict[str, object]] = []
    session.progress = reports.append
    session.handle({"op": "new", "game": "spiderette", "suits": 2, "number": 10_004})
    reply = session.handle({"op": "think", "iterations": 6, "seed": 1, "progress_every": 3})
    assert reply["ok"], reply
    result = reply["think"]
    assert result["iterations"] == 6 and result["reason"] == "iterations"
    assert [report["iterations"] for report in reports] == [3, 6]
    assert set(reports[0]) == {"iterations", "elapsed", "best", "share", "action"}
    # The leading line's first action, as a request the page can show (src, dst, count).
    leading = reports[-1]
    first = leading["action"]
    assert isinstance(first, dict) and first["op"] == "move"
    move = Move(first["src"], first["dst"], first["count"])
    assert str(leading["best"]).split()[0] == move.text()
    assert session.handle(result["action"])["ok"]
    for field, value in (
        ("iterations", 0),
        ("iterations", 2.5),
        ("time_limit", 0),
        ("time_limit", "5"),
        ("seed", -1),
        ("seed", True),
    ):
        refused = session.handle({"op": "think", field: value})
        assert not refused["ok"] and refused["error"]["code"] == "bad-request", (field, value)
    timed = session.handle({"op": "think", "time_limit": 0.05})["think"]
    assert timed["reason"] == "time-limit"


def test_env_think_line_is_legal_and_fair() -> None:
    env = SpiderEnv("spiderette", suits=1)
    _, info = env.reset(options={"number": 10_005})
    line = env.think_line(iterations=4, seed=3)
    assert line and line[0] in info["legal_actions"]
    for action in line:
        _, _, terminated, _, info = env.step(action)
        assert not terminated or info["won"]


def test_think_takes_its_parameters() -> None:
    # With no budget given, "Think harder" runs the parameters' iterations; its quick hint's
    # parameters default to the variant's, and giving those explicitly changes nothing.
    game = Game.new("spider", suits=1, number=4)
    params = replace(ThinkParams(), iterations=6)
    report = think(game, seed=0, params=params)
    assert report.iterations == 6 or report.reason in {"only-action", "nothing-helps"}
    explicit = replace(params, hint=hint_params(game))
    assert _answer(game, iterations=6, seed=0) == _answer_with(game, explicit)


def _answer_with(game: Game, params: ThinkParams) -> tuple[object, ...]:
    """What a report with ``params`` says (as :func:`_answer`)."""
    report = think(game, iterations=6, seed=0, params=params)
    return (report.line, report.options, report.visits, report.value, report.reason)
