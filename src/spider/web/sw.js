// @ts-check
// Service worker: after one visit the app loads and plays with no network.
//
// Install caches the app shell, the engine (/engine.zip), the Pyodide runtime and the bytecode
// standard library /engine.json names (then Pyodide's own python_stdlib.zip is not needed). Pages are then
// served from the cache at once (stale-while-revalidate); once the page's engine is ready (the
// page sends "check", so the check never slows a start) a background check asks
// the server whether any cached file changed. If one did, the whole shell is fetched again, so
// files of two versions never mix, and the open pages are told that an update is ready (it is
// used from the next load on). Pyodide lives under a versioned address: it is fetched again
// only when /engine.json names a new version.

// The cache is named after the release (spider.__version__), which the page gives in this
// worker's address (/sw.js?v=0.1.0, read from /engine.json): a new release starts a new cache.
const RELEASE = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `spider-${RELEASE}`;
const CHECK_EVERY_MS = 60 * 1000;

/** The service worker's global scope (`self`, typed). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const SHELL = [
  "/",
  "/engine-start.js",
  "/snapshot.js",
  "/app.css",
  "/boot.js",
  "/main.js",
  "/anim.js",
  "/cards.js",
  "/dialogs.js",
  "/dom.js",
  "/drag.js",
  "/engine-boot.js",
  "/engine-client.js",
  "/i18n.js",
  "/keyboard.js",
  "/recent.js",
  "/render.js",
  "/settings.js",
  "/solver.js",
  "/server.js",
  "/review.js",
  "/stats.js",
  "/statsview.js",
  "/sync.js",
  "/synckey.js",
  "/syncview.js",
  "/vendor/qrcode.mjs",
  "/chart.js",
  "/checks.js",
  "/storage.js",
  "/mirror.js",
  "/timer.js",
  "/controls.js",
  "/demo.js",
  "/hint.js",
  "/messages.js",
  "/kept.js",
  "/pending.js",
  "/nomoves.js",
  "/records.js",
  "/saving.js",
  "/start.js",
  "/state.js",
  "/types.js",
  "/sound.js",
  "/taps.js",
  "/daily.js",
  "/backupdoc.js",
  "/backupui.js",
  "/replay.js",
  "/think.js",
  "/worker.js",
  "/locales/en.js",
  "/locales/ca.js",
  "/locales/es.js",
  "/locales/it.js",
  "/locales/fr.js",
  "/locales/de.js",
  "/locales/pt.js",
  "/locales/nl.js",
  "/manifest.webmanifest",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-512.png",
  "/engine.zip",
  "/engine.json",
];

// Pyodide is served under a versioned, immutable address named in /engine.json.
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];
const PYODIDE_LOADERS = ["pyodide.asm.mjs", "pyodide.asm.js"]; // one of them, by version

// When the last update check ran (throttles the checks; the worker's own bookkeeping).
let lastCheck = 0;

// The files the cache holds are read by the browser straight from it, where it supports the
// static routing of service workers: no waiting for this worker to start and answer each of
// the 50-odd requests of a start. A file not in the cache goes to the network. Pages (any
// address is the shell) and the server's first deal (/start.json) still come through the fetch
// handler below.
const CACHED_PATHS = [
  "/pyodide/*",
  "/stdlib/*",
  "/*.js",
  "/vendor/*",
  "/*.css",
  "/icons/*",
  "/locales/*",
  "/manifest.webmanifest",
  "/engine.zip",
  "/engine.json",
];

sw.addEventListener("install", (event) => {
  // Static routing (`InstallEvent.addRoutes`) is too new for the checker's library.
  const routed = /** @type {ExtendableEvent & {addRoutes?: (rules: unknown) => unknown}} */ (event);
  if (typeof routed.addRoutes === "function") {
    const or = CACHED_PATHS.map((pathname) => ({ urlPattern: { pathname }, requestMethod: "GET" }));
    const rules = [{ condition: { or }, source: { cacheName: CACHE } }];
    // A browser that refuses the rules still has the fetch handler: the install goes on.
    event.waitUntil(Promise.resolve(routed.addRoutes(rules)).catch(() => {}));
  }
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" })));
      await cachePyodide(cache);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // The engine worker's memory snapshot (worker.js) has a cache of its own.
      for (const key of await caches.keys()) if (key !== CACHE && key !== "spider-snapshot") await caches.delete(key);
      await sw.clients.claim();
    })(),
  );
});

/**
 * Field `key` of `value` when it is an object (what a JSON document holds there), else undefined.
 * @param {unknown} value
 * @param {string} key
 * @returns {unknown}
 */
function field(value, key) {
  return typeof value === "object" && value !== null ? /** @type {Record<string, unknown>} */ (value)[key] : undefined;
}

/**
 * What the cached /engine.json says about the runtime.
 * @param {Cache} cache
 * @returns {Promise<{base: string, stdlib: string | null, files: unknown[] | null}>}
 */
async function runtimeInfo(cache) {
  const meta = await cache.match("/engine.json");
  /** @type {unknown} */
  const info = meta ? await meta.json().catch(() => ({})) : {};
  // The versioned Pyodide address, such as "/pyodide/314.0.7/"; the bytecode stdlib or null;
  // the names of the Pyodide files served (null from an older server: then both loaders are
  // tried, and one of them is missing).
  const pyodide = field(info, "pyodide");
  const files = field(pyodide, "files");
  const url = field(pyodide, "url");
  const stdlib = field(info, "stdlib");
  return {
    base: typeof url === "string" ? url : "/pyodide/",
    stdlib: typeof stdlib === "string" ? stdlib : null,
    files: Array.isArray(files) ? files : null,
  };
}

/** @param {Cache} cache */
async function cachePyodide(cache) {
  const { base, stdlib, files } = await runtimeInfo(cache);
  await cache.addAll([...PYODIDE_FILES.map((f) => base + f), stdlib ?? `${base}python_stdlib.zip`]);
  // Only the loader this Pyodide has: asking for the other one is a 404 on every install.
  const wanted = files ? PYODIDE_LOADERS.filter((f) => files.includes(f)) : PYODIDE_LOADERS;
  const loaders = await Promise.allSettled(wanted.map((f) => cache.add(base + f)));
  if (!loaders.some((r) => r.status === "fulfilled")) throw new Error("no Pyodide loader");
  // Drop the files of any other Pyodide version or standard library.
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/pyodide/") && !path.startsWith(base)) await cache.delete(request);
    if (path.startsWith("/stdlib/") && path !== stdlib) await cache.delete(request);
  }
}

/**
 * @param {ArrayBuffer} a
 * @param {ArrayBuffer} b
 */
function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Fetches `url` again; stores it if it changed. Resolves true when it changed.
 * @param {Cache} cache
 * @param {string} url
 */
async function refresh(cache, url) {
  const fresh = await fetch(url, { cache: "no-cache" });
  if (!fresh.ok) return false;
  const cached = await cache.match(url);
  if (cached) {
    const [a, b] = await Promise.all([cached.arrayBuffer(), fresh.clone().arrayBuffer()]);
    if (sameBytes(a, b)) return false;
  }
  await cache.put(url, fresh);
  return true;
}

/** @param {string} type */
async function notify(type) {
  for (const client of await sw.clients.matchAll({ type: "window" })) client.postMessage({ type });
}

/** Looks for a newer version of the app and the runtime, and fetches it whole. */
async function checkForUpdate() {
  if (Date.now() - lastCheck < CHECK_EVERY_MS) return;
  lastCheck = Date.now();
  try {
    const cache = await caches.open(CACHE);
    const before = JSON.stringify(await runtimeInfo(cache));
    const changed = await Promise.all(SHELL.map((url) => refresh(cache, url).catch(() => false)));
    if (!changed.some(Boolean)) return;
    if (JSON.stringify(await runtimeInfo(cache)) !== before) await cachePyodide(cache);
    await notify("updated");
  } catch {
    // Offline or the server is away: the cached version keeps working.
  }
}

/** @param {Request} request */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") cache.put(request, response.clone());
  return response;
}

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === "navigate") {
    // Any page address (with ?code=, ?position= or ?lang=) is the app shell.
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE);
        const hit = await cache.match("/");
        return hit ?? fetch(request);
      })(),
    );
    return;
  }
  // The server's first deal is for this moment only (and offline there is none).
  if (url.pathname === "/sw.js" || url.pathname === "/start.json") return;
  event.respondWith(cacheFirst(request));
});

sw.addEventListener("message", (event) => {
  if (event.data?.type === "check") event.waitUntil(checkForUpdate());
});
