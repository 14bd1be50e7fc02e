// @ts-check
// Test page (served at /_test/ by the browser harness only): loads the vendored Pyodide under
// the app's real CSP, either in this page (?mode=page) or in a module worker (?mode=worker), and
// reports to document.documentElement.dataset: `result` (JSON) or `error`, and `csp` (violations).
// ?base=/pyodide/<version>/ loads Pyodide from another (e.g. the versioned) URL.
const root = document.documentElement;
const params = new URL(window.location.href).searchParams;
const base = params.get("base") ?? "/pyodide/";
/** @type {string[]} */
const violations = [];

/** @param {string} text */
function noteViolation(text) {
  violations.push(text);
  root.dataset.csp = violations.join("\n");
}

document.addEventListener("securitypolicyviolation", (event) => {
  noteViolation(`page: ${event.violatedDirective} ${event.blockedURI}`);
});

async function inPage() {
  const t0 = performance.now();
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: base });
  const ms = performance.now() - t0;
  return {
    result: pyodide.runPython("1+1"),
    python: pyodide.runPython("import sys; sys.version.split()[0]"),
    ms,
  };
}

function inWorker() {
  const url = `/_test/smoke-worker.js?base=${encodeURIComponent(base)}`;
  const worker = new Worker(url, { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "csp") noteViolation(`worker: ${msg.text}`);
      else if (msg.type === "error") reject(new Error(msg.text));
      else if (msg.type === "done") resolve(msg.value);
    };
    worker.onerror = (event) => reject(new Error(event.message || "worker failed to start"));
  });
}

const mode = params.get("mode") ?? "page";
(mode === "worker" ? inWorker() : inPage()).then(
  (value) => {
    root.dataset.result = JSON.stringify(value);
  },
  (err) => {
    root.dataset.error = String(err?.stack ?? err);
  },
);
