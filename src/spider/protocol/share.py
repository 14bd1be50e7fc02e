"""Protocol operations of the daily deal and of replay links (see ``docs/protocol.md``).

:func:`share_operations` gives them to a :class:`spider.protocol.session.Session`.  None of them
changes the player's game: ``daily`` and ``replay`` work without one.

- ``{"op": "daily", "date": "YYYY-MM-DD"}`` adds ``daily``: the date and the daily deal of
  every variant (:mod:`spider.daily`);
- ``{"op": "replay_link"}`` adds ``replay_link``: the link of the player's game
  (:func:`spider.replay.encode_replay`), or refuses with ``not-replayable``;
- ``{"op": "replay", "link": L, "step": k}`` adds ``replay``: the decoded link and the player's
  view of its game after ``k`` actions, or refuses with ``invalid-replay``.  The session keeps
  the last replay, so stepping through it costs one action per step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spider.daily import daily_deals, parse_day
from spider.game import Game
from spider.moves import action_text
from spider.protocol.fields import (
    Answer,
    GameHolder,
    Handler,
    ProtocolError,
    ranged_int_field,
    text_field,
)
from spider.replay import InvalidReplay, Replay, decode_replay, encode_replay

__all__ = ["share_operations"]

View = Callable[[Game], dict[str, Any]]


@dataclass
class _Shown:
    """The replay the session shows: its link, its decoded form, and its game at ``step``."""

    link: str
    replay: Replay
    game: Game
    step: int

    def seek(self, step: int) -> None:
        """Moves the game to ``step`` actions from the start (undo back, push forward)."""
        while self.step > step:
            self.game.undo()
            self.step -= 1
        while self.step < step:
            self.game.push(self.replay.actions[self.step])
            self.step += 1


def share_operations(session: GameHolder, view: View) -> dict[str, Handler]:
    """The ``daily``, ``replay_link`` and ``replay`` operations of ``session``; ``view`` gives
    the player's view of a game (:func:`spider.protocol.session.game_view`)."""
    shown: list[_Shown] = []

    def op_daily(request: dict[str, Any]) -> Answer:
        try:
            day = parse_day(request.get("date"))
        except ValueError as error:
            raise ProtocolError("bad-request", f"field 'date': {error}") from None
        deals = [deal.to_json() for deal in daily_deals(day)]
        return Answer([], {"daily": {"date": day.isoformat(), "deals": deals}})

    def op_replay_link(request: dict[str, Any]) -> Answer:
        try:
            link = encode_replay(session.require_game())
        except InvalidReplay as error:
            raise ProtocolError("not-replayable", str(error)) from None
        return Answer([], {"replay_link": link})

    def op_replay(request: dict[str, Any]) -> Answer:
        link = text_field(request, "link", "invalid-replay")
        if not shown or shown[0].link != link:
            try:
                replay = decode_replay(link)
            except InvalidReplay as error:
                raise ProtocolError("invalid-replay", f"{error.code}: {error}") from None
            shown[:] = [_Shown(link, replay, replay.start(), 0)]
        current = shown[0]
        steps = len(current.replay.actions)
        step = ranged_int_field(request, "step", 0, steps, 0)
        current.seek(step)
        fields = {
            "code": current.replay.code,
            "scoring": current.replay.scoring,
            "steps": steps,
            "step": step,
            "actions": [action_text(action) for action in current.replay.actions],
            "view": view(current.game),
        }
        return Answer([], {"replay": fields})

    return {"daily": op_daily, "replay_link": op_replay_link, "replay": op_replay}
