// @ts-check
// Engine client: the page's only door to the rules. It owns the module worker, numbers the
// requests, and resolves each with the engine's parsed reply. Requests made before the engine
// is ready are sent at once and answered, in order, when it is.

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */

/**
 * The engine worker engine-start.js began before the page's modules loaded, with the messages
 * (`data`) and errors it sent meanwhile.
 * @typedef {{worker: Worker, early: Array<{data?: unknown, error?: string}>}} EarlyWorker
 */
/** The page's global scope, where engine-start.js leaves that worker. @typedef {typeof globalThis & {spiderEngineWorker?: EarlyWorker}} EarlyScope */

/**
 * A message of the engine worker (worker.js): `ready` (with the release and the start-up
 * timings), `error`, a `reply` to request `id` (and the engine's time), a long request's `progress`.
 * @typedef {{type?: string, id?: number, text?: string, ms?: number, data?: unknown, detail?: string, version?: string, timings?: Record<string, number | string>}} WorkerMessage
 */

/**
 * A request waiting for its reply.
 * @typedef {{resolve: (reply: Reply) => void, reject: (err: unknown) => void, text: string, onProgress: ((data: unknown) => void) | null}} Pending
 */

export class EngineClient extends EventTarget {
  /** `name` names the worker ("solver" for the second instance that runs searches). */
  constructor(url = new URL("./worker.js", import.meta.url), { name = "engine" } = {}) {
    super();
    this.url = url;
    this.name = name;
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {"idle" | "loading" | "ready" | "error"} */
    this.status = "idle";
    /** @type {Worker | null} */
    this.worker = null;
    /** @type {Uint8Array | null} the interrupt buffer shared with the worker (cross-origin isolated pages) */
    this.interrupts = null;
    /** @type {string | undefined} the engine's release, once ready */
    this.version = undefined;
    /** @type {Record<string, number | string>} ms spent in each step of the worker's start, and how its snapshot went */
    this.timings = {};
  }

  start() {
    this.status = "loading";
    this.dispatchEvent(new CustomEvent("status", { detail: { status: "loading" } }));
    const early = this.#adoptEarlyWorker();
    const worker = early?.worker ?? new Worker(this.url, { type: "module", name: this.name });
    this.worker = worker;
    // Cross-origin isolated pages can interrupt a request without losing the worker.
    this.interrupts = globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    if (this.interrupts) worker.postMessage({ interruptBuffer: this.interrupts });
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#fail(event.message || "worker error");
    };
    for (const kept of early?.early ?? []) {
      if (kept.error !== undefined) this.#fail(kept.error);
      else this.#receive(kept.data);
    }
    // Re-send what was waiting for a worker that failed and was restarted.
    for (const [id, p] of this.pending) worker.postMessage({ id, text: p.text });
  }

  /**
   * The engine worker that engine-start.js began before the page's modules loaded, with what it
   * sent meanwhile; taken once, by the first start of the client named "engine".
   * @returns {EarlyWorker | undefined}
   */
  #adoptEarlyWorker() {
    const scope = /** @type {EarlyScope} */ (globalThis);
    const early = this.name === "engine" ? scope.spiderEngineWorker : undefined;
    if (early) scope.spiderEngineWorker = undefined;
    return early;
  }

  /** Restarts a failed engine; requests still waiting are sent to the new worker. */
  restart() {
    this.worker?.terminate();
    this.start();
  }

  /**
   * Sends a request object; resolves with the reply object (ok true or false).
   * `onProgress(data)` receives the progress messages of a long request (op "solve").
   * @param {Request} req
   * @param {{onProgress?: ((data: unknown) => void) | null}} [opts]
   * @returns {Promise<Reply>}
   */
  request(req, { onProgress = null } = {}) {
    const id = this.nextId++;
    const text = JSON.stringify({ ...req, id });
    return new Promise((/** @type {(reply: Reply) => void} */ resolve, reject) => {
      this.pending.set(id, { resolve, reject, text, onProgress });
      this.worker?.postMessage({ id, text });
    });
  }

  /**
   * Stops the worker at once, whatever it is doing (how a search is cancelled); the requests
   * still waiting reject with an Error named "AbortError". The next `start()` begins afresh.
   */
  terminate() {
    this.worker?.terminate();
    this.worker = null;
    this.status = "idle";
    this.#abortPending();
  }

  /**
   * Interrupts the request the worker is running (Python raises KeyboardInterrupt there; the
   * solver stops with its partial result) and rejects every waiting request with an Error named
   * "AbortError"; the worker stays ready. Returns false, doing nothing, when the page is not
   * cross-origin isolated: then only `terminate()` can stop a request.
   */
  interrupt() {
    if (!this.interrupts || !this.worker) return false;
    Atomics.store(this.interrupts, 0, 2); // SIGINT
    this.#abortPending();
    return true;
  }

  /** Rejects every request still waiting with an Error named "AbortError". */
  #abortPending() {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new DOMException("cancelled", "AbortError"));
  }

  get ready() {
    return this.status === "ready";
  }

  /** @param {string} detail */
  #fail(detail) {
    if (this.status === "error") return;
    this.status = "error";
    this.dispatchEvent(new CustomEvent("status", { detail: { status: "error", detail } }));
  }

  /** @param {unknown} data a message of the worker (WorkerMessage) */
  #receive(data) {
    if (typeof data !== "object" || data === null) return;
    const msg = /** @type {WorkerMessage} */ (data);
    if (msg.type === "ready") {
      this.status = "ready";
      this.version = msg.version;
      this.timings = msg.timings ?? {};
      this.dispatchEvent(new CustomEvent("status", { detail: { status: "ready", version: msg.version } }));
    } else if (msg.type === "error") {
      this.#fail(msg.detail ?? "worker error");
    } else if (msg.type === "progress") {
      this.pending.get(msg.id ?? 0)?.onProgress?.(msg.data);
    } else if (msg.type === "reply") {
      const p = this.pending.get(msg.id ?? 0);
      if (!p) return;
      if (msg.ms !== undefined) {
        // How long the engine itself took, as a user-timing measure (read by benchmarks).
        const end = performance.now();
        performance.measure("spider:engine", { start: Math.max(0, end - msg.ms), end });
      }
      this.pending.delete(msg.id ?? 0);
      try {
        p.resolve(JSON.parse(msg.text ?? ""));
      } catch (err) {
        p.reject(err);
      }
    }
  }
}
