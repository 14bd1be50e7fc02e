"""The backup document (format ``spider-backup``, version 1): its parts, limits and errors.

See ``docs/backup.md``.  :mod:`spider.backup` reads, merges and summarises such documents; this
module only says what one is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

__all__ = [
    "BACKUP_ERRORS",
    "FORMAT",
    "MAX_BACKUP_CHARS",
    "MAX_DAYS",
    "MAX_DEVICES",
    "MAX_SETTINGS",
    "NO_RESET",
    "VERSION",
    "Backup",
    "BackupErrorCode",
    "InvalidBackup",
]

FORMAT: Final = "spider-backup"
"""The ``format`` field of every backup document."""

VERSION: Final = 1
"""The version this engine writes and reads; a document of a later version is refused."""

MAX_BACKUP_CHARS: Final = 4_000_000
"""The longest backup text, in characters.  The longest saved game is 1,000,000 characters
(:data:`spider.limits.MAX_SAVED_CHARS`); written inside the backup as a JSON string its quotes
are escaped, which at most doubles it; the statistics, daily results and settings take the rest."""

MAX_DEVICES: Final = 200
"""The most devices whose statistics one document keeps."""

MAX_DAYS: Final = 40_000
"""The most days of daily results one document keeps (over a hundred years of days)."""

MAX_SETTINGS: Final = 100
"""The most settings one document keeps."""

NO_RESET: Final = {"n": 0, "at": 0}
"""The reset epoch of statistics never reset (and of a document that has none)."""

BackupErrorCode = Literal["not-backup", "backup-version", "bad-backup", "backup-too-large"]
"""Why a backup is refused (:attr:`InvalidBackup.code`)."""

BACKUP_ERRORS: Final[frozenset[str]] = frozenset(get_args(BackupErrorCode))


class InvalidBackup(ValueError):
    """A backup that cannot be used; the message says where and what is wrong.

    ``code`` is stable: ``not-backup`` (not JSON, or not a Spider backup at all),
    ``backup-version`` (written by a later version of the format), ``backup-too-large``
    (longer than :data:`MAX_BACKUP_CHARS`, or more devices, days or settings than allowed) and
    ``bad-backup`` (a part that is damaged, impossible or forged: a game whose state does not
    match its history, statistics that no play gives, a daily result of a deal that was not that
    day's).
    """

    def __init__(self, message: str, code: BackupErrorCode = "bad-backup") -> None:
        if code not in BACKUP_ERRORS:
            raise AssertionError(f"unknown InvalidBackup code {code!r}")
        super().__init__(message)
        self.code: BackupErrorCode = code


JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Backup:
    """A checked backup document (every part as :mod:`spider.backup` normalised it).

    ``game``: the game in progress as the page stores it, or None; ``stats``: each device's
    statistics slot by device id (each counting in ``epoch``); ``daily``: date → game code →
    ``{score, moves, time}``; ``settings``: ``{updated, values}`` or None; ``epoch``: the reset
    the statistics count from, ``{n, at}``: resets so far and the time of the last (ms; ``{0, 0}``
    when never reset); ``resets``: per variant key, the resets of that game's statistics alone,
    ``{n, at}`` (only the entries of that game that count from the latest count).
    """

    written: str
    device: str
    game: JsonObject | None = None
    stats: dict[str, JsonObject] = field(default_factory=dict)
    daily: dict[str, dict[str, JsonObject]] = field(default_factory=dict)
    settings: JsonObject | None = None
    epoch: JsonObject = field(default_factory=lambda: dict(NO_RESET))
    resets: dict[str, JsonObject] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        """The document as JSON data (what :func:`spider.backup.read_backup` reads back)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "written": self.written,
            "device": self.device,
            "game": self.game,
            "stats": {"epoch": self.epoch, "resets": self.resets, "devices": self.stats},
            "daily": {"days": self.daily},
            "settings": self.settings,
        }

    def to_text(self) -> str:
        """The document as JSON text, keys sorted (the same document always gives the same text)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), allow_nan=False)
