// The phone's runtime under node: the vendored Pyodide running scorekeeper/portable/phone.py from
// the engine zip, as static/js/engine-worker.js runs it in a phone's Web Worker, so that the tests
// (tests/scorekeeper/portable/test_phone_runtime.py) can hold its answers equal to CPython's.
//
//   node tests/js/phone_runtime.mjs --index static/vendor/pyodide/ --engine engine.zip
//        [--stdlib python_stdlib.zip]
//
// Pyodide loads once; then every line on stdin, {"fn": ..., "args": [...]}, gets one line on
// stdout, {"ok": true, "result": ...} or {"ok": false, "error": ..., "traceback": ...}, in order.
// As in the worker, the arguments cross into Python as JSON text and the result comes back as
// JSON text, so the answers are exactly what a phone's pages get. Besides the phone's functions:
// "ping" answers "ready" once the engine is imported, and "loaded" lists the modules Python has
// imported so far, each with the file it came from (what tools/trim_stdlib.py keeps). Pyodide's own
// output goes to stderr, never into the answers.

import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The worker's list, and its folder for the unpacked zip.
const PHONE_FUNCTIONS = new Set(["game_view", "round_preview", "start_game", "round_form", "round_lines"]);
const EXTRACT_DIR = "/home/pyodide/packed";

const { values: options } = parseArgs({
  options: {
    index: { type: "string" },
    engine: { type: "string" },
    stdlib: { type: "string" },
  },
});
if (!options.index || !options.engine) {
  process.stderr.write("usage: phone_runtime.mjs --index DIR --engine ZIP [--stdlib ZIP]\n");
  process.exit(2);
}

function say(answer) {
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

function reason(error) {
  // As the worker reports it: a Python exception's last line says what went wrong.
  const text = String((error && error.message) || error).trim();
  return text.split("\n").filter(Boolean).pop() || "The engine failed.";
}

async function start() {
  const indexURL = `${path.resolve(options.index)}${path.sep}`;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  const config = {
    indexURL,
    stdout: (line) => process.stderr.write(`[pyodide] ${line}\n`),
    stderr: (line) => process.stderr.write(`[pyodide] ${line}\n`),
  };
  if (options.stdlib) {
    config.stdLibURL = path.resolve(options.stdlib);
  }
  const pyodide = await loadPyodide(config);
  // An ArrayBuffer, as the worker's fetch gives it (Pyodide takes no node Buffer).
  const zip = await readFile(options.engine);
  const bytes = zip.buffer.slice(zip.byteOffset, zip.byteOffset + zip.byteLength);
  pyodide.unpackArchive(bytes, "zip", { extractDir: EXTRACT_DIR });
  // The worker's own Python, and one more function to list what is imported.
  const exports = pyodide.runPython(`
import json, sys
if ${JSON.stringify(EXTRACT_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(EXTRACT_DIR)})
from scorekeeper.portable import phone

def call(fn, args):
    return json.dumps(getattr(phone, fn)(*json.loads(args)), ensure_ascii=False)

def loaded():
    found = {}
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        found[name] = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    return json.dumps(found, sort_keys=True)

{"call": call, "loaded": loaded}
`);
  const functions = { call: exports.get("call"), loaded: exports.get("loaded") };
  exports.destroy();
  return functions;
}

// A runtime that failed to load answers every request with its reason.
const runtime = start();
runtime.catch(() => {});
// Answers are written in the order the requests came, one request at a time.
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
try {
  for await (const line of lines) {
    if (!line.trim()) {
      continue;
    }
    try {
      const { fn, args } = JSON.parse(line);
      const python = await runtime;
      if (fn === "ping") {
        say({ ok: true, result: "ready" });
      } else if (fn === "loaded") {
        say({ ok: true, result: JSON.parse(python.loaded()) });
      } else if (PHONE_FUNCTIONS.has(fn)) {
        say({ ok: true, result: JSON.parse(python.call(fn, JSON.stringify(args ?? []))) });
      } else {
        throw new Error(`The engine has no function ${fn}.`);
      }
    } catch (error) {
      say({ ok: false, error: reason(error), traceback: String((error && error.message) || error) });
    }
  }
} finally {
  // The runtime's proxies are left to the process's end, which is now.
  process.exit(0);
}
