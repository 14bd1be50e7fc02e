"""Merging two backup documents by the rules two tabs of the page follow (``docs/backup.md``).

- the game in progress: the one saved later (``updated``); on a tie the longer history; the
  other is not kept;
- statistics: the later reset (``epoch``: more resets, then the later one), and only the slots
  that count from it: a reset clears every device's statistics, whichever side learns of it
  first; then per device the slot with the higher ``rev`` (a device only ever changes its own
  slot, one ``rev`` per change), so nothing is counted twice and no device's games are lost;
  per game, its later reset (an entry of an earlier one stays in its slot but does not count);
- daily results: every day and game of both, per day and game the better result (higher score,
  then fewer moves, then less time);
- settings: the ones changed later.

Each rule picks by a total order (ties broken by the canonical JSON text), so the merge of the
parts is commutative, associative and idempotent.  The merged document keeps the local side's
``device`` and ``written``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from spider.backup.document import Backup, JsonObject
from spider.backup.game_check import history_length

__all__ = ["Changed", "merge"]


@dataclass(frozen=True)
class Changed:
    """Which parts of the merged document differ from the local one."""

    game: bool
    stats: bool
    daily: bool
    settings: bool

    def to_json(self) -> dict[str, bool]:
        """As the protocol sends it."""
        return {
            "game": self.game,
            "stats": self.stats,
            "daily": self.daily,
            "settings": self.settings,
        }

    def __bool__(self) -> bool:
        return self.game or self.stats or self.daily or self.settings


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _game_order(game: JsonObject) -> tuple[int, int, int, str]:
    return (game["updated"], history_length(game), game["rev"], _canon(game))


def merge_game(a: JsonObject | None, b: JsonObject | None) -> JsonObject | None:
    """The game saved later; on a tie the one with the longer history."""
    if a is None or b is None:
        return a if b is None else b
    return max(a, b, key=_game_order)


def merge_epoch(a: JsonObject, b: JsonObject) -> JsonObject:
    """The later reset: the one after more resets, then the one made later."""
    return max(a, b, key=lambda e: (e["n"], e["at"]))


def merge_resets(a: dict[str, JsonObject], b: dict[str, JsonObject]) -> dict[str, JsonObject]:
    """Per game, the later of its resets."""
    out = dict(a)
    for key, epoch in b.items():
        out[key] = merge_epoch(out[key], epoch) if key in out else epoch
    return dict(sorted(out.items()))


def merge_stats(
    a: dict[str, JsonObject], b: dict[str, JsonObject], epoch: int = 0
) -> dict[str, JsonObject]:
    """Per device, the slot of the higher ``rev`` among those counting from reset ``epoch``
    (the slots of an earlier reset are dropped)."""
    out: dict[str, JsonObject] = {}
    for device, slot in [*a.items(), *b.items()]:
        mine = out.get(device)
        if slot.get("epoch", 0) != epoch:
            continue
        if mine is None or (slot["rev"], _canon(slot)) > (mine["rev"], _canon(mine)):
            out[device] = slot
    return dict(sorted(out.items()))


def _result_order(result: JsonObject) -> tuple[int, int, int]:
    return (result["score"], -result["moves"], -result["time"])


def merge_daily(
    a: dict[str, dict[str, JsonObject]], b: dict[str, dict[str, JsonObject]]
) -> dict[str, dict[str, JsonObject]]:
    """Every day and game of both; per day and game the better result."""
    out = {day: dict(results) for day, results in a.items()}
    for day, results in b.items():
        mine = out.setdefault(day, {})
        for code, result in results.items():
            if code not in mine or _result_order(result) > _result_order(mine[code]):
                mine[code] = result
    return {day: dict(sorted(results.items())) for day, results in sorted(out.items())}


def merge_settings(a: JsonObject | None, b: JsonObject | None) -> JsonObject | None:
    """The settings changed later."""
    if a is None or b is None:
        return a if b is None else b
    return max(a, b, key=lambda s: (s["updated"], _canon(s["values"])))


def merge(local: Backup, incoming: Backup) -> tuple[Backup, Changed]:
    """``local`` and ``incoming`` merged, and which parts differ from ``local``."""
    epoch = merge_epoch(local.epoch, incoming.epoch)
    merged = Backup(
        written=local.written,
        device=local.device,
        game=merge_game(local.game, incoming.game),
        stats=merge_stats(local.stats, incoming.stats, epoch["n"]),
        daily=merge_daily(local.daily, incoming.daily),
        settings=merge_settings(local.settings, incoming.settings),
        epoch=epoch,
        resets=merge_resets(local.resets, incoming.resets),
    )
    stats = (merged.epoch, merged.resets, merged.stats)
    changed = Changed(
        game=_canon(merged.game) != _canon(local.game),
        stats=_canon(stats) != _canon((local.epoch, local.resets, local.stats)),
        daily=_canon(merged.daily) != _canon(local.daily),
        settings=_canon(merged.settings) != _canon(local.settings),
    )
    return merged, changed
