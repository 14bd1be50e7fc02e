// @ts-check
// benchmarks/web.py's floor: Pyodide with the app's bytecode standard library, and nothing of
// the app. "?nosnap" starts it plainly (a first visit); otherwise it restores a memory snapshot
// of itself, made (and stored) by its first start.
const meta = await (await fetch("/engine.json")).json();
const indexURL = meta.pyodide.url;
const options = { indexURL, stdLibURL: meta.stdlib };
const plain = new URL(location.href).searchParams.has("nosnap");
const cache = await caches.open("floor-snapshot");
const key = `/floor/${meta.pyodide.version}/${meta.stdlib}`;
const stored = plain ? null : await cache.match(key);
const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
let pyodide;
if (stored) {
  pyodide = await loadPyodide({ ...options, _loadSnapshot: stored.arrayBuffer() });
} else if (plain) {
  pyodide = await loadPyodide(options);
} else {
  pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  await cache.put(key, new Response(pyodide.makeMemorySnapshot()));
}
pyodide.runPython("1 + 1");
postMessage({ restored: !!stored });
