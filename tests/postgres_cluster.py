"""A private PostgreSQL server from Debian's package, for the tests and the sync benchmark.

``initdb`` makes a cluster in a new temporary directory and ``pg_ctl`` starts it on a free
loopback port (its Unix socket in that directory), trusting local connections of the user
``spider``; :func:`postgres_cluster` stops it and removes the directory. PostgreSQL refuses to
run as root: when the tests run as root, the server runs as the ``postgres`` user the Debian
package creates (the directory is made its own).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.static_host import free_port

#: Where Debian's postgresql package puts the server's programs.
PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
USER = "spider"
START_TIMEOUT = 30


def pg_bin() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl`` (the newest installed), or None."""
    for directory in PG_BIN_DIRS:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    return None


@dataclass(frozen=True)
class Cluster:
    """A running server: its address, and a way to make fresh databases on it."""

    host: str
    port: int

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://{USER}@{self.host}:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _as_server_user() -> tuple[Callable[[], None] | None, int | None, int | None]:
    """(preexec_fn, uid, gid) that run a child as ``postgres`` when this process is root."""
    if os.geteuid() != 0:
        return None, None, None
    entry = pwd.getpwnam("postgres")
    uid, gid = entry.pw_uid, entry.pw_gid

    def drop() -> None:
        os.setgid(gid)
        os.setuid(uid)

    return drop, uid, gid


def _run(args: list[str], preexec: Callable[[], None] | None) -> None:
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
        preexec_fn=preexec,
        check=False,
        cwd="/",
    )
    if done.returncode != 0:
        raise RuntimeError(f"{Path(args[0]).name} failed: {(done.stdout + done.stderr)[-2000:]}")


@contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of its own for the block (see the module's description)."""
    binaries = pg_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    preexec, uid, gid = _as_server_user()
    root = Path(tempfile.mkdtemp(prefix="spider-pg-"))
    data = root / "data"
    port = free_port()
    try:
        if uid is not None and gid is not None:
            os.chown(root, uid, gid)
        initdb = [str(binaries / "initdb"), "-D", str(data), "-U", USER, "--auth=trust"]
        _run([*initdb, "-E", "UTF8", "--no-instructions", "--no-sync"], preexec)
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root} "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log")]
        _run([*pg_ctl, "-o", options, "-w", "-t", str(START_TIMEOUT), "start"], preexec)
        try:
            yield Cluster("127.0.0.1", port)
        finally:
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                _run(
                    [str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                    preexec,
                )
    finally:
        shutil.rmtree(root, ignore_errors=True)
