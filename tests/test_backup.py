"""Backups (docs/backup.md): read and checked by the engine, merged, summarised; and the
protocol's ``backup-check`` and ``backup-merge``."""

from __future__ import annotations

import copy
import json
from datetime import date
from typing import Any

import pytest

from spider.backup import (
    MAX_BACKUP_CHARS,
    Backup,
    InvalidBackup,
    check_document,
    merge,
    read_backup,
    summary,
)
from spider.daily import daily_deals
from spider.game import Game
from spider.protocol import Session, game_view
from spider.protocol.backup_ops import MAX_BACKUP_REQUEST_CHARS

TODAY = date(2026, 12, 5)
KEY = "spider/1/classic/standard"


def stored_game(updated: int = 1_000, actions: int = 3, number: int = 7) -> dict[str, Any]:
    """A game in progress as the page stores it."""
    game = Game.new("spider", suits=1, number=number)
    for _ in range(actions):
        moves = game.legal_moves()
        if moves:
            game.push(moves[0])
        else:
            game.deal()
    meta = {"elapsed": 12_000, "started": True, "counted": True, "won": False, "assisted": False}
    state = game_view(game)
    return {
        "saved": game.to_json(),
        "state": state,
        "meta": meta,
        "rev": 4,
        "id": "g1",
        "updated": updated,
    }


def entry(played: int = 5, won: int = 2, at: int = 10) -> dict[str, Any]:
    return {
        "played": played,
        "won": won,
        "streak": 1,
        "bestStreak": 2,
        "bestScore": 1100,
        "bestTime": 300_000,
        "fewestMoves": 150,
        "timedWins": won,
        "wonTime": won * 400_000,
        "wonMoves": won * 200,
        "recent": "LWLW"[: min(4, played)],
        "at": at,
    }


def slot(rev: int = 3, **kwargs: Any) -> dict[str, Any]:
    return {
        "rev": rev,
        "variants": {KEY: entry(**kwargs)},
        "recent": [[KEY, "W"]],
        "all": {"streak": 1, "bestStreak": 2, "at": kwargs.get("at", 10)},
    }


def document(**parts: Any) -> dict[str, Any]:
    deal = daily_deals(TODAY)[0]
    doc: dict[str, Any] = {
        "format": "spider-backup",
        "version": 1,
        "written": "2026-12-05T01:02:03.000Z",
        "device": "phone",
        "game": stored_game(),
        "stats": {"devices": {"phone": slot()}},
        "daily": {
            "days": {"2026-12-05": {deal.code: {"score": 1100, "moves": 150, "time": 400_000}}}
        },
        "settings": {"updated": 5, "values": {"lang": "fr", "sound": True}},
    }
    doc.update(parts)
    return doc


def refused(doc: Any, code: str = "bad-backup") -> str:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(InvalidBackup) as caught:
        read_backup(text)
    assert caught.value.code == code, str(caught.value)
    return str(caught.value)


def test_a_real_document_reads_back_the_same() -> None:
    backup = read_backup(json.dumps(document()))
    assert read_backup(backup.to_text()) == backup
    assert backup.game is not None and backup.game["state"] == document()["game"]["state"]
    assert backup.stats["phone"]["variants"][KEY]["won"] == 2


def test_not_a_backup_and_later_versions_are_told_apart() -> None:
    assert "not a Spider backup" in refused("not json {", "not-backup")
    refused({"format": "something else"}, "not-backup")
    refused([1, 2], "not-backup")
    assert "later version" in refused(document(version=2), "backup-version")
    refused(document(version="1"))
    refused("x" * (MAX_BACKUP_CHARS + 1), "backup-too-large")
    refused(document(extra=1))
    refused(document(device="not a device id!"))
    refused(document(written="yesterday"))


def test_a_forged_state_is_refused_and_a_missing_one_rebuilt() -> None:
    forged = document()
    forged["game"]["state"]["columns"][0]["up"] = ["KS"]
    assert "does not match" in refused(forged)
    forged = document()
    forged["game"]["state"]["score"] = 5000
    refused(forged)
    bare = document()
    bare["game"]["state"] = {}
    backup = check_document(bare)
    assert backup.game is not None and backup.game["state"]["columns"]


def test_a_game_whose_history_breaks_the_rules_is_refused() -> None:
    doc = document()
    saved = json.loads(doc["game"]["saved"])
    saved["played"].append("aa")
    doc["game"]["saved"] = json.dumps(saved)
    assert "game.saved" in refused(doc)


def test_a_game_not_from_its_deal_start_never_counts() -> None:
    game = Game.new("spider", suits=1, number=7)
    game.push(game.legal_moves()[0])
    later = Game.from_text(game.to_text())
    doc = document()
    doc["game"] = {**doc["game"], "saved": later.to_json(), "state": game_view(later)}
    backup = check_document(doc)
    assert backup.game is not None and backup.game["meta"]["counted"] is False


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("won", 9, "more games won than played"),
        ("streak", 3, "longer than the best streak"),
        ("timedWins", 3, "timed"),
        ("fewestMoves", 40, "fewer than 41 moves"),
        ("bestScore", 1300, "scores from 0 to 1259"),
        ("wonMoves", 299, "fewest moves allow"),
        ("wonTime", 599_999, "best time allows"),
        ("recent", "WWW", "more results than"),
        ("played", -1, "whole number"),
        ("bestTime", "fast", "number"),
        ("color", 1, "unknown field"),
    ],
)
def test_statistics_no_play_gives_are_refused(field: str, value: Any, why: str) -> None:
    doc = document()
    doc["stats"]["devices"]["phone"]["variants"][KEY][field] = value
    assert why in refused(doc)


def test_records_without_wins_and_unknown_games_are_refused() -> None:
    doc = document()
    doc["stats"]["devices"]["phone"]["variants"]["spider/3/classic/standard"] = entry()
    assert "not a game this engine plays" in refused(doc)
    doc = document()
    doc["stats"]["devices"]["phone"] = {
        "rev": 1,
        "variants": {KEY: {"played": 1, "won": 0, "streak": 0, "bestStreak": 0, "bestScore": 600}},
    }
    assert "without a won game" in refused(doc)


def test_a_best_streak_is_cut_to_the_wins_of_every_device() -> None:
    doc = document()
    doc["stats"]["devices"]["phone"]["variants"][KEY].update(streak=2, bestStreak=9)
    doc["stats"]["devices"]["phone"]["all"] = {"streak": 2, "bestStreak": 9}
    backup = check_document(doc)
    phone = backup.stats["phone"]
    assert (phone["variants"][KEY]["streak"], phone["variants"][KEY]["bestStreak"]) == (2, 2)
    assert phone["all"] == {"streak": 2, "bestStreak": 2}
    assert check_document(backup.to_json()) == backup


def test_a_streak_goes_on_across_devices_within_their_wins() -> None:
    laptop = slot(rev=1, played=1, won=1)
    laptop["variants"][KEY].update(
        streak=3, bestStreak=3, recent="W", wonTime=400_000, wonMoves=200
    )
    laptop["all"] = {"streak": 3, "bestStreak": 3}
    doc = document(stats={"devices": {"phone": slot(), "laptop": laptop}})
    assert read_backup(json.dumps(doc)).stats["laptop"]["all"]["streak"] == 3


def test_daily_results_must_be_that_days_deal() -> None:
    doc = document()
    other = daily_deals(date(2026, 12, 4))[0].code
    doc["daily"]["days"]["2026-12-05"] = {other: {"score": 1100, "moves": 150, "time": 1}}
    assert "not the daily deal of 2026-12-05" in refused(doc)
    doc = document()
    code = daily_deals(date(2026, 12, 7))[0].code
    doc["daily"]["days"]["2026-12-07"] = {code: {"score": 1100, "moves": 150, "time": 1}}
    assert "after the backup was written" in refused(doc)
    doc = document()
    doc["daily"]["days"]["2026-12-05"][daily_deals(TODAY)[0].code]["moves"] = 3
    refused(doc)


def test_merge_keeps_the_newer_game_every_device_and_the_better_daily() -> None:
    local = check_document(document(game=stored_game(updated=10, actions=2)))
    phone_newer = document(
        device="laptop",
        game=stored_game(updated=20, actions=5),
        stats={"devices": {"phone": slot(rev=2), "laptop": slot(rev=1, played=1, won=1)}},
        settings={"updated": 1, "values": {"lang": "de"}},
    )
    phone_newer["stats"]["devices"]["laptop"]["variants"][KEY].update(
        streak=1, bestStreak=1, recent="W"
    )
    phone_newer["stats"]["devices"]["laptop"]["all"] = {"streak": 1, "bestStreak": 1}
    incoming = check_document(phone_newer)
    merged, changed = merge(local, incoming)
    assert merged.game == incoming.game
    assert merged.stats["phone"] == local.stats["phone"]  # the higher rev
    assert merged.stats["laptop"] == incoming.stats["laptop"]
    assert merged.settings == local.settings  # changed later
    assert changed.to_json() == {"game": True, "stats": True, "daily": False, "settings": False}
    again, changed_again = merge(merged, incoming)
    assert again == merged and not changed_again
    assert summary(merged)["stats"]["played"] == 6


def test_summary_says_what_a_player_reads() -> None:
    info = summary(read_backup(json.dumps(document())))
    assert info["game"]["game"] == "spider" and info["game"]["moves"] == 3
    assert info["stats"]["variants"][KEY]["played"] == 5
    assert info["daily"] == {"days": 1, "wins": 1, "streak": 1, "bestStreak": 1}
    assert info["settings"] == 2


def test_protocol_check_and_merge() -> None:
    session = Session()
    text = json.dumps(document())
    reply = json.loads(session.handle_json(json.dumps({"op": "backup-check", "text": text})))
    assert reply["ok"], reply
    assert reply["summary"]["game"]["moves"] == 3
    doc = reply["backup"]
    reply = session.handle({"op": "backup-merge", "local": doc, "incoming": doc})
    assert reply["ok"] and not any(reply["changed"].values())
    bad = session.handle({"op": "backup-check", "text": "{}"})
    assert bad["error"]["code"] == "not-backup"
    bad = session.handle({"op": "backup-merge", "local": doc, "incoming": {**doc, "version": 7}})
    assert bad["error"]["code"] == "backup-version"
    assert bad["error"]["message"].startswith("incoming: ")
    missing = session.handle({"op": "backup-merge", "local": doc})
    assert missing["error"]["code"] == "bad-request"
    assert session.handle({"op": "backup-check", "text": 5})["error"]["code"] == "bad-request"


def test_backup_requests_have_their_own_size_limit() -> None:
    session = Session()
    padding = " " * 3_000_000
    big = '{"op": "backup-check", "text": "{}"' + padding + "}"
    reply = json.loads(session.handle_json(big))
    assert reply["error"]["code"] == "not-backup"  # read, not refused for its size
    with_id = '{"id": 7, "op": "backup-check", "text": "{}"' + padding + "}"
    assert json.loads(session.handle_json(with_id))["error"]["code"] == "not-backup"
    other = '{"op": "state"' + padding + "}"
    assert "more than" in json.loads(session.handle_json(other))["error"]["message"]
    huge = '{"op": "backup-check", "text": "{}"' + " " * MAX_BACKUP_REQUEST_CHARS + "}"
    assert json.loads(session.handle_json(huge))["error"]["code"] == "bad-request"


def test_normalised_documents_are_fixed_points() -> None:
    backup = check_document(document())
    assert check_document(backup.to_json()) == backup
    assert isinstance(copy.deepcopy(backup), Backup)
