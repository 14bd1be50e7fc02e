// @ts-check
// After a start that had no memory snapshot to restore (a first visit, a new release, one the
// worker refused), a helper worker makes one for the next start (worker.js, a worker named
// "snapshot"), once the page has had a moment of quiet: made during the start instead, it cost
// a first visit about a second before the engine was ready.

/** How long after the engine is ready the helper may begin (then at the first idle moment). */
const QUIET_MS = 1500;

/**
 * Starts the snapshot helper later if the engine's start had no snapshot to restore; the helper
 * stops itself when the snapshot is stored (or could not be).
 * @param {{timings?: {snapshot?: string}}} engine the started engine client
 */
export function makeSnapshotLater(engine) {
  const how = engine.timings?.snapshot;
  if (how !== "none" && how !== "refused") return; // restored, or a start without one ("off")
  const begin = () => {
    const helper = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "snapshot" });
    helper.onmessage = () => helper.terminate();
    helper.onerror = (event) => {
      event.preventDefault();
      helper.terminate();
    };
  };
  setTimeout(() => {
    if ("requestIdleCallback" in globalThis) requestIdleCallback(begin, { timeout: 5000 });
    else begin();
  }, QUIET_MS);
}
