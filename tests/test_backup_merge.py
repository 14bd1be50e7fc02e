"""Properties of merging backups (docs/backup.md): per part, whatever the order, however often,
nothing present is lost and nothing is counted twice."""

from __future__ import annotations

import json
from datetime import date, timedelta
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spider.backup import Backup, check_document, merge
from spider.daily import daily_deals
from tests.test_backup import KEY, stored_game

DEVICES = ["phone", "laptop", "tablet"]
FIRST_DAY = date(2026, 11, 20)


@cache
def checked_game(updated: int, actions: int) -> dict[str, Any]:
    """A game checked once by the engine (replaying it every example would be slow)."""
    doc = {"format": "spider-backup", "version": 1, "written": "2026-12-05T00:00:00Z"}
    backup = check_document({**doc, "device": "x", "game": stored_game(updated, actions)})
    assert backup.game is not None
    return backup.game


@st.composite
def slots(draw: st.DrawFn, epoch: int = 0, game_epoch: int = 0) -> dict[str, Any]:
    played = draw(st.integers(0, 20))
    won = draw(st.integers(0, played))
    best = draw(st.integers(0, won))
    entry: dict[str, Any] = {
        "played": played,
        "won": won,
        "streak": draw(st.integers(0, best)),
        "bestStreak": best,
        "bestScore": 900 if won else None,
        "bestTime": 1000 if won else None,
        "fewestMoves": 100 if won else None,
        "timedWins": won,
        "wonTime": 1000 * won,
        "wonMoves": 100 * won,
        "recent": "",
    }
    # An entry counts from its game's latest reset, or from an earlier one (it does not count).
    entry_epoch = draw(st.integers(0, game_epoch))
    if entry_epoch:
        entry["epoch"] = entry_epoch
    return {
        "rev": draw(st.integers(0, 5)),
        "epoch": epoch,
        "variants": {KEY: entry},
        "recent": [],
        "all": None,
    }


@st.composite
def backups(draw: st.DrawFn) -> Backup:
    game = draw(st.none() | st.builds(checked_game, st.integers(0, 3), st.integers(1, 3)))
    # Statistics reset up to twice, each reset at one of a few times (two devices may reset
    # alike, or at once); every slot counts from the document's reset.
    resets = draw(st.integers(0, 2))
    epoch = {"n": resets, "at": draw(st.integers(1, 3)) if resets else 0}
    game_resets = draw(st.integers(0, 2))
    games = {KEY: {"n": game_resets, "at": draw(st.integers(1, 3))}} if game_resets else {}
    devices = draw(
        st.dictionaries(st.sampled_from(DEVICES), slots(resets, game_resets), max_size=3)
    )
    days: dict[str, dict[str, Any]] = {}
    for offset in draw(st.sets(st.integers(0, 4), max_size=3)):
        day = FIRST_DAY + timedelta(days=offset)
        deal = daily_deals(day)[0]
        result = {
            "score": draw(st.integers(900, 1000)),
            "moves": draw(st.integers(100, 102)),
            "time": draw(st.integers(0, 2)),
        }
        days[day.isoformat()] = {deal.code: result}
    values = draw(st.sampled_from([{"lang": "fr"}, {"lang": "de"}, {"sound": True}]))
    stamp = draw(st.integers(0, 3))
    return Backup(
        written="2026-12-05T00:00:00Z",
        device=draw(st.sampled_from(DEVICES)),
        game=game,
        stats=devices,
        daily=dict(sorted(days.items())),
        settings=draw(st.none() | st.just({"updated": stamp, "values": values})),
        epoch=epoch,
        resets=games,
    )


def parts(backup: Backup) -> str:
    """Everything the merge rules decide (``device`` and ``written`` are the local side's)."""
    data = backup.to_json()
    return json.dumps({k: data[k] for k in ("game", "stats", "daily", "settings")}, sort_keys=True)


def order(epoch: dict[str, int]) -> tuple[int, int]:
    return epoch["n"], epoch["at"]


FAST = settings(max_examples=60, deadline=None)


@FAST
@given(backups(), backups())
def test_merge_is_commutative(a: Backup, b: Backup) -> None:
    assert parts(merge(a, b)[0]) == parts(merge(b, a)[0])


@FAST
@given(backups(), backups(), backups())
def test_merge_is_associative(a: Backup, b: Backup, c: Backup) -> None:
    left = merge(merge(a, b)[0], c)[0]
    right = merge(a, merge(b, c)[0])[0]
    assert parts(left) == parts(right)


@FAST
@given(backups(), backups())
def test_merge_is_idempotent_and_a_document_with_itself_is_itself(a: Backup, b: Backup) -> None:
    assert merge(a, a) == (a, merge(a, a)[1]) and not merge(a, a)[1]
    once = merge(a, b)[0]
    twice, changed = merge(once, b)
    assert twice == once and not changed


@FAST
@given(backups(), backups())
def test_nothing_present_is_lost(a: Backup, b: Backup) -> None:
    merged, changed = merge(a, b)
    for side in (a, b):
        assert order(merged.epoch) >= order(side.epoch)
        # Every device's slot of the latest reset is kept; a reset drops those of earlier ones.
        for device, slot in side.stats.items():
            if side.epoch["n"] == merged.epoch["n"]:
                assert merged.stats[device]["rev"] >= slot["rev"]
        assert all(slot["epoch"] == merged.epoch["n"] for slot in merged.stats.values())
        for day, results in side.daily.items():
            for code, result in results.items():
                kept = merged.daily[day][code]
                assert (kept["score"], -kept["moves"]) >= (result["score"], -result["moves"])
        if side.game is not None:
            assert merged.game is not None and merged.game["updated"] >= side.game["updated"]
        if side.settings is not None:
            assert merged.settings is not None
            assert merged.settings["updated"] >= side.settings["updated"]
    assert bool(changed) == (parts(merged) != parts(a))
    # The merged document is a valid one.
    checked = check_document(merged.to_json())
    assert (checked.epoch, checked.resets, checked.stats) == (
        merged.epoch,
        merged.resets,
        merged.stats,
    )
