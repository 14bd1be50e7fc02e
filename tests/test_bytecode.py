"""The fast start: the bytecode that `make` builds, how the server serves it, Brotli,
``/start.json``, and (under Node, with Pyodide's own CPython) that every protocol request works
from the trimmed bytecode standard library without needing a module it left out."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from spider import Game, Move
from spider.backup import check_document
from spider.protocol import Session
from spider.replay import encode_replay
from spider.serve.app import create_app, default_pyodide_dir
from spider.serve.bytecode import STAMP_NAME, load_bytecode
from spider.serve.engine_zip import build_engine_zip
from spider.serve.pyodide_runtime import default_bytecode_dir
from tests.test_backup import document

REPO = Path(__file__).resolve().parent.parent
PACKAGE_DIR = REPO / "src" / "spider"
FAKE_VERSION = "9.8.7"
IMMUTABLE = "public, max-age=31536000, immutable"
JS_TEXT = "".join(f"export const value{i} = {i} * 3; // a module\n" for i in range(300))
CODE = "SP1-S2C-AAAAAAD"


# ---------------------------------------------------------------- a fake site


def fake_bytecode(directory: Path, engine_version: str, pyodide: str = FAKE_VERSION) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    stdlib = b"PK stdlib bytecode " * 500
    engine = b"PK engine bytecode " * 300
    (directory / "stdlib.zip").write_bytes(stdlib)
    (directory / "engine.zip").write_bytes(engine)
    (directory / "stdlib.zip.br").write_bytes(brotli.compress(stdlib))
    stamp = {
        "key": "k",
        "pyodide": pyodide,
        "engine": engine_version,
        "stdlib_sha256": hashlib.sha256(stdlib).hexdigest(),
        "stdlib_modules": ["json", "typing"],
    }
    (directory / STAMP_NAME).write_text(json.dumps(stamp))


@pytest.fixture()
def site(tmp_path: Path) -> dict[str, Path]:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Spider</title>\n" + "<p>x</p>\n" * 200)
    (web / "app.js").write_text(JS_TEXT)
    pyodide = tmp_path / "pyodide"
    pyodide.mkdir()
    (pyodide / "package.json").write_text(json.dumps({"name": "pyodide", "version": FAKE_VERSION}))
    (pyodide / "pyodide.mjs").write_text(JS_TEXT)
    (pyodide / "pyodide.asm.wasm").write_bytes(b"\x00asm\x01\x00\x00\x00" + b"\x01\x02\x03" * 5000)
    for name in ("console.html", "pyodide.d.ts", "pyodide.mjs.map", "README.md"):
        (pyodide / name).write_text(JS_TEXT)
    fake_bytecode(tmp_path / "bytecode", build_engine_zip(PACKAGE_DIR).version)
    return {"web": web, "pyodide": pyodide, "bytecode": tmp_path / "bytecode"}


def client_for(site: dict[str, Path], **options: Any) -> TestClient:
    options.setdefault("bytecode_dir", site["bytecode"])
    return TestClient(create_app(site["pyodide"], web_dir=site["web"], **options))


# ---------------------------------------------------------------- Brotli


def test_brotli_preferred_and_made_on_the_fly(site: dict[str, Path]) -> None:
    client = client_for(site)
    plain = client.get("/app.js", headers={"Accept-Encoding": "identity"})
    response = client.get("/app.js", headers={"Accept-Encoding": "gzip, br"})
    assert response.headers["content-encoding"] == "br"
    assert response.headers["vary"] == "Accept-Encoding"
    assert response.content == plain.content  # httpx decodes Brotli
    assert int(response.headers["content-length"]) < len(plain.content) / 3
    assert response.headers["etag"] not in (plain.headers["etag"],)
    assert response.headers["etag"].endswith('.br"')
    gz = client.get("/app.js", headers={"Accept-Encoding": "gzip, br;q=0"})
    assert gz.headers["content-encoding"] == "gzip"
    revalidated = client.get(
        "/app.js",
        headers={"Accept-Encoding": "br", "If-None-Match": response.headers["etag"]},
    )
    assert revalidated.status_code == 304


def test_brotli_made_at_build_time_is_used_only_when_current(site: dict[str, Path]) -> None:
    wasm = site["pyodide"] / "pyodide.asm.wasm"
    made = brotli.compress(wasm.read_bytes(), quality=11)
    (site["pyodide"] / "pyodide.asm.wasm.br").write_bytes(made)
    client = client_for(site)
    response = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "br"})
    assert response.headers["content-encoding"] == "br"
    assert response.content == wasm.read_bytes()
    assert int(response.headers["content-length"]) == len(made)
    # The .br itself is never served, and a stale one is ignored.
    assert client.get("/pyodide/pyodide.asm.wasm.br").status_code == 404
    (site["pyodide"] / "pyodide.mjs.br").write_bytes(brotli.compress(b"stale"))
    fresh = client_for(site).get("/pyodide/pyodide.mjs", headers={"Accept-Encoding": "br"})
    assert fresh.headers["content-encoding"] == "br"
    assert fresh.text == JS_TEXT


def test_range_requests_still_get_identity(site: dict[str, Path]) -> None:
    response = client_for(site).get(
        "/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "br", "Range": "bytes=0-3"}
    )
    assert response.status_code == 206
    assert "content-encoding" not in response.headers
    assert response.content == b"\x00asm"


def test_unused_pyodide_files_are_not_served(site: dict[str, Path]) -> None:
    client = client_for(site)
    assert client.get(f"/pyodide/{FAKE_VERSION}/pyodide.mjs").status_code == 200
    for name in ("console.html", "pyodide.d.ts", "pyodide.mjs.map", "README.md", "package.json"):
        assert client.get(f"/pyodide/{name}").status_code == 404, name
        assert client.get(f"/pyodide/{FAKE_VERSION}/{name}").status_code == 404, name


# ---------------------------------------------------------------- bytecode


def test_bytecode_is_served_when_built_for_this_engine(site: dict[str, Path]) -> None:
    client = client_for(site)
    info = client.get("/engine.json").json()
    assert info["format"] == "bytecode"
    assert info["version"] == build_engine_zip(PACKAGE_DIR).version
    stdlib_bytes = (site["bytecode"] / "stdlib.zip").read_bytes()
    version = hashlib.sha256(stdlib_bytes).hexdigest()[:16]
    assert info["stdlib"] == f"/stdlib/{version}.zip"
    stdlib = client.get(info["stdlib"], headers={"Accept-Encoding": "br"})
    assert stdlib.status_code == 200
    assert stdlib.headers["cache-control"] == IMMUTABLE
    assert stdlib.headers["content-encoding"] == "br"
    assert stdlib.content == stdlib_bytes
    assert client.get(info["stdlib"], headers={"Accept-Encoding": "gzip"}).content == stdlib_bytes
    assert client.get("/stdlib/0000000000000000.zip").status_code == 404
    assert info["snapshot"] is True
    assert client_for(site, snapshot=False).get("/engine.json").json()["snapshot"] is False
    engine = client.get("/engine.zip", headers={"Accept-Encoding": "gzip"})
    assert engine.content == (site["bytecode"] / "engine.zip").read_bytes()
    assert engine.headers["content-encoding"] == "gzip"


@pytest.mark.parametrize("problem", ["other engine", "other pyodide", "corrupt", "missing"])
def test_sources_when_the_bytecode_does_not_match(site: dict[str, Path], problem: str) -> None:
    engine = build_engine_zip(PACKAGE_DIR)
    if problem == "other engine":
        fake_bytecode(site["bytecode"], "0123456789abcdef")
    elif problem == "other pyodide":
        fake_bytecode(site["bytecode"], engine.version, pyodide="1.2.3")
    elif problem == "corrupt":
        (site["bytecode"] / "stdlib.zip").write_bytes(b"PK truncated")
    else:
        shutil.rmtree(site["bytecode"])
    client = client_for(site)
    info = client.get("/engine.json").json()
    assert (info["format"], info["stdlib"]) == ("source", None)
    assert client.get("/engine.zip").content == engine.data


def test_plain_start_serves_sources_and_no_start(site: dict[str, Path]) -> None:
    client = client_for(site, fast_start=False)
    assert client.get("/engine.json").json()["stdlib"] is None
    assert client.get("/engine.zip").content == build_engine_zip(PACKAGE_DIR).data
    assert client.get("/start.json", params={"request": '{"op": "new"}'}).status_code == 404


# ---------------------------------------------------------------- /start.json


def test_start_deals_a_game_the_engine_then_loads(site: dict[str, Path]) -> None:
    client = client_for(site)
    request = {"op": "new", "game": "spider", "suits": 2, "rule": "classic", "undo_limit": 400}
    response = client.get("/start.json", params={"request": json.dumps(request)})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    reply = response.json()
    assert reply["ok"] and reply["state"]["suits"] == 2
    loaded = Session().handle({"op": "load", "saved": reply["saved"]})
    assert loaded["ok"] and loaded["state"] == reply["state"]
    # Each first visit gets its own deal.
    again = client.get("/start.json", params={"request": json.dumps(request)}).json()
    assert again["state"]["number"] != reply["state"]["number"] or again["state"]["number"] is None


def test_start_opens_a_code(site: dict[str, Path]) -> None:
    request = json.dumps({"op": "open", "code": CODE})
    reply = client_for(site).get("/start.json", params={"request": request}).json()
    game = Game.from_code(CODE)
    assert reply["ok"] and reply["state"]["code"] == CODE
    assert reply["state"]["columns"][0]["up"] == [str(game.columns[0].cards[-1])]


@pytest.mark.parametrize(
    ("request_text", "code"),
    [
        (None, "bad-request"),
        ("{not json", "bad-request"),
        ('["op", "new"]', "bad-request"),
        ('{"op": "move", "src": 0, "dst": 1, "count": 1}', "bad-request"),
        ('{"op": "load", "saved": "x"}', "bad-request"),
        ('{"op": "open", "code": "XX-nonsense"}', "invalid-code"),
        ('{"op": "new", "suits": 3}', "bad-request"),
        ('{"op": "new", "pad": "' + "x" * 5000 + '"}', "bad-request"),
    ],
)
def test_start_refuses_bad_requests(
    site: dict[str, Path], request_text: str | None, code: str
) -> None:
    params = {} if request_text is None else {"request": request_text}
    response = client_for(site).get("/start.json", params=params)
    assert response.status_code == 400
    reply = response.json()
    assert reply["ok"] is False and reply["error"]["code"] == code


# ---------------------------------------------------------------- the real build


def real_bytecode() -> Path:
    directory = default_bytecode_dir()
    if not (directory / STAMP_NAME).is_file():
        pytest.fail(f"no bytecode in {directory}: run `make`")
    return directory


def test_build_is_current_and_a_no_op() -> None:
    directory = real_bytecode()
    before = {p.name: p.stat().st_mtime_ns for p in directory.iterdir()}
    out = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "build_bytecode.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "is current" in out.stdout
    assert {p.name: p.stat().st_mtime_ns for p in directory.iterdir()} == before


def test_real_bytecode_matches_the_engine_and_pyodide() -> None:
    directory = real_bytecode()
    stamp = json.loads((directory / STAMP_NAME).read_text())
    engine = build_engine_zip(PACKAGE_DIR)
    pyodide = json.loads((default_pyodide_dir() / "package.json").read_text())["version"]
    code = load_bytecode(directory, engine.version, pyodide)
    assert code is not None and code.stdlib_br is not None and code.engine_br is not None
    magic = bytes.fromhex(stamp["magic"])
    for data, prefix in ((code.stdlib, ""), (code.engine, "spider/")):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            modules = [n for n in archive.namelist() if n.endswith((".py", ".pyc"))]
            assert modules and all(n.endswith(".pyc") for n in modules)
            assert all(n.startswith(prefix) for n in modules)
            assert all(archive.read(n)[:4] == magic for n in modules)
            # Unchecked hash-based: flags 0b01 (hash, no check), so no source is ever read.
            assert all(archive.read(n)[4:8] == b"\x01\x00\x00\x00" for n in modules)
    names = zipfile.ZipFile(io.BytesIO(code.engine)).namelist()
    engine_names = {n[:-1] for n in names if n.endswith(".pyc")}
    assert engine_names == {n for n in engine.files if n.endswith(".py")}


# ---------------------------------------------------------------- under Node, with Pyodide


def run_engine(tmp_path: Path, requests: list[dict[str, Any]], python: list[str]) -> Any:
    directory = real_bytecode()
    node = shutil.which("node")
    assert node is not None, "Node.js is needed (make builds the bytecode with it)"
    pyodide = default_pyodide_dir()
    job = {
        "pyodide": str(pyodide),
        "stdlib": str(directory / "stdlib.zip"),
        "engine": str(directory / "engine.zip"),
        "full_stdlib": str(pyodide / "python_stdlib.zip"),
        "requests": [json.dumps(r) for r in requests],
        "python": python,
    }
    (tmp_path / "job.json").write_text(json.dumps(job))
    out = subprocess.run(
        [node, str(REPO / "tests" / "node" / "run_engine.mjs"), str(tmp_path / "job.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def position_of(code: str) -> str:
    session = Session()
    session.handle({"op": "open", "code": code})
    position: str = session.handle({"op": "export"})["export"]["position"]
    return position


def replay_link_of(code: str, move: Move) -> str:
    game = Game.from_code(code)
    game.push(move)
    return encode_replay(game)


def every_op() -> list[dict[str, Any]]:
    """Every protocol op, with the solver's and the hint's, each answered ok."""
    game = Game.from_code(CODE)
    move = next(m for m in game.legal_moves())
    auto = next(m for m in game.legal_moves() if m.count == 1)
    backup = check_document(document()).to_json()
    return [
        {"op": "new", "game": "spiderette", "suits": 4, "scoring": "reveal"},
        {"op": "new", "game": "spider", "suits": 2, "rule": "flexible"},
        {"op": "new", "winnable": True, "suits": 1},
        {"op": "open", "code": CODE},
        {"op": "auto", "src": auto.src, "count": 1},
        {"op": "undo"},
        {"op": "move", "src": move.src, "dst": move.dst, "count": move.count},
        {"op": "undo"},
        {"op": "redo"},
        {"op": "deal"},
        {"op": "set", "undo_limit": 100},
        {"op": "state"},
        {"op": "daily", "date": "2026-11-30"},
        {"op": "replay_link"},
        {"op": "replay", "link": replay_link_of(CODE, move), "step": 1},
        {"op": "hint", "index": 0},
        {"op": "hint", "index": 1},
        {"op": "status", "node_limit": 2000},
        {"op": "visible"},
        {"op": "solve", "time_limit": 2, "memory_mb": 64, "progress_every": 500},
        {"op": "export"},
        {"op": "restart"},
        {"op": "open", "position": position_of(CODE)},
        {"op": "backup-check", "text": json.dumps(document())},
        {"op": "backup-merge", "local": backup, "incoming": backup},
    ]


def test_every_request_works_from_the_bytecode_stdlib(tmp_path: Path) -> None:
    requests = every_op()
    requests.insert(3, {"op": "load", "saved": Session().handle(requests[2])["saved"]})
    result = run_engine(tmp_path, requests, [])
    failed = [(r, q) for r, q in zip(result["replies"], requests, strict=True) if not r["ok"]]
    assert failed == []
    assert result["fallback"] == []  # no request needed a module the bytecode left out


def test_a_module_left_out_loads_from_the_full_stdlib(tmp_path: Path) -> None:
    python = [
        "import fractions; str(fractions.Fraction(2, 6))",
        "import json.tool, json; json.tool.__name__ + ' ' + json.__file__",
        "import no_such_module_here",
    ]
    python[-1] = "import importlib.util; str(importlib.util.find_spec('no_such_module_here'))"
    result = run_engine(tmp_path, [{"op": "new"}], python)
    assert result["python"][0] == "1/3"
    assert result["python"][1].startswith("json.tool /lib/python")
    assert result["python"][2] == "None"
    assert result["fallback"] == ["fractions", "json.tool"]
