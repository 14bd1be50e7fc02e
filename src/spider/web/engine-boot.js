// @ts-check
// How the engine starts inside Pyodide, in one place: the worker (worker.js) runs it in the
// browser; under Node, scripts/compile_bytecode.mjs runs it to learn which standard-library
// modules to compile, and tests/test_bytecode.py runs it to check every protocol request.

/** The file names the engine's bytecode is compiled under (what a traceback shows). */
export const ENGINE_DIR = "/home/pyodide/engine";

/**
 * Where the engine's zip is written; Python imports the package from it (zipimport). Writing one
 * file costs next to nothing, where unpacking the zip's files took about 80 ms of each start.
 */
export const ENGINE_ZIP = "/home/pyodide/engine.zip";

/** The note that lists the modules left out, inside the bytecode standard library's zip. */
export const STDLIB_REST_NOTE = "spider-stdlib-rest.txt";

/** Python that imports and creates the engine (nothing from JavaScript: a snapshot may follow). */
export const IMPORT_ENGINE = `
import sys
sys.path.insert(0, "${ENGINE_ZIP}")
import json
from spider.protocol import Session
session = Session()
`;

/**
 * Python that connects the engine to the page: needs a global `post_progress(text)`; reseeds
 * the random numbers (a restored snapshot would deal the same games again); its value answers
 * one JSON request with a JSON reply.
 */
export const CONNECT_ENGINE = `
import random
random.seed()
session.progress = lambda data: post_progress(json.dumps(data))
session.handle_json
`;

// The bytecode standard library holds only the modules imported at start. A module that a
// request imports later (inside a function) is found by this finder, last on sys.meta_path, in
// Pyodide's full standard library, fetched once at the first such import. The list of the
// modules left out is in the bytecode zip itself (written by scripts/compile_bytecode.mjs).
const FALLBACK = `
import sys
import zipimport
from importlib.machinery import PathFinder

TRIMMED = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
FULL = TRIMMED[:-4] + "-full.zip"


class FullStdlib:
    """Finds the standard-library modules left out of the bytecode standard library."""

    def __init__(self, fetch, names):
        self.fetch = fetch
        self.names = names
        self.found = []

    def find_spec(self, name, path=None, target=None):
        if name not in self.names:
            return None
        if not self.found:
            with open(FULL, "wb") as fh:
                fh.write(bytes(self.fetch().to_py()))
            sys.path.append(FULL)
        self.found.append(name)
        where = [FULL] if path is None else [p.replace(TRIMMED, FULL) for p in path]
        return PathFinder.find_spec(name, where)


def install(fetch):
    try:
        text = zipimport.zipimporter(TRIMMED).get_data("${STDLIB_REST_NOTE}")
    except OSError:
        return None  # the full standard library: nothing was left out
    finder = FullStdlib(fetch, frozenset(text.decode().split()))
    sys.meta_path.append(finder)
    return finder
install
`;

/**
 * The part of Pyodide's API the engine uses (pyodide.mjs comes without types here).
 * `runPython` gives the value of the code's last expression, a proxy of a Python object.
 * @typedef {object} Pyodide
 * @property {{writeFile: (path: string, data: Uint8Array) => void}} FS
 * @property {(code: string) => unknown} runPython
 * @property {{set: (name: string, value: unknown) => void}} globals
 * @property {(buffer: Uint8Array) => void} setInterruptBuffer
 * @property {() => Uint8Array<ArrayBuffer>} makeMemorySnapshot
 */

/**
 * Pyodide's loader (`loadPyodide` of pyodide.mjs), with the options the worker gives it.
 * @typedef {(options: {indexURL: string, stdLibURL?: string, _loadSnapshot?: Promise<ArrayBuffer>, _makeSnapshot?: boolean}) => Promise<Pyodide>} LoadPyodide
 */

/**
 * Installs the finder of left-out modules; `fetchFull()` returns the bytes of Pyodide's full
 * `python_stdlib.zip` (synchronously: an import cannot wait). Returns the finder (its `found`
 * lists the modules it loaded), or undefined when the standard library is complete.
 * @param {Pyodide} pyodide
 * @param {() => Uint8Array} fetchFull
 * @returns {unknown}
 */
export function installStdlibFallback(pyodide, fetchFull) {
  // FALLBACK ends with the Python function that installs the finder.
  const install = /** @type {(fetch: () => Uint8Array) => unknown} */ (pyodide.runPython(FALLBACK));
  return install(fetchFull) ?? undefined;
}

/**
 * Writes the engine's zip and starts the engine; returns the function that answers a JSON
 * request. `restored`: Pyodide was restored from a memory snapshot that holds the started
 * engine (its zip is not in the snapshot: it is written again, for the modules imported
 * later). `beforeConnect()` runs when the engine is imported and nothing from JavaScript is in
 * Python yet: the moment for a snapshot.
 * @param {Pyodide} pyodide
 * @param {ArrayBuffer | Uint8Array} engineZip
 * @param {(text: string) => void} postProgress
 * @param {{restored?: boolean, beforeConnect?: () => void}} [options]
 * @returns {(text: string) => string}
 */
export function startEngine(pyodide, engineZip, postProgress, { restored = false, beforeConnect } = {}) {
  pyodide.FS.writeFile(ENGINE_ZIP, ArrayBuffer.isView(engineZip) ? engineZip : new Uint8Array(engineZip));
  if (!restored) pyodide.runPython(IMPORT_ENGINE);
  beforeConnect?.();
  pyodide.globals.set("post_progress", postProgress);
  // CONNECT_ENGINE ends with the Python function that answers a request.
  return /** @type {(text: string) => string} */ (pyodide.runPython(CONNECT_ENGINE));
}
