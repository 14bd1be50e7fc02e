"""requirements.lock pins every dependency of pyproject.toml, within its range, and make
installs from it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([A-Za-z0-9_.+!\-]+)", line)
        assert match, f"not an exact pin: {line!r}"
        found[canonicalize_name(match[1])] = match[2]
    return found


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in project["optional-dependencies"]["dev"]]
    locked = pins()
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement.name} is not in requirements.lock (make lock)"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"{requirement.name}=={locked[name]} is outside {requirement.specifier}"
        )


def test_make_installs_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet --python $(BIN)/python $(TORCH_WHEELS) -r requirements.lock" in (
        makefile
    )
    assert "pip install --quiet --python $(BIN)/python --no-deps -e ." in makefile
