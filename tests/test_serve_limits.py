"""``spider serve`` holds up: slow, idle and non-reading clients are dropped; bodies go out in
pieces; its options are checked."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import pytest
from starlette.types import Message

from spider.cli import main
from spider.serve.app import create_app
from spider.serve.http_protocol import REQUEST_TIMEOUT_ENV, SEND_TIMEOUT_ENV, TimedHttpToolsProtocol
from spider.serve.static import SEND_CHUNK, BytesResponse
from tests.serve_thread import uvicorn_in_thread

TIMEOUT = 1  # seconds, for every timeout of the server under test
# A connection must be closed within this (the timeout, plus slack for a loaded machine).
CLOSED_WITHIN = 6.0


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(REQUEST_TIMEOUT_ENV, str(TIMEOUT))
        patch.setenv(SEND_TIMEOUT_ENV, str(TIMEOUT))
        with uvicorn_in_thread(
            create_app(),
            http=TimedHttpToolsProtocol,
            loop="asyncio",
            timeout_keep_alive=TIMEOUT,
        ) as server_port:
            yield server_port


def _closed_after(port: int, sends: list[bytes], gap: float = 0.0) -> float | None:
    """Seconds until the server closes a connection that sends ``sends`` (``gap`` apart and
    then nothing more); None if it is still open after :data:`CLOSED_WITHIN`."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        try:
            for data in sends:
                sock.sendall(data)
                time.sleep(gap)
            sock.settimeout(max(0.1, CLOSED_WITHIN - (time.monotonic() - start)))
            while sock.recv(65536):
                pass
        except TimeoutError:
            return None
        except OSError:
            pass  # reset or broken pipe: closed by the server
    return time.monotonic() - start


SLOW_HEADERS = [b"GET / HTTP/1.1\r\n", b"Host: x\r\n", *[b"X-Slow: 1\r\n"] * 40]

CASES: dict[str, tuple[list[bytes], float]] = {
    "idle connection": ([], 0.0),
    "half a request line": ([b"GET /ind"], 0.0),
    # A header every 0.2 s: never idle for a second, yet the request never completes.
    "slow headers": (SLOW_HEADERS, 0.2),
    "idle after a response": ([b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"], 0.0),
}


def test_slow_and_idle_clients_are_dropped(port: int) -> None:
    with ThreadPoolExecutor(len(CASES)) as pool:
        closed = dict(
            zip(
                CASES,
                pool.map(lambda case: _closed_after(port, *case), CASES.values()),
                strict=True,
            )
        )
    for case, seconds in closed.items():
        assert seconds is not None, f"{case}: still open after {CLOSED_WITHIN} s"
    assert closed["slow headers"] < 40 * 0.2, "the slow sender was not cut off"


def test_a_client_that_reads_nothing_is_dropped(port: int) -> None:
    path = "/pyodide/pyodide.asm.wasm"
    with socket.create_connection(("127.0.0.1", port)) as warm:  # read and cached once
        warm.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        while warm.recv(1 << 20):
            pass
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    with sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        time.sleep(TIMEOUT + 2.0)
        received = 0
        sock.settimeout(CLOSED_WITHIN)
        try:
            while chunk := sock.recv(1 << 20):
                received += len(chunk)
        except ConnectionResetError:
            pass
    assert received < 9_000_000, "the whole file was sent to a client that read nothing"


def test_bodies_go_out_in_pieces() -> None:
    body = bytes(range(256)) * (SEND_CHUNK // 64)  # four pieces
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "http.request"}

    response = BytesResponse(body, media_type="application/octet-stream")
    anyio.run(response, {"type": "http", "method": "GET"}, receive, send)
    pieces = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert b"".join(pieces) == body and len(pieces) == 4
    assert all(len(p) <= SEND_CHUNK for p in pieces)
    assert [m.get("more_body", False) for m in sent[1:]] == [True, True, True, False]
    sent.clear()
    anyio.run(response, {"type": "http", "method": "HEAD"}, receive, send)
    assert [m.get("body") for m in sent[1:]] == [b""]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "must be from 1 to 64"),
        (["--workers", "two"], "is not a number of worker processes"),
        (["--timeout-keep-alive", "0"], "must be from 1 to 3600"),
        (["--timeout-request", "1.5"], "is not a number of seconds"),
        (["--timeout-send", "100000"], "must be from 1 to 3600"),
        (["--think-seconds", "0"], "must be from 1 to 3600"),
        (["--review-seconds", "long"], "is not a number of seconds"),
        (["--solver-jobs", "0"], "must be from 1 to 1024"),
        (["--sync-key-writes", "-1"], "must be from 0 to 1000000"),
        (["--sync-client-writes", "many"], "is not a number of writes a minute"),
    ],
)
def test_serve_options_are_checked(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_replayed_answers_follow_the_file(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    (tmp_path / "index.html").write_text("<!doctype html>", encoding="utf-8")
    script = tmp_path / "a.js"
    script.write_text("let a = 1;\n" * 200, encoding="utf-8")
    client = TestClient(create_app(web_dir=tmp_path))
    first = client.get("/a.js", headers={"Accept-Encoding": "br"})
    again = client.get("/a.js", headers={"Accept-Encoding": "br"})  # replayed
    assert again.content == first.content == script.read_bytes()
    assert again.headers == first.headers and again.headers["content-encoding"] == "br"
    assert again.headers["content-security-policy"] and again.headers["etag"]
    assert client.head("/a.js", headers={"Accept-Encoding": "br"}).content == b""
    plain = client.get("/a.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    script.write_text("let b = 2;\n" * 300, encoding="utf-8")  # a changed file: a new answer
    changed = client.get("/a.js", headers={"Accept-Encoding": "br"})
    assert (
        changed.content == script.read_bytes() and changed.headers["etag"] != first.headers["etag"]
    )
    script.unlink()
    assert client.get("/a.js", headers={"Accept-Encoding": "br"}).status_code == 404
