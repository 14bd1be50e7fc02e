"""The sync service's HTTP API in the app (SQLite store): answers, error codes and limits."""

from __future__ import annotations

import base64
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from spider.cli import main
from spider.serve.app import create_app
from spider.serve.rate_limit import Rate, RateLimiter
from spider.serve.sync import MAX_BLOB_BYTES, SyncLimits, SyncService
from spider.serve.syncstore.sqlite import SqliteStore
from tests.serve_thread import uvicorn_in_thread
from tests.sync_fixtures import new_key

B64 = base64.urlsafe_b64encode(b"an encrypted blob").rstrip(b"=").decode()


def service(directory: Path, limits: SyncLimits | None = None) -> SyncService:
    return SyncService(SqliteStore(directory / "sync.sqlite3"), limits)


@pytest.fixture
def sync(tmp_path: Path) -> Iterator[SyncService]:
    opened = service(tmp_path)
    yield opened
    opened.store.close()


@pytest.fixture
def client(sync: SyncService) -> TestClient:
    return TestClient(create_app(sync=sync))


def error_code(response: object) -> str:
    code: str = response.json()["error"]["code"]  # type: ignore[attr-defined]
    return code


def test_the_service_says_it_is_there_and_its_limit(client: TestClient) -> None:
    response = client.get("/api/sync")
    assert response.status_code == 200
    assert response.json() == {"sync": 1, "maxBlobBytes": MAX_BLOB_BYTES}
    assert response.headers["cache-control"] == "no-store"
    assert "content-security-policy" in response.headers


def test_a_blob_is_created_read_replaced_and_deleted(client: TestClient) -> None:
    url = f"/api/sync/{new_key()}"
    assert client.get(url).status_code == 404
    assert error_code(client.get(url)) == "not-found"
    assert client.put(url, json={"rev": 0, "data": B64}).json() == {"rev": 1}
    assert client.get(url).json() == {"rev": 1, "data": B64}
    assert client.put(url, json={"rev": 1, "data": "AAAA"}).json() == {"rev": 2}
    stale = client.put(url, json={"rev": 1, "data": B64})
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "conflict"
    assert (stale.json()["rev"], stale.json()["data"]) == (2, "AAAA")
    assert client.request("DELETE", url, json={"rev": 1}).status_code == 409
    assert client.request("DELETE", url, json={"rev": 2}).status_code == 200
    assert client.get(url).status_code == 404
    gone = client.put(url, json={"rev": 2, "data": B64})
    assert (gone.status_code, error_code(gone)) == (404, "not-found")
    assert client.put(url, json={"rev": 0, "data": B64 + "=="[: -len(B64) % 4]}).json() == {
        "rev": 4
    }


@pytest.mark.parametrize(
    "key", ["A" * 64, "a" * 63, "a" * 65, "g" * 64, "", "a" * 64 + "/x", "..%2f" + "a" * 59]
)
def test_a_key_id_that_is_not_64_lowercase_hex_is_refused(client: TestClient, key: str) -> None:
    for method in ("GET", "PUT", "DELETE"):
        response = client.request(method, f"/api/sync/{key}", json={"rev": 0, "data": B64})
        assert (response.status_code, error_code(response)) == (400, "bad-key"), method


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"not json",
        b"\xff\xfe",
        b"[1, 2]",
        b"[" * 100_000,
        b'{"rev": 0}',
        b'{"data": "AAAA"}',
        b'{"rev": 0, "data": "AAAA", "more": 1}',
        b'{"rev": -1, "data": "AAAA"}',
        b'{"rev": true, "data": "AAAA"}',
        b'{"rev": 1.5, "data": "AAAA"}',
        b'{"rev": "1", "data": "AAAA"}',
        b'{"rev": 99999999999999999999999, "data": "AAAA"}',
        b'{"rev": 0, "data": 12}',
        b'{"rev": 0, "data": null}',
        b'{"rev": 0, "data": "not base64!"}',
        b'{"rev": 0, "data": "AAAAA"}',
        b'{"rev": 0, "data": "AA+/"}',
        b'{"rev": 0, "data": ""}',
    ],
)
def test_a_malformed_write_is_a_bad_request(client: TestClient, body: bytes) -> None:
    response = client.put(f"/api/sync/{new_key()}", content=body)
    assert (response.status_code, error_code(response)) == (400, "bad-request")
    assert response.json()["error"]["message"]


def test_a_malformed_delete_is_a_bad_request(client: TestClient) -> None:
    for body in (b"", b'{"rev": -1}', b'{"rev": 0, "data": "AAAA"}', b"{"):
        response = client.request("DELETE", f"/api/sync/{new_key()}", content=body)
        assert (response.status_code, error_code(response)) == (400, "bad-request")


def test_other_methods_are_refused_with_the_allowed_ones(client: TestClient) -> None:
    for method in ("POST", "PATCH", "OPTIONS"):
        response = client.request(method, f"/api/sync/{new_key()}")
        assert (response.status_code, error_code(response)) == (405, "method-not-allowed")
        assert response.headers["allow"] == "GET, HEAD, PUT, DELETE"
    assert client.put("/api/sync", json={}).status_code == 405
    # Elsewhere the app still takes only GET and HEAD.
    assert client.put("/index.html", content=b"x").status_code == 405


def test_a_blob_over_the_limit_is_too_large(tmp_path: Path) -> None:
    limited = service(tmp_path, SyncLimits(max_blob_bytes=1000))
    client = TestClient(create_app(sync=limited))
    url = f"/api/sync/{new_key()}"
    at_limit = base64.urlsafe_b64encode(b"x" * 1000).decode()
    over = base64.urlsafe_b64encode(b"x" * 1001).decode()
    assert client.put(url, json={"rev": 0, "data": at_limit}).status_code == 200
    response = client.put(url, json={"rev": 1, "data": over})
    assert (response.status_code, error_code(response)) == (413, "too-large")
    assert "1,000 bytes" in response.json()["error"]["message"]
    body = b'{"rev": 1, "data": "' + b"A" * 5000 + b'"}'
    response = client.put(url, content=body)
    assert (response.status_code, error_code(response)) == (413, "too-large")
    limited.store.close()


def _raw(port: int, request: bytes, then: bytes = b"") -> bytes:
    """Send ``request``, then as much of ``then`` as the server takes; the answer's head."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        if then:
            sock.settimeout(0.5)
            try:
                for start in range(0, len(then), 65536):
                    sock.sendall(then[start : start + 65536])
            except OSError:
                pass
            sock.settimeout(10)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_large_body_is_refused_before_it_is_read(sync: SyncService) -> None:
    """By its Content-Length at once, and while it streams in once past the limit."""
    key = new_key()
    with uvicorn_in_thread(create_app(sync=sync)) as port:
        head = (
            f"PUT /api/sync/{key} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        ).encode()
        # A gigabyte announced, none sent: answered at once.
        answer = _raw(port, head + b"Content-Length: 1000000000\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 413 "), answer
        # Chunked, no length: refused once past the limit, while more is still coming.
        chunk = b"%x\r\n%s\r\n" % (65536, b"A" * 65536)
        answer = _raw(port, head + b"Transfer-Encoding: chunked\r\n\r\n", chunk * 200)
        assert answer.startswith(b"HTTP/1.1 413 "), answer
    assert sync.store.get(key) is None


def test_writes_are_rate_limited_per_key_and_per_client(tmp_path: Path) -> None:
    limits = SyncLimits(key_rate=Rate(6, 3), client_rate=Rate(6, 5))
    limited = service(tmp_path, limits)
    client = TestClient(create_app(sync=limited))
    key = new_key()
    for rev in range(3):
        assert client.put(f"/api/sync/{key}", json={"rev": rev, "data": B64}).status_code == 200
    refused = client.put(f"/api/sync/{key}", json={"rev": 3, "data": B64})
    assert (refused.status_code, error_code(refused)) == (429, "rate-limited")
    assert 1 <= int(refused.headers["retry-after"]) <= 10
    assert "to this key id" in refused.json()["error"]["message"]
    # Reads are not limited; another key is, by the client's address (5 writes, 4 taken).
    assert client.get(f"/api/sync/{key}").json()["rev"] == 3
    other = new_key()
    assert client.put(f"/api/sync/{other}", json={"rev": 0, "data": B64}).status_code == 200
    refused = client.put(f"/api/sync/{other}", json={"rev": 1, "data": B64})
    assert (refused.status_code, error_code(refused)) == (429, "rate-limited")
    assert "from this address" in refused.json()["error"]["message"]
    limited.store.close()


def test_a_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(Rate(per_minute=60, burst=2), max_names=2, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 1.0]
    now[0] = 0.5
    assert limiter.take("a") == pytest.approx(0.5)
    now[0] = 1.0
    assert limiter.take("a") == 0.0
    limiter.take("b")
    limiter.take("c")  # "a", the least recently used, is forgotten: full again
    assert limiter.take("a") == 0.0
    assert RateLimiter(Rate(0, 1)).take("x") == 0.0


def test_the_page_learns_of_the_service_from_index_html(client: TestClient, tmp_path: Path) -> None:
    on = '<meta name="spider-sync" content="/api/sync">'
    for path in ("/", "/index.html"):
        page = client.get(path, headers={"accept-encoding": "identity"})
        assert on in page.text
        gzipped = client.get(path, headers={"accept-encoding": "gzip"})
        assert on in gzipped.text
        assert gzipped.headers["cache-control"] == "no-cache"
        etag = page.headers["etag"]
        assert client.get(path, headers={"if-none-match": etag}).status_code == 304
    without = TestClient(create_app())
    page = without.get("/").text
    assert '<meta name="spider-sync" content="">' in page
    assert without.get("/api/sync").status_code == 404


def test_a_failing_database_is_unavailable_not_a_traceback(
    client: TestClient, sync: SyncService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sync.store, "put", broken)
    monkeypatch.setattr(sync.store, "get", broken)
    url = f"/api/sync/{new_key()}"
    for response in (client.get(url), client.put(url, json={"rev": 0, "data": B64})):
        assert (response.status_code, error_code(response)) == (503, "unavailable")
        assert "disk" not in response.text


def test_a_database_that_cannot_be_opened_stops_serve_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    assert main(["serve", "--data-dir", str(tmp_path / "file"), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("spider serve: error: cannot open the sync database")


@pytest.mark.parametrize(
    ("argv", "cannot_go_with"),
    [
        (["--no-sync", "--database", "postgresql://x@y/z"], "--no-sync"),
        (["--no-sync", "--data-dir", "somewhere"], "--no-sync"),
        (["--database", "postgresql://x@y/z", "--data-dir", "somewhere"], "--database"),
    ],
)
def test_sync_options_that_cannot_apply_together_are_refused(
    argv: list[str], cannot_go_with: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot go with {cannot_go_with}" in err
