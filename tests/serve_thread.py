"""Run a real uvicorn server in a thread on a free loopback port, for tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn


@contextmanager
def uvicorn_in_thread(app: Any, **options: Any) -> Iterator[int]:
    """Serve ``app`` (uvicorn ``Config`` ``options`` beside quiet defaults) until the block
    ends; yields the port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, **{"log_level": "warning", "lifespan": "off", **options})
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
