""" "Think harder" and the review of a page served with the solver API (``spider serve``): they
answer through ``/api/think`` and ``/api/review``, at the server's speed, and the page starts no
solver worker of its own. (With the API off, as the other browser tests serve the page, they
answer in the worker: ``test_app_review.py`` checks that no request goes to ``/api/``.)"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import PROFILES, LiveServer
from playwright.sync_api import Browser, Page, Request, expect
from test_app_review import HINT_LOSES, play
from webapp import assert_shows, click_action, open_app, position_url

from spider import Game
from spider.moves import Move
from spider.protocol.session import Session
from spider.serve.solver_api import SolverApi

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def api_server() -> Iterator[LiveServer]:
    """The app with its solver API, as ``spider serve`` serves it, on uvicorn in a thread."""
    import uvicorn

    from spider.serve.app import create_app, default_pyodide_dir

    app = create_app(default_pyodide_dir(), snapshot=False, solver=SolverApi())
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", lifespan="off", server_header=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        yield LiveServer(url, default_pyodide_dir(), app.state.pyodide_version)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def served_page(browser: Browser, api_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(base_url=api_server.url, **PROFILES["desktop"])
    try:
        yield context.new_page()
    finally:
        context.close()


def test_think_and_review_answer_through_the_server(served_page: Page) -> None:
    page = served_page
    posts: list[Request] = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request))
    game = Game.from_text(HINT_LOSES)
    open_app(page, position_url(HINT_LOSES))
    assert_shows(page, game)

    # "Think harder": the server is sent what the player sees, and its answer is marked.
    page.keyboard.press("t")
    expect(page.locator("[data-message]")).to_have_text(
        re.compile(r"^Think harder: try .+ to column \d+\."), timeout=30_000
    )
    page.wait_for_function("() => document.querySelectorAll('.card.hinted').length > 0")
    (think,) = posts
    assert think.url.endswith("/api/think")
    sent: dict[str, Any] = json.loads(think.post_data or "{}")
    session = Session()
    session.handle({"op": "open", "position": HINT_LOSES})
    assert sent == {"visible": session.handle({"op": "visible"})["visible"], "time_limit": 5}
    assert "saved" not in sent

    # The review, after two moves that lose the game.
    play(page, "desktop", game, Move(3, 1, 1))
    play(page, "desktop", game, game.legal_moves()[0])
    click_action(page, "review")
    dialog = page.locator("#dlg-review")
    dialog.locator('[data-action="review-start"]').click()
    expect(dialog).to_have_attribute("data-phase", "result", timeout=60_000)
    expect(dialog).to_have_attribute("data-status", "lost")
    expect(dialog).to_have_attribute("data-losing", "1")
    expect(dialog.locator("[data-review-text]")).to_contain_text("lost at move 1")
    assert [request.url.rsplit("/", 2)[-2:] for request in posts] == [
        ["api", "think"],
        ["api", "review"],
    ]
    # No solver worker was started: both answers came from the server.
    assert page.evaluate("document.documentElement.dataset.solverStarts") is None
