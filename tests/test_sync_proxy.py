"""``spider build-site --sync URL``: the page offers sync, and nginx and Caddy, with the
configurations it writes, pass ``/api/sync`` on to a running sync service."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import httpx
import pytest

from spider.serve.app import create_app
from spider.serve.site import SiteError, build_site
from spider.serve.sync import MAX_BLOB_BYTES, SyncService
from spider.serve.syncstore.sqlite import SqliteStore
from tests import static_host
from tests.serve_thread import uvicorn_in_thread
from tests.sync_fixtures import new_key

HOSTS: dict[str, Callable[[Path, Path], AbstractContextManager[str]]] = {
    "nginx": static_host.nginx,
    "caddy": static_host.caddy,
}


@pytest.fixture(scope="module")
def sync_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A sync service on SQLite (uvicorn, as spider serve runs it) and a site built for it."""
    directory = tmp_path_factory.mktemp("sync-site")
    sync = SyncService(SqliteStore(directory / "sync.sqlite3"))
    with uvicorn_in_thread(create_app(sync=sync)) as port:
        upstream = f"http://127.0.0.1:{port}"
        yield build_site(directory / "site", sync_url=upstream + "/").directory, upstream
    sync.store.close()


def test_a_static_host_passes_sync_on_to_the_service(
    sync_site: tuple[Path, str], tmp_path: Path
) -> None:
    site, _ = sync_site
    for host in sorted(HOSTS):
        with HOSTS[host](site, tmp_path / host) as base:
            _sync_through(base)


def _sync_through(base: str) -> None:
    url = f"/api/sync/{new_key()}"
    largest = base64.urlsafe_b64encode(b"x" * MAX_BLOB_BYTES).decode().rstrip("=")
    with httpx.Client(base_url=base) as client:
        page = client.get("/").text
        assert '<meta name="spider-sync" content="/api/sync">' in page
        assert '<meta name="spider-start" content="">' in page
        assert client.get("/api/sync").json() == {"sync": 1, "maxBlobBytes": MAX_BLOB_BYTES}
        assert client.get(url).json()["error"]["code"] == "not-found"
        assert client.put(url, json={"rev": 0, "data": "AAAA"}).json() == {"rev": 1}
        stale = client.put(url, json={"rev": 0, "data": "AAAA"})
        assert (stale.status_code, stale.json()["rev"]) == (409, 1)
        # The largest blob passes the host's body limit; the service refuses a larger one.
        assert client.put(url, json={"rev": 1, "data": largest}).json() == {"rev": 2}
        over = client.put(url, json={"rev": 2, "data": largest + "AAAA"})
        assert over.json()["error"]["code"] == "too-large"
        answer = client.get(url)
        assert answer.json()["rev"] == 2
        assert answer.headers.get_list("cache-control") == ["no-store"]
        assert len(answer.headers.get_list("content-security-policy")) == 1
        assert client.request("DELETE", url, json={"rev": 2}).status_code == 200
        # Nothing else under /api is passed on.
        assert client.get("/api/other").status_code == 404


def test_without_sync_the_page_offers_none(tmp_path: Path) -> None:
    site = static_host.shared_build(tmp_path.parent.parent)
    page = (site / "public" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="spider-sync" content="">' in page
    assert "/api/sync" not in (site / "nginx" / "spider-locations.conf").read_text()
    assert "/api/sync" not in (site / "Caddyfile").read_text()


@pytest.mark.parametrize(
    "url", ["ftp://host", "http://host/path", "http://host:80/api", "host:8000", 'http://a"b']
)
def test_a_sync_address_that_is_not_scheme_host_port_is_refused(url: str, tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="sync service's address must look like"):
        build_site(tmp_path / "out", sync_url=url)
    assert not (tmp_path / "out").exists()
