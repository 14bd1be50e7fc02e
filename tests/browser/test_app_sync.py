"""Sync across devices as players use it: two browser contexts are two devices, on a real
``spider serve`` process with its real SQLite database (started here, so that it can be killed
and started again). Nothing is mocked: the engine merges, the browser encrypts.

- A wins a game and plays another, turns sync on; B types A's key (as a person would: lower
  case, no dashes) and shows A's game and statistics; both play offline, come back, and each
  shows the sum, nothing lost.
- B joins by the link of A's QR code (asked first, the key taken off the address bar); mistyped
  keys are refused in words; the server killed while A syncs loses nothing it acknowledged and A
  catches up by itself; a blob the key does not open is refused in words and changes nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import PROFILES, PageLog
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from test_app_a11y import audit
from test_app_games import nearly_won_deal
from webapp import (
    SPIDERETTE_4,
    assert_shows,
    click_action,
    drag,
    seed_storage,
    settle,
    wait_ready,
)

from spider import Game
from spider.moves import Move

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SPIDER = Path(sys.executable).with_name("spider")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SYNCED_MS = 30_000
# Changes not sent yet, and already encrypted, ready to go if the page goes.
READY_TO_SEND = (
    "() => { const d = document.documentElement.dataset;"
    " return d.syncPending === '1' && d.syncReady === '1'; }"
)


# ---------------------------------------------------------------- the server, as a process


@dataclass
class SyncServer:
    """``spider serve`` on a fixed port and data directory, killed and started at will."""

    port: int
    data: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        # Its output goes to a file: a pipe nobody reads would stop the server once full.
        with (self.data / "serve.log").open("ab") as log:
            self.process = subprocess.Popen(
                [str(SPIDER), "serve", "--port", str(self.port), "--data-dir", str(self.data)],
                cwd=REPO,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (self.data / "serve.log").read_text(errors="replace")[-2000:]
                pytest.fail(f"spider serve exited: {err}", pytrace=False)
            try:
                with urllib.request.urlopen(f"{self.url}/api/sync", timeout=2) as response:
                    assert json.load(response)["sync"] == 1
                    return
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        pytest.fail("spider serve did not answer /api/sync", pytrace=False)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was acknowledged must be on disk already."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def blob(self, sync_id: str) -> dict[str, object]:
        with urllib.request.urlopen(f"{self.url}/api/sync/{sync_id}", timeout=5) as response:
            data: dict[str, object] = json.load(response)
            return data

    def put(self, sync_id: str, rev: int, data: str) -> int:
        body = json.dumps({"rev": rev, "data": data}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/sync/{sync_id}",
            data=body,
            method="PUT",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            new_rev: int = json.load(response)["rev"]
            return new_rev


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def sync_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncServer]:
    server = SyncServer(_free_port(), tmp_path_factory.mktemp("sync-data"))
    server.start()
    try:
        yield server
    finally:
        if server.process is not None:
            server.process.terminate()
            server.process.wait(timeout=10)


@pytest.fixture
def devices(
    browser: Browser, sync_server: SyncServer, page_log: PageLog
) -> Iterator[list[BrowserContext]]:
    """Two devices: fresh browser contexts (desktop size) on the sync server."""
    made = []
    for _ in range(2):
        ctx = browser.new_context(base_url=sync_server.url, **PROFILES["desktop"])
        ctx.on("weberror", lambda web_error: page_log.on_error(web_error.error))
        made.append(ctx)
    try:
        yield made
    finally:
        for ctx in made:
            ctx.close()


# ---------------------------------------------------------------- what a player does


def sync_id(key: str) -> str:
    """The server id of a key, derived as docs/sync.md says (HKDF-SHA256, RFC 5869)."""
    bits = "".join(f"{CROCKFORD.index(c):05b}" for c in key.replace("-", ""))
    raw = int(bits[:128], 2).to_bytes(16, "big")
    prk = hmac.new(b"spider-sync-v1", raw, hashlib.sha256).digest()
    return hmac.new(prk, b"id\x01", hashlib.sha256).hexdigest()


def open_sync(page: Page) -> Locator:
    click_action(page, "settings")
    page.locator('[data-action="sync-open"]').click()
    dialog = page.locator("#dlg-sync")
    expect(dialog).to_be_visible()
    return dialog


def close_dialog(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)


def wait_synced(page: Page, after: int = -1) -> int:
    """Waits until the page has synced everything it changed (after the sync at ``after``);
    returns the time of that sync."""
    page.wait_for_function(
        "(after) => { const d = document.documentElement.dataset;"
        " return d.sync === 'ok' && d.syncPending === '0' && Number(d.syncAt) > after; }",
        arg=after,
        timeout=SYNCED_MS,
    )
    return int(page.evaluate("() => Number(document.documentElement.dataset.syncAt)"))


def sync_now(page: Page) -> None:
    """Sync now (the dialog's button), waiting for it to end."""
    before = int(page.evaluate("() => Number(document.documentElement.dataset.syncAt || 0)"))
    dialog = open_sync(page)
    dialog.locator('[data-action="sync-now"]').click()
    wait_synced(page, before)
    close_dialog(page)


def expect_totals(page: Page, played: int, won: int) -> None:
    click_action(page, "stats")
    dialog = page.locator("#dlg-stats")
    expect(dialog).to_have_attribute("data-stats-key", "all")
    expect(dialog.locator('[data-stat="played"]')).to_have_text(str(played))
    expect(dialog.locator('[data-stat="won"]')).to_have_text(str(won))
    close_dialog(page)


def play_a_move(page: Page, game: Game) -> None:
    move = next(m for m in game.legal_moves() if isinstance(m, Move))
    settle(page)
    drag(page, "desktop", move.src, -move.count, move.dst)
    game.push(move)
    assert_shows(page, game)


def open_code(page: Page, code: str) -> Game:
    click_action(page, "new")
    page.locator("#code-input").fill(code)
    page.keyboard.press("Enter")
    game = Game.from_code(code)
    assert_shows(page, game)
    return game


def abandon(page: Page) -> None:
    """Leaves the game in progress for another deal (the suits button): played, not won."""
    code = page.locator("[data-code]").inner_text()
    page.locator('[data-action="suits"]').click()
    page.locator('#dlg-confirm [data-action="confirm-ok"]').click()
    expect(page.locator("[data-code]")).not_to_have_text(code)


def win_and_play_on(page: Page) -> Game:
    """Wins a nearly won deal, then opens a 4-suit Spiderette deal and plays one move."""
    _, last, entry = nearly_won_deal()
    seed_storage(page, {"spider:game": entry})
    page.goto("/")
    wait_ready(page)
    settle(page)
    drag(page, "desktop", last.src, -last.count, last.dst)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    win.locator('button[value="close"]').click()
    game = open_code(page, SPIDERETTE_4)
    play_a_move(page, game)
    return game


def turn_on(page: Page, origin: str) -> str:
    dialog = open_sync(page)
    expect(dialog.locator("[data-sync-status]")).to_have_text("Sync is off on this device.")
    dialog.locator('[data-action="sync-on"]').click()
    key = dialog.locator("[data-sync-key]")
    expect(key).to_have_text(re.compile(r"^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}(-[0-9A-Z]{5}){2}$"))
    wait_synced(page)
    expect(dialog.locator("[data-sync-status]")).to_contain_text("Last synced:")
    # The QR code holds the link that joins this sync.
    qr = dialog.locator("[data-sync-qr]")
    expect(qr.locator("path")).to_have_count(1)
    text = key.inner_text()
    assert qr.get_attribute("data-link") == f"{origin}/#sync={text}"
    close_dialog(page)
    return text


def type_key(page: Page, typed: str) -> Locator:
    dialog = open_sync(page)
    dialog.locator("[data-sync-input]").fill(typed)
    dialog.locator('[data-action="sync-join"]').click()
    return dialog


# ---------------------------------------------------------------- the tests


def test_two_devices_share_a_game_and_add_up_their_statistics(
    devices: list[BrowserContext], sync_server: SyncServer, page_log: PageLog
) -> None:
    a, b = (ctx.new_page() for ctx in devices)
    b.goto("/")  # B starts its own engine meanwhile, with a game of its own
    game = win_and_play_on(a)
    wait_ready(b)
    key = turn_on(a, sync_server.url)
    open_sync(a)
    audit(a, "the sync dialog, sync on")
    close_dialog(a)

    # B types the key as a person would: lower case, in threes, with an O for a 0.
    typed = " ".join(key.replace("-", "")[i : i + 3] for i in range(0, 26, 3)).lower()
    dialog = type_key(b, typed.replace("0", "o"))
    wait_synced(b)
    expect(dialog.locator("[data-sync-key]")).to_have_text(key)
    close_dialog(b)
    assert_shows(b, game)  # A's game in progress, the later one
    # A's statistics: the game won, and the game in progress (counted once a move is made).
    expect_totals(b, played=2, won=1)

    # Both play offline: each leaves that game for another deal, a loss on each device (B had not
    # counted it: its slot gains a game).
    for ctx in devices:
        ctx.set_offline(True)
    abandon(a)
    abandon(b)
    for page in (a, b):
        page.wait_for_function("() => document.documentElement.dataset.syncPending === '1'")
    for ctx in devices:
        ctx.set_offline(False)
    wait_synced(a)
    wait_synced(b)
    sync_now(a)  # B may have written after A's sync
    expect_totals(a, played=3, won=1)
    expect_totals(b, played=3, won=1)
    assert not page_log.errors


def test_link_join_wrong_keys_a_killed_server_and_a_blob_the_key_cannot_open(
    devices: list[BrowserContext], sync_server: SyncServer, page_log: PageLog
) -> None:
    a, b = (ctx.new_page() for ctx in devices)
    a.goto("/")
    b.goto("/")
    wait_ready(a)
    wait_ready(b)
    game = Game.from_code(a.locator("[data-code]").inner_text())
    play_a_move(a, game)
    key = turn_on(a, sync_server.url)
    sid = sync_id(key)

    # Mistyped keys are refused in words on B, and B stays off.
    dialog = type_key(b, key[:-1] + "U")
    error = dialog.locator("[data-sync-error]")
    expect(error).to_have_text(
        "“U” cannot be in a sync key: it has only digits and letters (never U)."
    )
    dialog.locator("[data-sync-input]").fill(key[:-2])
    dialog.locator('[data-action="sync-join"]').click()
    expect(error).to_have_text("A sync key has 26 characters; this one has 24.")
    other = key[:5] + ("1" if key[5] != "1" else "2") + key[6:]
    dialog.locator("[data-sync-input]").fill(other)
    dialog.locator('[data-action="sync-join"]').click()
    expect(error).to_contain_text("Nothing is synced under this key")
    expect(dialog).to_have_attribute("data-sync-phase", "off")
    audit(b, "the sync dialog, a key refused")
    close_dialog(b)

    # A leaves its game (played 1); the server is killed as A's sync of it is sent, and A plays
    # another game and leaves it while the server is away (played 2).
    abandon(a)
    a.wait_for_function("() => document.documentElement.dataset.syncPending === '1'")
    with a.expect_request(lambda r: r.method == "PUT" and "/api/sync/" in r.url, timeout=SYNCED_MS):
        pass
    sync_server.kill()
    game = Game.from_code(a.locator("[data-code]").inner_text())
    play_a_move(a, game)
    abandon(a)
    a.wait_for_function(
        "() => ['offline', 'error'].includes(document.documentElement.dataset.sync)",
        timeout=SYNCED_MS,
    )
    # Started again, the server has what it acknowledged, and A catches up by itself.
    sync_server.start()
    wait_synced(a)

    # A move made just before the page is left (long before the next sync) still reaches the
    # server: encrypted as soon as it is made, sent as a keepalive request as the page goes.
    rev = int(str(sync_server.blob(sid)["rev"]))
    game = Game.from_code(a.locator("[data-code]").inner_text())
    play_a_move(a, game)
    # Ready to go (on a slow machine the sync 2 s after the move may even have sent it).
    deadline = time.monotonic() + 10
    while not a.evaluate(READY_TO_SEND):
        if int(str(sync_server.blob(sid)["rev"])) > rev:
            break
        assert time.monotonic() < deadline, (
            "the move was never ready to send: "
            + a.evaluate("JSON.stringify(document.documentElement.dataset)")
            + str(sync_server.blob(sid)["rev"])
        )
        time.sleep(0.05)
    a.close()  # the tab is closed: an encryption begun now could not finish
    deadline = time.monotonic() + 10
    while int(str(sync_server.blob(sid)["rev"])) == rev:
        assert time.monotonic() < deadline, "the change made before closing never arrived"
        time.sleep(0.1)

    # B deals anew (a deal saved after A's last move, on which B plays nothing), then opens the
    # link of A's QR code: asked first, then joined; the key leaves the address bar. A's game in
    # progress wins over a deal nobody played.
    code = b.locator("[data-code]").inner_text()
    click_action(b, "new")
    b.locator('[data-action="deal-new"]').click()
    expect(b.locator("[data-code]")).not_to_have_text(code)
    b.goto(f"/#sync={key.lower()}")
    wait_ready(b)
    confirm = b.locator("#dlg-confirm")
    expect(confirm).to_be_visible()
    expect(confirm.locator("[data-confirm-text]")).to_contain_text("nothing is lost")
    confirm.locator('[data-action="confirm-ok"]').click()
    wait_synced(b)
    assert "#sync" not in b.url
    close_dialog(b)
    assert_shows(b, game)
    expect_totals(b, played=3, won=0)

    # A blob the key cannot open (another key's, or damaged): refused in words, nothing changes.
    rev = int(str(sync_server.blob(sid)["rev"]))
    junk = base64.urlsafe_b64encode(os.urandom(200)).decode().rstrip("=")
    sync_server.put(sid, rev, junk)
    dialog = open_sync(b)
    dialog.locator('[data-action="sync-now"]').click()
    expect(dialog.locator("[data-sync-status]")).to_have_text(
        "This sync key does not match the data stored under it (or that data is damaged). "
        "Nothing on this device was changed."
    )
    close_dialog(b)
    expect_totals(b, played=3, won=0)
    assert_shows(b, game)
    assert not page_log.errors
