"""What a backup holds, as a player reads it (``spider backup FILE``, the Restore dialog)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from spider.backup.document import Backup, JsonObject
from spider.backup.game_check import history_length
from spider.backup.stats import VARIANT_KEYS, counts

__all__ = ["daily_streaks", "summary", "total_stats"]


def _game(game: JsonObject | None) -> JsonObject | None:
    if game is None:
        return None
    state = game["state"]
    return {
        "game": state["game"],
        "suits": state["suits"],
        "rule": state["rule"],
        "scoring": state["scoring"],
        "code": state["code"],
        "moves": state["moves"],
        "history": history_length(game),
        "won": state["won"],
        "updated": game["updated"],
    }


def _best(values: list[Any], pick: Any) -> Any:
    present = [v for v in values if v is not None]
    return pick(present) if present else None


def _variant_totals(entries: list[JsonObject]) -> JsonObject:
    return {
        "played": sum(e["played"] for e in entries),
        "won": sum(e["won"] for e in entries),
        "bestScore": _best([e["bestScore"] for e in entries], max),
        "bestTime": _best([e["bestTime"] for e in entries], min),
        "fewestMoves": _best([e["fewestMoves"] for e in entries], min),
    }


def total_stats(backup: Backup) -> JsonObject:
    """The statistics the player sees: per variant (menu order) the sums over every device's
    slot, the totals, the streak across games of the slot with the latest result, and the
    resets so far with the time of the last (ms, None when never reset)."""
    slots = list(backup.stats.values())
    variants = {}
    for key in VARIANT_KEYS:
        entries = [
            slot["variants"][key]
            for slot in slots
            if key in slot["variants"] and counts(slot["variants"][key], key, backup.resets)
        ]
        if entries:
            variants[key] = _variant_totals(entries)
    streaks = [slot["all"] for slot in slots if slot["all"] is not None]
    latest = max(streaks, key=lambda s: s.get("at", 0), default=None)
    return {
        "devices": len(slots),
        "variants": variants,
        "played": sum(v["played"] for v in variants.values()),
        "won": sum(v["won"] for v in variants.values()),
        "streak": None if latest is None else latest["streak"],
        "bestStreak": _best([s["bestStreak"] for s in streaks], max),
        "resets": backup.epoch["n"],
        "resetAt": backup.epoch["at"] or None,
    }


def daily_streaks(days: dict[str, dict[str, JsonObject]], today: date) -> tuple[int, int]:
    """Days in a row with a daily deal won, up to ``today`` (or up to the day before while
    today's are still to be won), and the longest such run (as the page's Daily dialog counts)."""
    won = {date.fromisoformat(day) for day, results in days.items() if results}
    one = timedelta(days=1)
    day = today if today in won else today - one
    streak = 0
    while day in won:
        streak += 1
        day -= one
    best = 0
    for first in won:
        if first - one in won:
            continue
        run = 0
        while first + run * one in won:
            run += 1
        best = max(best, run)
    return streak, best


def summary(backup: Backup) -> JsonObject:
    """What ``backup`` holds: the game in progress (variant, moves), the statistics per variant
    and in all, the daily results and streak (as on the day it was written), the settings."""
    written = date.fromisoformat(backup.written[:10])
    streak, best = daily_streaks(backup.daily, written)
    return {
        "written": backup.written,
        "device": backup.device,
        "game": _game(backup.game),
        "stats": total_stats(backup),
        "daily": {
            "days": sum(1 for results in backup.daily.values() if results),
            "wins": sum(len(results) for results in backup.daily.values()),
            "streak": streak,
            "bestStreak": best,
        },
        "settings": 0 if backup.settings is None else len(backup.settings["values"]),
    }
