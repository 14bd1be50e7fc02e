"""The HTTP headers of the web app, written once for every way it is served.

``spider serve`` (:mod:`spider.serve.app`) and the configurations ``spider build-site`` writes for
nginx, Caddy and hosts that read a ``_headers`` file (:mod:`spider.site_config`) all take their
headers from here:

- :data:`SECURITY_HEADERS`, on every response (errors too): a strict Content-Security-Policy
  (scripts, workers and fetches from this origin only; ``'wasm-unsafe-eval'`` lets Pyodide
  compile its WebAssembly) and cross-origin isolation (COOP/COEP), which gives the page
  ``SharedArrayBuffer`` so it can interrupt a running solver search;
- :func:`path_rules`: the caching of each URL path. Files whose URL names their version
  (``/pyodide/<version>/``, ``/stdlib/<hash>.zip``) are immutable for a year; the page, its
  service worker, manifest and the engine are always revalidated, so an update is seen at the
  next visit; the other front-end files may be reused for a minute.

A rule matches one exact path or every path under a prefix (ending in ``/``); the exact rule
wins, then the longest prefix, as in nginx (:func:`rule_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spider.limits import excerpt

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; "
    "base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    # Cross-origin isolation: the page may share memory with its workers (SharedArrayBuffer),
    # which lets it interrupt a running search instead of killing the solver's worker.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}

#: Seconds before a slow or idle client is dropped, for ``spider serve`` and the configurations
#: alike: a connection idle after a response; a request not arrived whole (from its first byte
#: or the connection's opening); a client reading nothing of a response.
KEEP_ALIVE_TIMEOUT = 5
REQUEST_TIMEOUT = 10
SEND_TIMEOUT = 60

NO_CACHE = "no-cache"
NO_STORE = "no-store"
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=60"
PYODIDE_VERSION_HEADER = "X-Pyodide-Version"
#: The page; ``/`` serves it.
INDEX_PATH = "/index.html"


@dataclass(frozen=True)
class PathRule:
    """Headers for one URL path (``/sw.js``) or every path under a prefix (``/stdlib/``).

    ``static`` is False for paths only ``spider serve`` answers (computed per request, or the
    unversioned Pyodide address): a static site has no file there.
    """

    path: str
    headers: Mapping[str, str]
    static: bool = True
    #: More exact paths with the same headers (``/``, which serves ``/index.html``).
    also: tuple[str, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        """The rule's path and its aliases."""
        return (self.path, *self.also)

    @property
    def is_prefix(self) -> bool:
        """Whether the rule covers every path under :attr:`path`."""
        return self.path.endswith("/")

    def matches(self, path: str) -> bool:
        """Whether the URL path ``path`` falls under this rule."""
        return path.startswith(self.path) if self.is_prefix else path in self.paths

    @property
    def cache_control(self) -> str:
        return self.headers["Cache-Control"]


def _cache(value: str, **extra: str) -> dict[str, str]:
    return {"Cache-Control": value, **{k.replace("_", "-"): v for k, v in extra.items()}}


def path_rules(pyodide_version: str | None) -> tuple[PathRule, ...]:
    """The caching rules of the app serving Pyodide ``pyodide_version`` (None: none known)."""
    versioned: dict[str, str] = (
        {PYODIDE_VERSION_HEADER: pyodide_version} if pyodide_version is not None else {}
    )
    rules = [
        PathRule("/", _cache(SHORT_CACHE)),
        PathRule(INDEX_PATH, _cache(NO_CACHE), also=("/",)),
        PathRule("/sw.js", {**_cache(NO_CACHE), "Service-Worker-Allowed": "/"}),
        PathRule("/manifest.webmanifest", _cache(NO_CACHE)),
        PathRule("/engine.zip", _cache(NO_CACHE)),
        PathRule("/engine.json", {**_cache(NO_CACHE), **versioned}),
        PathRule("/stdlib/", {**_cache(IMMUTABLE), **versioned}),
        PathRule("/start.json", _cache(NO_STORE), static=False),
        PathRule("/healthz", _cache(NO_STORE), static=False),
        # The sync service (spider.serve.sync), whose answers set the same themselves.
        PathRule("/api/sync", _cache(NO_STORE), static=False),
        PathRule("/api/sync/", _cache(NO_STORE), static=False),
        PathRule("/pyodide/", {**_cache(NO_CACHE), **versioned}, static=False),
    ]
    if pyodide_version is not None:
        rules.append(PathRule(f"/pyodide/{pyodide_version}/", {**_cache(IMMUTABLE), **versioned}))
    return tuple(rules)


def rule_for(rules: tuple[PathRule, ...], path: str) -> PathRule:
    """The rule of ``path``: an exact rule, else the longest prefix (``/`` covers all)."""
    for rule in rules:
        if not rule.is_prefix and path in rule.paths:
            return rule
    prefixes = [rule for rule in rules if rule.is_prefix and path.startswith(rule.path)]
    if not prefixes:
        raise ValueError(f"no rule covers {excerpt(path)}")
    return max(prefixes, key=lambda rule: len(rule.path))


def headers_for(rules: tuple[PathRule, ...], path: str) -> dict[str, str]:
    """Every header the table gives ``path``: the security headers and its rule's."""
    return {**SECURITY_HEADERS, **rule_for(rules, path).headers}
