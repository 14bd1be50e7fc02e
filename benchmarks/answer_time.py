"""The answer time of "Think harder" and of the review, on the server and in the page's worker.

Usage: python benchmarks/answer_time.py [--repeats R] [--iterations N] [--nodes N] [--moves M]

For a 4-suit and a 1-suit Spider game (deal 3 of each, after ``M`` actions of the quick hint's
player: its move, else the deal):

- **server**: ``spider serve`` (started here on a free port, its solver API on; the compiled build
  when ``make setup`` built it) asked ``POST /api/think`` with the visible position and a fixed
  number of play-outs (``--iterations``), and ``POST /api/review`` with the saved game and a fixed
  number of positions per solver run (``--nodes``); the time from sending the request to reading
  the answer's last line, over HTTP on this machine;
- **worker**: the same requests to the engine under Pyodide in Node, started as the page's solver
  worker starts it (``benchmarks/answer_time.mjs``: ``engine-boot.js``, the bytecode that ``make``
  built), ``load`` then ``think`` or ``review``: the time of those two requests in a worker
  already started. The worker's own start (Pyodide and the engine), which the page pays at its
  first search, is printed apart.

And how many play-outs "Think harder" makes in the page's own budget (``--seconds``, 5 s by
default, a time limit rather than a count) on the 4-suit position, both ways.

Each figure is the median of ``R`` rounds, which take turns (the worker's, then the server's) so
that the machine's drift falls on both; the server's first search also starts its fork server:
it is left out, and printed apart. The work is the same both ways (a
fixed budget of play-outs and positions, the same seed): the answers are checked equal.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from spider.game import Game  # noqa: E402
from spider.native import compiled  # noqa: E402
from spider.serve.pyodide_runtime import default_bytecode_dir, default_pyodide_dir  # noqa: E402
from spider.solver.hint.quick import hint_action  # noqa: E402
from spider.solver.visible_form import visible_form  # noqa: E402

DEAL = 3


def played(suits: int, actions: int) -> Game:
    """Deal ``DEAL`` of Spider with ``suits`` suits after up to ``actions`` of the quick hint's
    player (its move, else the deal)."""
    game = Game.new("spider", suits, number=DEAL)
    for _ in range(actions):
        action = hint_action(game)
        if action is None:
            break
        game.push(action)
    return game


def questions(game: Game, iterations: int, nodes: int) -> dict[str, dict[str, Any]]:
    """The API's request bodies of each kind for ``game``."""
    return {
        "think": {"visible": visible_form(game), "iterations": iterations, "seed": 0},
        "review": {"saved": game.to_json(), "node_limit": nodes, "think_iterations": 5},
    }


def worker_requests(game: Game, kind: str, body: dict[str, Any]) -> list[str]:
    """The requests the page's solver worker is sent for the same question."""
    question = {k: v for k, v in body.items() if k not in ("visible", "saved")}
    if kind == "review":
        question |= {"memory_mb": 256, "progress_every": 1000}
    else:
        question |= {"progress_every": 1}
    load = {"op": "load", "saved": game.to_json()}
    return [json.dumps(load), json.dumps({"op": kind, **question})]


# ------------------------------------------------------------------ the server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server() -> Iterator[str]:
    """``spider serve`` (solver API on, no sync) on a free port: its base URL."""
    port = _free_port()
    code = "import sys; from spider.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--no-sync"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("spider serve did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)


def ask_server(base: str, kind: str, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Seconds from sending the request to reading the answer's last line, and that line."""
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}/api/{kind}", data=data, headers={"Content-Type": "application/json"}
    )
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as answer:
        lines = answer.read().decode().splitlines()
    took = time.perf_counter() - began
    last: dict[str, Any] = json.loads(lines[-1])
    if kind not in last:
        raise SystemExit(f"the server did not answer {kind}: {last}")
    return took, last[kind]


# ------------------------------------------------------------------ the worker


def run_worker(cases: dict[str, list[str]], repeats: int) -> dict[str, Any]:
    """The engine under Pyodide in Node, as the solver worker runs it: its times and replies."""
    node = shutil.which("node")
    bytecode = default_bytecode_dir()
    if node is None or not (bytecode / "engine.zip").is_file():
        raise SystemExit("needs node and the bytecode that `make` builds")
    pyodide = default_pyodide_dir()
    job = {
        "pyodide": str(pyodide),
        "stdlib": str(bytecode / "stdlib.zip"),
        "engine": str(bytecode / "engine.zip"),
        "full_stdlib": str(pyodide / "python_stdlib.zip"),
        "repeats": repeats,
        "cases": [{"name": name, "requests": requests} for name, requests in cases.items()],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "job.json"
        path.write_text(json.dumps(job))
        script = ROOT / "benchmarks" / "answer_time.mjs"
        out = subprocess.run(
            [node, str(script), str(path)], capture_output=True, text=True, check=True
        )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# ------------------------------------------------------------------ the table


def _without_elapsed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_elapsed(v) for k, v in value.items() if k != "elapsed"}
    if isinstance(value, list):
        return [_without_elapsed(v) for v in value]
    return value


def bodies_names(bodies: dict[tuple[int, str], dict[str, Any]]) -> list[str]:
    """The names of the fixed-work cases, in the table's order."""
    return [f"{suits}-{kind}" for suits, kind in bodies]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each (default: 3)")
    parser.add_argument("--iterations", type=int, default=100, help="Think harder's play-outs")
    parser.add_argument("--nodes", type=int, default=5_000, help="positions per solver run")
    parser.add_argument("--moves", type=int, default=20, help="hint actions before the question")
    parser.add_argument("--seconds", type=float, default=5.0, help="Think harder's time budget")
    args = parser.parse_args()
    load_before = os.getloadavg()

    games = {suits: played(suits, args.moves) for suits in (4, 1)}
    bodies = {
        (suits, kind): body
        for suits, game in games.items()
        for kind, body in questions(game, args.iterations, args.nodes).items()
    }
    cases = {
        f"{suits}-{kind}": worker_requests(games[suits], kind, body)
        for (suits, kind), body in bodies.items()
    }
    timed = {"visible": visible_form(games[4]), "time_limit": args.seconds, "seed": 0}
    cases["4-timed"] = worker_requests(games[4], "think", timed)

    # Rounds take turns, the worker's then the server's, so that the machine's drift falls on both.
    worker_times: dict[str, list[float]] = {name: [] for name in cases}
    server_times: dict[str, list[float]] = {name: [] for name in cases}
    playouts: dict[str, list[int]] = {"worker": [], "server": []}
    starts: list[float] = []
    replies: dict[str, Any] = {}
    with server() as base:
        # The first search starts the server's fork server (it imports the engine): apart.
        first_search = ask_server(base, "think", bodies[(1, "think")])[0]
        for _ in range(args.repeats):
            worker = run_worker(cases, 1)
            starts.append(worker["start"])
            replies = worker["replies"]
            for name, times in worker["cases"].items():
                worker_times[name] += times
            playouts["worker"].append(replies["4-timed"]["think"]["iterations"])
            for (suits, kind), body in bodies.items():
                name = f"{suits}-{kind}"
                took, answer = ask_server(base, kind, body)
                server_times[name].append(took)
                if _without_elapsed(answer) != _without_elapsed(replies[name][kind]):
                    print(f"warning: {name}: the server's answer differs from the worker's")
            playouts["server"].append(ask_server(base, "think", timed)[1]["iterations"])

    load = os.getloadavg()
    build = "compiled" if compiled() else "pure Python"
    print(
        f"answer time, Spider deal {DEAL} after {args.moves} hint actions; think {args.iterations} "
        f"play-outs, review {args.nodes:,} positions per solver run; median of {args.repeats}; "
        f"server: {build}; load average (1 min) {load_before[0]:.2f} before, {load[0]:.2f} after"
    )
    print()
    print("| question | answer | server (s) | worker, started (s) | worker / server |")
    print("|---|---|---:|---:|---:|")
    for name in bodies_names(bodies):
        suits, kind = name.split("-")
        on_server = statistics.median(server_times[name])
        in_worker = statistics.median(worker_times[name])
        label = f"{suits}-suit {'Think harder' if kind == 'think' else 'review'}"
        reply = replies[name][kind]
        said = (
            f"{reply['iterations']} play-outs, {reply['reason']}"
            if kind == "think"
            else f"{len(reply['probes'])} solver runs, {reply['status']}"
        )
        print(
            f"| {label} | {said} | {on_server:.3f} | {in_worker:.3f} "
            f"| {in_worker / on_server:.1f} |"
        )
    print()
    print(
        f"4-suit Think harder in {args.seconds:g} s: {statistics.median(playouts['server']):,.0f} "
        f"play-outs on the server, {statistics.median(playouts['worker']):,.0f} in the worker"
    )
    print(
        f"worker start (Pyodide and the engine, paid at the page's first search): "
        f"{statistics.median(starts):.2f} s; the server's first search (1-suit Think harder, its "
        f"fork server starting): {first_search:.2f} s"
    )


if __name__ == "__main__":
    main()
