"""Real web servers from Debian's packages (nginx, Caddy) serving a ``spider build-site`` output.

Each runs as a child of the test, as the current user, on a free loopback port, with its pid,
logs and temporary files in a directory of the test's own; the site's headers come from the
configuration ``build-site`` wrote (nginx: ``nginx/spider-locations.conf`` inside a ``server``
block on the test's port; Caddy: the ``Caddyfile`` with its address and admin endpoint from the
environment, as documented, and a ``log`` directive added). Both keep an access log of every
request they answered (:func:`answered`).
"""

from __future__ import annotations

import fcntl
import json
import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spider.serve.site import (
    CADDYFILE,
    MARKER,
    NGINX_DIR,
    NGINX_LOCATIONS,
    NGINX_SERVER,
    build_site,
)

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
START_TIMEOUT = 15.0
#: Every request the server answered, in the test's work directory (see :func:`answered`).
ACCESS_LOG = "access.log"


def build(directory: Path, port: int = 80) -> Path:
    """``spider build-site`` into ``directory``, its absolute path as the deploy directory."""
    build_site(directory, port=port)
    return directory


def shared_build(basetemp: Path) -> Path:
    """One build for the whole test run (``basetemp``: pytest's base temporary directory),
    shared by the xdist workers, whose base directories sit side by side in the run's own; the
    tests only read it."""
    base = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    site = base / "static-site"
    with (base / "static-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (site / MARKER).is_file():
            build(site)
    return site


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}): {_tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not listen on port {port}: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return log.read_text(encoding="utf-8", errors="replace")[-2000:]
    except OSError:
        return "(no log)"


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def nginx_conf(site: Path, work: Path, port: int) -> str:
    """A main nginx configuration around the site's generated ``spider-locations.conf``."""
    user = pwd.getpwuid(os.geteuid()).pw_name
    temp = "\n".join(
        f"    {kind}_temp_path {work / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""daemon off;
pid {work / "nginx.pid"};
error_log {work / "error.log"} warn;
{"user " + user + ";" if os.geteuid() == 0 else ""}
load_module {BROTLI_MODULE};
events {{ worker_connections 512; }}
http {{
    log_format spider '$status $request_uri';
    access_log {work / ACCESS_LOG} spider;
{temp}
    server {{
        listen 127.0.0.1:{port};
        include {site / NGINX_DIR / NGINX_LOCATIONS};
    }}
}}
"""


def nginx_test(
    site: Path, work: Path, server_block: bool = False
) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` of the configuration around the site (it checks, serves nothing); with
    ``server_block``, of the generated ``nginx/spider.conf`` included as it is."""
    work.mkdir(parents=True, exist_ok=True)
    conf = work / "nginx-test.conf"
    text = nginx_conf(site, work, free_port())
    if server_block:
        start = text.index("    server {")
        end = text.index("    }\n", start) + len("    }\n")
        text = text[:start] + f"    include {site / NGINX_DIR / NGINX_SERVER};\n" + text[end:]
    conf.write_text(text, encoding="utf-8")
    return subprocess.run(
        [NGINX, "-t", "-p", str(work), "-e", str(work / "error.log"), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@contextmanager
def nginx(site: Path, work: Path) -> Iterator[str]:
    """nginx serving ``site`` on a free loopback port; yields its base URL (no slash)."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = work / "nginx.conf"
    conf.write_text(nginx_conf(site, work, port), encoding="utf-8")
    log = work / "error.log"
    process = subprocess.Popen(
        [NGINX, "-p", str(work), "-e", str(log), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_listening(process, port, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(process)


def caddyfile_with_log(site: Path, work: Path) -> Path:
    """The site's generated Caddyfile, with an access log into ``work`` (nothing else added)."""
    text = (site / CADDYFILE).read_text(encoding="utf-8")
    address = "{$SPIDER_SITE_ADDRESS:"
    start = text.index(address)
    line_end = text.index("\n", start) + 1
    log = f"\tlog {{\n\t\toutput file {work / ACCESS_LOG}\n\t\tformat json\n\t}}\n"
    config = work / CADDYFILE
    config.write_text(text[:line_end] + log + text[line_end:], encoding="utf-8")
    return config


def answered(work: Path) -> list[tuple[int, str]]:
    """(status, path and query) of every request the server in ``work`` answered, in order:
    the page's, its workers' and its service worker's alike (read once the server stopped)."""
    found: list[tuple[int, str]] = []
    for line in (work / ACCESS_LOG).read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):  # Caddy's JSON lines
            entry = json.loads(line)
            found.append((int(entry["status"]), entry["request"]["uri"]))
        elif line.strip():
            status, _, uri = line.partition(" ")
            found.append((int(status), uri))
    return found


@contextmanager
def caddy(site: Path, work: Path) -> Iterator[str]:
    """Caddy serving ``site`` with its generated Caddyfile (and an access log) on a free
    loopback port."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    config = caddyfile_with_log(site, work)
    log = work / "caddy.log"
    env = {
        **os.environ,
        "SPIDER_SITE_ADDRESS": f"http://127.0.0.1:{port}",
        "SPIDER_CADDY_ADMIN": "off",
        "HOME": str(work),
        "XDG_DATA_HOME": str(work / "data"),
        "XDG_CONFIG_HOME": str(work / "config"),
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        wait_listening(process, port, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(process)
