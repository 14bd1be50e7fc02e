"""Checks of the statistics in a backup: each device's slot, as far as the engine can tell what
play can give (see ``docs/backup.md``).

A slot is what one device's page keeps (``stats.js``): ``rev``, the reset it counts from
(``epoch``), the entries by variant key (``game/suits/rule/scoring``), the last results of every
game (``recent``) and the streak across games (``all``).  Beside the slots, ``stats.epoch`` says
how many times the statistics were reset and when last; only the slots of that reset count.
``stats.resets`` says the same of each game's own resets; only the entries of a game that
count from its latest reset (their ``epoch``) count.
Every bound below holds for statistics the page writes, whatever the player does; a slot that
breaks one was edited, and the document is refused.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any, Final

from spider.backup.document import MAX_DEVICES, NO_RESET, InvalidBackup, JsonObject
from spider.limits import excerpt
from spider.options import SCORINGS, Options

__all__ = [
    "MAX_COUNT",
    "RECENT",
    "VARIANT_KEYS",
    "check_epoch",
    "check_resets",
    "check_slots",
    "counts",
    "max_win_score",
    "min_win_moves",
    "min_win_score",
]

RECENT: Final = 30
"""The most results each list of recent results keeps (``stats.js``' ``RECENT``)."""

MAX_COUNT: Final = 1_000_000_000
"""The largest count of games, wins or moves in an entry: far more than anyone plays, and small
enough that every sum the page makes of them stays exact in a JavaScript number."""

MAX_MS: Final = 2**53 - 1
"""The largest time in milliseconds (a time stamp, a game's time or a sum of them): the largest
integer a JavaScript number holds exactly."""

DEVICE_RE: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$", re.ASCII)

VARIANT_KEYS: Final[dict[str, Options]] = {
    f"{o.game}/{o.suits}/{o.rule}/{scoring}": Options.make(o.game, o.suits, o.rule, scoring)
    for scoring in SCORINGS
    for o in Options.variants()
}
"""Every statistics key the page can write, with the options of its games."""

_COUNTS: Final = ("played", "won", "streak", "bestStreak", "timedWins", "wonMoves")
_ENTRY_FIELDS: Final = frozenset(
    (*_COUNTS, "bestScore", "bestTime", "fewestMoves", "wonTime", "recent", "at", "epoch")
)


@cache
def min_win_moves(options: Options) -> int:
    """The fewest moves (deals included, as ``Game.moves`` counts them) any win can take.

    Every face-down card must be turned.  A move turns at most one card in the column it leaves,
    plus one where it completes a run (which leaves the table); a deal turns none, except where
    it completes a run.  So the face-down cards are at most the moves that are not deals plus the
    runs; and every card of the stock must be dealt, which takes ``deals_left`` deals.
    """
    face_down = sum(count - 1 for count in options.initial_columns)
    deals = options.deals_left(options.stock_size)
    return face_down - options.runs_to_win + deals


@cache
def max_win_score(options: Options) -> int:
    """The highest score a win can have.

    Standard scoring starts at 500, takes one point per move or deal and gives 100 per run: a win
    of ``m`` moves ends at ``500 - m + 100 * runs`` at most (when the score was held at 0 in
    Spider, it ends at ``100 * runs`` at most, lower still).  Reveal scoring starts at 0 and gives
    5 per card turned (each face-down card once: undoing a turn takes its points back) and 100
    per run.
    """
    runs = 100 * options.runs_to_win
    if options.scoring == "standard":
        return 500 + runs - min_win_moves(options)
    return 5 * sum(count - 1 for count in options.initial_columns) + runs


def min_win_score(options: Options) -> int:
    """The lowest score a win can have: in reveal scoring every run's 100 points; in Spider's
    standard scoring 0 (the floor); Spiderette's standard score has no floor, so only the range
    of an integer field bounds it."""
    if options.scoring == "reveal":
        return 100 * options.runs_to_win
    return 0 if options.score_floor is not None else -(2**31)


def _fail(where: str, message: str) -> InvalidBackup:
    return InvalidBackup(f"{where}: {message}")


def _count(data: JsonObject, name: str, where: str, high: int = MAX_COUNT) -> int:
    value = data.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise _fail(
            f"{where}.{name}", f"expected a whole number from 0 to {high}, not {excerpt(value)}"
        )
    return value


def _optional(data: JsonObject, name: str, where: str, low: float, high: float) -> float | None:
    value = data.get(name)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise _fail(f"{where}.{name}", f"expected null or a number from {low} to {high}")
    return value


def _stamp(data: JsonObject, where: str) -> dict[str, int]:
    """``{"at": ms}`` when the part says when its last result was (ms since 1970), else {}."""
    if data.get("at") is None:
        return {}
    return {"at": _count(data, "at", where, MAX_MS)}


def _check_bests(e: JsonObject, options: Options, where: str) -> None:
    """The records and sums of the wins, against the wins and what a win can give."""
    won, timed = e["won"], e["timedWins"]
    bests = (e["bestScore"], e["bestTime"], e["fewestMoves"])
    # A record comes from a won game only; every win the sums count also set the records.
    if won == 0 and any(best is not None for best in bests):
        raise _fail(where, "a best score, time or move count without a won game")
    if timed and any(best is None for best in bests):
        raise _fail(where, "won games counted in the sums but no records")
    if timed == 0 and (e["wonTime"] or e["wonMoves"]):
        raise _fail(where, "time or moves of won games without any counted win")
    fewest, best_time = e["fewestMoves"], e["bestTime"]
    if fewest is not None:
        if fewest != int(fewest) or fewest < min_win_moves(options):
            raise _fail(
                f"{where}.fewestMoves",
                f"no win of this game takes fewer than {min_win_moves(options)} moves",
            )
        # Each counted win took at least the fewest moves, and at least the best time.
        if e["wonMoves"] < timed * fewest:
            raise _fail(f"{where}.wonMoves", "less than the wins' fewest moves allow")
    if best_time is not None and e["wonTime"] < timed * math.floor(best_time):
        raise _fail(f"{where}.wonTime", "less than the wins' best time allows")
    score = e["bestScore"]
    if score is not None and not (
        score == int(score) and min_win_score(options) <= score <= max_win_score(options)
    ):
        raise _fail(
            f"{where}.bestScore",
            f"a win of this game scores from {min_win_score(options)} to {max_win_score(options)}",
        )


def check_entry(data: object, options: Options, where: str) -> JsonObject:
    """One variant's entry, every field present (those it lacks get their empty value)."""
    if not isinstance(data, dict):
        raise _fail(where, "expected an object")
    unknown = set(data) - _ENTRY_FIELDS
    if unknown:
        raise _fail(where, f"unknown field {excerpt(sorted(unknown)[0])}")
    e: JsonObject = {name: _count(data, name, where) for name in _COUNTS}
    e["wonTime"] = _count(data, "wonTime", where, MAX_MS)
    e["bestScore"] = _optional(data, "bestScore", where, -(2**31), 2**31)
    e["bestTime"] = _optional(data, "bestTime", where, 0, MAX_MS)
    e["fewestMoves"] = _optional(data, "fewestMoves", where, 0, MAX_COUNT)
    recent = data.get("recent", "")
    if not isinstance(recent, str) or not re.fullmatch(f"[WL]{{0,{RECENT}}}", recent):
        raise _fail(f"{where}.recent", f"expected up to {RECENT} letters W or L")
    e["recent"] = recent
    e.update(_stamp(data, where))
    if data.get("epoch"):  # the reset of this game it counts from; 0 when never reset
        e["epoch"] = _count(data, "epoch", where)
    # Every win is a game played; a streak is a run of wins, never longer than the best one (a
    # streak may go on from another device's wins: check_slots cuts it to every device's);
    # every win in the sums is a win; every recent result is a game played, every W a win.
    if not e["won"] <= e["played"]:
        raise _fail(where, "more games won than played")
    if not e["streak"] <= e["bestStreak"]:
        raise _fail(where, "a streak longer than the best streak")
    if not e["timedWins"] <= e["won"]:
        raise _fail(where, "more timed wins than wins")
    if len(recent) > e["played"] or recent.count("W") > e["won"]:
        raise _fail(f"{where}.recent", "more results than games played or won")
    _check_bests(e, options, where)
    return e


def _check_recent(data: object, where: str) -> list[list[str]]:
    """The last results of every game: up to :data:`RECENT` of ``[variant, "W" or "L"]``.

    They are not held against the entries' counts: an entry set aside as unreadable, or made
    again after that, leaves results of its variant in this list (the page shows them in a
    chart, never counts them).
    """
    if not isinstance(data, list) or len(data) > RECENT:
        raise _fail(where, f"expected a list of at most {RECENT} results")
    out: list[list[str]] = []
    for item in data:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], str)
            and item[0] in VARIANT_KEYS
            and item[1] in ("W", "L")
        ):
            raise _fail(where, f"a result that is not [variant, 'W' or 'L']: {excerpt(item)}")
        out.append([item[0], item[1]])
    return out


def _check_streaks(data: object, where: str) -> JsonObject | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) - {"streak", "bestStreak", "at"}:
        raise _fail(where, "expected null or {streak, bestStreak, at}")
    out: JsonObject = {name: _count(data, name, where) for name in ("streak", "bestStreak")}
    out.update(_stamp(data, where))
    if not out["streak"] <= out["bestStreak"]:
        raise _fail(where, "a streak longer than the best streak")
    return out


def check_slot(data: object, where: str) -> JsonObject:
    """One device's statistics: ``{rev, epoch, variants, recent, all}`` (``epoch``: 0 if absent)."""
    if not isinstance(data, dict) or set(data) - {"rev", "epoch", "variants", "recent", "all"}:
        raise _fail(where, "expected {rev, epoch, variants, recent, all}")
    rev = _count(data, "rev", where, MAX_MS)
    epoch = _count(data, "epoch", where)
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        raise _fail(f"{where}.variants", "expected an object")
    entries: dict[str, JsonObject] = {}
    for key, value in variants.items():
        options = VARIANT_KEYS.get(key)
        if options is None:
            raise _fail(f"{where}.variants", f"{excerpt(key)} is not a game this engine plays")
        entries[key] = check_entry(value, options, f"{where}.variants.{key}")
    recent = _check_recent(data.get("recent", []), f"{where}.recent")
    streaks = _check_streaks(data.get("all"), f"{where}.all")
    return {"rev": rev, "epoch": epoch, "variants": entries, "recent": recent, "all": streaks}


def check_epoch(data: object, latest: int, where: str = "stats.epoch") -> JsonObject:
    """``stats.epoch``: ``{n, at}``, how many times the statistics were reset and when last (ms
    since 1970, no later than ``latest``); ``{0, 0}`` when never reset, or absent."""
    if data is None:
        return dict(NO_RESET)
    if not isinstance(data, dict) or set(data) != {"n", "at"}:
        raise _fail(where, "expected {n, at}")
    n = _count(data, "n", where)
    at = _count(data, "at", where, MAX_MS)
    if (n == 0) != (at == 0):
        raise _fail(where, "a reset without its time, or a time without a reset")
    if at > latest:
        raise _fail(f"{where}.at", "a reset after the backup was written")
    return {"n": n, "at": at}


def check_resets(data: object, latest: int) -> dict[str, JsonObject]:
    """``stats.resets``: per variant key, the resets of that game's statistics alone ``{n, at}``
    (at least one)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _fail("stats.resets", "expected an object")
    out: dict[str, JsonObject] = {}
    for key, value in sorted(data.items()):
        if key not in VARIANT_KEYS:
            raise _fail("stats.resets", f"{excerpt(key)} is not a game this engine plays")
        epoch = check_epoch(value, latest, f"stats.resets.{key}")
        if epoch["n"] == 0:
            raise _fail(f"stats.resets.{key}", "expected at least one reset")
        out[key] = epoch
    return out


def counts(entry: JsonObject, key: str, resets: dict[str, JsonObject]) -> bool:
    """Whether a variant entry counts: it counts from the latest reset of its game."""
    return int(entry.get("epoch", 0)) == int(resets.get(key, NO_RESET)["n"])


def check_slots(
    data: object, latest: int
) -> tuple[JsonObject, dict[str, JsonObject], dict[str, JsonObject]]:
    """``stats``: ``{"epoch": {n, at}, "resets": {key: {n, at}}, "devices": {id: slot}}``: the
    reset the statistics count from, each game's own resets, and the slots that count from the
    former (a slot of an earlier reset is dropped: the reset cleared it; one of a later reset
    than the document's is impossible).  An entry of an earlier reset of its game stays in its
    slot (the slot is its device's to change) but does not count (:func:`counts`)."""
    if (
        not isinstance(data, dict)
        or not {"devices"} <= set(data) <= {"epoch", "resets", "devices"}
        or not isinstance(data["devices"], dict)
    ):
        raise _fail("stats", 'expected {"epoch": {n, at}, "resets": {…}, "devices": {…}}')
    epoch = check_epoch(data.get("epoch"), latest)
    resets = check_resets(data.get("resets"), latest)
    devices: dict[str, Any] = data["devices"]
    if len(devices) > MAX_DEVICES:
        raise InvalidBackup(
            f"stats: {len(devices)} devices, more than the {MAX_DEVICES} allowed",
            "backup-too-large",
        )
    out: dict[str, JsonObject] = {}
    for device, slot in devices.items():
        if not DEVICE_RE.match(device):
            raise _fail("stats.devices", f"{excerpt(device)} is not a device id")
        where = f"stats.devices.{device}"
        checked = check_slot(slot, where)
        if checked["epoch"] > epoch["n"]:
            raise _fail(f"{where}.epoch", "a later reset than the statistics' own")
        for key, entry in checked["variants"].items():
            if entry.get("epoch", 0) > resets.get(key, NO_RESET)["n"]:
                raise _fail(f"{where}.variants.{key}.epoch", "a later reset than the game's own")
        if checked["epoch"] == epoch["n"]:
            out[device] = checked
    return epoch, resets, _bound_streaks(out)


def _bound_streaks(slots: dict[str, JsonObject]) -> dict[str, JsonObject]:
    """Every best streak cut to the wins it can be made of.

    A best streak is a run of wins: of one game, never more than that game's wins on every
    device together (a device's streak goes on from another's); across games, never more than
    all the wins.  A longer one is cut rather than refused: after one device resets its
    statistics, another's streak may honestly be longer than the wins left in the document.
    """
    wins: dict[str, int] = {}
    for slot in slots.values():
        for key, e in slot["variants"].items():
            wins[key] = wins.get(key, 0) + e["won"]
    total = sum(wins.values())
    out: dict[str, JsonObject] = {}
    for device, slot in slots.items():
        variants = {key: _cut(e, wins[key]) for key, e in slot["variants"].items()}
        streaks = slot["all"] if slot["all"] is None else _cut(slot["all"], total)
        out[device] = {**slot, "variants": variants, "all": streaks}
    return out


def _cut(part: JsonObject, wins: int) -> JsonObject:
    """``part``'s best streak at most ``wins``, its streak at most its best streak."""
    if part["bestStreak"] <= wins:
        return part
    return {**part, "bestStreak": wins, "streak": min(part["streak"], wins)}
