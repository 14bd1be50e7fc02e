"""The vendored Pyodide runs in Chromium under the app's CSP, in a page and in a module worker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from spider.serve.app import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PYODIDE_TIMEOUT_MS = 90_000


def run_smoke(page: Page, mode: str) -> dict[str, Any]:
    response = page.goto(f"/_test/smoke.html?mode={mode}")
    assert response is not None and response.ok
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    # A function, not an expression: Playwright evals expressions in the page; the CSP refuses.
    page.wait_for_function(
        "() => ['result', 'error'].some((key) => key in document.documentElement.dataset)",
        timeout=PYODIDE_TIMEOUT_MS,
    )
    data = page.evaluate("({...document.documentElement.dataset})")
    assert "error" not in data, data["error"]
    assert "csp" not in data, f"CSP violations: {data['csp']}"
    result: dict[str, Any] = json.loads(data["result"])
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"pyodide-start-{mode}.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_pyodide_runs_in_page(page: Page, record_property: Any) -> None:
    result = run_smoke(page, "page")
    assert result["result"] == 2
    assert result["python"].startswith("3.")
    record_property("pyodide_start_ms", round(result["ms"]))


@pytest.mark.parametrize("profile", ["desktop"], indirect=True)
def test_pyodide_and_engine_run_in_module_worker(page: Page, record_property: Any) -> None:
    result = run_smoke(page, "worker")
    assert result["result"] == 2
    reply = result["reply"]
    assert reply["ok"] is True, reply
    assert reply["state"]["game"] == "spider"
    assert len(reply["state"]["columns"]) == 10
    record_property("pyodide_start_ms", round(result["ms"]))


def test_app_page_headers_and_screenshot(page: Page, screenshot: Any, profile: str) -> None:
    response = page.goto("/")
    assert response is not None and response.status == 200
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert headers["x-frame-options"] == "DENY"
    assert headers["cache-control"] == "no-cache"
    # Until a first table is painted the table is bare: no stock badge (an empty badge once
    # showed as a yellow dash) and no share button without a code.
    engine, painted, badge, share = page.evaluate(
        "() => [document.documentElement.dataset.engine,"
        " document.querySelectorAll('[data-column] > [data-face]').length > 0,"
        " document.querySelector('[data-stock] .stock-count').getBoundingClientRect().height,"
        " getComputedStyle(document.querySelector('[data-action=share]')).visibility]"
    )
    assert engine != "ready"  # Pyodide takes seconds to start; this runs in milliseconds
    assert (badge > 0, share) == ((True, "visible") if painted else (False, "hidden"))
    # A first visit: the server's engine deals the table, painted before the worker is ready.
    page.wait_for_function(
        "() => ['spider:first-table', 'spider:engine-ready']"
        ".every((name) => performance.getEntriesByName(name).length)",
        timeout=60_000,
    )
    first_table, engine_ready = page.evaluate(
        "() => ['spider:first-table', 'spider:engine-ready']"
        ".map((name) => performance.getEntriesByName(name)[0].startTime)"
    )
    assert first_table < engine_ready
    path = screenshot(page, "loaded")
    assert path.name == f"test_app_page_headers_and_screenshot-{profile}-loaded.png"
    assert path.stat().st_size > 0
