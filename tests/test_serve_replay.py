"""``spider serve`` answers kept files itself (spider.serve.http_protocol): byte for byte what the
app answers, in order behind and before other requests on one connection, in pieces to a slow
reader, and never for a request the app must see."""

from __future__ import annotations

import gzip
import hashlib
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from spider.serve.app import create_app
from spider.serve.http_protocol import TimedHttpToolsProtocol
from tests.serve_thread import uvicorn_in_thread

BIG = "/pyodide/pyodide.asm.wasm"  # megabytes gzipped: many pieces


@dataclass
class Answer:
    status_line: bytes
    headers: dict[bytes, bytes]
    body: bytes


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    app = create_app()
    with uvicorn_in_thread(app, http=TimedHttpToolsProtocol, loop="asyncio") as server_port:
        yield server_port


def _request(path: str, method: str = "GET", version: str = "1.1", extra: str = "") -> bytes:
    return f"{method} {path} HTTP/{version}\r\nHost: x\r\n{extra}\r\n".encode()


class Reader:
    """Reads HTTP/1.1 answers off a socket, one after another."""

    def __init__(self, sock: socket.socket, chunk: int = 1 << 16, pause: float = 0.0) -> None:
        self.sock, self.chunk, self.pause, self.buffer = sock, chunk, pause, b""

    def _more(self) -> None:
        data = self.sock.recv(self.chunk)
        assert data, "the server closed the connection before the answer was whole"
        self.buffer += data
        time.sleep(self.pause)

    def answer(self, head_only: bool = False) -> Answer:
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *lines = head.split(b"\r\n")
        headers = dict(line.split(b": ", 1) for line in lines)
        length = 0 if head_only else int(headers[b"content-length"])
        while len(self.buffer) < length:
            self._more()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Answer(status_line, headers, body)


def _one(port: int, request: bytes, head_only: bool = False) -> Answer:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        return Reader(sock).answer(head_only)


def _without_date(answer: Answer) -> tuple[bytes, dict[bytes, bytes], bytes]:
    headers = {k: v for k, v in answer.headers.items() if k != b"date"}
    return answer.status_line, headers, answer.body


@pytest.mark.parametrize("coding", ["br, gzip", "gzip", ""])
@pytest.mark.parametrize("path", ["/main.js", "/engine.zip", "/index.html"])
def test_a_kept_answer_is_the_apps_answer(port: int, path: str, coding: str) -> None:
    request = _request(path, extra=f"Accept-Encoding: {coding}\r\n" if coding else "")
    first = _one(port, request)  # the app's answer, which the memo keeps
    again = [_one(port, request) for _ in range(3)]  # written by the protocol
    assert first.status_line == b"HTTP/1.1 200 OK"
    for answer in again:
        assert _without_date(answer) == _without_date(first)
        assert answer.headers[b"date"].endswith(b" GMT")
    head = _one(port, _request(path, "HEAD", extra=f"Accept-Encoding: {coding}\r\n"), True)
    assert head.headers[b"content-length"] == first.headers[b"content-length"]


def test_answers_keep_their_order_on_one_connection(port: int) -> None:
    _one(port, _request("/main.js"))
    _one(port, _request(BIG, extra="Accept-Encoding: gzip\r\n"))
    pipelined = [
        (_request("/main.js"), "/main.js", False),
        (_request(BIG, extra="Accept-Encoding: gzip\r\n"), BIG, False),
        (_request("/engine.json?fresh=1"), "/engine.json", False),  # a query: the app's
        (_request("/main.js", "HEAD"), "/main.js", True),
        (_request("/nothing-here.js"), "", False),
        (_request("/main.js"), "/main.js", False),
    ]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"".join(request for request, _, _ in pipelined))
        reader = Reader(sock)
        answers = [reader.answer(head_only) for _, _, head_only in pipelined]
    types = [a.headers.get(b"content-type", b"") for a in answers]
    assert [a.status_line.split()[1] for a in answers] == [b"200"] * 4 + [b"404", b"200"]
    assert types[0].startswith(b"text/javascript") and types[2] == b"application/json"
    big = answers[1]
    assert big.headers[b"content-encoding"] == b"gzip"
    assert len(gzip.decompress(big.body)) > 1_000_000
    assert answers[3].body == b"" and answers[5].body == answers[0].body


def test_a_slow_reader_gets_the_whole_file_in_order(port: int) -> None:
    request = _request(BIG, extra="Accept-Encoding: gzip\r\n")
    whole = _one(port, request).body
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    sock.connect(("127.0.0.1", port))
    with sock:
        sock.settimeout(30)
        sock.sendall(request + _request("/main.js"))
        reader = Reader(sock, chunk=256 * 1024, pause=0.002)
        slow = reader.answer()
        after = reader.answer()
    assert hashlib.sha256(slow.body).digest() == hashlib.sha256(whole).digest()
    assert after.status_line == b"HTTP/1.1 200 OK" and after.body


def test_http_1_0_is_answered_and_closed(port: int) -> None:
    _one(port, _request("/main.js"))
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(_request("/main.js", version="1.0"))
        answer = Reader(sock).answer()
        assert sock.recv(1) == b"", "the connection stayed open after an HTTP/1.0 answer"
    assert answer.headers[b"connection"] == b"close" and answer.body


def test_conditional_requests_reach_the_app(port: int) -> None:
    first = _one(port, _request("/main.js", extra="Accept-Encoding: br\r\n"))
    etag = first.headers[b"etag"].decode()
    conditional = f"Accept-Encoding: br\r\nIf-None-Match: {etag}\r\n"
    again = _one(port, _request("/main.js", extra=conditional), head_only=True)
    assert again.status_line.split()[1] == b"304" and again.headers[b"etag"] == etag.encode()
