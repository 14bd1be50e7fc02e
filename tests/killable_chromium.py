"""Chromium as a child process in a process group of its own, so that a test or a benchmark can
kill the whole browser (SIGKILL) the way a crash or a phone's system would, and start it again
on the same profile directory."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Page, Playwright

from tests.static_host import free_port

#: How long Chromium may take to answer on its debugging port.
START_TIMEOUT_S = 30


class KillableChromium:
    """``chromium`` with ``args`` on ``profile``, driven over the DevTools protocol."""

    def __init__(
        self, pw: Playwright, chromium: Path | str, args: Sequence[str], profile: Path
    ) -> None:
        port = free_port()
        command = [str(chromium), *args, f"--user-data-dir={profile}"]
        command += [f"--remote-debugging-port={port}", "about:blank"]
        self.proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.cdp = pw.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
                break
            except Exception:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.kill()
                    raise
                time.sleep(0.1)

    def new_page(self) -> Page:
        """A new tab in the browser's default context (the profile's)."""
        return self.cdp.contexts[0].new_page()

    def kill(self) -> None:
        """SIGKILL to the whole browser (every process of it), as a crash would."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
