// @ts-check
// The page's first script, and a classic one, so that it runs the moment it arrives, before the
// page's modules have loaded: it starts the engine's worker, which then loads Pyodide while the
// page loads the rest. EngineClient (engine-client.js) adopts the worker, with the messages and
// errors it sent meanwhile (kept here, so none is lost). On a warm start this begins the worker
// 150-400 ms sooner than a start from the page's modules (benchmarks/web.py).
(() => {
  /** @type {import("./engine-client.js").EarlyWorker | undefined} */
  let early;
  try {
    const worker = new Worker("/worker.js", { type: "module", name: "engine" });
    early = { worker, early: [] };
    const kept = early.early;
    worker.onmessage = (event) => kept.push({ data: event.data });
    worker.onerror = (event) => {
      event.preventDefault();
      kept.push({ error: event.message || "worker error" });
    };
  } catch {
    early = undefined; // EngineClient starts its own
  }
  /** @type {import("./engine-client.js").EarlyScope} */ (globalThis).spiderEngineWorker = early;
})();
