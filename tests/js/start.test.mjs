// static/js/offline/start.js: a game's id made on the phone, and a game started offline kept
// (a store on fake-indexeddb) only when the engine takes its fields.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { newGameId, startGame } from "../../static/js/offline/start.js";
import { openStore } from "../../static/js/offline/store.js";

test("a game's id is its 16 bytes in URL-safe base64, without padding", () => {
  assert.equal(newGameId(new Uint8Array(16)), "AAAAAAAAAAAAAAAAAAAAAA");
  assert.equal(newGameId(new Uint8Array(16).fill(255)), "_____________________w");
  assert.equal(newGameId(Uint8Array.from([251, 239, 190, ...new Array(13).fill(0)])), "----AAAAAAAAAAAAAAAAAA");
});

test("a new id is 22 random characters of the address-safe alphabet", () => {
  const ids = new Set(Array.from({ length: 50 }, () => newGameId()));
  assert.equal(ids.size, 50);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{22}$/);
});

test("a game the engine starts is kept as local, with its preset and fields, to be created later", async () => {
  const store = openStore(new IDBFactory());
  const calls = [];
  const run = async (...args) => {
    calls.push(args);
    return { ok: true, errors: [], snapshot: { id: "g1", sides: ["Ann", "Bob"], rounds: [] } };
  };
  const fields = { "side-0": "Ann", "side-1": "Bob" };

  const result = await startGame("baskets", fields, "g1", { run, store });

  assert.equal(result.ok, true);
  assert.deepEqual(calls, [["start_game", "baskets", fields, "g1"]]);
  assert.deepEqual(await store.gamesAll(), [
    { id: "g1", snapshot: { id: "g1", sides: ["Ann", "Bob"], rounds: [] }, local: true, preset: "baskets", form: fields, error: "" },
  ]);
});

test("fields the engine refuses keep nothing and give its errors", async () => {
  const store = openStore(new IDBFactory());
  const errors = [{ key: "side-1", message: "Two sides at least." }];
  const run = async () => ({ ok: false, errors });

  const result = await startGame("baskets", { "side-0": "Ann" }, "g1", { run, store });

  assert.deepEqual(result, { ok: false, errors });
  assert.deepEqual(await store.gamesAll(), []);
});
