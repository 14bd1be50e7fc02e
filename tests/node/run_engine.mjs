// @ts-check
// Starts the engine under Node exactly as the worker does (engine-boot.js), from the bytecode
// standard library and engine that `make` built, and answers requests: tests/test_bytecode.py.
//
//   node tests/node/run_engine.mjs JOB.json
//
// JOB.json: {"pyodide": DIR, "stdlib": ZIP or null, "engine": ZIP, "full_stdlib": ZIP,
//            "requests": [JSON text, ...], "python": [code, ...]}
// Prints {"replies": [...], "python": [repr of each code's value], "fallback": [modules the
// fallback finder loaded from the full standard library]}.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { installStdlibFallback, startEngine } from "../../src/spider/web/engine-boot.js";

const job = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const indexURL = resolve(job.pyodide) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const options = job.stdlib ? { indexURL, stdLibURL: resolve(job.stdlib) } : { indexURL };
const py = await loadPyodide(options);
const finder = job.stdlib
  ? installStdlibFallback(py, () => new Uint8Array(readFileSync(job.full_stdlib)))
  : undefined;
const handle = startEngine(py, new Uint8Array(readFileSync(job.engine)), () => {});
const replies = job.requests.map((text) => JSON.parse(handle(text)));
const python = job.python.map((code) => String(py.runPython(code)));
const fallback = finder ? finder.found.toJs() : [];
console.log(JSON.stringify({ replies, python, fallback }));
