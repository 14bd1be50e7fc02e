"""``spider backup``: what a backup file holds, and the merge of several (docs/backup.md)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spider.backup import MAX_BACKUP_CHARS, Backup, InvalidBackup, merge, read_backup, summary

__all__ = ["add_backup_command", "summary_text"]


def _read(name: str) -> Backup:
    """The backup in file ``name``; ``ValueError`` naming the file when it cannot be used."""
    path = Path(name)
    if path.is_file() and path.stat().st_size > 4 * MAX_BACKUP_CHARS:
        raise ValueError(f"{name}: the file is too large to be a backup")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name}: the file is not UTF-8 text") from None
    except OSError as error:
        raise ValueError(f"{name}: {error.strerror or error}") from None
    try:
        return read_backup(text)
    except InvalidBackup as error:
        raise ValueError(f"{name}: {error} ({error.code})") from None


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _variant(game: str, suits: int, rule: str, scoring: str) -> str:
    name = f"{game.capitalize()} {_plural(suits, 'suit')}"
    if game == "spider" and suits > 1:
        name += f" {rule}"
    return f"{name}, {scoring} scoring"


def _stats_lines(stats: dict[str, Any]) -> list[str]:
    streak = "unknown" if stats["streak"] is None else str(stats["streak"])
    lines = [
        f"Statistics ({_plural(stats['devices'], 'device')}): {stats['played']:,} played, "
        f"{stats['won']:,} won, current streak {streak}, best streak {stats['bestStreak'] or 0}"
    ]
    if stats["resetAt"] is not None:
        when = datetime.fromtimestamp(stats["resetAt"] / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines[0] += f", counted since they were reset on {when}"
    for key, v in stats["variants"].items():
        game, suits, rule, scoring = key.split("/")
        name = _variant(game, int(suits), rule, scoring)
        line = f"  {name}: {v['played']:,} played, {v['won']:,} won"
        if v["bestScore"] is not None:
            line += f", best score {v['bestScore']:,}"
        if v["fewestMoves"] is not None:
            line += f", fewest moves {v['fewestMoves']:,}"
        lines.append(line)
    return lines


def summary_text(info: dict[str, Any]) -> str:
    """The summary of a backup (:func:`spider.backup.summary`) in words."""
    lines = [f"Spider backup written {info['written']} by device {info['device']}"]
    game = info["game"]
    if game is None:
        lines.append("Game in progress: none")
    else:
        variant = _variant(game["game"], game["suits"], game["rule"], game["scoring"])
        state = "won" if game["won"] else _plural(game["moves"], "move")
        code = f", deal {game['code']}" if game["code"] else ""
        lines.append(f"Game in progress: {variant}{code}, {state}")
    lines.extend(_stats_lines(info["stats"]))
    daily = info["daily"]
    lines.append(
        f"Daily deals: {_plural(daily['wins'], 'win')} on {_plural(daily['days'], 'day')}, "
        f"streak {_plural(daily['streak'], 'day')} (best {daily['bestStreak']:,})"
    )
    lines.append(f"Settings: {_plural(info['settings'], 'setting')}")
    return "\n".join(lines)


def _command_backup(args: argparse.Namespace) -> int:
    backup = _read(args.files[0])
    changed_any = False
    for name in args.files[1:]:
        backup, changed = merge(backup, _read(name))
        changed_any = changed_any or bool(changed)
    if args.output:
        written = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        out = replace(backup, written=written)
        Path(args.output).write_text(out.to_text() + "\n", encoding="utf-8")
    info = summary(backup)
    if args.json:
        json.dump(info, sys.stdout, indent=2)
        print()
    else:
        print(summary_text(info))
        if len(args.files) > 1:
            print("Merged: " + ("something changed" if changed_any else "nothing changed"))
    return 0


def add_backup_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Adds ``spider backup FILE [FILE ...] [--json] [-o OUT]``."""
    backup = commands.add_parser(
        "backup",
        help="summarise a backup file of the web app, or merge several",
        description="Check a backup file written by the web app's 'Back up' (docs/backup.md) "
        "and say what it holds. With several files, merge them into the first by the app's "
        "rules (the newer game, every device's statistics, the better daily results). A file "
        "that is not a usable backup ends with one line and exit status 2.",
    )
    backup.add_argument("files", nargs="+", metavar="FILE", help="backup file(s)")
    backup.add_argument("--json", action="store_true", help="print the summary as JSON")
    backup.add_argument(
        "-o", "--output", metavar="OUT", help="write the (merged) backup to this file"
    )
    backup.set_defaults(handler=_command_backup)
