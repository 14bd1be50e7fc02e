"""``spider serve`` as a child process with its sync service, for the tests and the benchmark."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

SPIDER = Path(sys.executable).parent / "spider"
START_TIMEOUT = 60.0


def start_serve(port: int, sync_args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """``spider serve`` on ``port`` with ``sync_args`` (``--data-dir D`` or ``--database URL``
    and limits), its output in ``log``; returns once its sync service answers."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [str(SPIDER), "serve", "--port", str(port), *sync_args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"spider serve exited ({process.returncode}): {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/sync", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"spider serve did not answer on port {port}: {log.read_text()}")


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL: the process ends at once, with no shutdown of any kind."""
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, the way a service manager stops it (then SIGKILL if it lingers)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            kill(process)
