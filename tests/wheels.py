"""What a user installs, built once per test run: ``scripts/build_wheels.py`` (``make wheels``)
into the run's own directory (shared by the xdist workers, like the static site), and a fresh
virtual environment with ``spider-solitaire[web]`` installed from it."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
#: uv, pinned by the Makefile and installed beside the test's Python.
UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or "uv"


def shared_dist(basetemp: Path) -> Path:
    """The built wheels and sdist, made once for the whole run (``basetemp``: pytest's base
    temporary directory)."""
    base = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    dist = base / "dist"
    with (base / "dist.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (dist / "BUILT").is_file():
            shutil.rmtree(dist, ignore_errors=True)
            run([sys.executable, str(ROOT / "scripts" / "build_wheels.py"), "--out", str(dist)])
            (dist / "BUILT").touch()
    return dist


def clean_env() -> dict[str, str]:
    """The environment of a user's shell: nothing that points into the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPIDER_", "PYTHON"))}
    env.pop("VIRTUAL_ENV", None)
    return env


def run(command: list[str], cwd: Path | None = None) -> str:
    """Run ``command``; its standard output, or fail with its standard error."""
    proc = subprocess.run(
        command, cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=300, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def install(dist: Path, venv: Path, requirement: str) -> Path:
    """A fresh virtual environment with ``requirement`` installed offline from ``dist`` and the
    locked versions (uv's cache holds them since ``make setup``); its ``bin``."""
    run([UV, "venv", "--quiet", "--python", sys.executable, str(venv)])
    python = venv / "bin" / "python"
    options = ["--quiet", "--offline", "--python", str(python), "--find-links", str(dist)]
    run([UV, "pip", "install", *options, "--constraint", str(LOCK), requirement])
    return venv / "bin"
