"""The listening sockets of ``spider serve``, opened before anything else is built.

uvicorn binds its address only once the app is built, and a failure there (the port in use, a
host name that does not resolve, a port below 1024 without the privilege) logs seven lines and
exits with status 3. :func:`listen_sockets` binds first, as asyncio's ``create_server`` would
(every address the host resolves to; ``""`` means all interfaces; IPv6 sockets only IPv6), and
turns a failure into a :class:`ListenProblem` that says in one line what could not be done;
``spider serve`` prints it and exits with status 2. The sockets then go to uvicorn, to its one
server or to each of its worker processes.
"""

from __future__ import annotations

import errno
import socket

#: Connections the kernel queues before the server accepts them (uvicorn's default).
BACKLOG = 2048
#: The ports below this need a privilege to listen on (on Linux and the BSDs).
PRIVILEGED_PORTS = 1024


class ListenProblem(Exception):
    """The server cannot listen where asked; the message says so on one line."""


def address_text(host: str, port: int) -> str:
    """``host:port`` as people write it (``[::1]:8000``; all interfaces are ``*``)."""
    if not host:
        host = "*"
    elif ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}"


def _reason(error: OSError, port: int) -> str:
    """What went wrong, in words (the system's own, lowercase, for the rarer cases)."""
    if error.errno == errno.EADDRINUSE:
        return "the address is in use (is another server listening on it?)"
    if error.errno == errno.EACCES:
        if port < PRIVILEGED_PORTS:
            return f"permission denied (ports below {PRIVILEGED_PORTS} need privileges)"
        return "permission denied"
    if error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address"
    text = error.strerror or str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


def _resolve(host: str, port: int) -> list[tuple[int, int, int, tuple[object, ...]]]:
    """The distinct (family, type, protocol, address) to bind for ``host``."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        detail = error.strerror if isinstance(error, socket.gaierror) else "not a host name"
        raise ListenProblem(
            f"cannot listen on {address_text(host, port)}: no such host ({detail})"
        ) from None
    found = [(family, kind, proto, address) for family, kind, proto, _, address in infos]
    return list(dict.fromkeys(found))


def listen_sockets(host: str, port: int, backlog: int = BACKLOG) -> list[socket.socket]:
    """Sockets listening on ``port`` of every address ``host`` resolves to.

    Raises:
        ListenProblem: the name does not resolve or an address cannot be bound.
    """
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, address in _resolve(host, port):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(backlog)
            sock.set_inheritable(True)  # worker processes serve it too
    except OSError as error:
        for sock in sockets:
            sock.close()
        raise ListenProblem(
            f"cannot listen on {address_text(host, port)}: {_reason(error, port)}"
        ) from None
    return sockets
