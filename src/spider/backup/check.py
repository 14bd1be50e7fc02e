"""Reading a backup: every part checked, as far as the engine can check it (``docs/backup.md``).

:func:`read_backup` takes the file's text; :func:`check_document` the parsed JSON.  Either
returns a :class:`~spider.backup.document.Backup` whose parts are normalised (every field present,
the game rebuilt from its history), or raises :class:`~spider.backup.document.InvalidBackup`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, Final

from spider.backup.document import (
    FORMAT,
    MAX_BACKUP_CHARS,
    MAX_DAYS,
    MAX_SETTINGS,
    VERSION,
    Backup,
    InvalidBackup,
    JsonObject,
)
from spider.backup.game_check import check_game
from spider.backup.stats import (
    DEVICE_RE,
    MAX_COUNT,
    MAX_MS,
    check_slots,
    max_win_score,
    min_win_moves,
    min_win_score,
)
from spider.codes import parse_code
from spider.daily import daily_number, parse_day
from spider.errors import InvalidCode
from spider.limits import excerpt, load_json
from spider.options import Options

__all__ = ["check_document", "read_backup"]

_FIELDS: Final = frozenset(
    {"format", "version", "written", "device", "game", "stats", "daily", "settings"}
)
_WRITTEN_RE: Final = re.compile(
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z$", re.ASCII
)
_MAX_SETTING_CHARS: Final = 20_000


def read_backup(text: object) -> Backup:
    """The backup in ``text`` (a file's content), checked whole; :class:`InvalidBackup` says
    what is wrong with a bad one."""
    if isinstance(text, str) and len(text) > MAX_BACKUP_CHARS:
        raise InvalidBackup(
            f"{len(text):,} characters, more than the {MAX_BACKUP_CHARS:,} a backup may have",
            "backup-too-large",
        )
    try:
        data = load_json(text, "backup", MAX_BACKUP_CHARS)
    except ValueError as error:
        raise InvalidBackup(f"not a Spider backup: {error}", "not-backup") from None
    return check_document(data)


def _written(value: object) -> tuple[str, datetime]:
    """The time the document was written (ISO, UTC)."""
    if isinstance(value, str) and _WRITTEN_RE.match(value):
        try:
            return value, datetime.fromisoformat(value)
        except ValueError:
            pass
    raise InvalidBackup(
        f"written: expected an ISO time such as 2026-12-05T01:02:03.000Z, not {excerpt(value)}"
    )


def _version(data: JsonObject) -> None:
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise InvalidBackup(
            f"written by a later version of Spider (backup version {version}); "
            f"this version reads version {VERSION}",
            "backup-version",
        )
    if version != VERSION or isinstance(version, bool):
        raise InvalidBackup(f"version: expected {VERSION}, not {excerpt(version)}")


def check_document(data: Any) -> Backup:
    """A parsed backup document, checked and normalised (see :func:`read_backup`)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidBackup(f"not a Spider backup: its 'format' is not {FORMAT!r}", "not-backup")
    _version(data)
    unknown = set(data) - _FIELDS
    if unknown:
        raise InvalidBackup(f"unknown field {excerpt(sorted(unknown)[0])}")
    written, when = _written(data.get("written"))
    # A reset may be up to a day after the document was written (another device's clock ahead).
    latest = int((when + timedelta(days=1)).timestamp() * 1000)
    device = data.get("device")
    if not isinstance(device, str) or not DEVICE_RE.match(device):
        raise InvalidBackup(
            f"device: expected 1 to 64 letters, digits, - or _, not {excerpt(device)}"
        )
    epoch, resets, slots = check_slots(data.get("stats", {"devices": {}}), latest)
    return Backup(
        written=written,
        device=device,
        game=check_game(data.get("game")),
        stats=slots,
        daily=check_daily(data.get("daily", {"days": {}}), when.date()),
        settings=check_settings(data.get("settings")),
        epoch=epoch,
        resets=resets,
    )


def _daily_options(day: date, code: str, where: str) -> Options:
    """The options of ``code``, which must be the daily deal of its variant on ``day``."""
    try:
        options, number = parse_code(code)
    except InvalidCode as error:
        raise InvalidBackup(f"{where}: {error}") from None
    try:
        daily = daily_number(day, options)
    except LookupError:
        return options  # no catalogue for this game: which deal was the daily one is unknown
    if daily != number:
        raise InvalidBackup(f"{where}: not the daily deal of {day.isoformat()}")
    return options


def _daily_result(value: object, options: Options, where: str) -> JsonObject:
    """A daily deal won: ``{score, moves, time}`` within what a win of that deal can give
    (under either scoring: a daily deal is the same deal under both)."""
    if not isinstance(value, dict) or set(value) != {"score", "moves", "time"}:
        raise InvalidBackup(f"{where}: expected {{score, moves, time}}")
    scorings = [
        Options.make(options.game, options.suits, options.rule, s) for s in ("standard", "reveal")
    ]
    low = min(min_win_score(o) for o in scorings)
    high = max(max_win_score(o) for o in scorings)
    checks = {
        "score": (low, high),
        "moves": (min_win_moves(options), MAX_COUNT),
        "time": (0, MAX_MS),
    }
    for name, (least, most) in checks.items():
        number = value[name]
        if isinstance(number, bool) or not isinstance(number, int) or not least <= number <= most:
            raise InvalidBackup(
                f"{where}.{name}: a win of this deal has a {name} from {least} to {most}, "
                f"not {excerpt(number)}"
            )
    return {"score": value["score"], "moves": value["moves"], "time": value["time"]}


def check_daily(data: object, written: date) -> dict[str, dict[str, JsonObject]]:
    """``daily``: ``{"days": {date: {code: result}}}``; each code the daily deal of its date, no
    date after the day the document was written (a day later where the player's clock is ahead
    of UTC)."""
    if not isinstance(data, dict) or set(data) != {"days"} or not isinstance(data["days"], dict):
        raise InvalidBackup('daily: expected {"days": {…}}')
    days: dict[str, Any] = data["days"]
    if len(days) > MAX_DAYS:
        raise InvalidBackup(
            f"daily: {len(days):,} days, more than the {MAX_DAYS:,} allowed", "backup-too-large"
        )
    latest = written + timedelta(days=1)
    out: dict[str, dict[str, JsonObject]] = {}
    for key, results in sorted(days.items()):
        where = f"daily.days.{excerpt(key)}"
        try:
            day = parse_day(key)
        except ValueError as error:
            raise InvalidBackup(f"{where}: {error}") from None
        if day > latest:
            raise InvalidBackup(f"{where}: a day after the backup was written")
        if not isinstance(results, dict) or len(results) > len(Options.variants()):
            raise InvalidBackup(f"{where}: expected an object of at most one result per game")
        out[key] = {
            code: _daily_result(
                result, _daily_options(day, code, f"{where}.{code}"), f"{where}.{code}"
            )
            for code, result in sorted(results.items())
        }
    return out


def check_settings(data: object) -> JsonObject | None:
    """``settings``: null, or ``{updated, values}``; the values are the page's to read (it keeps
    those it knows and checks each), so the engine checks only their size."""
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"updated", "values"}:
        raise InvalidBackup("settings: expected null or {updated, values}")
    updated, values = data["updated"], data["values"]
    if isinstance(updated, bool) or not isinstance(updated, int) or not 0 <= updated <= MAX_MS:
        raise InvalidBackup(
            f"settings.updated: expected a time in milliseconds, not {excerpt(updated)}"
        )
    if not isinstance(values, dict):
        raise InvalidBackup("settings.values: expected an object")
    if len(values) > MAX_SETTINGS or len(repr(values)) > _MAX_SETTING_CHARS:
        raise InvalidBackup(
            f"settings.values: more than {MAX_SETTINGS} settings "
            f"or {_MAX_SETTING_CHARS:,} characters",
            "backup-too-large",
        )
    return {"updated": updated, "values": values}
