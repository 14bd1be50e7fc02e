"""Resetting statistics (docs/backup.md): a reset on one device clears every device's statistics,
whichever way and in whatever order documents are merged, and an older backup never brings
them back."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider.backup import Backup, check_document, merge, read_backup, summary
from spider.backup.stats import counts
from spider.cli.backup_command import summary_text
from tests.test_backup import KEY, document, refused, slot
from tests.test_backup_merge import DEVICES, FAST, backups, parts

# 2026-12-05T01:02:03Z, when document() says it was written.
WRITTEN_MS = 1_796_432_523_000


def reset(doc: Backup, device: str, at: int) -> Backup:
    """What the page does on "Reset statistics" (stats.js): the next reset, and this device's
    slot afresh (one revision on), every other slot dropped."""
    rev = doc.stats[device]["rev"] + 1 if device in doc.stats else 0
    n = doc.epoch["n"] + 1
    fresh = {"rev": rev, "epoch": n, "variants": {}, "recent": [], "all": None}
    return replace(doc, epoch={"n": n, "at": at}, stats={device: fresh})


def play(doc: Backup, device: str) -> Backup:
    """A game of KEY lost on ``device``: its slot (afresh when it has none in the document's
    reset; its entry afresh when from before the game's reset) counts one more game."""
    old = doc.stats.get(device)
    rev = old["rev"] + 1 if old else 0
    variants = dict(old["variants"]) if old else {}
    before = variants.get(KEY, {"played": 0, "won": 0})
    game_epoch = doc.resets.get(KEY, {"n": 0})["n"]
    if not counts(before, KEY, doc.resets):  # an entry from before its game's reset
        before = {"played": 0, "won": 0}
    variants[KEY] = {
        **({"epoch": game_epoch} if game_epoch else {}),
        **{k: 0 for k in ("streak", "bestStreak", "timedWins", "wonTime", "wonMoves")},
        "bestScore": None,
        "bestTime": None,
        "fewestMoves": None,
        "recent": "",
        "played": before["played"] + 1,
        "won": before["won"],
    }
    new = {"rev": rev, "epoch": doc.epoch["n"], "variants": variants, "recent": [], "all": None}
    return replace(doc, stats={**doc.stats, device: new})


def played(doc: Backup) -> int:
    return int(summary(doc)["stats"]["played"])


@FAST
@given(backups(), backups(), st.sampled_from(DEVICES), st.integers(4, 6))
def test_a_reset_and_any_merges_in_any_order_give_the_same(
    a: Backup, b: Backup, device: str, at: int
) -> None:
    r = reset(a, device, at)
    results = [
        merge(merge(r, b)[0], a)[0],
        merge(merge(b, a)[0], r)[0],
        merge(a, merge(r, b)[0])[0],
        merge(merge(b, r)[0], merge(a, b)[0])[0],
    ]
    assert len({parts(x) for x in results}) == 1
    merged = results[0]
    # The reset wins over every document that did not know of it: nothing of theirs is counted
    # (a document with a reset of its own as many resets on counts its own games since then).
    if r.epoch["n"] > b.epoch["n"]:
        assert played(merged) == 0 and merged.epoch == r.epoch


def order(epoch: dict[str, int]) -> tuple[int, int]:
    return epoch["n"], epoch["at"]


@FAST
@given(backups(), backups(), st.integers(4, 6))
def test_games_after_learning_of_a_reset_count_and_those_before_are_gone(
    a: Backup, b: Backup, at: int
) -> None:
    r = reset(merge(a, b)[0], "phone", at)  # the phone, which had b's statistics, resets
    laptop = play(b, "laptop")  # the laptop plays on, not knowing of the reset
    learned = merge(laptop, r)[0]  # then learns of it: its games before are gone
    assert played(learned) == 0
    after = play(play(learned, "laptop"), "laptop")  # two games after: they count
    for merged in (merge(r, after)[0], merge(after, r)[0], merge(merge(r, laptop)[0], after)[0]):
        assert played(merged) == 2
        assert merged.stats["laptop"]["variants"][KEY]["played"] == 2


@FAST
@given(backups(), backups(), st.sampled_from(DEVICES), st.integers(4, 6))
def test_restoring_an_older_backup_after_a_reset_changes_no_statistics(
    a: Backup, b: Backup, device: str, at: int
) -> None:
    old = merge(a, b)[0]  # a backup written before the reset
    r = reset(old, device, at)
    for earlier in (old, a, b):
        merged, changed = merge(r, earlier)
        assert not changed.stats and (merged.epoch, merged.stats) == (r.epoch, r.stats)


def test_a_document_without_a_reset_counts_from_none() -> None:
    backup = read_backup(json.dumps(document()))
    assert backup.epoch == {"n": 0, "at": 0} and backup.stats["phone"]["epoch"] == 0
    assert backup.to_json()["stats"]["epoch"] == {"n": 0, "at": 0}
    assert check_document(backup.to_json()) == backup
    assert summary(backup)["stats"]["resets"] == 0
    assert summary(backup)["stats"]["resetAt"] is None


def test_only_the_slots_of_the_documents_reset_count() -> None:
    stale = slot(rev=9, played=7, won=2)  # counted before the reset: dropped on reading
    fresh = {**slot(rev=1, played=1, won=1), "epoch": 2}
    epoch = {"n": 2, "at": WRITTEN_MS - 1000}
    doc = document(stats={"epoch": epoch, "devices": {"phone": fresh, "laptop": stale}})
    backup = read_backup(json.dumps(doc))
    assert backup.epoch == epoch and set(backup.stats) == {"phone"}
    info = summary(backup)["stats"]
    assert (info["played"], info["resets"], info["resetAt"]) == (1, 2, WRITTEN_MS - 1000)
    assert "counted since they were reset on 2026-12-05 01:02 UTC" in summary_text(summary(backup))


@pytest.mark.parametrize(
    ("epoch", "slot_epoch", "words"),
    [
        ({"n": 1}, 1, "expected {n, at}"),
        ({"n": -1, "at": 5}, 0, "stats.epoch.n"),
        ({"n": True, "at": 5}, 0, "stats.epoch.n"),
        ({"n": 10**10, "at": 5}, 0, "stats.epoch.n"),
        ({"n": 1, "at": 1.5}, 1, "stats.epoch.at"),
        ({"n": 1, "at": 0}, 1, "a reset without its time"),
        ({"n": 0, "at": 5}, 0, "a time without a reset"),
        ({"n": 1, "at": WRITTEN_MS + 2 * 86_400_000}, 1, "a reset after the backup was written"),
        ({"n": 1, "at": 5}, 2, "a later reset than the statistics' own"),
        ("once", 0, "expected {n, at}"),
    ],
)
def test_a_bad_reset_is_refused_in_words(epoch: Any, slot_epoch: int, words: str) -> None:
    doc = document(stats={"epoch": epoch, "devices": {"phone": {**slot(), "epoch": slot_epoch}}})
    assert words in refused(doc)


def test_a_reset_a_day_ahead_of_the_writer_is_read() -> None:
    # Another device's clock may be ahead of the one that wrote the document.
    epoch = {"n": 1, "at": WRITTEN_MS + 86_400_000}
    doc = document(stats={"epoch": epoch, "devices": {}})
    assert read_backup(json.dumps(doc)).epoch == epoch


def test_the_later_of_two_resets_is_kept_and_both_devices_games_after_them_count() -> None:
    base = check_document(document(stats={"devices": {"phone": slot(), "laptop": slot()}}))
    phone = play(reset(base, "phone", 100), "phone")
    laptop = play(play(reset(base, "laptop", 200), "laptop"), "laptop")
    for merged in (merge(phone, laptop)[0], merge(laptop, phone)[0]):
        assert merged.epoch == {"n": 1, "at": 200}
        assert played(merged) == 3  # each counted only what was played after its own reset
    again = reset(merge(phone, laptop)[0], "phone", 300)
    assert merge(laptop, again)[0].epoch == {"n": 2, "at": 300}
    assert played(merge(laptop, again)[0]) == 0


def reset_game(doc: Backup, device: str, key: str, at: int) -> Backup:
    """What the page does on Reset of one game (stats.js): the game's next reset, and its
    entry dropped from this device's slot (one revision on); other slots stay as they are."""
    n = doc.resets.get(key, {"n": 0})["n"] + 1
    old = doc.stats.get(device)
    variants = {k: e for k, e in (old["variants"] if old else {}).items() if k != key}
    rev = old["rev"] + 1 if old else 0
    mine = {"rev": rev, "epoch": doc.epoch["n"], "variants": variants, "recent": [], "all": None}
    resets = {**doc.resets, key: {"n": n, "at": at}}
    return replace(doc, resets=resets, stats={**doc.stats, device: mine})


def played_of(doc: Backup, key: str = KEY) -> int:
    variants = summary(doc)["stats"]["variants"]
    return int(variants[key]["played"]) if key in variants else 0


@FAST
@given(backups(), backups(), st.sampled_from(DEVICES), st.integers(4, 6))
def test_a_reset_of_one_game_reaches_every_device_in_any_order(
    a: Backup, b: Backup, device: str, at: int
) -> None:
    old = merge(a, b)[0]
    r = reset_game(old, device, KEY, at)
    results = [merge(r, a)[0], merge(merge(b, r)[0], a)[0], merge(a, merge(r, b)[0])[0]]
    assert len({parts(x) for x in results}) == 1
    merged = results[0]
    assert played_of(merged) == 0  # no device's games of it from before the reset count
    # A game of it on another device after it learns of the reset counts, whatever merges.
    other = next(d for d in DEVICES if d != device)
    learned = merge(b, r)[0]
    after = play(replace(learned, stats=_learn(learned.stats, other, learned)), other)
    assert played_of(merge(r, after)[0]) == played_of(merge(after, a)[0]) == 1
    assert not merge(after, old)[1].stats  # the backup from before the reset changes nothing


def _learn(stats: dict[str, Any], device: str, doc: Backup) -> dict[str, Any]:
    """``device``'s slot once it learns of the resets of ``doc``: its entries of a game reset
    since are dropped (stats.js' ``replaceSlots``)."""
    if device not in stats:
        return stats
    mine = stats[device]
    kept = {k: e for k, e in mine["variants"].items() if counts(e, k, doc.resets)}
    return {**stats, device: {**mine, "rev": mine["rev"] + 1, "variants": kept}}


def test_an_entry_of_a_later_game_reset_than_the_documents_is_refused() -> None:
    laptop = {**slot(), "variants": {KEY: {**slot()["variants"][KEY], "epoch": 2}}}
    resets = {KEY: {"n": 1, "at": 5}}
    doc = document(stats={"resets": resets, "devices": {"laptop": laptop}})
    assert "a later reset than the game's own" in refused(doc)
    doc["stats"]["resets"] = {KEY: {"n": 2, "at": 5}, "spider/9/x/y": {"n": 1, "at": 5}}
    assert "is not a game this engine plays" in refused(doc)
    doc["stats"]["resets"] = {KEY: {"n": 0, "at": 0}}
    assert "at least one reset" in refused(doc)
    doc["stats"]["resets"] = {KEY: {"n": 2, "at": 5}}
    backup = read_backup(json.dumps(doc))
    assert played_of(backup) == 5 and backup.resets == {KEY: {"n": 2, "at": 5}}
    doc["stats"]["resets"] = {KEY: {"n": 3, "at": 6}}
    assert played_of(read_backup(json.dumps(doc))) == 0  # kept, but not counted
