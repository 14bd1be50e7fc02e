"""Real-browser test harness: the real app on a live uvicorn, Debian's Chromium via Playwright.

Fixtures (every test in this directory is marked ``browser``):

- ``live_server`` (session): the app of :func:`spider.serve.app.create_app` with the vendored
  Pyodide, served by uvicorn in a background thread on a free loopback port; test-only pages of
  ``tests/browser/pages/`` are served under ``/_test/``. ``live_server.url`` has no trailing slash.
  Its memory snapshot is off, so no page starts the snapshot helper's second Pyodide.
- ``snapshot_server`` (session): the same with the memory snapshot on, as players get it; the
  ``context`` of a test marked ``@pytest.mark.snapshot`` opens this one.
- ``browser`` (session): ``/usr/bin/chromium`` (or ``$SPIDER_CHROMIUM``), headless. Playwright
  never downloads a browser here.
- ``profile``: parametrised over ``phone`` (360x640, mobile, touch, DPR 2) and ``desktop``
  (1280x800); ``landscape`` (640x360, mobile, touch) only where a test asks for it. A test
  that needs only one writes ``@pytest.mark.parametrize("profile", ["desktop"], indirect=True)``.
- ``context`` / ``page``: a fresh browser context (and page) per test, with ``base_url`` set, so
  ``page.goto("/")`` opens the app. Console messages and page errors are kept in ``page_log``.
- ``screenshot(page, suffix="")``: saves ``test-artifacts/screenshots/<test>-<profile>.png``.
- ``wait_engine_ready(page, timeout=60_000)``: waits for
  ``document.documentElement.dataset.engine === "ready"`` (fails at once on ``"error"``).
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    sync_playwright,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PAGES = HERE / "pages"
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM = Path(os.environ.get("SPIDER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # WebAssembly stays in V8's baseline compiler (Liftoff): every test's page starts Pyodide in
    # a fresh context, and compiling its hot functions again with TurboFan each time cost more
    # CPU than the faster code saved. The 47 browser tests on 2 cores: 379 s without, 292 s
    # with (one run each, one after the other). Players' browsers are not affected.
    "--js-flags=--liftoff-only",
]
ENGINE_READY_TIMEOUT_MS = 60_000

PROFILES: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 360, "height": 640},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {
        "viewport": {"width": 1280, "height": 800},
        "device_scale_factor": 1,
        "is_mobile": False,
        "has_touch": False,
    },
    # A phone turned sideways: only for the tests that ask for it (indirect parametrisation).
    "landscape": {
        "viewport": {"width": 640, "height": 360},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
DEFAULT_PROFILES = ("desktop", "phone")


#: The longest browser tests (tens of seconds each), run first: with two workers, one of them
#: started last would leave the other idle at the end of the run.
LONGEST_FIRST = (
    "test_app_model.py",
    "test_app_sync.py",
    "test_app_killed.py",
    "test_app_durable.py",
    "test_app_storage.py",
)


def _longest_first(item: pytest.Item) -> int:
    name = Path(str(item.path)).name
    return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
    items.sort(key=_longest_first)  # stable: the order is otherwise unchanged


# ---------------------------------------------------------------- live server


@dataclass
class LiveServer:
    url: str
    pyodide_dir: Path
    pyodide_version: str | None


@contextmanager
def _serve(*, snapshot: bool) -> Iterator[LiveServer]:
    """The app (vendored Pyodide, test pages under ``/_test/``) on uvicorn, in a thread."""
    import uvicorn

    from spider.serve.app import create_app, default_pyodide_dir

    pyodide_dir = default_pyodide_dir()
    if not (pyodide_dir / "pyodide.mjs").is_file():
        pytest.fail(f"no vendored Pyodide in {pyodide_dir}: run `make vendor`", pytrace=False)
    app = create_app(pyodide_dir, extra_static={"_test/": PAGES}, snapshot=snapshot)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", server_header=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="live-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the live server did not start", pytrace=False)
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", pyodide_dir, app.state.pyodide_version)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """The app with its memory snapshot switched off (``snapshot: false`` in ``/engine.json``).

    A page's first visit would otherwise start a second Pyodide in the background to make the
    snapshot, in nearly every test (about 20 s of the browser tests' 7 minutes here). The
    snapshot's own test asks for :func:`snapshot_server` (``@pytest.mark.snapshot``).
    """
    with _serve(snapshot=False) as server:
        yield server


@pytest.fixture(scope="session")
def snapshot_server() -> Iterator[LiveServer]:
    """The app as players get it, memory snapshot on: for tests marked ``snapshot``."""
    with _serve(snapshot=True) as server:
        yield server


# ---------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {CHROMIUM}: run `make browser`", pytrace=False)
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(params=DEFAULT_PROFILES)
def profile(request: pytest.FixtureRequest) -> str:
    """The device profile's name, ``phone`` or ``desktop`` (``landscape`` when asked for)."""
    name: str = request.param
    return name


@dataclass
class PageLog:
    """What the pages of a context said: console messages and uncaught errors."""

    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def on_console(self, message: ConsoleMessage) -> None:
        self.console.append(f"{message.type}: {message.text}")

    def on_error(self, error: Any) -> None:
        self.errors.append(str(error))


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def context(
    request: pytest.FixtureRequest, browser: Browser, profile: str, page_log: PageLog
) -> Iterator[BrowserContext]:
    wants_snapshot = request.node.get_closest_marker("snapshot") is not None
    server: LiveServer = request.getfixturevalue(
        "snapshot_server" if wants_snapshot else "live_server"
    )
    ctx = browser.new_context(base_url=server.url, **PROFILES[profile])
    ctx.on("console", page_log.on_console)
    ctx.on("weberror", lambda web_error: page_log.on_error(web_error.error))
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


# ---------------------------------------------------------------- helpers


def _slug(value: object) -> str:
    return re.sub(r"[^A-Za-z0-9_.]+", "_", str(value)).strip("_") or "x"


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[..., Path]:
    """``screenshot(page, suffix="", full_page=False)`` → the saved PNG's path."""
    node = request.node
    base = getattr(node, "originalname", None) or node.name
    callspec = getattr(node, "callspec", None)
    params: dict[str, Any] = dict(callspec.params) if callspec is not None else {}
    profile_name = params.pop("profile", None)
    parts = [base]
    if profile_name is not None:
        parts.append(str(profile_name))
    parts.extend(_slug(value) for _, value in sorted(params.items()))

    def take(page: Page, suffix: str = "", full_page: bool = False) -> Path:
        name = "-".join([*parts, _slug(suffix)] if suffix else parts)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        # Finite animations (a dialog opening, cards being dealt) are shown finished, so the
        # picture is the settled screen a player sees; infinite ones resume afterwards.
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return take


def wait_engine_ready(page: Page, timeout: float = ENGINE_READY_TIMEOUT_MS) -> None:
    """Wait until the page says its engine is ready; fail at once when it says ``error``."""
    page.wait_for_function(
        "() => ['ready', 'error'].includes(document.documentElement.dataset.engine)",
        timeout=timeout,
    )
    state = page.evaluate("({...document.documentElement.dataset})")
    if state.get("engine") != "ready":
        raise AssertionError(f"the engine failed to start: {state}")


@pytest.fixture(name="wait_engine_ready")
def wait_engine_ready_fixture() -> Callable[..., None]:
    """The :func:`wait_engine_ready` helper, as a fixture."""
    return wait_engine_ready
