// The engine worker: Pyodide running the repository's own Python (scorekeeper/engine and
// scorekeeper/portable/phone.py, packed by the server at /offline/engine-<hash>.zip), so that a phone
// scores offline with exactly the server's rules. A module worker, started by engine.js.
//
// Protocol: postMessage({id, fn, args}) with fn one of PHONE_FUNCTIONS (or "ping" to wait for
// the runtime) answers {id, ok: true, result} or {id, ok: false, error}. Arguments and results
// cross into Python as JSON text, so only plain objects, arrays, strings, numbers and booleans
// travel, never Python proxies that would have to be freed.
//
// Arguments that stay the same over many calls (a game and its waiting rounds, the same at every
// keystroke of a round form) are held here instead of crossing at each call: a message with
// `key` calls fn(...held, ...args) with the arguments held under that key, and one with `key` and
// `held` holds them first. The worker holds a few such lists; one it no longer holds answers
// {id, ok: false, gone: true}, and the caller sends it again (engine.js does).
//
// Where things are: the worker's own query string (?engine=<zip URL>&index=<Pyodide folder>),
// or `engine` and `index` in the first message.

const PHONE_FUNCTIONS = new Set(["game_view", "round_preview", "start_game", "round_form", "round_lines"]);
const EXTRACT_DIR = "/home/pyodide/packed";
// Pyodide never settles when its WebAssembly is refused (a Content-Security-Policy, a broken
// download): a load still going after this long is reported as failed, not waited on forever.
const LOAD_LIMIT_MS = 120000;
// A page has one round form open at a time; a few more cover the page before it.
const HELD_MAX = 4;

let python = null; // Pyodide, loaded once
let runtime = null; // the Python functions below, once the engine zip is unpacked and imported
const heldKeys = []; // the keys of the argument lists Python holds, oldest first

// A step that failed (no connection, say) is tried again by the next message, not kept.
function retried(promise, forget) {
  promise.catch(forget);
  return promise;
}

function loadPython(indexURL) {
  python ??= retried(
    (async () => {
      const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
      let limit;
      // The limit's timer goes once Pyodide has loaded (or failed): left running, it held the
      // worker's event loop (and node's tests of it) for its two minutes.
      return Promise.race([
        loadPyodide({ indexURL }),
        new Promise((_, reject) => {
          limit = setTimeout(
            () => reject(new Error(`Pyodide did not load within ${LOAD_LIMIT_MS / 1000} s.`)),
            LOAD_LIMIT_MS,
          );
        }),
      ]).finally(() => clearTimeout(limit));
    })(),
    () => {
      python = null;
    },
  );
  return python;
}

function start(engineUrl, indexURL) {
  runtime ??= retried(
    (async () => {
      if (!engineUrl || !indexURL) {
        throw new Error("The engine worker needs the engine zip's address and Pyodide's folder.");
      }
      const pyodide = await loadPython(indexURL);
      const response = await fetch(engineUrl);
      if (!response.ok) {
        throw new Error(`The engine could not be fetched (${response.status} from ${engineUrl}).`);
      }
      pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: EXTRACT_DIR });
      // One Python function does the JSON both ways, so a call is one crossing of the boundary.
      pyodide.runPython(`
import gc, json, sys
if ${JSON.stringify(EXTRACT_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(EXTRACT_DIR)})
from scorekeeper.portable import phone

# What is loaded so far lives as long as the worker. Frozen, it is left out of the garbage
# collector's full passes, which otherwise walk it all (about 20 ms in Pyodide) at whatever
# keystroke happens to start one.
gc.freeze()

held = {}

def call(fn, args, key=""):
    leading = held[key] if key else []
    return json.dumps(getattr(phone, fn)(*leading, *json.loads(args)), ensure_ascii=False)

def hold(key, args):
    held[key] = json.loads(args)

def drop(key):
    held.pop(key, None)
`);
      const names = ["call", "hold", "drop"];
      return Object.fromEntries(names.map((name) => [name, pyodide.globals.get(name)]));
    })(),
    () => {
      runtime = null;
    },
  );
  return runtime;
}

function reason(error) {
  // A Python exception arrives as its whole traceback; its last line says what went wrong.
  const text = String((error && error.message) || error).trim();
  return text.split("\n").filter(Boolean).pop() || "The engine failed.";
}

const here = new URL(self.location.href).searchParams;

function hold(python, key, args) {
  python.hold(key, JSON.stringify(args));
  if (heldKeys.includes(key)) heldKeys.splice(heldKeys.indexOf(key), 1);
  heldKeys.push(key);
  while (heldKeys.length > HELD_MAX) python.drop(heldKeys.shift());
}

self.addEventListener("message", async (event) => {
  const { id, fn, args, engine, index, key: kept, held } = event.data || {};
  try {
    const python = await start(engine || here.get("engine"), index || here.get("index"));
    if (fn === "ping") {
      self.postMessage({ id, ok: true, result: "ready" });
      return;
    }
    if (!PHONE_FUNCTIONS.has(fn)) {
      throw new Error(`The engine has no function ${fn}.`);
    }
    const key = kept === undefined ? "" : String(kept);
    if (key && held !== undefined) hold(python, key, held);
    if (key && !heldKeys.includes(key)) {
      self.postMessage({ id, ok: false, gone: true, error: "The engine no longer holds these arguments." });
      return;
    }
    const result = JSON.parse(python.call(fn, JSON.stringify(args ?? []), key));
    self.postMessage({ id, ok: true, result });
  } catch (error) {
    self.postMessage({ id, ok: false, error: reason(error) });
  }
});
