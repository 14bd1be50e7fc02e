"""``spider serve``'s solver API (``/api/think``, ``/api/review``) against the real app: the same
answers as the engine's, its refusals and their codes, its time limit, the end of a search whose
client went away, and its bounds per client address and in all."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from spider.cli import main
from spider.protocol.session import Session
from spider.serve import app as app_module
from spider.serve import solver_api
from spider.serve.app import ServeOptions, create_app, worker_app
from spider.serve.solver_api import SOLVER_ENV, SolverApi, SolverLimits
from spider.serve.sync import SYNC_ENV
from spider.solver.visible_form import FIELDS, read_visible_form
from tests.serve_thread import uvicorn_in_thread
from tests.static_host import free_port
from tests.sync_serve import start_serve, stop

JSON = {"Content-Type": "application/json"}
#: A budget no search ends before its time limit.
ENDLESS = 1_000_000


def played(suits: int, moves: int, number: int = 7) -> Session:
    """A session whose game has had up to ``moves`` moves, those that turn no card first."""
    session = Session()
    session.handle({"op": "new", "game": "spider", "suits": suits, "number": number})
    for _ in range(moves):
        game = session.game
        assert game is not None
        up = [len(column) - down for column, down in zip(game.columns, game.face_down, strict=True)]
        legal = sorted(
            game.legal_moves(), key=lambda m: m.count == up[m.src] and game.face_down[m.src] > 0
        )
        if not legal:
            break
        move = legal[0]
        reply = session.handle(
            {"op": "move", "src": move.src, "dst": move.dst, "count": move.count}
        )
        assert reply["ok"], reply
    return session


def without_elapsed(value: Any) -> Any:
    """``value`` with every ``elapsed`` left out (the only field that depends on the clock)."""
    if isinstance(value, dict):
        return {k: without_elapsed(v) for k, v in value.items() if k != "elapsed"}
    if isinstance(value, list):
        return [without_elapsed(v) for v in value]
    return value


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def api() -> SolverApi:
    return SolverApi(SolverLimits(think_seconds=20, review_seconds=20, per_client=2, total=2))


@pytest.fixture(scope="module")
def client(api: SolverApi) -> Iterator[TestClient]:
    with TestClient(create_app(solver=api)) as test_client:
        yield test_client


# ------------------------------------------------------------------ the answers


def test_engine_json_names_the_api_only_when_it_is_offered(client: TestClient) -> None:
    assert client.get("/engine.json").json()["api"] == {
        "think": "/api/think",
        "review": "/api/review",
    }
    without = TestClient(create_app())
    assert without.get("/engine.json").json()["api"] is None
    assert without.post("/api/think", json={}).status_code == 405
    # A static site has no server code: its /engine.json offers no API, whatever the app does.
    site = {file.url: file for file in client.app.state.site_files()}  # type: ignore[attr-defined]
    assert json.loads(site["/engine.json"].read())["api"] is None


def test_think_answers_as_the_engine_from_the_visible_cards_alone(client: TestClient) -> None:
    session = played(suits=2, moves=6)
    visible = session.handle({"op": "visible"})["visible"]
    assert visible["visited"], "the moves since the last card turned are part of the question"
    # Only counts of the hidden cards: the face-up ones are the only cards named.
    assert set(visible) == set(FIELDS)
    view, _ = read_visible_form(visible)
    assert [column["up"] for column in visible["columns"]] == [
        [card for card in session.handle({"op": "state"})["state"]["columns"][i]["up"]]
        for i in range(10)
    ]
    assert sum(view.down) + view.stock_cards > 0
    answer = client.post("/api/think", json={"visible": visible, "iterations": 12, "seed": 3})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/x-ndjson"
    assert answer.headers["cache-control"] == "no-store"
    *progress, last = lines(answer.text)
    assert all(set(line) == {"progress"} for line in progress)
    expected = session.handle({"op": "think", "iterations": 12, "seed": 3})["think"]
    assert without_elapsed(last["think"]) == without_elapsed(expected)
    assert last["think"]["iterations"] == 12


def test_think_sends_its_progress_and_ends_at_its_time_limit(client: TestClient) -> None:
    visible = played(suits=4, moves=0).handle({"op": "visible"})["visible"]
    answer = client.post(
        "/api/think", json={"visible": visible, "iterations": ENDLESS, "time_limit": 1.5}
    )
    *progress, last = lines(answer.text)
    assert progress, "a search of over a second says how far it is"
    assert {"iterations", "elapsed", "best", "share", "action"} <= set(progress[-1]["progress"])
    assert last["think"]["reason"] == "time-limit"


def test_the_servers_cap_cuts_a_longer_time_limit() -> None:
    capped = SolverApi(SolverLimits(think_seconds=1, per_client=1, total=1))
    visible = played(suits=4, moves=0).handle({"op": "visible"})["visible"]
    with TestClient(create_app(solver=capped)) as test_client:
        answer = test_client.post(
            "/api/think", json={"visible": visible, "iterations": ENDLESS, "time_limit": 3600}
        )
    think = lines(answer.text)[-1]["think"]
    assert think["reason"] == "time-limit" and think["elapsed"] < 3600


def test_a_search_past_its_time_limit_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search is given 1 s and its grace is cut so that the server stops waiting first.
    monkeypatch.setattr(solver_api, "GRACE_SECONDS", -0.8)
    killing = SolverApi(SolverLimits(think_seconds=1, per_client=1, total=1))
    visible = played(suits=4, moves=0).handle({"op": "visible"})["visible"]
    with TestClient(create_app(solver=killing)) as test_client:
        answer = test_client.post("/api/think", json={"visible": visible, "iterations": ENDLESS})
    assert lines(answer.text)[-1] == {
        "error": {"code": "time-limit", "message": "the search took too long"}
    }
    assert not killing.jobs and killing.slots.running == 0


def test_review_answers_as_the_engine(client: TestClient) -> None:
    session = played(suits=1, moves=12, number=11)
    saved = session.game.to_json() if session.game else ""
    fields = {"node_limit": 20_000, "think_iterations": 5}
    answer = client.post("/api/review", json={"saved": saved, **fields})
    assert answer.status_code == 200
    last = lines(answer.text)[-1]
    expected = session.handle({"op": "review", **fields, "memory_mb": 256})["review"]
    assert without_elapsed(last["review"]) == without_elapsed(expected)
    assert last["review"]["status"] in ("still-winnable", "lost", "never-winnable")


# ------------------------------------------------------------------ refusals


def _visible() -> dict[str, Any]:
    form: dict[str, Any] = played(suits=1, moves=0).handle({"op": "visible"})["visible"]
    return form


def _changed(**fields: Any) -> dict[str, Any]:
    return {**_visible(), **fields}


def _bad_column() -> dict[str, Any]:
    form = _visible()
    form["columns"][0] = {"down": 5, "up": []}
    return form


def _extra_ace() -> dict[str, Any]:
    form = _visible()
    form["columns"][0]["up"] = ["AS"] * 9  # 1 suit, 2 decks: 8 aces of spades
    form["stock"] -= 8
    return form


def _won() -> dict[str, Any]:
    columns = [{"down": 0, "up": []} for _ in range(10)]
    return _changed(columns=columns, stock=0, removed=["S"] * 8, visited=[])


THINK_REFUSALS = [
    ({"visible": _visible(), "seed": -1}, 400, "bad-request"),
    ({"visible": _visible(), "iterations": 0}, 400, "bad-request"),
    ({"visible": _visible(), "time_limit": "5"}, 400, "bad-request"),
    ({"visible": _visible(), "jobs": 4}, 400, "bad-request"),
    ({}, 400, "bad-request"),
    ({"visible": "the cards"}, 400, "bad-visible"),
    ({"visible": _changed(hidden=["KS"])}, 400, "bad-visible"),
    ({"visible": _changed(suits=3)}, 400, "bad-visible"),
    ({"visible": _changed(stock=40)}, 400, "bad-visible"),
    ({"visible": _changed(removed=["H"])}, 400, "bad-visible"),
    ({"visible": _bad_column()}, 400, "bad-visible"),
    ({"visible": _extra_ace()}, 400, "bad-visible"),
    ({"visible": _changed(visited=[[["AS"]]])}, 400, "bad-visible"),
    ({"visible": _won()}, 400, "bad-request"),
]


@pytest.mark.parametrize(("body", "status", "code"), THINK_REFUSALS)
def test_think_refuses_what_is_not_a_question(
    client: TestClient, api: SolverApi, body: dict[str, Any], status: int, code: str
) -> None:
    answer = client.post("/api/think", json=body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    assert answer.json()["error"]["message"]
    assert api.slots.running == 0 and not api.jobs


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"saved": 42}, "invalid-saved"),
        ({"saved": "{}"}, "invalid-saved"),
        ({"saved": "not a game"}, "invalid-saved"),
        ({"saved": "x", "memory_mb": 4096}, "bad-request"),
        ({"saved": "x", "position_time_limit": 0}, "bad-request"),
        ({"time_limit": 5}, "bad-request"),
    ],
)
def test_review_refuses_what_is_not_a_saved_game(
    client: TestClient, api: SolverApi, body: dict[str, Any], code: str
) -> None:
    answer = client.post("/api/review", json=body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, code)
    assert api.slots.running == 0 and not api.jobs


@pytest.mark.parametrize(
    ("method", "body", "headers", "status", "code"),
    [
        ("GET", None, {}, 405, "method-not-allowed"),
        ("PUT", b"{}", JSON, 405, "method-not-allowed"),
        ("POST", b"{}", {"Content-Type": "text/plain"}, 415, "unsupported-media-type"),
        ("POST", b"{not json", JSON, 400, "bad-request"),
        ("POST", b"[1, 2]", JSON, 400, "bad-request"),
        ("POST", b'{"visible": NaN}', JSON, 400, "bad-request"),
        ("POST", b"[" * 100 + b"]" * 100, JSON, 400, "bad-request"),
        ("POST", b" " * (1100 * 1024), JSON, 413, "too-large"),
    ],
)
def test_requests_are_checked_at_the_door(
    client: TestClient,
    method: str,
    body: bytes | None,
    headers: dict[str, str],
    status: int,
    code: str,
) -> None:
    answer = client.request(method, "/api/think", content=body, headers=headers)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)


# ------------------------------------------------------------------ over real connections


@contextmanager
def served(api: SolverApi) -> Iterator[int]:
    with uvicorn_in_thread(create_app(solver=api)) as port:
        yield port


def start_search(port: int, source: str = "127.0.0.1") -> tuple[http.client.HTTPConnection, Any]:
    """A "Think harder" of no end from ``source``: the connection and its answer (not read)."""
    visible = played(suits=4, moves=0).handle({"op": "visible"})["visible"]
    body = json.dumps({"visible": visible, "iterations": ENDLESS, "time_limit": 20})
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    connection.request("POST", "/api/think", body=body, headers=JSON)
    return connection, connection.getresponse()


def wait_for(condition: Any, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_search_stops_when_its_client_goes_away() -> None:
    api = SolverApi(SolverLimits(per_client=1, total=1))
    with served(api) as port:
        connection, response = start_search(port)
        assert response.status == 200
        assert "progress" in json.loads(response.readline())
        (job,) = api.jobs
        assert job.running
        connection.close()
        assert wait_for(lambda: not api.jobs), "the search still runs"
        assert not job.running and api.slots.running == 0
        # Its slot is free again: the same client may ask once more.
        again, answer = start_search(port)
        assert answer.status == 200
        again.close()
        assert wait_for(lambda: not api.jobs)


def test_searches_are_bounded_per_client_address_and_in_all() -> None:
    api = SolverApi(SolverLimits(per_client=1, total=2))
    with served(api) as port:
        first = start_search(port, "127.0.0.1")
        refused = start_search(port, "127.0.0.1")
        other = start_search(port, "127.0.0.2")
        busy = start_search(port, "127.0.0.3")
        assert (first[1].status, other[1].status) == (200, 200)
        assert refused[1].status == 429 and refused[1].getheader("Retry-After") == "10"
        assert json.loads(refused[1].read())["error"]["code"] == "too-many"
        assert busy[1].status == 503 and busy[1].getheader("Retry-After") == "10"
        assert json.loads(busy[1].read())["error"]["code"] == "busy"
        for connection, _ in (first, refused, other, busy):
            connection.close()
        assert wait_for(lambda: not api.jobs and api.slots.running == 0)


# ------------------------------------------------------------------ spider serve's options


def test_serve_offers_the_api_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[ServeOptions] = []
    monkeypatch.setattr(app_module, "serve", lambda **kwargs: given.append(kwargs["options"]))
    assert main(["serve", "--no-sync"]) == 0
    assert main(["serve", "--no-sync", "--no-solver-api"]) == 0
    argv = ["--think-seconds", "7", "--solver-jobs", "3", "--solver-per-client", "5"]
    assert main(["serve", "--no-sync", *argv]) == 0
    assert [options.solver for options in given] == [
        SolverLimits(),
        None,
        SolverLimits(think_seconds=7, per_client=3, total=3),
    ]


def test_every_worker_process_serves_the_api_with_its_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = SolverLimits(think_seconds=9, review_seconds=20, per_client=1, total=3)
    monkeypatch.delenv(SYNC_ENV, raising=False)
    monkeypatch.setenv(SOLVER_ENV, limits.to_env())
    assert worker_app().state.solver_api.limits == limits
    monkeypatch.delenv(SOLVER_ENV)
    assert worker_app().state.solver_api is None


def test_spider_serve_with_worker_processes_answers_and_stops_its_searches(
    tmp_path: Path,
) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    process = start_serve(port, ["--data-dir", str(tmp_path), "--workers", "2"], log)
    url = f"http://127.0.0.1:{port}/api/think"
    endless: list[str] = []

    def search_until_stopped() -> None:
        try:
            httpx.post(url, json={"visible": _visible(), "iterations": ENDLESS}, timeout=60)
        except httpx.HTTPError as error:
            endless.append(type(error).__name__)

    try:
        visible = _visible()
        answers = [httpx.post(url, json={"visible": visible, "iterations": 5}, timeout=60)]
        answers += [httpx.post(url, json={"visible": visible, "iterations": 5}, timeout=60)]
        searching = threading.Thread(target=search_until_stopped)
        searching.start()
        # Its answer has begun (the access log's third line for /api/think) before the stop.
        assert wait_for(lambda: log.read_text().count('POST /api/think HTTP/1.1" 200') == 3)
    finally:
        stop(process)
    assert [lines(answer.text)[-1]["think"]["iterations"] for answer in answers] == [5, 5]
    text = log.read_text()
    assert "think and review at /api/think and /api/review" in text and "in each worker" in text
    # Stopped mid-search: the search is cancelled within the shutdown's grace, not run out.
    searching.join(timeout=30)
    assert endless == ["RemoteProtocolError"]
    assert "timeout graceful shutdown exceeded" in text
