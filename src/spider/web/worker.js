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
// the next search. Elsewhere a search is cancelled by terminating its worker.

const ENGINE_DIR = "/home/pyodide/engine";
let handle = null;
let currentId = null;
let interrupts = null; // the shared interrupt buffer, when the page sent one

const timings = {};

async function start() {
  const t0 = performance.now();
  // /engine.json names the engine's version and Pyodide's versioned (immutable) address.
  const meta = await fetch("/engine.json")
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  const indexURL = meta?.pyodide?.url ?? "/pyodide/";
  // Pyodide and the engine sources load side by side.
  const [pyodide, zip] = await Promise.all([
    import(`${indexURL}pyodide.mjs`)
      .then(({ loadPyodide }) => loadPyodide({ indexURL }))
      .then((py) => {
        timings.pyodide = performance.now() - t0;
        return py;
      }),
    fetch("/engine.zip").then((r) => {
      if (!r.ok) throw new Error(`/engine.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  if (interrupts) pyodide.setInterruptBuffer(interrupts);
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  const sys = pyodide.pyimport("sys");
  sys.path.insert(0, ENGINE_DIR);
  const t1 = performance.now();
  // Progress of long requests goes straight to the page, tagged with the request's id.
  pyodide.globals.set("post_progress", (text) =>
    postMessage({ type: "progress", id: currentId, data: JSON.parse(text) }),
  );
  handle = pyodide.runPython(
    [
      "import json",
      "from spider.protocol import Session",
      "session = Session()",
      "session.progress = lambda data: post_progress(json.dumps(data))",
      "session.handle_json",
    ].join("\n"),
  );
  timings.engine = performance.now() - t1;
  timings.total = performance.now() - t0;
  return meta.version ?? null;
}

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
  const { id, text, interruptBuffer } = event.data;
  if (interruptBuffer) {
    // Sent first, before any request, so start() installs it as soon as Pyodide is loaded.
    interrupts = interruptBuffer;
    return;
  }
  chain = chain.then(() => {
    let reply;
    const t = performance.now();
    currentId = id;
    // An interrupt that came after its request had ended is meant for no one.
    if (interrupts) Atomics.store(interrupts, 0, 0);
    try {
      reply = handle(text);
    } catch (err) {
      reply = JSON.stringify({ id, ok: false, error: { code: "engine-failure", message: String(err) } });
    }
    postMessage({ type: "reply", id, text: reply, ms: performance.now() - t });
  });
  chain.catch(() => {});
};
