"""The model-based player (player.py): seeded random sequences of what a player does, each
step checked against the engine.

``make test`` plays a bounded run at desktop size. A longer run, or another seed, on demand:

    SPIDER_MODEL_SEED=7 SPIDER_MODEL_STEPS=2000 .venv/bin/pytest tests/browser/test_app_model.py

A failure names its seed and step; the same seed replays the same actions.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from player import run
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

SEEDS = [int(s) for s in os.environ.get("SPIDER_MODEL_SEED", "1,2").split(",")]
STEPS = int(os.environ.get("SPIDER_MODEL_STEPS", "70"))


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_player(page: Page, profile: str, seed: int, page_log: Any) -> None:
    log = run(page, profile, seed, STEPS, "SP1-S2F-AAAAAAD")
    assert len(log) == STEPS
    assert not page_log.errors, page_log.errors
