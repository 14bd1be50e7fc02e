// @ts-check
// Test module worker: loads the vendored Pyodide, runs 1+1, then unpacks /engine.zip and plays
// one protocol request, the way the app's engine worker does. Reports with postMessage.
self.addEventListener("securitypolicyviolation", (e) => {
  const event = /** @type {SecurityPolicyViolationEvent} */ (e);
  postMessage({ type: "csp", text: `${event.violatedDirective} ${event.blockedURI}` });
});

async function main() {
  const t0 = performance.now();
  const base = new URL(self.location.href).searchParams.get("base") ?? "/pyodide/";
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: base });
  const ms = performance.now() - t0;
  const result = pyodide.runPython("1+1");

  const response = await fetch("/engine.zip");
  if (!response.ok) throw new Error(`/engine.zip: HTTP ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
  const t1 = performance.now();
  const reply = pyodide.runPython(
    "from spider.protocol import Session\n" +
      "Session().handle_json('{\"op\": \"new\", \"game\": \"spider\", \"suits\": 1, \"number\": 1}')",
  );
  const engineMs = performance.now() - t1;
  return { result, ms, engineMs, reply: JSON.parse(reply) };
}

main().then(
  (value) => postMessage({ type: "done", value }),
  (err) => postMessage({ type: "error", text: String(err?.stack ?? err) }),
);
