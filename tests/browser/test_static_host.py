"""The static site (``spider build-site``) served by Debian's nginx and Caddy: played, then
played offline, without one request the host cannot answer.

One page session per server: the app starts from the server with the generated configuration,
is cross-origin isolated (the COOP/COEP headers reach the browser), plays a move; the network
goes away, the page reloads from the service worker's cache and plays another move. No request
may fail (a static host has no ``/start.json``, and serves only the Pyodide files that exist):
neither a response the page, its workers and its service worker received (Playwright's
``response`` events of the context) nor any request the server answered (its access log).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from conftest import PROFILES, PageLog
from playwright.sync_api import Browser, Response
from webapp import SPIDER_2, assert_shows, drag, open_app, wait_ready

from spider import Game
from tests import static_host

pytestmark = pytest.mark.browser

SERVERS: dict[str, Callable[[Path, Path], AbstractContextManager[str]]] = {
    "nginx": static_host.nginx,
    "caddy": static_host.caddy,
}


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_static_site_plays_offline_without_a_failed_request(
    server: str,
    browser: Browser,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    page_log: PageLog,
) -> None:
    site = static_host.shared_build(tmp_path_factory.getbasetemp())
    responses: list[Response] = []
    with SERVERS[server](site, tmp_path / server) as url:
        context = browser.new_context(base_url=url, **PROFILES["desktop"])
        context.on("weberror", lambda web_error: page_log.on_error(web_error.error))
        context.on("response", lambda response: responses.append(response))
        try:
            page = context.new_page()
            game = Game.from_code(SPIDER_2)
            open_app(page, f"/?code={SPIDER_2}")
            assert page.evaluate("() => self.crossOriginIsolated") is True
            assert_shows(page, game)
            drag(page, "desktop", 1, -1, 4)
            game.move(1, 4, 1)
            assert_shows(page, game)
            page.wait_for_function(
                "() => navigator.serviceWorker.ready"
                ".then(() => !!navigator.serviceWorker.controller)",
                timeout=60_000,
            )
            context.set_offline(True)
            page.reload()
            wait_ready(page)
            assert_shows(page, game)  # the game in progress, from the page's storage
            move = next(m for m in game.legal_moves() if m.count == 1 and m.src != 4)
            drag(page, "desktop", move.src, -1, move.dst)
            game.move(move.src, move.dst, 1)
            assert_shows(page, game)
        finally:
            context.close()
    assert page_log.errors == []
    failed = sorted({(r.status, r.url.removeprefix(url)) for r in responses if r.status >= 400})
    assert failed == [], failed
    answered = static_host.answered(tmp_path / server)
    assert sorted({(status, path) for status, path in answered if status >= 400}) == []
    # The service worker's own requests are among both: it caches Pyodide and every language
    # when it installs, where the page (in English) loads only its own.
    from_worker = {r.url.removeprefix(url) for r in responses if r.request.service_worker}
    assert any(path.endswith("/pyodide.asm.wasm") for path in from_worker), sorted(from_worker)
    assert "/locales/ca.js" in from_worker
    assert "/locales/ca.js" in [path for _, path in answered]
