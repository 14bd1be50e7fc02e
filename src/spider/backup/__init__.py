"""Backups of a player's progress: the game in progress, statistics, daily results, settings.

A backup is one JSON document (format ``spider-backup``, version 1; see ``docs/backup.md``)
that the web page writes ("Back up") and reads back ("Restore"), and that a sync service carries
between devices.  This module reads one and checks everything in it
(:func:`read_backup`), merges two (:func:`merge`) and says what one holds (:func:`summary`).

Examples:
    >>> doc = read_backup('{"format": "spider-backup", "version": 1, '
    ...                   '"written": "2026-12-05T01:02:03.000Z", "device": "phone", "game": null, '
    ...                   '"stats": {"devices": {}}, "daily": {"days": {}}, "settings": null}')
    >>> merged, changed = merge(doc, doc)
    >>> merged == doc, bool(changed)
    (True, False)
    >>> summary(doc)["stats"]["played"]
    0
"""

from __future__ import annotations

from spider.backup.check import check_document, read_backup
from spider.backup.document import (
    BACKUP_ERRORS,
    FORMAT,
    MAX_BACKUP_CHARS,
    VERSION,
    Backup,
    BackupErrorCode,
    InvalidBackup,
)
from spider.backup.merge import Changed, merge
from spider.backup.summary import summary

__all__ = [
    "BACKUP_ERRORS",
    "FORMAT",
    "MAX_BACKUP_CHARS",
    "VERSION",
    "Backup",
    "BackupErrorCode",
    "Changed",
    "InvalidBackup",
    "check_document",
    "merge",
    "read_backup",
    "summary",
]
