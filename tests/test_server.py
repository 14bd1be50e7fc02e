"""The web server: MIME types, security and cache headers, compression, ranges, refused paths,
the engine bundle, and the Pyodide vendoring script."""

from __future__ import annotations

import gzip
import http.client
import importlib.util
import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import threading
import time
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    # Starlette >= 1.x prefers the httpx2 package; httpx (our dev dependency) still works.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.types import Message

from spider.serve import app as server_module
from spider.serve.app import CONTENT_SECURITY_POLICY, SecurityMiddleware, browser_url, create_app
from spider.serve.engine_zip import build_engine_zip, engine_files
from spider.serve.static import accepts_gzip, safe_path

REPO = Path(__file__).resolve().parent.parent
PACKAGE_DIR = REPO / "src" / "spider"
FAKE_PYODIDE_VERSION = "9.8.7"
IMMUTABLE = "public, max-age=31536000, immutable"

SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cross-origin-resource-policy": "same-origin",
}

# Compressible text, well over the 1 KiB threshold.
JS_TEXT = "".join(f"export const value{i} = {i} * 2; // module code\n" for i in range(200))


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A throwaway front end, Pyodide directory and outside 'secret', with symlinks."""
    base = tmp_path_factory.mktemp("site")
    web = base / "web"
    (web / "sub").mkdir(parents=True)
    (web / "icons").mkdir()
    (web / "index.html").write_text("<!doctype html><title>Spider</title>\n" + "<p>x</p>\n" * 200)
    (web / "app.js").write_text(JS_TEXT)
    (web / "mod.mjs").write_text(JS_TEXT)
    (web / "app.css").write_text("body { margin: 0 }\n" * 100)
    (web / "data.json").write_text(json.dumps({"k": list(range(500))}))
    (web / "manifest.webmanifest").write_text(json.dumps({"name": "Spider", "pad": "x" * 2000}))
    (web / "sw.js").write_text("self.addEventListener('fetch', () => {});\n" * 50)
    (web / "icons" / "icon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>" * 40)
    (web / "icons" / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(3000))
    (web / "tiny.js").write_text("export {};\n")
    (web / "blob.bin").write_bytes(b"\x00" * 10)
    (web / "sub" / "page.html").write_text("<p>sub</p>")
    (web / ".hidden").write_text("hidden")
    secret = base / "secret.txt"
    secret.write_text("top secret")
    (web / "escape.txt").symlink_to(secret)
    (web / "escape-dir").symlink_to(base)
    (web / "alias.js").symlink_to(web / "app.js")

    pyodide = base / "pyodide"
    pyodide.mkdir()
    (pyodide / "package.json").write_text(
        json.dumps({"name": "pyodide", "version": FAKE_PYODIDE_VERSION})
    )
    (pyodide / "pyodide.mjs").write_text(JS_TEXT)
    (pyodide / "pyodide.asm.wasm").write_bytes(b"\x00asm\x01\x00\x00\x00" + b"\x01\x02\x03" * 5000)
    (pyodide / "pyodide-lock.json").write_text(json.dumps({"packages": {}, "pad": "y" * 3000}))
    # An already deflated zip: gzip gains nothing, so it is sent as is.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("random.bin", os.urandom(20000))
    (pyodide / "python_stdlib.zip").write_bytes(buffer.getvalue())
    (pyodide / ".vendored.json").write_text("{}")
    return {"base": base, "web": web, "pyodide": pyodide, "secret": secret}


@pytest.fixture(scope="module")
def app(site: dict[str, Path]) -> Any:
    return create_app(site["pyodide"], web_dir=site["web"])


@pytest.fixture(scope="module")
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def raw_request(
    app: Any, path: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Call the ASGI app with ``path`` exactly as a server would pass it (decoded, unnormalised)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode("utf-8", "surrogateescape"),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    messages: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    async def run() -> None:
        await app(scope, receive, send)

    anyio.run(run)
    start = messages[0]
    response_headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in messages[1:])
    return start["status"], response_headers, body


def assert_security_headers(headers: Any) -> None:
    for name, value in SECURITY.items():
        assert headers[name] == value, name


# ---------------------------------------------------------------- MIME types and headers


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/mod.mjs", "text/javascript; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/data.json", "application/json"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/icons/icon.svg", "image/svg+xml"),
        ("/icons/icon.png", "image/png"),
        ("/blob.bin", "application/octet-stream"),
        ("/pyodide/pyodide.mjs", "text/javascript; charset=utf-8"),
        ("/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/pyodide/python_stdlib.zip", "application/zip"),
        ("/pyodide/pyodide-lock.json", "application/json"),
        ("/engine.zip", "application/zip"),
        ("/engine.json", "application/json"),
        ("/healthz", "text/plain; charset=utf-8"),
    ],
)
def test_mime_types_and_security_headers(client: TestClient, path: str, content_type: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"] == content_type
    assert_security_headers(response.headers)


def test_security_headers_on_errors(client: TestClient) -> None:
    for response in (client.get("/missing.js"), client.post("/"), client.get("/sub/")):
        assert response.status_code in (404, 405)
        assert_security_headers(response.headers)


def test_security_headers_on_unhandled_error() -> None:
    async def broken(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("boom")

    messages: list[Message] = []

    async def run() -> None:
        async def send(message: Message) -> None:
            messages.append(message)

        async def receive() -> Message:
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": "GET", "path": "/", "headers": []}
        await SecurityMiddleware(broken)(scope, receive, send)

    with pytest.raises(RuntimeError, match="boom"):
        anyio.run(run)
    assert messages[0]["status"] == 500
    assert_security_headers({k.decode(): v.decode() for k, v in messages[0]["headers"]})


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.text == "ok"
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(client: TestClient, method: str) -> None:
    response = client.request(method, "/index.html")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"


def test_head_matches_get(client: TestClient) -> None:
    for path in ("/app.js", "/engine.zip", "/pyodide/pyodide.asm.wasm", "/icons/icon.png"):
        get = client.get(path)
        head = client.head(path)
        assert head.status_code == 200
        assert head.content == b""
        for name in ("content-type", "content-length", "etag", "cache-control", "content-encoding"):
            assert head.headers.get(name) == get.headers.get(name), (path, name)


def test_sw_may_control_the_whole_site(client: TestClient) -> None:
    assert client.get("/sw.js").headers["service-worker-allowed"] == "/"


# ---------------------------------------------------------------- caching


@pytest.mark.parametrize(
    ("path", "cache_control"),
    [
        ("/", "no-cache"),
        ("/index.html", "no-cache"),
        ("/sw.js", "no-cache"),
        ("/manifest.webmanifest", "no-cache"),
        ("/engine.zip", "no-cache"),
        ("/engine.json", "no-cache"),
        ("/app.js", "public, max-age=60"),
        ("/icons/icon.svg", "public, max-age=60"),
        ("/pyodide/pyodide.mjs", "no-cache"),
        (f"/pyodide/{FAKE_PYODIDE_VERSION}/pyodide.mjs", IMMUTABLE),
        (f"/pyodide/{FAKE_PYODIDE_VERSION}/pyodide.asm.wasm", IMMUTABLE),
    ],
)
def test_cache_control(client: TestClient, path: str, cache_control: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["cache-control"] == cache_control
    assert response.headers["etag"].startswith('"')


def test_pyodide_version_header_and_versioned_url(client: TestClient) -> None:
    plain = client.get("/pyodide/pyodide.mjs")
    versioned = client.get(f"/pyodide/{FAKE_PYODIDE_VERSION}/pyodide.mjs")
    assert plain.headers["x-pyodide-version"] == FAKE_PYODIDE_VERSION
    assert versioned.headers["x-pyodide-version"] == FAKE_PYODIDE_VERSION
    assert plain.content == versioned.content
    assert plain.headers["etag"] == versioned.headers["etag"]
    assert client.get("/pyodide/0.0.0/pyodide.mjs").status_code == 404


@pytest.mark.parametrize(
    "path", ["/", "/app.js", "/engine.zip", "/engine.json", "/pyodide/python_stdlib.zip"]
)
def test_conditional_get(client: TestClient, path: str) -> None:
    for encoding in ("gzip", "identity"):
        first = client.get(path, headers={"Accept-Encoding": encoding})
        etag = first.headers["etag"]
        again = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": etag})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["etag"] == etag
        assert again.headers["cache-control"] == first.headers["cache-control"]
        assert_security_headers(again.headers)
        weak = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": f"W/{etag}"})
        assert weak.status_code == 304
        other = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": '"nope"'})
        assert other.status_code == 200


def test_if_modified_since(client: TestClient) -> None:
    first = client.get("/app.js")
    since = first.headers["last-modified"]
    assert client.get("/app.js", headers={"If-Modified-Since": since}).status_code == 304
    old = "Mon, 01 Jan 1990 00:00:00 GMT"
    assert client.get("/app.js", headers={"If-Modified-Since": old}).status_code == 200


def test_etags_are_content_hashes(site: dict[str, Path]) -> None:
    one = TestClient(create_app(site["pyodide"], web_dir=site["web"]))
    two = TestClient(create_app(site["pyodide"], web_dir=site["web"]))
    for path in ("/app.js", "/engine.zip", "/pyodide/pyodide.asm.wasm"):
        assert one.get(path).headers["etag"] == two.get(path).headers["etag"]
    # The same bytes under another name have the same identity ETag.
    headers = {"Accept-Encoding": "identity"}
    assert (
        one.get("/mod.mjs", headers=headers).headers["etag"]
        == (one.get("/app.js", headers=headers).headers["etag"])
    )


# ---------------------------------------------------------------- compression and ranges


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/app.js",
        "/app.css",
        "/data.json",
        "/manifest.webmanifest",
        "/icons/icon.svg",
        "/pyodide/pyodide.mjs",
        "/pyodide/pyodide.asm.wasm",
        "/pyodide/pyodide-lock.json",
        "/engine.zip",
    ],
)
def test_gzip(client: TestClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.headers["vary"] == "Accept-Encoding"
    # httpx decodes gzip for us; compare the wire size and the decoded bytes.
    zipped = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["vary"] == "Accept-Encoding"
    assert int(zipped.headers["content-length"]) < int(plain.headers["content-length"])
    assert zipped.content == plain.content
    assert zipped.headers["etag"] != plain.headers["etag"]
    assert zipped.headers["content-type"] == plain.headers["content-type"]


def test_gzip_body_is_valid_gzip(app: Any) -> None:
    status, headers, body = raw_request(app, "/app.js", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body).decode() == JS_TEXT
    assert int(headers["content-length"]) == len(body)


@pytest.mark.parametrize(
    "path", ["/tiny.js", "/icons/icon.png", "/pyodide/python_stdlib.zip", "/healthz"]
)
def test_not_worth_compressing(client: TestClient, path: str) -> None:
    response = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert "content-encoding" not in response.headers


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("identity", False),
        ("*", True),
        ("*;q=0", False),
        ("br, *", True),
        ("", False),
        (None, False),
    ],
)
def test_accepts_gzip(value: str | None, expected: bool) -> None:
    assert accepts_gzip(value) is expected


def test_refused_gzip_gives_identity(client: TestClient) -> None:
    response = client.get("/app.js", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in response.headers
    assert response.text == JS_TEXT


def test_range_requests_get_identity_bytes(client: TestClient, site: dict[str, Path]) -> None:
    wasm = (site["pyodide"] / "pyodide.asm.wasm").read_bytes()
    headers = {"Accept-Encoding": "gzip", "Range": "bytes=4-11"}
    response = client.get("/pyodide/pyodide.asm.wasm", headers=headers)
    assert response.status_code == 206
    assert "content-encoding" not in response.headers
    assert response.headers["content-range"] == f"bytes 4-11/{len(wasm)}"
    assert response.content == wasm[4:12]
    assert_security_headers(response.headers)

    identity_etag = client.get(
        "/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"}
    ).headers["etag"]
    assert response.headers["etag"] == identity_etag
    matching = client.get(
        "/pyodide/pyodide.asm.wasm", headers={"Range": "bytes=0-3", "If-Range": identity_etag}
    )
    assert matching.status_code == 206 and matching.content == wasm[:4]
    stale = client.get(
        "/pyodide/pyodide.asm.wasm",
        headers={"Range": "bytes=0-3", "If-Range": '"stale"', "Accept-Encoding": "identity"},
    )
    assert stale.status_code == 200 and stale.content == wasm
    unsatisfiable = client.get("/pyodide/pyodide.asm.wasm", headers={"Range": "bytes=99999999-"})
    assert unsatisfiable.status_code == 416


# ---------------------------------------------------------------- refused paths


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/sub/../../secret.txt",
        "/sub/../index.html",
        "/./index.html",
        "/pyodide/../web/index.html",
        "/pyodide/../secret.txt",
        f"/pyodide/{FAKE_PYODIDE_VERSION}/../../secret.txt",
        "//secret.txt",
        "//etc/passwd",
        "/pyodide//etc/passwd",
        "/..\\secret.txt",
        "/sub\\..\\..\\secret.txt",
        "/index.html\x00.png",
        "/escape.txt",
        "/escape-dir/secret.txt",
        "/.hidden",
        "/pyodide/.vendored.json",
        "/sub/",
        "/sub",
        "/icons/",
        "/pyodide/",
        "/pyodide",
        f"/pyodide/{FAKE_PYODIDE_VERSION}/",
        "/index.html/",
        "/missing.html",
    ],
)
def test_refused_paths(app: Any, path: str) -> None:
    status, headers, body = raw_request(app, path)
    assert status == 404, path
    assert b"top secret" not in body and b"<title>" not in body
    assert_security_headers(headers)


def test_symlink_inside_root_is_served(client: TestClient) -> None:
    response = client.get("/alias.js")
    assert response.status_code == 200
    assert response.text == JS_TEXT


def test_safe_path(site: dict[str, Path]) -> None:
    web = site["web"]
    assert safe_path(web, "index.html") == (web / "index.html").resolve()
    assert safe_path(web, "sub/page.html") == (web / "sub" / "page.html").resolve()
    for bad in ("", "sub", "sub/", "/etc/passwd", "../secret.txt", "a/../index.html", ".hidden"):
        assert safe_path(web, bad) is None, bad


def test_traversal_over_a_real_socket(site: dict[str, Path]) -> None:
    """uvicorn decodes %2e%2e and %2f: those must still be refused."""
    import uvicorn

    app = create_app(site["pyodide"], web_dir=site["web"])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.02)
        for raw, expected in [
            ("/index.html", 200),
            ("/%69ndex.html", 200),
            ("/../secret.txt", 404),
            ("/%2e%2e/secret.txt", 404),
            ("/%2E%2E/%2E%2E/secret.txt", 404),
            ("/sub/..%2f..%2fsecret.txt", 404),
            ("/pyodide/%2e%2e/secret.txt", 404),
            ("/pyodide/..%2F..%2Fweb%2Findex.html", 404),
            ("/%2fetc%2fpasswd", 404),
            ("/escape.txt", 404),
            ("/index.html%00", 404),
            ("/sub/", 404),
        ]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.putrequest("GET", raw, skip_accept_encoding=True)
            conn.endheaders()
            response = conn.getresponse()
            body = response.read()
            conn.close()
            assert response.status == expected, raw
            assert b"top secret" not in body, raw
            assert response.getheader("x-frame-options") == "DENY"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


# ---------------------------------------------------------------- engine bundle


EXPECTED_EXCLUDED = {
    "spider/serve/app.py",
    "spider/cli/parser.py",
    "spider/__main__.py",
    "spider/research/gym.py",
    "spider/research/openspiel.py",
}
#: The folders that stay on the server: the web server, the command line, the research adapters.
SERVER_ONLY = ("spider/serve/", "spider/cli/", "spider/research/", "spider/web/")


def test_engine_zip_listing(client: TestClient) -> None:
    data = client.get("/engine.zip").content
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "spider/__init__.py" in names
    assert "spider/protocol/session.py" in names
    assert "spider/py.typed" in names
    assert not EXPECTED_EXCLUDED & set(names)
    assert not [n for n in names if n.startswith(SERVER_ONLY)]
    assert all(n.endswith((".py", "/py.typed")) for n in names)
    assert names == sorted(names)
    on_disk = {
        f"spider/{p.relative_to(PACKAGE_DIR).as_posix()}"
        for p in PACKAGE_DIR.rglob("*.py")
        if "__pycache__" not in p.parts and "web" not in p.relative_to(PACKAGE_DIR).parts
    }
    expected = {n for n in on_disk if n not in EXPECTED_EXCLUDED}
    expected -= {n for n in on_disk if n.startswith(SERVER_ONLY)}
    assert set(names) - {"spider/py.typed"} == expected


def test_engine_zip_is_deterministic(client: TestClient) -> None:
    first = build_engine_zip(PACKAGE_DIR)
    second = build_engine_zip(PACKAGE_DIR)
    assert first.data == second.data
    archive = zipfile.ZipFile(io.BytesIO(first.data))
    for info in archive.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.external_attr >> 16 == 0o100644
    response = client.get("/engine.zip", headers={"Accept-Encoding": "identity"})
    assert response.content == first.data
    assert response.headers["etag"] == f'"{first.version}"'


def test_engine_json(client: TestClient) -> None:
    zipped = client.get("/engine.zip", headers={"Accept-Encoding": "identity"})
    info = client.get("/engine.json").json()
    assert f'"{info["version"]}"' == zipped.headers["etag"]
    assert info["files"] == zipfile.ZipFile(io.BytesIO(zipped.content)).namelist()
    files = info["pyodide"].pop("files")
    assert info["pyodide"] == {
        "version": FAKE_PYODIDE_VERSION,
        "url": f"/pyodide/{FAKE_PYODIDE_VERSION}/",
    }
    # The Pyodide files there are, each served (the service worker asks for no other).
    assert files == sorted(files) and "pyodide.asm.wasm" in files
    assert "pyodide.asm.js" not in files
    for name in files:
        assert client.get(f"/pyodide/{FAKE_PYODIDE_VERSION}/{name}").status_code == 200, name


def test_engine_file_selection(tmp_path: Path) -> None:
    pkg = tmp_path / "spider"
    for name in [
        "__init__.py",
        "__main__.py",
        "game.py",
        "serve/app.py",
        "serve/syncstore/sqlite.py",
        "cli/parser.py",
        "research/gym.py",
        "py.typed",
        "notes.txt",
        "solver/__init__.py",
        "solver/full/search.py",
        "solver/server.py",
        "web/worker.py",
        "web/app.js",
        "__pycache__/game.cpython-311.pyc",
        ".hidden/x.py",
    ]:
        path = pkg / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")
    assert [p.as_posix() for p in engine_files(pkg)] == [
        "__init__.py",
        "game.py",
        "py.typed",
        "solver/__init__.py",
        "solver/full/search.py",
        "solver/server.py",
    ]


def test_engine_zip_is_importable(client: TestClient, tmp_path: Path) -> None:
    data = client.get("/engine.zip").content
    target = tmp_path / "engine"
    zipfile.ZipFile(io.BytesIO(data)).extractall(target)
    code = (
        "import sys, json, importlib.util\n"
        f"sys.path.insert(0, {str(target)!r})\n"
        "import spider, spider.protocol\n"
        f"assert spider.__file__.startswith({str(target)!r}), spider.__file__\n"
        "assert importlib.util.find_spec('spider.serve') is None\n"
        "assert importlib.util.find_spec('spider.cli') is None\n"
        "assert importlib.util.find_spec('spider.research') is None\n"
        "reply = spider.protocol.Session().handle({'op': 'new', 'number': 1})\n"
        "assert reply['ok'], reply\n"
        "print(json.dumps(sorted(sys.modules.keys() & {'starlette', 'uvicorn', 'httpx'})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


# ---------------------------------------------------------------- configuration


def test_missing_pyodide_dir(tmp_path: Path, site: dict[str, Path]) -> None:
    client = TestClient(create_app(tmp_path / "nowhere", web_dir=site["web"]))
    assert client.get("/pyodide/pyodide.mjs").status_code == 404
    assert "x-pyodide-version" not in client.get("/pyodide/pyodide.mjs").headers
    assert client.get("/engine.json").json()["pyodide"] is None
    assert client.get("/").status_code == 200


def test_pyodide_dir_from_environment(
    monkeypatch: pytest.MonkeyPatch, site: dict[str, Path]
) -> None:
    monkeypatch.setenv("SPIDER_PYODIDE_DIR", str(site["pyodide"]))
    assert server_module.default_pyodide_dir() == site["pyodide"]
    client = TestClient(create_app(web_dir=site["web"]))
    assert client.get("/pyodide/pyodide.mjs").headers["x-pyodide-version"] == FAKE_PYODIDE_VERSION


def test_extra_static(site: dict[str, Path]) -> None:
    extra = {"_t/": site["web"] / "sub"}
    app = create_app(site["pyodide"], web_dir=site["web"], extra_static=extra)
    response = TestClient(app).get("/_t/page.html")
    assert response.status_code == 200 and response.text == "<p>sub</p>"
    assert response.headers["cache-control"] == "no-cache"
    assert raw_request(app, "/_t/../index.html")[0] == 404
    with pytest.raises(ValueError):
        create_app(site["pyodide"], extra_static={"/abs/": site["web"]})


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("0.0.0.0", "http://127.0.0.1:8000/"),
        ("::", "http://[::1]:8000/"),
        ("::1", "http://[::1]:8000/"),
        ("localhost", "http://localhost:8000/"),
    ],
)
def test_browser_url(host: str, url: str) -> None:
    assert browser_url(host, 8000) == url


def test_real_app_serves_front_end_and_vendored_pyodide() -> None:
    pin = json.loads((PACKAGE_DIR / "pyodide.lock.json").read_text())
    pyodide_dir = server_module.default_pyodide_dir()
    if not (pyodide_dir / "pyodide.mjs").is_file():
        pytest.fail(f"no vendored Pyodide in {pyodide_dir}: run `make vendor`")
    client = TestClient(create_app())
    index = client.get("/")
    assert index.status_code == 200
    assert index.headers["content-type"] == "text/html; charset=utf-8"
    for name in pin["required"]:
        response = client.head(f"/pyodide/{pin['version']}/{name}")
        if name in server_module.PYODIDE_FILES:
            assert response.status_code == 200, name
            assert response.headers["x-pyodide-version"] == pin["version"]
        else:
            assert response.status_code == 404, name
    # Files of the package that the page does not use are not served.
    for name in ("console.html", "pyodide.d.ts", "pyodide.mjs.map", "README.md", "package.json"):
        assert (pyodide_dir / name).is_file()
        assert client.head(f"/pyodide/{pin['version']}/{name}").status_code == 404, name
        assert client.head(f"/pyodide/{name}").status_code == 404, name
    assert client.get("/engine.json").json()["pyodide"]["version"] == pin["version"]


# ---------------------------------------------------------------- vendoring script


def load_fetch_script() -> ModuleType:
    script = REPO / "scripts" / "fetch_pyodide.py"
    spec = importlib.util.spec_from_file_location("fetch_pyodide", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_tarball(path: Path, entries: dict[str, bytes], symlink: str | None = None) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        if symlink is not None:
            link = tarfile.TarInfo(symlink)
            link.type = tarfile.SYMTYPE
            link.linkname = "/etc/passwd"
            tar.addfile(link)


def fake_package(version: str) -> dict[str, bytes]:
    return {
        "package/package.json": json.dumps({"name": "pyodide", "version": version}).encode(),
        "package/pyodide.mjs": b"export {}",
        "package/pyodide.asm.mjs": b"export {}",
        "package/pyodide.asm.wasm": b"\x00asm",
        "package/python_stdlib.zip": b"PK",
        "package/pyodide-lock.json": b"{}",
    }


def test_fetch_script_pin_is_valid() -> None:
    fetch = load_fetch_script()
    pin = fetch.load_pin()
    assert pin["package"] == "pyodide"
    assert pin["integrity"].startswith("sha512-")
    assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= set(pin["required"])


def test_fetch_script_unpacks_checks_and_skips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetch = load_fetch_script()
    tarball = tmp_path / "src" / "pyodide-1.2.3.tgz"
    tarball.parent.mkdir()
    make_tarball(tarball, fake_package("1.2.3"))
    pin = {
        "package": "pyodide",
        "version": "1.2.3",
        "integrity": fetch.sri_sha512(tarball),
        "required": ["package.json", "pyodide.mjs", "pyodide.asm.wasm"],
    }
    calls: list[str] = []

    def fake_pack(spec: str, workdir: Path) -> Path:
        calls.append(spec)
        copy = workdir / tarball.name
        copy.write_bytes(tarball.read_bytes())
        return copy

    monkeypatch.setattr(fetch, "npm_pack", fake_pack)
    dest = tmp_path / "vendor" / "pyodide"
    assert fetch.fetch(dest, pin) is True
    assert calls == ["pyodide@1.2.3"]
    assert (dest / "pyodide.asm.wasm").read_bytes() == b"\x00asm"
    assert fetch.is_current(dest, pin)
    assert fetch.fetch(dest, pin) is False  # idempotent: the stamp matches
    assert calls == ["pyodide@1.2.3"]
    (dest / "pyodide.mjs").unlink()  # an incomplete directory is fetched again
    assert fetch.fetch(dest, pin) is True
    assert sorted(p.name for p in dest.parent.iterdir()) == ["pyodide"]

    bad = dict(pin, integrity="sha512-" + "A" * 86 + "==")
    with pytest.raises(fetch.FetchError, match="integrity mismatch"):
        fetch.fetch(dest, bad, force=True)
    assert (dest / "pyodide.mjs").is_file()  # the good copy was left alone


@pytest.mark.parametrize(
    ("entries", "symlink", "message"),
    [
        ({"package/../evil.js": b"x"}, None, "unsafe path"),
        ({"/abs/evil.js": b"x"}, None, "unsafe path"),
        ({"other/evil.js": b"x"}, None, "outside package"),
        ({}, "package/link", "non-regular"),
    ],
)
def test_fetch_script_refuses_unsafe_tarballs(
    tmp_path: Path, entries: dict[str, bytes], symlink: str | None, message: str
) -> None:
    fetch = load_fetch_script()
    tarball = tmp_path / "bad.tgz"
    make_tarball(tarball, {**fake_package("1.0.0"), **entries}, symlink)
    with pytest.raises(fetch.FetchError, match=message):
        fetch.unpack(tarball, tmp_path / "out")


def test_fetch_script_checks_version(tmp_path: Path) -> None:
    fetch = load_fetch_script()
    tarball = tmp_path / "p.tgz"
    make_tarball(tarball, fake_package("2.0.0"))
    fetch.unpack(tarball, tmp_path / "out")
    pin = {"package": "pyodide", "version": "1.0.0", "required": ["pyodide.mjs"]}
    with pytest.raises(fetch.FetchError, match=r"expected pyodide@1\.0\.0"):
        fetch.check_contents(tmp_path / "out", pin)
