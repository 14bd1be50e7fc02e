"""Fuzz the engine's boundaries with mutated real inputs, and report what gets through.

The inputs start real: protocol requests the web page sends, saved games written by
``Game.to_json`` (with moves, undone moves and removed runs), position texts written by
``Game.to_text`` and game codes.  Each is mutated: numbers swapped for huge ones, floats,
booleans, NaN or text; keys dropped or added; values nested deep; cards swapped or turned;
counters changed; text cut short or sprinkled with non-ASCII look-alikes.  Then:

- ``Session.handle_json`` must answer every request with a JSON reply whose error ``code`` is one
  of the documented codes (never ``internal-error``) with a short message, and a refused request
  must leave the session exactly as it was;
- ``Game.from_json``, ``Game.from_text`` and ``parse_code`` must either read the input or raise
  the documented ``ValueError`` family (``InvalidPosition`` and ``InvalidCode`` with their codes),
  and what they read must write back to the same text.

``tests/test_fuzz_boundaries.py`` runs these checks under Hypothesis within ``make test``; this
script runs them for longer and prints what it tried and found::

    .venv/bin/python scripts/fuzz_boundaries.py --seconds 60 [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from spider import Game, InvalidCode, parse_code  # noqa: E402
from spider.errors import CODE_ERRORS, POSITION_ERRORS, InvalidPosition  # noqa: E402
from spider.limits import MAX_MESSAGE_CHARS  # noqa: E402
from spider.moves import action_from_text  # noqa: E402
from spider.protocol import ERROR_CODES, Session, game_view  # noqa: E402

__all__ = [
    "Result",
    "check_code",
    "check_position",
    "check_request",
    "check_saved",
    "mutate_code",
    "mutate_position",
    "mutate_request",
    "mutate_saved",
    "seeds",
]

WINNABLE = ROOT / "tests" / "golden" / "winnable.json"

# ----------------------------------------------------------------- real inputs


def _played(game: Game, count: int) -> Game:
    """``game`` after ``count`` actions: its first legal move each time, else a deal."""
    for _ in range(count):
        moves = game.legal_moves()
        if moves:
            game.move(*moves[len(game.played) % len(moves)])
        elif game.can_deal:
            game.deal()
        else:
            break
    return game


def _with_runs() -> Game:
    """A 1-suit spider deal of the winnable catalogue, played until runs have left the table,
    with its last two actions undone (so it has a redo list)."""
    deals = json.loads(WINNABLE.read_text(encoding="utf-8"))["spider-1"]["deals"]
    number, line = next(iter(deals.items()))
    game = Game.new("spider", suits=1, number=int(number))
    tokens = line.split()
    for token in tokens[: len(tokens) * 3 // 4]:
        game.push(action_from_text(token))
    game.undo()
    game.undo()
    return game


@cache
def seeds() -> dict[str, tuple[str, ...]]:
    """The real inputs every mutation starts from: requests, saved games, positions, codes."""
    games = [
        _played(Game.from_code("SP1-S2C-AAAAAAD"), 0),
        _played(Game.from_code("SP1-S4F-AAAAAAB"), 25),
        _played(Game.from_code("SD1-S1-AAAAABD", scoring="reveal"), 30),
        _played(Game.from_code("SP1-S1C-AAAAAAD", scoring="reveal", undo_limit=None), 60),
        _with_runs(),
    ]
    positions = [game.to_text() for game in games]
    positions += [game.start_position().to_text() for game in games]
    positions.append(
        positions[1].split(" / ", 1)[0].split(" #")[0] + " / " + positions[1].split(" / ", 1)[1]
    )
    saved = [game.to_json() for game in games]
    codes = ("SP1-S2C-AAAAAAD", "SD1-S4-AAAAABD", "sp1-s4f-zzzzzzz", "SD1-S1-AAAAABD")
    requests: list[dict[str, Any]] = [
        {
            "op": "new",
            "game": "spider",
            "suits": 2,
            "rule": "classic",
            "scoring": "standard",
            "number": 3,
            "undo_limit": 400,
        },
        {
            "op": "new",
            "game": "spiderette",
            "suits": 4,
            "winnable": True,
            "avoid": [1, 2, 3],
            "undo_limit": None,
            "id": "new-2",
        },
        {"op": "open", "code": codes[0], "scoring": "reveal", "undo_limit": 100},
        {"op": "open", "position": positions[1], "undo_limit": 400},
        {"op": "load", "saved": saved[1], "undo_limit": 400},
        {"op": "move", "src": 0, "dst": 3, "count": 1, "id": 6},
        {"op": "auto", "src": 4, "count": 1},
        {"op": "deal"},
        {"op": "undo", "id": 9},
        {"op": "redo"},
        {"op": "restart"},
        {"op": "set", "undo_limit": 100},
        {"op": "state"},
        {"op": "export"},
    ]
    return {
        "request": tuple(json.dumps(request) for request in requests),
        "saved": tuple(saved),
        "position": tuple(positions),
        "code": codes,
    }


# ----------------------------------------------------------------- mutations

_NASTY_NUMBERS: tuple[Any, ...] = (
    2**63,
    -(2**63),
    2**31,
    10**30,
    -1,
    0,
    1,
    7,
    2.0,
    0.5,
    -0.0,
    1e308,
    True,
    False,
    None,
    float("nan"),
    float("inf"),
    float("-inf"),
)
_LOOKALIKES = (
    "\u0662",
    "\u017f",
    "\u0130",
    "\u212a",
    "\uff21",
    "\u00a0",
    "\u200b",
    "\u0301",
    "\U0001f0a1",
    "\ud7ff",
    "#",
    "/",
    "-",
    "=",
)


def _nasty_text(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return ""
    if kind == 1:
        return "".join(rng.choice(_LOOKALIKES) for _ in range(rng.randrange(1, 6)))
    if kind == 2:
        return "9" * rng.choice((10, 19, 400, 4301))
    if kind == 3:
        return "x" * rng.choice((100, 5000, 100_000))
    if kind == 4:
        return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 12)))
    return rng.choice(("SP1-S2C-AAAAAAD", "deal", "ad", "KS", "spider", "null", "#3", "NaN"))


def _nasty_value(rng: random.Random) -> Any:
    kind = rng.randrange(5)
    if kind <= 1:
        return rng.choice(_NASTY_NUMBERS)
    if kind == 2:
        return _nasty_text(rng)
    if kind == 3:
        value: Any = rng.choice((0, "x", None))
        for _ in range(rng.randrange(1, 40)):
            value = [value] if rng.random() < 0.5 else {"k": value}
        return value
    return rng.choice(([], {}, [1, 2], {"op": "new"}))


_GATE_KEYS = frozenset({"op", "format", "version"})


def _random_path(rng: random.Random, value: Any) -> tuple[Any, ...]:
    """A path into a JSON value, each level's children equally likely (so a long list does not
    draw every change to itself)."""
    path: tuple[Any, ...] = ()
    stay = 0.05  # the whole request is replaced rarely; deeper levels more often
    while isinstance(value, (dict, list)) and value and rng.random() >= stay:
        stay = 0.25
        if isinstance(value, dict):
            keys = list(value)
            # The keys that decide what a document is are changed less often, so that most
            # inputs get past them to the fields behind.
            plain = [key for key in keys if key not in _GATE_KEYS]
            key = rng.choice(plain if plain and rng.random() < 0.8 else keys)
        else:
            key = rng.randrange(len(value))
        path += (key,)
        value = value[key]
    return path


def _mutate_tree(
    rng: random.Random, value: Any, strings: Callable[[random.Random, str], str]
) -> Any:
    """One change somewhere in a JSON value: a new value, a dropped or added key, a wrapping,
    or a string changed by ``strings``."""
    root = [value]
    path = _random_path(rng, value)
    parent: Any = root
    key: Any = 0
    for step in path:
        parent, key = parent[key], step
    kind = rng.randrange(5)
    if kind == 0 and isinstance(parent, (dict, list)) and path:
        del parent[key]
    elif kind == 1 and isinstance(parent[key], dict):
        parent[key][_nasty_text(rng)[:20] or "op"] = _nasty_value(rng)
    elif kind == 2 and isinstance(parent[key], str):
        parent[key] = strings(rng, parent[key])
    elif kind == 3:
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"x": parent[key]}
    else:
        parent[key] = _nasty_value(rng)
    return root[0]


def _mutate_chars(rng: random.Random, text: str) -> str:
    """A change to the raw text: cut short, a look-alike inserted, a slice doubled."""
    if not text:
        return _nasty_text(rng)
    at = rng.randrange(len(text) + 1)
    kind = rng.randrange(3)
    if kind == 0:
        return text[:at]
    if kind == 1:
        return text[:at] + rng.choice(_LOOKALIKES) + text[at:]
    end = min(len(text), at + rng.randrange(1, 40))
    return text[:end] + text[at:]


def _dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True, ensure_ascii=False)


def mutate_request(rng: random.Random, text: str) -> str:
    """A real request, changed one to three times."""
    value = json.loads(text)
    for _ in range(rng.randrange(1, 4)):
        value = _mutate_tree(rng, value, _mutate_string_field)
    out = _dumps(value)
    return _mutate_chars(rng, out) if rng.random() < 0.15 else out


def _mutate_string_field(rng: random.Random, text: str) -> str:
    if " / " in text:
        return mutate_position(rng, text)
    if text.startswith("{"):
        return mutate_saved(rng, text)
    return mutate_code(rng, text) if rng.random() < 0.5 else _mutate_chars(rng, text)


def mutate_saved(rng: random.Random, text: str) -> str:
    """A real saved game, changed one to three times (its position texts and actions too).

    Half the time its optional ``position`` and ``code`` fields go first, so that a changed
    start or action list is read to the end instead of failing their cross-check."""
    if rng.random() < 0.5:
        document = json.loads(text)
        document.pop("position", None)
        document.pop("code", None)
        text = json.dumps(document)
    return mutate_request(rng, text)


def mutate_position(rng: random.Random, text: str) -> str:
    """A real position text, changed one to three times: tokens replaced, dropped, swapped or
    turned face up or down, counters and deal number changed, text cut or sprinkled."""
    tokens = text.split(" ")
    for _ in range(rng.randrange(1, 4)):
        if not tokens:
            tokens = [_nasty_text(rng)]
        at = rng.randrange(len(tokens))
        kind = rng.randrange(8)
        token = tokens[at]
        if kind == 0:
            tokens[at] = _nasty_text(rng)
        elif kind == 1 and len(tokens) > 1:
            del tokens[at]
        elif kind == 2:
            other = rng.randrange(len(tokens))
            tokens[at], tokens[other] = tokens[other], token
        elif kind == 3:
            tokens[at] = token.swapcase()
        elif kind == 4:
            name = rng.choice(("score", "moves"))
            number = rng.choice((0, 1, -1, 499, 500, 501, 10**9, 99999, rng.randrange(-999, 2000)))
            tokens = [f"{name}={number}" if t.startswith(f"{name}=") else t for t in tokens]
        elif kind == 5:
            number = rng.choice((0, 3, 4, 8031810175, 8031810176, rng.randrange(0, 10**6)))
            tokens = [f"#{number}" if t.startswith("#") else t for t in tokens]
        elif kind == 6:
            tokens[at] = rng.choice(
                ("removed=SSSSSSS", "removed=-", "removed=H", "removed=SSSSSSSSS")
            )
        else:
            return _mutate_chars(rng, " ".join(tokens))
    return " ".join(tokens)


def mutate_code(rng: random.Random, text: str) -> str:
    """A real game code with one character changed, inserted, dropped, or cased oddly."""
    if not text:
        return _nasty_text(rng)
    at = rng.randrange(len(text))
    kind = rng.randrange(4)
    if kind == 0:
        return text[:at] + rng.choice((*_LOOKALIKES, "0", "3", "Z", "-")) + text[at + 1 :]
    if kind == 1:
        return text[:at] + text[at + 1 :]
    if kind == 2:
        return text.lower() if rng.random() < 0.5 else " " + text + "\n"
    return _mutate_chars(rng, text)


# ----------------------------------------------------------------- checks


def _session_state(session: Session) -> object:
    game = session.game
    return None if game is None else (game.to_json(), game_view(game))


def _strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"reply holds {name}")

    return json.loads(text, parse_constant=refuse)


@cache
def _game_in_play() -> Game:
    return Game.from_json(seeds()["saved"][4], undo_limit=None)


class Result(NamedTuple):
    """What a check saw: ``finding`` says what is wrong (None when nothing is), ``outcome`` is
    ``read`` or the error code the input was refused with."""

    finding: str | None
    outcome: str


def _raised(where: str, error: Exception) -> Result:
    return Result(f"{where} raised {type(error).__name__}: {str(error)[:80]}", "raised")


def check_request(text: str, with_game: bool) -> Result:
    """How the answer to ``text`` is wrong, sent to a new session or (``with_game``) to one
    playing a game with runs removed and a redo list."""
    session = Session()
    if with_game:
        session.game = _game_in_play().copy()
    before = _session_state(session)
    try:
        reply = _strict_json(session.handle_json(text))
    except Exception as error:
        return _raised("handle_json", error)
    if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
        return Result("reply without a boolean 'ok'", "?")
    if reply["ok"]:
        return Result(None if "state" in reply else "ok reply without a state", "read")
    refusal = reply.get("error") or {}
    code, message = refusal.get("code"), refusal.get("message")
    if code not in ERROR_CODES or code == "internal-error":
        return Result(f"error code {code!r}: {str(message)[:80]}", str(code))
    if not isinstance(message, str) or len(message) > MAX_MESSAGE_CHARS:
        return Result(f"error message of {len(str(message))} characters", code)
    if _session_state(session) != before:
        return Result(f"refused request ({code}) changed the session", code)
    return Result(None, code)


def _short_enough(error: ValueError, code: str, limit: int = MAX_MESSAGE_CHARS) -> Result:
    return Result(None if len(str(error)) <= limit else "long message", code)


def check_saved(text: str) -> Result:
    """How ``Game.from_json`` reads ``text`` wrongly: only ``ValueError``, and what it reads
    writes back the same."""
    try:
        game = Game.from_json(text)
    except ValueError as error:
        # The message quotes the position's own error after the field: allow both.
        return _short_enough(error, "refused", 2 * MAX_MESSAGE_CHARS)
    except Exception as error:
        return _raised("from_json", error)
    again = game.to_json()
    same = Game.from_json(again).to_json() == again
    return Result(None if same else "saved game does not round-trip", "read")


def check_position(text: str) -> Result:
    """How ``Game.from_text`` reads ``text`` wrongly: only ``InvalidPosition`` with a documented
    code, and what it reads writes back the same."""
    try:
        game = Game.from_text(text)
    except InvalidPosition as error:
        if error.code not in POSITION_ERRORS:
            return Result(f"position error code {error.code!r}", str(error.code))
        return _short_enough(error, error.code)
    except Exception as error:
        return _raised("from_text", error)
    again = game.to_text()
    same = Game.from_text(again).to_text() == again
    return Result(None if same else "position does not round-trip", "read")


def check_code(text: str) -> Result:
    """How ``parse_code`` reads ``text`` wrongly: only ``InvalidCode`` with a documented code,
    and never a code with non-ASCII characters."""
    try:
        parse_code(text)
    except InvalidCode as error:
        if error.code not in CODE_ERRORS:
            return Result(f"code error code {error.code!r}", str(error.code))
        return _short_enough(error, error.code)
    except Exception as error:
        return _raised("parse_code", error)
    return Result(None if text.isascii() else "a non-ASCII code was read", "read")


# ----------------------------------------------------------------- the long run


def fuzz_once(rng: random.Random) -> tuple[str, Result, str]:
    """One mutated input of a random kind, checked: (kind, result, input)."""
    kind = rng.choice(("request", "request+game", "saved", "position", "code"))
    pool = seeds()["request" if kind.startswith("request") else kind]
    text = rng.choice(pool)
    if kind.startswith("request"):
        text = mutate_request(rng, text)
        return kind, check_request(text, with_game=kind.endswith("game")), text
    if kind == "saved":
        text = mutate_saved(rng, text)
        return kind, check_saved(text), text
    if kind == "position":
        text = mutate_position(rng, text)
        return kind, check_position(text), text
    text = mutate_code(rng, text)
    return kind, check_code(text), text


def main(argv: list[str] | None = None) -> int:
    """Fuzz for ``--seconds``; print the inputs tried per kind, how they ended, and every
    finding.  Exit status 1 when something was found."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default: 60)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    seeds()
    outcomes: dict[str, Counter[str]] = {}
    findings: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], str] = {}
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        kind, result, text = fuzz_once(rng)
        outcomes.setdefault(kind, Counter())[result.outcome] += 1
        if result.finding is not None:
            findings[kind, result.finding] += 1
            examples.setdefault((kind, result.finding), text[:300])
    elapsed = time.monotonic() - started
    total = sum(sum(counter.values()) for counter in outcomes.values())
    print(f"seed {seed}: {total:,} inputs in {elapsed:.1f}s ({total / elapsed:,.0f}/s)")
    for kind, counter in sorted(outcomes.items()):
        ends = ", ".join(f"{outcome} {count:,}" for outcome, count in counter.most_common())
        print(f"  {kind:13s} {sum(counter.values()):7,} tried: {ends}")
    if not findings:
        print("found nothing: every input was read or refused as documented")
        return 0
    for (kind, finding), count in findings.most_common():
        print(f"FOUND {count}x {kind}: {finding}\n  e.g. {examples[kind, finding]!r}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
