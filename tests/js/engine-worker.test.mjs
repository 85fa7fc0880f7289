// static/js/engine-worker.js: the arguments a page keeps (engine.keep) are held by the worker
// under their key, a few at a time; a key it no longer holds is answered `gone`, not guessed.
// Pyodide is a stand-in here whose Python functions do what the worker's own do.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const folder = await mkdtemp(path.join(tmpdir(), "fake-pyodide-"));
await writeFile(
  path.join(folder, "pyodide.mjs"),
  `export async function loadPyodide() {
  const held = new Map();
  globalThis.heldInPython = held;
  const functions = {
    call: (fn, args, key = "") => JSON.stringify({ fn, args: [...(key ? held.get(key) : []), ...JSON.parse(args)] }),
    hold: (key, args) => held.set(key, JSON.parse(args)),
    drop: (key) => held.delete(key),
  };
  return { unpackArchive() {}, runPython() {}, globals: { get: (name) => functions[name] } };
}
`,
);

const answers = [];
let listener = null;
const index = `${pathToFileURL(folder).href}/`;
globalThis.self = {
  location: { href: `http://phone.test/static/js/engine-worker.js?engine=http://phone.test/engine.zip&index=${encodeURIComponent(index)}` },
  addEventListener: (type, fn) => {
    if (type === "message") listener = fn;
  },
  postMessage: (message) => answers.push(message),
};
globalThis.fetch = async () => ({ ok: true, arrayBuffer: async () => new ArrayBuffer(0) });
await import("../../static/js/engine-worker.js");

let nextId = 1;
async function ask(message) {
  const id = nextId++;
  await listener({ data: { id, ...message } });
  return answers.find((a) => a.id === id);
}

test("held arguments come before each call's own, under their key", async () => {
  const first = await ask({ fn: "round_preview", args: [{ a: "1" }], key: 1, held: [{ id: "g" }, []] });
  const second = await ask({ fn: "round_preview", args: [{ a: "2" }], key: 1 });
  assert.deepEqual(first.result, { fn: "round_preview", args: [{ id: "g" }, [], { a: "1" }] });
  assert.deepEqual(second.result, { fn: "round_preview", args: [{ id: "g" }, [], { a: "2" }] });
  const plain = await ask({ fn: "game_view", args: [{ id: "g" }, []] });
  assert.deepEqual(plain.result.args, [{ id: "g" }, []]);
});

test("a key never held is answered gone", async () => {
  const answer = await ask({ fn: "round_preview", args: [{}], key: 99 });
  assert.deepEqual([answer.ok, answer.gone], [false, true]);
});

test("the worker holds the last four, and lets the oldest go", async () => {
  for (const key of [10, 11, 12, 13, 14]) {
    await ask({ fn: "round_preview", args: [], key, held: [key] });
  }
  assert.equal((await ask({ fn: "round_preview", args: [], key: 10 })).gone, true);
  assert.deepEqual((await ask({ fn: "round_preview", args: [], key: 14 })).result.args, [14]);
  assert.deepEqual([...globalThis.heldInPython.keys()], ["11", "12", "13", "14"]);
  // Held again: it is the newest, and the oldest left goes instead.
  await ask({ fn: "round_preview", args: [], key: 10, held: [10] });
  assert.deepEqual([...globalThis.heldInPython.keys()].sort(), ["10", "12", "13", "14"]);
  // Sent again while still held (a page that could not tell): held once, nothing let go.
  await ask({ fn: "round_preview", args: [], key: 13, held: [13] });
  assert.deepEqual([...globalThis.heldInPython.keys()].sort(), ["10", "12", "13", "14"]);
  assert.equal((await ask({ fn: "round_preview", args: [], key: 12 })).ok, true);
});

test("only the phone's functions are called", async () => {
  const answer = await ask({ fn: "open", args: [], key: 14 });
  assert.equal(answer.ok, false);
  assert.match(answer.error, /no function open/);
});
