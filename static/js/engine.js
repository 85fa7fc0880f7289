// The phone's scoring engine: the server's Python in a Web Worker (engine-worker.js), started
// only when asked, so a phone that never goes offline never fetches it.
//
//   import * as engine from "./engine.js";   // always relative, so every page shares one worker
//   engine.warm();                           // on a game page: load once the page is idle
//   const view = await engine.call("game_view", snapshot, waiting);
//   const run = engine.keep(snapshot, waiting);   // sent to the worker once, not at every call
//   const preview = await run("round_preview", fields);   // round_preview(snapshot, waiting, fields)
//   await engine.ready;                      // resolves when the runtime has first loaded
//
// A call that fails to start the runtime (no connection and nothing cached) rejects with the
// reason; the next call tries again. `ready` settles once, with the first start's outcome.
//
// The addresses come from <meta> tags of base.html: engine-worker (this worker's script),
// engine-zip (the packed Python) and pyodide-index (the vendored Pyodide folder).

function meta(name) {
  const tag = document.querySelector(`meta[name="${name}"]`);
  return tag ? tag.content : "";
}

let worker = null;
let nextId = 1;
let nextKey = 1;
const pending = new Map();
let settle = null;

export const ready = new Promise((resolve, reject) => {
  settle = { resolve, reject };
});
// Nobody may be waiting on it; a failure is still reported to every call.
ready.catch(() => {});
let loaded = false;
ready.then(() => {
  loaded = true;
}, () => {});

/** Whether the runtime has loaded on this page (and so answers at once). */
export const isLoaded = () => loaded;

function failAll(message) {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
  settle.reject(new Error(message));
}

function send(fn, args, extra = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, fn, args, ...extra });
  });
}

function start() {
  if (worker) return;
  const url = new URL(meta("engine-worker"), document.baseURI);
  url.searchParams.set("engine", new URL(meta("engine-zip"), document.baseURI).href);
  url.searchParams.set("index", new URL(meta("pyodide-index"), document.baseURI).href);
  worker = new Worker(url, { type: "module" });
  worker.addEventListener("message", ({ data }) => {
    const waiter = pending.get(data.id);
    if (!waiter) return;
    pending.delete(data.id);
    if (data.ok) waiter.resolve(data.result);
    else waiter.reject(Object.assign(new Error(data.error), { gone: Boolean(data.gone) }));
  });
  worker.addEventListener("error", (event) => {
    // The script itself did not load or run: the next call starts a new worker.
    failAll(event.message || "The engine worker could not start.");
    worker.terminate();
    worker = null;
  });
  send("ping", []).then(settle.resolve, settle.reject);
}

/** Call a function of scorekeeper/portable/phone.py; resolves with its result, rejects with its error. */
export function call(fn, ...args) {
  start();
  return send(fn, args);
}

/** Arguments that stay the same over many calls (a game and its waiting rounds while a round form
 *  is typed in), sent to the worker once instead of with every call: a large game then costs
 *  nothing per keystroke to send and to read into Python. Answers run(fn, ...args), which calls
 *  fn(...leading, ...args) as call() would; `leading` must not change afterwards (keep new ones
 *  instead). A worker started anew, or one that has let them go, is sent them again. */
export function keep(...leading) {
  const key = nextKey++;
  let holder = null; // the worker last sent them
  return async function run(fn, ...args) {
    start();
    if (holder === worker) {
      try {
        return await send(fn, args, { key });
      } catch (error) {
        if (!error.gone) throw error;
      }
    }
    holder = worker;
    return send(fn, args, { key, held: leading });
  };
}

/** Whether the engine answers within `ms` (starting it if need be): true once its runtime has
 *  loaded, false while it is still loading or when it cannot load (offline, never kept). A
 *  round saved meanwhile is kept as typed and scored once it does (offline/kept.js). */
export function readyWithin(ms) {
  start();
  return Promise.race([
    send("ping", []).then(
      () => true,
      () => false,
    ),
    new Promise((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

/** Start loading the runtime once the page has loaded and the browser is idle; returns ready. */
export function warm() {
  const idle = () => {
    if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 10000 });
    else setTimeout(start, 1000);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return ready;
}
