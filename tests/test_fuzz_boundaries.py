"""Fuzzing the boundaries with mutated real inputs (a short run; ``scripts/fuzz_boundaries.py``
runs the same checks for as long as asked).

Real requests, saved games, position texts and codes are mutated (numbers swapped for huge ones,
floats, booleans, NaN or text; keys dropped; deep nesting; cut short; non-ASCII look-alikes), and
each answer is checked: ``handle_json`` always replies with a documented code and leaves the
session as it was when it refuses; ``from_json``, ``from_text`` and ``parse_code`` raise nothing
but the documented ``ValueError`` family, and what they read writes back the same.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scripts.fuzz_boundaries import (
    check_code,
    check_position,
    check_request,
    check_saved,
    mutate_code,
    mutate_position,
    mutate_request,
    mutate_saved,
    seeds,
)


def fuzz(examples: int) -> settings:
    """A fixed number of examples, the same ones each run (``derandomize``), no time limit."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )


# Each example's mutations come from a seeded generator: one draw per example keeps Hypothesis's
# own cost small, and a failure prints the seed that reproduces it.
RANDOMS = st.integers(min_value=0, max_value=2**32 - 1).map(random.Random)


def pick(kind: str) -> st.SearchStrategy[str]:
    return st.sampled_from(seeds()[kind])


@fuzz(700)
@given(pick("request"), RANDOMS, st.booleans())
def test_every_request_gets_a_documented_reply(
    request: str, rng: random.Random, with_game: bool
) -> None:
    text = mutate_request(rng, request)
    assert check_request(text, with_game).finding is None, text[:500]


@fuzz(500)
@given(pick("saved"), RANDOMS)
def test_saved_games_load_or_raise_value_error(saved: str, rng: random.Random) -> None:
    text = mutate_saved(rng, saved)
    assert check_saved(text).finding is None, text[:500]


@fuzz(800)
@given(pick("position"), RANDOMS)
def test_positions_read_or_raise_invalid_position(position: str, rng: random.Random) -> None:
    text = mutate_position(rng, position)
    assert check_position(text).finding is None, text[:500]


@fuzz(400)
@given(pick("code"), RANDOMS)
def test_codes_read_or_raise_invalid_code(code: str, rng: random.Random) -> None:
    text = mutate_code(rng, code)
    assert check_code(text).finding is None, text[:500]
