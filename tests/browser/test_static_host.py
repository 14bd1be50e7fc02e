"""The static site (``spider build-site``) served by Debian's nginx: played, then played offline.

One page session: the app starts from nginx with the generated configuration, is
cross-origin isolated (the COOP/COEP headers reach the browser), plays a move; the network goes
away, the page reloads from the service worker's cache and plays another move.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PROFILES, PageLog
from playwright.sync_api import Browser
from webapp import SPIDER_2, assert_shows, drag, open_app, wait_ready

from spider import Game
from tests import static_host

pytestmark = pytest.mark.browser


def test_static_site_on_nginx_plays_offline(
    browser: Browser, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, page_log: PageLog
) -> None:
    site = static_host.shared_build(tmp_path_factory.getbasetemp())
    with static_host.nginx(site, tmp_path / "nginx") as url:
        context = browser.new_context(base_url=url, **PROFILES["desktop"])
        context.on("weberror", lambda web_error: page_log.on_error(web_error.error))
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
