"""``/start.json`` answers anything with the engine's reply or a 400 with a documented code:
arbitrary text, arbitrary JSON, deep nesting, huge numbers, lone surrogates and odd unicode
(the engine's reader refuses what it cannot read; nothing raises, nothing answers 500)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider.protocol import ERROR_CODES
from spider.serve.start import start_reply


def _fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )


def _check_start_reply(text: str) -> None:
    status, body = start_reply(text)
    reply = json.loads(body)
    assert isinstance(reply, dict) and reply["ok"] is (status == 200), (text[:200], reply)
    if status != 200:
        assert status == 400, (text[:200], reply)
        code, message = reply["error"]["code"], reply["error"]["message"]
        assert code in ERROR_CODES and code != "internal-error", (text[:200], reply)
        assert isinstance(message, str) and len(message) <= 300


#: Any characters, lone surrogates included.
ANY_CHARACTER = st.characters(exclude_categories=())
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(ANY_CHARACTER),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(ANY_CHARACTER, max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
START_FIELDS = st.fixed_dictionaries(
    {"op": st.sampled_from(["new", "open", "load", "move", "", None, 1])},
    optional={
        "game": st.sampled_from(["spider", "spiderette", "x"]) | JSON_VALUES,
        "suits": st.integers(-3, 9) | JSON_VALUES,
        "rule": st.sampled_from(["classic", "easy", ""]) | JSON_VALUES,
        "code": st.sampled_from(["SP1-S2C-AAAAAAD", "SD1-S4-AAAAABD", "sp1-s4f-zzzzzzz"])
        | st.text(ANY_CHARACTER, max_size=80)
        | JSON_VALUES,
        "undo_limit": st.integers(-(2**70), 2**70) | JSON_VALUES,
        "scoring": st.sampled_from(["standard", "reveal"]) | JSON_VALUES,
        "id": JSON_VALUES,
    },
)


@_fuzz(300)
@given(st.text(ANY_CHARACTER, max_size=300))
def test_start_answers_any_text_with_400_or_a_game(text: str) -> None:
    _check_start_reply(text)


@_fuzz(300)
@given(START_FIELDS, st.booleans(), st.floats(0.0, 1.0))
def test_start_answers_any_start_request_with_400_or_a_game(
    request: dict[str, object], ascii_only: bool, cut: float
) -> None:
    """Whole requests, and requests cut short (about one in four)."""
    text = json.dumps(request, ensure_ascii=ascii_only)
    if cut < 0.25:
        text = text[: int(len(text) * cut * 4)]
    _check_start_reply(text)


def _nested(depth: int, opener: str, closed: bool) -> str:
    """Arrays or objects nested ``depth`` deep, closed or left open."""
    inner, closer = ("[", "]") if opener == "[" else ('{"a":', "}")
    return inner * depth + ("1" + closer * depth if closed else "")


@_fuzz(150)
@given(
    st.integers(1, 40) | st.integers(900, 4000),
    st.sampled_from(["[", "{"]),
    st.booleans(),
    st.sampled_from(["", '{"op":"new","x":', '{"op":"open","code":']),
)
def test_start_answers_deep_nesting_with_400(
    depth: int, opener: str, closed: bool, prefix: str
) -> None:
    text = prefix + _nested(depth, opener, closed) + ("}" if prefix and closed else "")
    _check_start_reply(text)


ODD_REQUESTS = [
    "[" * 1000,
    "{" * 1000,
    '{"op":"new","a":' + "[" * 900 + "]" * 900 + "}",
    '{"op":"new","suits":' + "9" * 4000 + "}",
    '{"op":"new","suits":1e999}',
    '{"op":"new","suits":NaN}',
    '{"op":"new","id":"\\ud800"}',
    '{"op":"open","code":"\\udfff\\ud800"}',
    '{"op":"new","game":"\u202espider"}',
    '{"op":"open","code":"SP1-S2C-AAAAAA\u0301D"}',
    "\ufeff{}",
    "\x00",
    "",
]


@pytest.mark.parametrize("text", ODD_REQUESTS, ids=range(len(ODD_REQUESTS)))
def test_start_answers_odd_requests_with_400_or_a_game(text: str) -> None:
    _check_start_reply(text)
