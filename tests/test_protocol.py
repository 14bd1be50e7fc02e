"""The JSON protocol the web page uses (docs/protocol.md), without a browser."""

from __future__ import annotations

import json

from spider import Game, best_destination
from spider.protocol import Session
from tests.helpers import position


def started(**fields: object) -> tuple[Session, dict[str, object]]:
    session = Session()
    reply = session.handle({"op": "new", "game": "spider", "suits": 2, "number": 3, **fields})
    assert reply["ok"], reply
    return session, reply


def test_new_game_view_hides_face_down_cards() -> None:
    _session, reply = started(id=9)
    assert reply["id"] == 9
    state = reply["state"]
    game = Game.from_code("SP1-S2C-AAAAAAD")
    assert state["code"] == "SP1-S2C-AAAAAAD"
    for view, column in zip(state["columns"], game.columns, strict=True):
        assert view["down"] == column.face_down
        assert view["up"] == [str(card) for card in column.face_up]
    hidden = {str(card) for column in game.columns for card in column.cards[: column.face_down]}
    text = json.dumps(state)
    # the view carries no position text or stock order
    assert "position" not in state and "stock" not in state
    assert state["deals_left"] == 5 and state["stock_cards"] == 50
    assert hidden  # sanity: there are hidden cards to hide
    assert '"down": 5' in text or '"down":5' in json.dumps(state, separators=(",", ":"))


def test_dests_match_legal_moves() -> None:
    _session, reply = started()
    game = Game.from_code("SP1-S2C-AAAAAAD")
    legal = set(game.legal_moves())
    listed = set()
    for src, view in enumerate(reply["state"]["columns"]):  # type: ignore[index]
        assert view["pickup"] == game.movable_count(src)
        for count, dests in enumerate(view["dests"], start=1):
            listed.update((src, dst, count) for dst in dests)
    assert listed == {tuple(move) for move in legal}


def test_move_events_and_saved_game() -> None:
    session, _ = started()
    reply = session.handle({"op": "move", "src": 1, "dst": 4, "count": 1})
    assert reply["ok"]
    assert reply["events"][0] == {"type": "move", "src": 1, "dst": 4, "count": 1, "cards": ["3H"]}
    assert reply["events"][1]["type"] == "flip" and reply["events"][1]["column"] == 1
    restored = Game.from_json(reply["saved"])
    assert restored.moves == 1 and restored.can_undo


def test_refused_actions_have_codes_and_state() -> None:
    session, _ = started()
    for request, code in [
        ({"op": "move", "src": 0, "dst": 0, "count": 1}, "same-column"),
        ({"op": "move", "src": 0, "dst": 1, "count": 1}, "no-target"),
        ({"op": "move", "src": 0, "dst": 11, "count": 1}, "no-such-column"),
        ({"op": "move", "src": 0, "dst": 1, "count": 4}, "bad-count"),
        ({"op": "move", "src": "a", "dst": 1}, "bad-request"),
        ({"op": "undo"}, "nothing-to-undo"),
        ({"op": "redo"}, "nothing-to-redo"),
        ({"op": "auto", "src": 0, "count": 1}, "no-destination"),
        ({"op": "fly"}, "bad-request"),
        ({"op": "open", "code": "SP1-XX"}, "invalid-code"),
        ({"op": "open", "position": "spider"}, "invalid-position"),
        ({"op": "load", "saved": "{}"}, "invalid-saved"),
        ({"op": "new", "suits": 3}, "bad-request"),
    ]:
        reply = session.handle(request)
        assert not reply["ok"] and reply["error"]["code"] == code, (request, reply)
        assert reply["error"]["message"]
        assert reply["state"]["code"] == "SP1-S2C-AAAAAAD"


def test_no_game_and_bad_json() -> None:
    session = Session()
    assert session.handle({"op": "deal"})["error"]["code"] == "no-game"
    assert json.loads(session.handle_json("{oops"))["error"]["code"] == "bad-request"
    assert session.handle([1])["error"]["code"] == "bad-request"


def test_deal_refused_with_empty_column_in_state() -> None:
    game = position("spider", 1, ["2s KS", ""] + ["QS"] * 8, stock=" ".join(["AS"] * 10))
    session = Session()
    session.game = game
    reply = session.handle({"op": "deal"})
    assert reply["error"]["code"] == "empty-column"
    assert reply["state"]["deal_error"] == "empty-column"
    assert reply["state"]["blocked_deal"] is False


def test_auto_uses_the_documented_policy() -> None:
    session = Session()
    session.game = position("spider", 2, ["8H", "9S", "9H", ""] + ["KS"] * 6)
    reply = session.handle({"op": "auto", "src": 0, "count": 1})
    assert reply["events"][0]["dst"] == 2  # same suit first


def test_auto_in_spiderette_says_when_only_another_suit_takes_the_group() -> None:
    session = Session()
    session.handle({"op": "open", "code": "SD1-S2-AAAAAAC"})
    reply = session.handle({"op": "auto", "src": 3, "count": 1})
    assert reply["error"]["code"] == "other-suit-only"
    assert session.handle({"op": "move", "src": 3, "dst": 5, "count": 1})["ok"]  # legal by drag
    session.game = position("spider", 2, ["8H", "KS"] + ["QS"] * 8)
    reply = session.handle({"op": "auto", "src": 0, "count": 1})
    assert reply["error"]["code"] == "no-destination"


def test_undo_redo_restart_load_set() -> None:
    session, _ = started()
    session.handle({"op": "deal"})
    reply = session.handle({"op": "undo"})
    assert reply["events"] == [{"type": "undo", "action": {"type": "deal"}}]
    assert reply["state"]["can_redo"]
    reply = session.handle({"op": "redo"})
    assert reply["events"][0] == {"type": "redo"} and reply["events"][1]["type"] == "deal"
    saved = reply["saved"]
    other = Session()
    loaded = other.handle({"op": "load", "saved": saved})
    assert loaded["state"] == reply["state"]
    assert other.handle({"op": "set", "undo_limit": 0})["state"]["can_undo"] is False
    reply = session.handle({"op": "restart"})
    assert reply["state"]["moves"] == 0 and not reply["state"]["can_undo"]


def test_open_by_code_and_position() -> None:
    session = Session()
    reply = session.handle({"op": "open", "code": "sd1-s1-aaaaabd"})
    assert reply["state"]["code"] == "SD1-S1-AAAAABD" and len(reply["state"]["columns"]) == 7
    text = Game.from_code("SP1-S4F-AAAAAAB").to_text()
    reply = session.handle({"op": "open", "position": text, "scoring": "reveal"})
    assert reply["state"]["rule"] == "flexible"


# ------------------------------------------------------------------ best destination


def test_best_destination_spider_order() -> None:
    game = position("spider", 2, ["8H", "9S", "", "9H"] + ["KS"] * 6)
    assert best_destination(game, 0, 1) == (0, 3, 1)
    game = position("spider", 2, ["8H", "9S", ""] + ["KS"] * 7)
    assert best_destination(game, 0, 1) == (0, 1, 1)
    game = position("spider", 2, ["2s 8H", "", "10S"] + ["KS"] * 7)
    assert best_destination(game, 0, 1) == (0, 1, 1)
    game = position("spider", 2, ["8H", "10S"] + ["KS"] * 8)
    assert best_destination(game, 0, 1) is None


def test_best_destination_spiderette_skips_other_suits() -> None:
    game = position("spiderette", 4, ["2s 8H", "9S", "", "KC", "KD", "KH", "KS"])
    assert best_destination(game, 0, 1) == (0, 2, 1)
    game = position("spiderette", 4, ["8H", "9S", "KD", "KC", "KD", "KH", "KS"])
    assert best_destination(game, 0, 1) is None


def test_best_destination_prefers_nearest_to_the_right() -> None:
    game = position("spider", 1, ["9S", "8S", "KS", "9S"] + ["KS"] * 6)
    assert best_destination(game, 1, 1) == (1, 3, 1)


def test_whole_column_is_not_sent_to_an_empty_one() -> None:
    game = position("spider", 1, ["8S", ""] + ["KS"] * 8)
    assert best_destination(game, 0, 1) is None


def test_export_gives_position_texts_only_on_request() -> None:
    session, _ = started()
    session.handle({"op": "deal"})
    reply = session.handle({"op": "export"})
    game = Game.from_json(reply["saved"])
    assert reply["export"]["position"] == game.to_text()
    assert reply["export"]["start"] == Game.from_code("SP1-S2C-AAAAAAD").to_text()
    assert "export" not in session.handle({"op": "state"})


def test_the_state_carries_the_rule_facts_the_page_needs() -> None:
    session = Session()
    spider = session.handle({"op": "new", "game": "spider", "suits": 2, "number": 3})["state"]
    assert (spider["runs_to_win"], len(spider["columns"]), spider["deal_possible"]) == (8, 10, True)
    spiderette = session.handle({"op": "open", "code": "SD1-S4-AAAAABD"})["state"]
    assert (spiderette["runs_to_win"], len(spiderette["columns"])) == (4, 7)
    # The games the page offers come from the engine: flexible Spider from 2 suits, Spiderette
    # classic only.
    names = [f"{v['game']} {v['suits']} {v['rule']}" for v in spider["variants"]]
    assert names == [
        "spider 1 classic",
        "spider 2 classic",
        "spider 2 flexible",
        "spider 4 classic",
        "spider 4 flexible",
        "spiderette 1 classic",
        "spiderette 2 classic",
        "spiderette 4 classic",
    ]
    # Dealt out: no deal is possible, now or later.
    session.handle({"op": "new", "game": "spider", "suits": 1, "number": 3})
    for _ in range(5):
        state = session.handle({"op": "deal"})["state"]
    assert (state["deals_left"], state["deal_possible"]) == (0, False)
