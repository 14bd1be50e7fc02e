"""``spider build-site``: the static site, its configurations, and real servers serving it.

nginx and Caddy (Debian's packages, installed by ``make hosts``) serve one build with the
configurations it wrote, and must answer every file with the headers of the one table
(:mod:`spider.serve.headers`) that ``spider serve`` answers with too.
"""

from __future__ import annotations

import gzip
import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import brotli  # type: ignore[import-untyped]
import pytest
from starlette.testclient import TestClient

from spider.cli import main
from spider.serve.app import create_app, default_pyodide_dir
from spider.serve.headers import SECURITY_HEADERS, headers_for, path_rules, rule_for
from spider.serve.site import MARKER, PUBLIC, SiteError, build_site, check_target
from spider.serve.static import media_type_for
from tests import static_host
from tests.serve_thread import uvicorn_in_thread


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return static_host.shared_build(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def files(site: Path) -> list[str]:
    urls: list[str] = json.loads((site / MARKER).read_text(encoding="utf-8"))["files"]
    return urls


@pytest.fixture(scope="module")
def version(site: Path) -> str:
    value: str = json.loads((site / MARKER).read_text(encoding="utf-8"))["pyodide"]
    return value


@pytest.fixture(scope="module")
def app() -> Any:
    """One ``spider serve`` app for the module (it compresses each file once)."""
    return create_app()


def _on_disk(site: Path, url: str) -> Path:
    return site / PUBLIC / url.lstrip("/")


def test_site_holds_what_spider_serve_serves(
    app: Any, site: Path, files: list[str], version: str
) -> None:
    client = TestClient(app)
    assert "/index.html" in files and "/sw.js" in files and "/engine.zip" in files
    assert f"/pyodide/{version}/pyodide.asm.wasm" in files
    assert any(url.startswith("/stdlib/") for url in files), "the bytecode stdlib is missing"
    # Nothing the page does not load (Pyodide's consoles, type declarations, maps, read-me).
    extras = [u for u in files if u.endswith((".html", ".d.ts", ".map", ".md"))]
    assert extras == ["/index.html"]
    for url in files:
        served = client.get(url, headers={"Accept-Encoding": "identity"})
        assert served.status_code == 200, url
        expected = served.content
        if url == "/index.html":  # it says there is no /start.json (see below)
            expected = expected.replace(b'content="/start.json"', b'content=""', 1)
        assert expected == _on_disk(site, url).read_bytes(), url
        for suffix, decompress in ((".br", brotli.decompress), (".gz", gzip.decompress)):
            packed = _on_disk(site, url + suffix)
            if packed.exists():
                assert decompress(packed.read_bytes()) == expected, url + suffix
    # The large compressible files all have their Brotli and gzip.
    for url in ("/main.js", "/engine.zip", f"/pyodide/{version}/pyodide.asm.wasm"):
        assert _on_disk(site, url + ".br").is_file() and _on_disk(site, url + ".gz").is_file()


def _parse_headers_file(text: str) -> list[tuple[str, dict[str, str]]]:
    rules: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            rules.append((line.strip(), {}))
        else:
            name, _, value = line.strip().partition(":")
            rules[-1][1][name.strip()] = value.strip()
    return rules


def _pattern_matches(pattern: str, url: str) -> bool:
    return url.startswith(pattern[:-1]) if pattern.endswith("*") else url == pattern


def test_headers_file_gives_each_file_the_table_headers(
    site: Path, files: list[str], version: str
) -> None:
    rules = _parse_headers_file((site / PUBLIC / "_headers").read_text(encoding="utf-8"))
    table = path_rules(version)
    for url in [*files, "/"]:
        got: dict[str, str] = {}
        for pattern, headers in rules:
            if _pattern_matches(pattern, url):
                # Netlify and Cloudflare join a header two rules set: none may be set twice.
                assert not set(got) & set(headers), (url, pattern)
                got.update(headers)
        assert got == headers_for(table, url), url


def test_nginx_accepts_the_configuration(site: Path, tmp_path: Path) -> None:
    result = static_host.nginx_test(site, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "[warn]" not in result.stderr and "[emerg]" not in result.stderr, result.stderr


def _get(base: str, path: str, accept: str | None) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", path, headers={} if accept is None else {"Accept-Encoding": accept})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


@contextmanager
def _spider_serve(app: Any) -> Iterator[str]:
    with uvicorn_in_thread(app) as port:
        yield f"http://127.0.0.1:{port}"


SERVERS = ("caddy", "nginx", "spider-serve")


@pytest.mark.parametrize("server", SERVERS)
def test_real_server_sends_the_table_headers(
    server: str, app: Any, site: Path, files: list[str], version: str, tmp_path: Path
) -> None:
    table = path_rules(version)
    running = (
        _spider_serve(app)
        if server == "spider-serve"
        else (static_host.nginx if server == "nginx" else static_host.caddy)(site, tmp_path)
    )
    with running as base:
        for url in [*files, "/"]:
            disk = _on_disk(site, "/index.html" if url == "/" else url)
            status, headers, body = _get(base, url, "br, gzip")
            assert status == 200, url
            for name, value in headers_for(table, url).items():
                assert headers.get(name.lower()) == value, (url, name)
            assert (
                headers["content-type"].partition(";")[0]
                == (media_type_for(disk.name).partition(";")[0])
            ), url
            encoding = headers.get("content-encoding")
            decode = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding]
            expected = disk.read_bytes()
            if server == "spider-serve" and disk.name == "index.html":  # it has /start.json
                expected = expected.replace(b'content=""', b'content="/start.json"', 1)
            assert decode(body) == expected, url
            if server != "spider-serve" and disk.with_name(disk.name + ".br").exists():
                assert encoding == "br", url  # the file made at build time
        # gzip for browsers without Brotli, identity for clients that ask for none.
        status, headers, body = _get(base, "/main.js", "gzip")
        assert headers.get("content-encoding") == "gzip"
        assert gzip.decompress(body) == _on_disk(site, "/main.js").read_bytes()
        status, headers, body = _get(base, f"/pyodide/{version}/pyodide.asm.wasm", None)
        assert "content-encoding" not in headers and headers["content-type"] == "application/wasm"
        assert body == _on_disk(site, f"/pyodide/{version}/pyodide.asm.wasm").read_bytes()
        assert headers["cache-control"] == rule_for(table, "/stdlib/").cache_control
        # Errors carry the security headers too.
        status, headers, _ = _get(base, "/no-such-file.js", "br")
        assert status == 404
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name.lower()) == value, name


# --------------------------------------------------- what an operator leaves in the folder

SECRET = b"a secret outside the site"


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A build of its own on port 8081, with what an operator might leave in its folder: dot
    files and folders, and symbolic links to files and folders out of it; and their paths."""
    base = tmp_path_factory.mktemp("planted")
    site = static_host.build(base / "site", port=8081)
    public = site / PUBLIC
    version = json.loads((site / MARKER).read_text(encoding="utf-8"))["pyodide"]
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(SECRET)
    (outside / "secret.js").write_bytes(SECRET)
    paths = {
        "/.env": "file",
        "/.git/config": "file",
        "/icons/.secret": "file",
        f"/pyodide/{version}/.secret.js": "file",
        "/stdlib/.secret": "file",
        "/outside.txt": outside / "secret.txt",
        "/icons/outside.txt": outside / "secret.txt",
        f"/pyodide/{version}/outside.js": outside / "secret.js",
        "/outside-dir/": outside,
    }
    for url, what in paths.items():
        target = public / url.strip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if what == "file":
            target.write_bytes(SECRET)
        else:
            assert isinstance(what, Path)
            target.symlink_to(what, target_is_directory=what.is_dir())
    urls = [url + "secret.txt" if url.endswith("/") else url for url in paths]
    return site, urls


@pytest.mark.parametrize("server", ("caddy", "nginx"))
def test_no_dot_file_and_no_link_out_of_the_site_is_served(
    server: str, planted: tuple[Path, list[str]], tmp_path: Path
) -> None:
    site, urls = planted
    running = (static_host.nginx if server == "nginx" else static_host.caddy)(site, tmp_path)
    with running as base:
        for url in urls:
            status, headers, body = _get(base, url, None)
            assert status in (403, 404), (url, status)
            assert SECRET not in body, url
            for name, value in SECURITY_HEADERS.items():
                assert headers.get(name.lower()) == value, (url, name)
        # The site itself is served as before.
        assert _get(base, "/main.js", None)[0] == 200
        assert _get(base, "/", None)[0] == 200
        assert _get(base, "/icons/icon.svg", None)[0] == 200


def test_the_configurations_take_the_port(planted: tuple[Path, list[str]], tmp_path: Path) -> None:
    site, _ = planted
    server = (site / "nginx" / "spider.conf").read_text(encoding="utf-8")
    assert "listen 8081;" in server and "listen [::]:8081;" in server
    assert "listen 80;" not in server
    assert "{$SPIDER_SITE_ADDRESS::8081}" in (site / "Caddyfile").read_text(encoding="utf-8")
    result = static_host.nginx_test(site, tmp_path, server_block=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("port", ["0", "65536", "http", "-80"])
def test_refuses_a_port_out_of_range(
    port: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["build-site", str(tmp_path / "out"), "--port", port])
    assert exit_.value.code == 2
    assert "port number" in capsys.readouterr().err  # the option is known and checked
    assert not (tmp_path / "out").exists()
    with pytest.raises(SiteError, match="port"):
        build_site(tmp_path / "out", port=0)


def test_a_static_page_asks_no_start_address(site: Path, app: Any) -> None:
    served = TestClient(app).get("/index.html").text
    assert '<meta name="spider-start" content="/start.json">' in served
    static = (site / PUBLIC / "index.html").read_text(encoding="utf-8")
    assert static == served.replace('content="/start.json"', 'content=""', 1)
    meta = json.loads((site / PUBLIC / "engine.json").read_text(encoding="utf-8"))
    served_files = sorted(
        url.rpartition("/")[2] for url in _urls(site) if url.startswith("/pyodide/")
    )
    assert meta["pyodide"]["files"] == served_files
    # One loader of the two names a Pyodide may have: the service worker asks only for it.
    assert sum(name in served_files for name in ("pyodide.asm.mjs", "pyodide.asm.js")) == 1


def _urls(site: Path) -> list[str]:
    urls: list[str] = json.loads((site / MARKER).read_text(encoding="utf-8"))["files"]
    return urls


# ----------------------------------------------------------------------- refusals (exit 2)


def test_refuses_a_directory_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["build-site", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not the output of spider build-site" in err
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_refuses_a_file_and_strangers_in_an_earlier_build(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(SiteError, match="not a directory"):
        check_target(target)
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    (earlier / MARKER).write_text('{"generator": "spider build-site"}', encoding="utf-8")
    (earlier / "public").mkdir()
    check_target(earlier)  # an earlier build may be replaced
    (earlier / "mine.txt").write_text("x", encoding="utf-8")
    with pytest.raises(SiteError, match="did not write"):
        check_target(earlier)


def test_refuses_without_pyodide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "pyodide"
    empty.mkdir()
    monkeypatch.setenv("SPIDER_PYODIDE_DIR", str(empty))
    assert main(["build-site", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no Pyodide runtime at" in err
    assert not (tmp_path / "out").exists()
    with pytest.raises(SiteError, match="absolute"):
        build_site(tmp_path / "out", deploy_dir=Path("relative/dir"), pyodide_dir=empty)
    assert default_pyodide_dir() == empty
