"""Protocol operations of backups (see ``docs/protocol.md`` and ``docs/backup.md``).

:func:`backup_operations` gives them to a :class:`spider.protocol.session.Session`; neither needs
nor changes the player's game.

- ``{"op": "backup-check", "text": T}`` adds ``backup`` (the document in ``T``, checked and
  normalised: :func:`spider.backup.read_backup`) and ``summary`` (what it holds);
- ``{"op": "backup-merge", "local": D, "incoming": E}`` adds ``backup`` (the two documents
  merged: :func:`spider.backup.merge`), ``changed`` (which parts differ from ``local``) and
  ``summary``.

A bad document is refused with its :class:`~spider.backup.InvalidBackup` code (``not-backup``,
``backup-version``, ``bad-backup``, ``backup-too-large``).  Requests of these operations may be
longer than other requests (:data:`MAX_BACKUP_REQUEST_CHARS`), when they name their op first
(after an ``id``).
"""

from __future__ import annotations

import re
from typing import Any, Final

from spider.backup import InvalidBackup, check_document, merge, read_backup, summary
from spider.backup.document import MAX_BACKUP_CHARS
from spider.protocol.fields import Answer, Handler, ProtocolError, text_field

__all__ = ["MAX_BACKUP_REQUEST_CHARS", "backup_operations", "request_limit"]

MAX_BACKUP_REQUEST_CHARS: Final = 2 * MAX_BACKUP_CHARS + 100_000
"""The longest request of a backup operation: a backup's text written as a JSON string (its
escapes at most double it), or two documents to merge."""

_BACKUP_OP: Final = re.compile(
    r'\s*\{\s*(?:"id"\s*:\s*(?:-?[0-9]{1,16}|"[^"\\]{0,100}"|null)\s*,\s*)?'
    r'"op"\s*:\s*"backup-(?:check|merge)"'
)


def request_limit(text: object, default: int) -> int:
    """The most characters request ``text`` may have: :data:`MAX_BACKUP_REQUEST_CHARS` for a
    request that begins by naming a backup operation (after its ``id``, if that comes first),
    else ``default`` (read before parsing)."""
    if isinstance(text, str) and _BACKUP_OP.match(text[:200]):
        return MAX_BACKUP_REQUEST_CHARS
    return default


def _refuse(error: InvalidBackup, side: str = "") -> ProtocolError:
    return ProtocolError(error.code, f"{side}{error}")


def _document(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise ProtocolError("bad-request", f"op 'backup-merge' needs a {name!r} document")
    try:
        return check_document(request[name])
    except InvalidBackup as error:
        raise _refuse(error, f"{name}: ") from None


def backup_operations() -> dict[str, Handler]:
    """The ``backup-check`` and ``backup-merge`` operations."""

    def op_check(request: dict[str, Any]) -> Answer:
        text = text_field(request, "text", "bad-request")
        try:
            backup = read_backup(text)
        except InvalidBackup as error:
            raise _refuse(error) from None
        return Answer([], {"backup": backup.to_json(), "summary": summary(backup)})

    def op_merge(request: dict[str, Any]) -> Answer:
        local, incoming = _document(request, "local"), _document(request, "incoming")
        merged, changed = merge(local, incoming)
        fields = {
            "backup": merged.to_json(),
            "changed": changed.to_json(),
            "summary": summary(merged),
        }
        return Answer([], fields)

    return {"backup-check": op_check, "backup-merge": op_merge}
