"""The web app's modules that need no page (the sync key and its encryption) under Node's test
runner: ``tests/node/*.test.mjs``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

NODE_TESTS = sorted((Path(__file__).resolve().parent / "node").glob("*.test.mjs"))


@pytest.mark.parametrize("script", NODE_TESTS, ids=lambda p: p.name)
def test_node(script: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("no node on PATH: run `make setup`", pytrace=False)
    done = subprocess.run(
        [node, "--test", str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
