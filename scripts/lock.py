#!/usr/bin/env python3
"""Write ``requirements.lock``: every package ``pip install -e '.[dev]'`` brings, pinned (``==``).

``make`` installs from the lock (then the project itself with ``--no-deps``), so every machine
gets the same versions. Run ``make lock`` after changing the dependencies in ``pyproject.toml``:
it installs them into a throwaway virtual environment and freezes it.

Usage: ``python3 scripts/lock.py [--python PYTHON]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
HEADER = (
    "# Pinned by scripts/lock.py (make lock) from pyproject.toml's [dev] extra.\n"
    "# make installs from this file; edit pyproject.toml and run `make lock` instead.\n"
)


def freeze(python: str) -> str:
    """The pinned requirements of ``.[dev]``, installed into a fresh virtual environment."""
    with tempfile.TemporaryDirectory(prefix="lock-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip"]
        subprocess.run([*pip, "install", "--quiet", "-e", f"{ROOT}[dev]"], check=True)
        out = subprocess.run(
            [*pip, "freeze", "--exclude-editable"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    lines = sorted(
        (line for line in out.splitlines() if line and not line.startswith(("#", "-e "))),
        key=str.lower,
    )
    return HEADER + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args(argv)
    LOCK.write_text(freeze(args.python), encoding="utf-8")
    print(f"lock: wrote {LOCK.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
