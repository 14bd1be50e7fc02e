"""Shared test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionstart(session: object) -> None:
    """Stops at once when the compiled modules beside the sources are older than the sources
    (CPython would import them instead of the edited ``.py`` files): ``make native`` rebuilds
    them, ``make setup`` too."""
    from scripts import build_native

    if build_native.compiled_files() and not build_native.stamp_current():
        import pytest

        pytest.exit(
            "the compiled modules in src/spider are older than their sources: run `make native` "
            "(or `python scripts/build_native.py --pure` to test the pure build)",
            returncode=4,
        )
