"""A public ``spider serve`` holds up: request heads and bodies are bounded as they arrive, a
flood of huge headers leaves its memory where it was, ``/start.json`` answers 400 to anything
malformed, and a server that cannot listen says so in one line.

Everything runs against a real ``spider serve --workers 2`` over real sockets (the limits must
hold in every worker process), and the command line in subprocesses.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.types import Receive, Scope, Send

from spider.protocol import ERROR_CODES
from spider.serve.http_protocol import TimedHttpToolsProtocol
from spider.serve.request_limits import (
    MAX_BODY_BYTES,
    MAX_BODY_BYTES_ENV,
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    REFUSAL_CODES,
)
from tests.serve_thread import uvicorn_in_thread
from tests.static_host import free_port

CLI = "import sys; from spider.cli import main; sys.exit(main(sys.argv[1:]))"
STARTED_WITHIN = 60.0  # seconds, for a loaded machine
ANSWERED_WITHIN = 10.0
#: A refusal's whole answer (status line, headers, one line of text) stays under this.
SHORT_ANSWER = 1024
#: A request's line and first headers (the server closes the connection after answering).
HEALTH = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"


def _spider(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]


@dataclass(frozen=True)
class Served:
    """A running ``spider serve``: its port, process and log."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            _spider("serve", "--port", str(port), "--workers", "2"),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + STARTED_WITHIN
        while _answer(port, HEALTH + b"\r\n", quiet=True)[0] != 200:
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "spider serve did not start"
            time.sleep(0.2)
        # Both workers answer before the tests start (each builds its app).
        for _ in range(8):
            _answer(port, HEALTH + b"\r\n", quiet=True)
        yield Served(port, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert "Traceback" not in log.read_text(errors="replace")


@dataclass(frozen=True)
class Answer:
    """What a connection received, and whether the server closed it."""

    status: int
    head: str
    raw: bytes
    closed: bool


def _read_all(sock: socket.socket) -> tuple[bytes, bool]:
    """Everything until the server closes (True) or nothing comes for a while (False)."""
    received = b""
    sock.settimeout(ANSWERED_WITHIN)
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        return received, False
    except OSError:
        pass  # reset: closed
    return received, True


def _parse(received: bytes, closed: bool) -> Answer:
    head = received.partition(b"\r\n\r\n")[0].decode("latin-1")
    parts = head.split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return Answer(status, head.lower(), received, closed)


def _answer(
    port: int, data: bytes, piece: int = 0, gap: float = 0.0, quiet: bool = False
) -> tuple[int, Answer]:
    """Send ``data`` (in pieces of ``piece`` bytes ``gap`` apart, if given) on a new connection
    asking to close; (status, answer). Sending stops when the server answers or closes."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWERED_WITHIN)
    except OSError:
        if quiet:
            return 0, Answer(0, "", b"", True)
        raise
    with sock:
        try:
            step = piece or len(data)
            for start in range(0, len(data), step):
                sock.sendall(data[start : start + step])
                if piece and select.select([sock], [], [], gap)[0]:
                    break  # answered before the request was all sent
        except OSError:
            pass  # the server closed while we sent: its answer is read below
        answer = _parse(*_read_all(sock))
    return answer.status, answer


def _sent_before_answer(port: int, data: bytes, piece: int, gap: float) -> int:
    """How many bytes of ``data``, sent ``piece`` at a time, went out before an answer came."""
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWERED_WITHIN) as sock:
        sent = 0
        while sent < len(data):
            if select.select([sock], [], [], gap)[0]:
                break
            sock.sendall(data[sent : sent + piece])
            sent += piece
        assert _parse(*_read_all(sock)).status == 431
    return sent


def _assert_refused(answer: Answer, status: int, code: str) -> None:
    assert answer.status == status, answer.raw[:300]
    assert "connection: close" in answer.head and "x-content-type-options: nosniff" in answer.head
    assert "content-type: application/json" in answer.head
    assert len(answer.raw) < SHORT_ANSWER and answer.closed
    error = json.loads(answer.raw.partition(b"\r\n\r\n")[2])["error"]
    assert error["code"] == code and REFUSAL_CODES[code] == status and error["message"]


# ------------------------------------------------------------------------- request heads

BIG = MAX_HEAD_BYTES + 1024

#: Each request over a limit, and the code it is refused with.
REFUSED: dict[str, tuple[bytes, str]] = {
    "a header over the limit": (
        HEALTH + b"X-Big: " + b"a" * BIG + b"\r\n\r\n",
        "headers-too-large",
    ),
    "a request line over the limit": (
        b"GET /" + b"a" * BIG + b" HTTP/1.1\r\n\r\n",
        "url-too-long",
    ),
    "too many header fields": (
        HEALTH + b"".join(b"X-%d: 1\r\n" % n for n in range(MAX_HEADERS)) + b"\r\n",
        "headers-too-large",
    ),
    "many small headers over the limit": (
        HEALTH + b"".join(b"X-%d: %s\r\n" % (n, b"v" * 400) for n in range(90)) + b"\r\n",
        "headers-too-large",
    ),
    "a GET with a body": (HEALTH + b"Content-Length: 5\r\n\r\nhello", "body-not-allowed"),
    "a HEAD with a chunked body": (
        b"HEAD /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        "body-not-allowed",
    ),
    "a body declared over the limit": (
        b"PUT /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY_BYTES + 1),
        "too-large",
    ),
}


def test_requests_over_the_limits_are_refused(served: Served) -> None:
    with ThreadPoolExecutor(4) as pool:
        answers = dict(
            zip(
                REFUSED,
                pool.map(lambda case: _answer(served.port, case[0]), REFUSED.values()),
                strict=True,
            )
        )
    for case, (_, code) in REFUSED.items():
        status, answer = answers[case]
        assert status == REFUSAL_CODES[code], f"{case}: {answer.raw[:200]!r}"
        _assert_refused(answer, status, code)


def test_requests_within_the_limits_are_served(served: Served) -> None:
    """The largest head allowed, the most header fields allowed, and a keep-alive connection
    whose requests add up to far more than one head's limit (each is counted alone)."""
    room = MAX_HEAD_BYTES - len(HEALTH) - len(b"Cookie: \r\n\r\n")
    status, answer = _answer(served.port, HEALTH + b"Cookie: " + b"c" * room + b"\r\n\r\n")
    assert status == 200 and answer.raw.endswith(b"ok")
    fields = b"".join(b"X-%d: 1\r\n" % n for n in range(MAX_HEADERS - 2))
    assert _answer(served.port, HEALTH + fields + b"\r\n")[0] == 200
    # The page's own file twice (the second is written from memory, before routing), then a
    # route, each with a 1 KiB header: 300 requests, 300 KiB of heads on one connection.
    padding = b"X-Pad: " + b"p" * 1024 + b"\r\n"
    requests = [
        b"GET /index.html HTTP/1.1\r\nHost: x\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n",
    ] * 150
    with socket.create_connection(("127.0.0.1", served.port), timeout=ANSWERED_WITHIN) as sock:
        for request in requests:
            sock.sendall(request + padding + b"\r\n")
            assert _read_one(sock).startswith(b"HTTP/1.1 200 ")


def _read_one(sock: socket.socket) -> bytes:
    """One response (it has a Content-Length) from a keep-alive connection."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    assert len(body) == length, "more than one response"
    return head


def test_a_header_sent_slowly_is_refused_as_soon_as_it_passes_the_limit(served: Served) -> None:
    data = HEALTH + b"X-Slow: " + b"s" * (4 * MAX_HEAD_BYTES) + b"\r\n\r\n"
    sent = _sent_before_answer(served.port, data, piece=1024, gap=0.01)
    assert MAX_HEAD_BYTES < sent <= MAX_HEAD_BYTES + 4 * 1024


def test_a_pipelined_request_over_the_limit_is_refused(served: Served) -> None:
    """A request sent behind another in the same packets is counted too."""
    first = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"  # kept alive
    second = HEALTH + b"X-Big: " + b"a" * BIG + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", served.port), timeout=ANSWERED_WITHIN) as sock:
        with contextlib.suppress(OSError):
            sock.sendall(first + second)
        received, closed = _read_all(sock)
    # The first is answered; the second is refused, or (when it came in before the first was
    # answered) the connection closes after the first answer.
    assert received.startswith(b"HTTP/1.1 200 ") and closed
    assert b"HTTP/1.1 431 " in received or received.count(b"HTTP/1.1 ") == 1


SMALL_BODY_LIMIT = 64 * 1024


async def _echo_length(scope: Scope, receive: Receive, send: Send) -> None:
    """An app that reads the whole body and answers its length."""
    length = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        length += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    body = str(length).encode()
    headers = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def echo_port() -> Iterator[int]:
    """A server whose app reads bodies, with a body limit of 64 KiB (from the environment)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(MAX_BODY_BYTES_ENV, str(SMALL_BODY_LIMIT))
        with uvicorn_in_thread(_echo_length, http=TimedHttpToolsProtocol, loop="asyncio") as port:
            yield port


def _chunked(size: int) -> bytes:
    piece = b"c" * 1000
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)] * (size // len(piece))
    return b"".join(chunks) + b"0\r\n\r\n"


def test_bodies_read_by_a_route_are_bounded_too(echo_port: int) -> None:
    put = b"PUT /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    within = 64_000  # under SMALL_BODY_LIMIT, in whole chunks of 1,000
    status, answer = _answer(
        echo_port, put + b"Content-Length: %d\r\n\r\n" % within + b"b" * within
    )
    assert status == 200 and answer.raw.endswith(b"\r\n\r\n%d" % within)
    chunked = put + b"Transfer-Encoding: chunked\r\n\r\n"
    status, answer = _answer(echo_port, chunked + _chunked(within))
    assert status == 200 and answer.raw.endswith(b"\r\n\r\n%d" % within)
    status, answer = _answer(echo_port, chunked + _chunked(2 * SMALL_BODY_LIMIT))
    _assert_refused(answer, 413, "too-large")
    status, answer = _answer(
        echo_port, put + b"Content-Length: %d\r\n\r\n" % (SMALL_BODY_LIMIT + 1)
    )
    _assert_refused(answer, 413, "too-large")


# ------------------------------------------------------------------------------- memory


def _rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue  # gone
        line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
        total += int(line.split()[1]) * 1024
    return total


HUGE_HEADER = 50 * 1024 * 1024
ATTACKERS = 16
#: The servers' memory may grow this much at most while 16 clients each send a 50 MB header
#: (before these limits, 16 such requests took it from 138 MB to 792 MB).
MAX_GROWTH = 48 * 1024 * 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_huge_headers_leave_the_memory_where_it_was(served: Served) -> None:
    data = HEALTH + b"X-Huge: " + b"h" * HUGE_HEADER + b"\r\n\r\n"
    before = _rss_bytes(served.process.pid)
    peak = before
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _rss_bytes(served.process.pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(ATTACKERS) as pool:
            statuses = list(pool.map(lambda _: _answer(served.port, data)[0], range(ATTACKERS)))
    finally:
        done.set()
        watcher.join()
    after = _rss_bytes(served.process.pid)
    print(
        f"\nserver RSS (all processes): before {before / 2**20:.1f} MiB, peak "
        f"{peak / 2**20:.1f} MiB, after {after / 2**20:.1f} MiB "
        f"({ATTACKERS} x {HUGE_HEADER // 2**20} MB headers; answers {sorted(set(statuses))})"
    )
    # Each was refused (a client still sending when the lingering ends may see a reset).
    assert set(statuses) <= {431, 0} and statuses.count(431) >= ATTACKERS // 2
    assert peak - before < MAX_GROWTH
    assert _answer(served.port, HEALTH + b"\r\n")[0] == 200


# --------------------------------------------------------------------------- /start.json


def test_start_answers_malformed_queries_over_http_with_400(served: Served) -> None:
    """The same through the server (its log is checked for tracebacks at the end)."""
    queries = [
        "request=" + urllib.parse.quote("[" * 1000),
        "request=" + urllib.parse.quote('{"op":"new","suits":' + "9" * 4000 + "}"),
        "request=%ED%A0%80",  # a UTF-16 surrogate, encoded as UTF-8
        "request=%FF%FE%00",
        "request=%",
        "request=" + urllib.parse.quote('{"op":"open","code":"' + "\u00e9" * 2000 + '"}'),
        "request=" + "%5B" * 4000,
        "",
    ]
    for query in queries:
        request = f"GET /start.json?{query} HTTP/1.1\r\nConnection: close\r\n\r\n".encode()
        status, answer = _answer(served.port, request)
        body = answer.raw.partition(b"\r\n\r\n")[2]
        assert status == 400, (query[:80], answer.raw[:300])
        code = json.loads(body)["error"]["code"]
        assert code in ERROR_CODES and code != "internal-error", query[:80]


# ------------------------------------------------------------------------- bind failures


def _serve_fails(args: list[str], prefix: list[str] | None = None) -> str:
    """The one line ``spider serve ARGS`` prints as it exits with status 2."""
    result = subprocess.run(
        [*(prefix or []), *_spider("serve", *args)],
        capture_output=True,
        text=True,
        timeout=STARTED_WITHIN,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_one_line_and_status_2(busy_port: int, workers: str) -> None:
    line = _serve_fails(["--port", str(busy_port), "--workers", workers])
    assert line.startswith(f"spider serve: error: cannot listen on 127.0.0.1:{busy_port}: ")
    assert "the address is in use" in line


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("no-such-host.invalid", "no such host"),
        ("192.0.2.1", "this machine has no such address"),  # TEST-NET-1: never local
    ],
)
def test_a_host_that_cannot_be_listened_on_is_one_line_and_status_2(host: str, reason: str) -> None:
    line = _serve_fails(["--host", host, "--port", str(free_port())])
    assert line.startswith(f"spider serve: error: cannot listen on {host}:") and reason in line


def _without_low_ports() -> list[str] | None:
    """A command prefix under which port 81 cannot be listened on, or None."""
    unprivileged = Path("/proc/sys/net/ipv4/ip_unprivileged_port_start")
    if unprivileged.exists() and int(unprivileged.read_text()) <= 81:
        return None
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    drop = "-net_bind_service"
    return [setpriv, "--bounding-set", drop, "--inh-caps", drop]


def test_a_privileged_port_is_one_line_and_status_2() -> None:
    prefix = _without_low_ports()
    if prefix is None:
        pytest.skip("port 81 may be listened on here by anyone")
    line = _serve_fails(["--port", "81"], prefix=prefix)
    assert line.startswith("spider serve: error: cannot listen on 127.0.0.1:81: permission denied")
