// @ts-check
// The engine under Node exactly as the page's solver worker runs it (engine-boot.js: Pyodide, the
// bytecode standard library and engine that `make` built), timing the answers: benchmarks/answer_time.py.
//
//   node benchmarks/answer_time.mjs JOB.json
//
// JOB.json: {"pyodide": DIR, "stdlib": ZIP, "engine": ZIP, "full_stdlib": ZIP, "repeats": n,
//            "cases": [{"name": text, "requests": [JSON text, ...]}, ...]}
// Prints {"start": seconds to load Pyodide and start the engine,
//         "cases": {name: [seconds of each repeat: every request of the case, one after the other]},
//         "replies": {name: the last reply of the case's last repeat}}.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

import { installStdlibFallback, startEngine } from "../src/spider/web/engine-boot.js";

const job = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const began = performance.now();
const indexURL = resolve(job.pyodide) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, stdLibURL: resolve(job.stdlib) });
installStdlibFallback(py, () => new Uint8Array(readFileSync(job.full_stdlib)));
// The worker posts each progress message to the page; here it goes nowhere.
const handle = startEngine(py, new Uint8Array(readFileSync(job.engine)), () => {});
const start = (performance.now() - began) / 1000;

/** @type {Record<string, number[]>} */
const cases = {};
/** @type {Record<string, unknown>} */
const replies = {};
for (const { name, requests } of job.cases) {
  cases[name] = [];
  for (let i = 0; i < job.repeats; i++) {
    const t0 = performance.now();
    let reply = null;
    for (const text of requests) reply = JSON.parse(handle(text));
    cases[name].push((performance.now() - t0) / 1000);
    replies[name] = reply;
  }
}
console.log(JSON.stringify({ start, cases, replies }));
