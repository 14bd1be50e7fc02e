// @ts-check
// Compiles Python sources into zips of bytecode with Pyodide's own CPython, under Node.
//
//   node scripts/compile_bytecode.mjs JOB.json
//
// JOB.json: {"pyodide": DIR, "stdlib_out": ZIP, "engine_src": ZIP, "engine_out": ZIP}
//
// - The standard library: the modules of Pyodide's `python_stdlib.zip` that are imported once
//   Pyodide has started and the engine has started as the worker starts it (engine-boot.js).
//   A module imported later, inside a function, is not in it: the worker loads such a module
//   from the full standard library (engine-boot.js), and tests/test_bytecode.py checks that no
//   protocol request needs to. The zip lists the modules left out in a note.
// - The engine: every `*.py` of `engine_src`.
// Each `*.py` becomes a `*.pyc` with an unchecked hash (the same source always gives the same
// bytes; nothing re-reads a source at import), compiled under the file name the browser would
// load it from. Package directories get their entries; a module that
// does not compile is kept as source. Zips are written with sorted entries and fixed
// timestamps, uncompressed (the HTTP layer compresses the whole). Prints a JSON report: Python
// version, magic number, the list of standard-library modules kept.
// Called by scripts/build_bytecode.py, which decides when it is needed.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { ENGINE_DIR, STDLIB_REST_NOTE, startEngine } from "../src/spider/web/engine-boot.js";

const COMPILE = `
import importlib.util
import io
import json
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

EPOCH = (1980, 1, 1, 0, 0, 0)
STDLIB = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"


def _entry(name):
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.compress_type = zipfile.ZIP_STORED
    info.create_system = 3
    info.external_attr = ((0o40755 << 16) | 0x10) if name.endswith("/") else (0o100644 << 16)
    return info


def _module_files(names):
    """Module name -> its source path in a zip listing (package -> its __init__.py)."""
    found = {}
    for name in names:
        if not name.endswith(".py"):
            continue
        parts = name[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = name
    return found


def _pyc(data, filename):
    code = compile(data, filename, "exec", dont_inherit=True, optimize=0)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))


def write_zip(dst, entries, prefix):
    """entries: name -> bytes; *.py become *.pyc. Returns the modules kept as source."""
    kept_source = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
        for name in sorted(entries):
            data = entries[name]
            if name.endswith(".py"):
                try:
                    zout.writestr(_entry(name[:-3] + ".pyc"), _pyc(data, prefix + name))
                    continue
                except SyntaxError as exc:
                    kept_source.append(f"{name}: {exc}")
            zout.writestr(_entry(name), data)
    with open(dst, "wb") as fh:
        fh.write(out.getvalue())
    return kept_source


def build(job, note, engine_dir):
    job = json.loads(job)
    with zipfile.ZipFile(job["engine_src"]) as zengine:
        engine = {n: zengine.read(n) for n in zengine.namelist() if not n.endswith("/")}
    with zipfile.ZipFile(STDLIB) as zstd:
        listing = zstd.namelist()
        files = _module_files(listing)
        modules = {m for m in sys.modules if m in files}
        wanted = {files[m] for m in modules}
        dirs = {p.rpartition("/")[0] + "/" for p in wanted if "/" in p}
        entries = {n: zstd.read(n) for n in wanted}
        entries.update({d: b"" for d in dirs})
        entries[note] = "".join(m + chr(10) for m in sorted(set(files) - modules)).encode()
    report = {"stdlib_modules": sorted(modules)}
    report["kept_source"] = write_zip(job["stdlib_out"], entries, STDLIB + "/")
    report["kept_source"] += write_zip(job["engine_out"], engine, engine_dir + "/")
    return json.dumps(report)
`;

async function main() {
  const [jobPath] = process.argv.slice(2);
  if (!jobPath) {
    console.error("usage: compile_bytecode.mjs JOB.json");
    process.exit(2);
  }
  const job = JSON.parse(readFileSync(jobPath, "utf-8"));
  const indexURL = resolve(job.pyodide) + "/";
  const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  const py = await loadPyodide({ indexURL });
  const engineSrc = new Uint8Array(readFileSync(job.engine_src));
  startEngine(py, engineSrc, () => {});
  py.runPython(COMPILE);
  const local = { ...job, engine_src: "/tmp/engine-src.zip", stdlib_out: "/tmp/stdlib.zip", engine_out: "/tmp/engine.zip" };
  py.FS.writeFile(local.engine_src, engineSrc);
  const report = JSON.parse(py.globals.get("build")(JSON.stringify(local), STDLIB_REST_NOTE, ENGINE_DIR));
  writeFileSync(job.stdlib_out, py.FS.readFile(local.stdlib_out));
  writeFileSync(job.engine_out, py.FS.readFile(local.engine_out));
  report.python = py.runPython("import sys; '%d.%d' % sys.version_info[:2]");
  report.magic = py.runPython("import importlib.util; importlib.util.MAGIC_NUMBER.hex()");
  console.log(JSON.stringify(report));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
