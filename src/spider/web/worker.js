// The engine worker: Pyodide runs the `spider` package, loaded from the server as /engine.zip,
// and answers the page's JSON requests with spider.protocol's Session.handle_json.
//
// Messages in:  {id, text}            (text: a JSON request of docs/protocol.md)
// Messages out: {type: "ready", version}
//               {type: "error", detail}
//               {type: "reply", id, text}

const ENGINE_DIR = "/home/pyodide/engine";
let handle = null;

async function start() {
  // Pyodide and the engine sources load side by side.
  const [pyodide, zip, meta] = await Promise.all([
    import("/pyodide/pyodide.mjs").then(({ loadPyodide }) => loadPyodide({ indexURL: "/pyodide/" })),
    fetch("/engine.zip").then((r) => {
      if (!r.ok) throw new Error(`/engine.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
    fetch("/engine.json")
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({})),
  ]);
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  const sys = pyodide.pyimport("sys");
  sys.path.insert(0, ENGINE_DIR);
  handle = pyodide.runPython("from spider.protocol import Session\nSession().handle_json");
  return meta.version ?? null;
}

const started = start().then(
  (version) => postMessage({ type: "ready", version }),
  (err) => {
    postMessage({ type: "error", detail: String(err?.message ?? err) });
    throw err;
  },
);

// Requests are answered strictly in arrival order; those sent before the engine is ready wait.
let chain = started;
self.onmessage = (event) => {
  const { id, text } = event.data;
  chain = chain.then(() => {
    let reply;
    try {
      reply = handle(text);
    } catch (err) {
      reply = JSON.stringify({ id, ok: false, error: { code: "engine-failure", message: String(err) } });
    }
    postMessage({ type: "reply", id, text: reply });
  });
  chain.catch(() => {});
};
