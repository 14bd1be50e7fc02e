// @ts-check
// benchmarks/web.py's floor: the page only starts the worker and marks when it is ready.
const worker = new Worker(`/_floor/floor-worker.js${location.search}`, { type: "module" });
worker.onmessage = (event) => performance.mark("floor:ready", { detail: event.data });
