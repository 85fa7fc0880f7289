// static/js/engine.js: arguments kept in the worker (engine.keep) cross once, not at every call;
// a worker that let them go, or a worker started anew, is sent them again.
import { test } from "node:test";
import assert from "node:assert/strict";

// What engine.js needs of a page: the <meta> addresses and Worker. The fake worker answers as
// engine-worker.js does, holding what a message with `held` gives it under its `key`.
globalThis.document = { baseURI: "http://phone.test/g/1/", querySelector: () => ({ content: "/x" }) };
const workers = [];
class FakeWorker {
  constructor() {
    this.listeners = {};
    this.sent = [];
    this.held = new Map();
    workers.push(this);
  }
  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }
  emit(type, event) {
    for (const listener of this.listeners[type] || []) listener(event);
  }
  postMessage(message) {
    this.sent.push(message);
    const { id, fn, args, key, held } = message;
    setTimeout(() => {
      if (fn === "ping") return this.emit("message", { data: { id, ok: true, result: "ready" } });
      if (key !== undefined && held !== undefined) this.held.set(key, held);
      if (key !== undefined && !this.held.has(key)) {
        return this.emit("message", { data: { id, ok: false, gone: true, error: "gone" } });
      }
      const leading = key === undefined ? [] : this.held.get(key);
      this.emit("message", { data: { id, ok: true, result: { fn, args: [...leading, ...args] } } });
    }, 0);
  }
  terminate() {
    this.terminated = true;
  }
}
globalThis.Worker = FakeWorker;

const engine = await import("../../static/js/engine.js");
const calls = (worker) => worker.sent.filter((m) => m.fn !== "ping");

test("kept arguments are sent with the first call only, and every call gets them", async () => {
  const game = { id: "g1", rounds: [1, 2, 3] };
  const run = engine.keep(game, []);
  assert.deepEqual(await run("round_preview", { a: "1" }), { fn: "round_preview", args: [game, [], { a: "1" }] });
  assert.deepEqual(await run("round_preview", { a: "2" }), { fn: "round_preview", args: [game, [], { a: "2" }] });
  const [first, second] = calls(workers[0]).slice(-2);
  assert.deepEqual(first.held, [game, []]);
  assert.equal(second.held, undefined);
  assert.equal(second.key, first.key);
  assert.deepEqual(second.args, [{ a: "2" }]);
});

test("each keep has its own key; a plain call carries none", async () => {
  const one = engine.keep("one");
  const two = engine.keep("two");
  assert.deepEqual((await one("f", 1)).args, ["one", 1]);
  assert.deepEqual((await two("f", 2)).args, ["two", 2]);
  assert.deepEqual((await engine.call("f", 3)).args, [3]);
  const [a, b, plain] = calls(workers[0]).slice(-3);
  assert.notEqual(a.key, b.key);
  assert.deepEqual([plain.key, plain.held], [undefined, undefined]);
});

test("arguments the worker let go are sent again, and the call answers as before", async () => {
  const run = engine.keep("game");
  await run("f", 1);
  workers[0].held.clear();
  assert.deepEqual((await run("f", 2)).args, ["game", 2]);
  const [gone, again] = calls(workers[0]).slice(-2);
  assert.deepEqual([gone.held, again.held], [undefined, ["game"]]);
  assert.deepEqual((await run("f", 3)).args, ["game", 3]);
  assert.equal(calls(workers[0]).at(-1).held, undefined);
});

test("a worker started anew after one failed is sent the kept arguments again", async () => {
  const run = engine.keep("game");
  await run("f", 1);
  workers[0].emit("error", { message: "the worker died" });
  assert.equal(workers[0].terminated, true);
  assert.deepEqual((await run("f", 2)).args, ["game", 2]);
  assert.equal(workers.length, 2);
  assert.deepEqual(calls(workers[1]).at(-1).held, ["game"]);
});

test("an error of the engine itself is the call's, not a reason to send again", async () => {
  const run = engine.keep("game");
  await run("f", 1);
  const worker = workers.at(-1);
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message) => {
    worker.sent.push(message);
    setTimeout(() => worker.emit("message", { data: { id: message.id, ok: false, error: "ValueError: no" } }), 0);
  };
  await assert.rejects(run("f", 2), /ValueError: no/);
  assert.equal(calls(worker).at(-1).held, undefined);
  worker.postMessage = post;
});
