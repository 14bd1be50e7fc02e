// @ts-check
// The engine worker: Pyodide runs the `spider` package, loaded from the server as /engine.zip,
// and answers the page's JSON requests with spider.protocol's Session.handle_json.
//
// Messages in:  {id, text}            (text: a JSON request of docs/protocol.md)
// Messages out: {type: "ready", version, timings}   (timings: ms spent in each start-up step)
//               {type: "error", detail}
//               {type: "reply", id, text, ms}        (ms: time the engine took to answer)
//               {type: "progress", id, data}         (a long request's progress, such as op
//                                                     "solve": {expanded, positions, elapsed})
//
//               {interruptBuffer}   (a Uint8Array over a SharedArrayBuffer: the page sets it
//                                    to 2 to interrupt the running request)
//
// The page runs two of these: the game engine, and (named "solver", started on first use) a
// second Pyodide instance for the solver, so a search never holds up play. When the page is
// cross-origin isolated it shares an interrupt buffer with the worker: setting it makes Python
// raise KeyboardInterrupt, the solver returns its partial result, and the worker stays warm for
// the next search. Elsewhere a search is cancelled by terminating its worker. A third, named
// "snapshot", only makes a memory snapshot for the next start, says {type: "snapshot", stored}
// and is stopped (snapshot.js).

import { installStdlibFallback, startEngine } from "./engine-boot.js";

/** @typedef {import("./engine-boot.js").Pyodide} Pyodide */
/** @typedef {import("./engine-boot.js").LoadPyodide} LoadPyodide */
/**
 * What /engine.json says: Pyodide's versioned address and version, the bytecode standard
 * library, the release, and whether snapshots are made.
 * @typedef {{pyodide?: {url?: string, version?: string}, stdlib?: string, version?: string, snapshot?: boolean}} EngineMeta
 */

// The worker's runtime (this worker has no app state: it answers requests in order).
/** @type {((text: string) => string) | null} the engine's answer to a JSON request */
let handle = null;
/** @type {Pyodide | null} Pyodide, once loaded */
let runtime = null;
/** @type {number | null} the id of the request being answered (tags its progress) */
let currentId = null;
/** @type {Uint8Array | null} the shared interrupt buffer, when the page sent one */
let interrupts = null;

/** @type {Record<string, number | string>} ms spent in each start-up step, and how the snapshot went */
const timings = {};

/**
 * The bytes at `url`, synchronously (a worker may block; an import cannot wait).
 * @param {string} url
 */
function fetchSync(url) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.responseType = "arraybuffer";
  xhr.send();
  if (xhr.status !== 200) throw new Error(`${url}: HTTP ${xhr.status}`);
  return new Uint8Array(xhr.response);
}

// A memory snapshot of Pyodide with the engine started (about 30 MB) is kept in Cache Storage
// under a key naming everything in it: Pyodide's version, the standard library, the engine. A
// start with one restores it, which skips Python's start-up and the engine's imports. A start
// without one is a plain start, and the page then asks a helper (this script, in a worker named
// "snapshot") to make one once it has nothing else to do: making it during the start cost a
// first visit about a second. Whatever goes wrong with a snapshot (another build, a broken or
// missing entry, storage full) ends in a plain start.
const SNAPSHOTS = "spider-snapshot";

// The layout of what a snapshot holds besides Python's memory (2: the engine imported from its
// zip); a snapshot of another layout is never restored.
const SNAPSHOT_LAYOUT = 2;

/**
 * The snapshot's key, or null where there is none (the plain start: sources).
 * @param {EngineMeta} meta
 */
function snapshotKey(meta) {
  if (!meta?.stdlib || !meta?.pyodide?.version || !meta?.version || meta.snapshot === false) return null;
  return `/snapshot/${SNAPSHOT_LAYOUT}/${meta.pyodide.version}/${meta.stdlib.split("/").pop()}/${meta.version}`;
}

/**
 * The stored snapshot under `key` (its body not read yet), or null (none, or Cache Storage refused).
 * @param {string} key
 */
async function findSnapshot(key) {
  try {
    return (await (await caches.open(SNAPSHOTS)).match(key)) ?? null;
  } catch {
    return null;
  }
}

/**
 * Stores `bytes` as the only snapshot, resolving true; a failure (storage full) leaves none.
 * @param {string} key
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
async function writeSnapshot(key, bytes) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(key, new Response(bytes));
    for (const old of await cache.keys()) if (new URL(old.url).pathname !== key) await cache.delete(old);
    return true;
  } catch {
    await caches.delete(SNAPSHOTS).catch(() => {});
    return false;
  }
}

/**
 * Pyodide, restored from the stored `snapshot` when it can be, else started plainly. Its body
 * is read while Pyodide's own files load (loadPyodide takes a promise).
 * @param {LoadPyodide} loadPyodide
 * @param {{indexURL: string, stdLibURL?: string}} options
 * @param {Response | null} snapshot
 */
async function loadRuntime(loadPyodide, options, snapshot) {
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot.arrayBuffer() });
      timings.snapshot = "restored";
      return { pyodide, restored: true };
    } catch {
      timings.snapshot = "refused"; // another build or a broken file: the helper makes another
      await caches.delete(SNAPSHOTS).catch(() => {});
    }
  }
  return { pyodide: await loadPyodide(options), restored: false };
}

/**
 * What a start needs, fetched side by side: the engine's zip (a promise), /engine.json, the
 * options of loadPyodide (the versioned, immutable address of Pyodide and the bytecode standard
 * library it names) and the snapshot's key.
 */
async function runtimeFiles() {
  const zip = fetch("/engine.zip").then((r) => {
    if (!r.ok) throw new Error(`/engine.zip: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  zip.catch(() => {}); // awaited later, unless Pyodide fails first
  /** @type {EngineMeta} */
  const meta = await fetch("/engine.json")
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  const indexURL = meta?.pyodide?.url ?? "/pyodide/";
  const options = meta?.stdlib ? { indexURL, stdLibURL: meta.stdlib } : { indexURL };
  return { zip, meta, indexURL, options, key: snapshotKey(meta) };
}

async function start() {
  const t0 = performance.now();
  // When the worker began, on the page's clock: the page subtracts its own timeOrigin.
  timings.origin = performance.timeOrigin;
  const { zip, meta, indexURL, options, key } = await runtimeFiles();
  timings.meta = performance.now() - t0;
  /** @type {[{loadPyodide: LoadPyodide}, Response | null]} */
  const [{ loadPyodide }, snapshot] = await Promise.all([
    import(`${indexURL}pyodide.mjs`),
    key ? findSnapshot(key) : null,
  ]);
  timings.files = performance.now() - t0;
  const { pyodide, restored } = await loadRuntime(loadPyodide, options, snapshot);
  timings.snapshot ??= key ? "none" : "off";
  timings.pyodide = performance.now() - t0;
  const t1 = performance.now();
  // Progress of long requests goes straight to the page, tagged with the request's id.
  const progress = (/** @type {string} */ text) => postMessage({ type: "progress", id: currentId, data: JSON.parse(text) });
  handle = startEngine(pyodide, await zip, progress, { restored });
  if (meta?.stdlib) installStdlibFallback(pyodide, () => fetchSync(`${indexURL}python_stdlib.zip`));
  if (interrupts) pyodide.setInterruptBuffer(interrupts);
  runtime = pyodide;
  timings.engine = performance.now() - t1;
  timings.total = performance.now() - t0;
  return meta.version ?? null;
}

/**
 * The snapshot helper's whole job: Pyodide started as a snapshot's source, the engine imported,
 * the snapshot taken before anything of JavaScript enters Python, and stored. Resolves whether
 * a snapshot is stored (false where there is no key: the plain start of sources).
 */
async function makeSnapshot() {
  const { zip, indexURL, options, key } = await runtimeFiles();
  if (!key) return false;
  /** @type {{loadPyodide: LoadPyodide}} */
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  /** @type {Uint8Array<ArrayBuffer> | null} */
  let made = null;
  startEngine(pyodide, await zip, () => {}, { beforeConnect: () => (made = pyodide.makeMemorySnapshot()) });
  return made ? writeSnapshot(key, made) : false;
}

if (self.name === "snapshot") {
  makeSnapshot().then(
    (stored) => postMessage({ type: "snapshot", stored }),
    (err) => postMessage({ type: "snapshot", stored: false, detail: String(err?.message ?? err) }),
  );
} else {
  const started = start().then(
    (version) => postMessage({ type: "ready", version, timings }),
    (err) => {
      postMessage({ type: "error", detail: String(err?.message ?? err) });
      throw err;
    },
  );

  // Requests are answered strictly in arrival order; those sent before the engine is ready wait.
  let chain = started;
  self.onmessage = (event) => {
    // The page's message (engine-client.js): {id, text}, or {interruptBuffer} first.
    const data = /** @type {unknown} */ (event.data);
    const { id, text, interruptBuffer } = typeof data === "object" && data !== null ? /** @type {Record<string, unknown>} */ (data) : {};
    if (interruptBuffer instanceof Uint8Array) {
      // Sent before any request: start() installs it once Pyodide is loaded, or here if the
      // page adopted this worker (engine-start.js) after that.
      interrupts = interruptBuffer;
      runtime?.setInterruptBuffer(interrupts);
      return;
    }
    chain = chain.then(() => {
      let reply;
      const t = performance.now();
      currentId = typeof id === "number" ? id : null;
      // An interrupt that came after its request had ended is meant for no one.
      if (interrupts) Atomics.store(interrupts, 0, 0);
      try {
        if (!handle) throw new Error("the engine did not start");
        reply = handle(typeof text === "string" ? text : "");
      } catch (err) {
        reply = JSON.stringify({ id, ok: false, error: { code: "engine-failure", message: String(err) } });
      }
      postMessage({ type: "reply", id, text: reply, ms: performance.now() - t });
    });
    chain.catch(() => {});
  };
}
