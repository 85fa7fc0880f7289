// static/js/offline/store.js on fake-indexeddb: what the phone keeps, and in which order it
// gives the waiting rounds back. Each test has a database of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { NAME, inRoundOrder, openStore } from "../../static/js/offline/store.js";

const round = (key, game, number, saved, extra = {}) => ({ key, game, number, saved, state: "waiting", ...extra });

function opened(factory) {
  return new Promise((resolve, reject) => {
    const req = factory.open(NAME);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

test("the database has the games, waiting and meta stores, waiting indexed by game", async () => {
  const factory = new IDBFactory();
  await openStore(factory).gamesAll();

  const db = await opened(factory);
  assert.equal(db.version, 1);
  assert.deepEqual([...db.objectStoreNames], ["games", "meta", "waiting"]);
  const tx = db.transaction(["games", "meta", "waiting"]);
  assert.equal(tx.objectStore("games").keyPath, "id");
  assert.equal(tx.objectStore("meta").keyPath, "name");
  assert.equal(tx.objectStore("waiting").keyPath, "key");
  assert.deepEqual([...tx.objectStore("waiting").indexNames], ["game"]);
  assert.equal(tx.objectStore("waiting").index("game").keyPath, "game");
  db.close();
});

test("a game is kept, replaced and listed", async () => {
  const store = openStore(new IDBFactory());
  assert.equal(await store.gameGet("g1"), undefined);
  assert.deepEqual(await store.gamesAll(), []);

  await store.gamePut({ id: "g1", snapshot: { rounds: [] }, local: true });
  await store.gamePut({ id: "g2", snapshot: { rounds: [1] }, local: false });
  await store.gamePut({ id: "g1", snapshot: { rounds: [1, 2] }, local: false });

  assert.deepEqual(await store.gameGet("g1"), { id: "g1", snapshot: { rounds: [1, 2] }, local: false });
  assert.deepEqual((await store.gamesAll()).map((g) => g.id), ["g1", "g2"]);
});

test("waiting rounds come back in round order, the older of one number first, per game or all", async () => {
  const store = openStore(new IDBFactory());
  await store.waitingPut(round("c", "g1", 3, 100));
  await store.waitingPut(round("a", "g1", 2, 300));
  await store.waitingPut(round("b", "g1", 2, 200));
  await store.waitingPut(round("z", "g2", 1, 50));

  assert.deepEqual((await store.waitingFor("g1")).map((r) => r.key), ["b", "a", "c"]);
  assert.deepEqual((await store.waitingFor("g2")).map((r) => r.key), ["z"]);
  assert.deepEqual((await store.waitingFor()).map((r) => r.key), ["z", "b", "a", "c"]);
  assert.deepEqual(await store.waitingFor("nothing"), []);
});

test("several rounds are written in one go, and one is deleted by its key", async () => {
  const store = openStore(new IDBFactory());
  await store.waitingPutAll([round("a", "g1", 1, 1), round("b", "g1", 2, 2)]);
  await store.waitingPutAll([round("b", "g1", 3, 2, { place: "end" })]);
  await store.waitingDelete("a");
  await store.waitingDelete("never-there");

  assert.deepEqual(await store.waitingFor("g1"), [round("b", "g1", 3, 2, { place: "end" })]);
});

test("a write the storage refuses rejects and writes nothing", async () => {
  const store = openStore(new IDBFactory());
  await assert.rejects(store.waitingPut({ game: "g1", number: 1 }), { name: "DataError" });

  assert.deepEqual(await store.waitingFor(), []);
});

// write() does not abort its transaction when a put throws, so the puts made before it commit.
test("several rounds of which the storage refuses one: none is written", async () => {
  const store = openStore(new IDBFactory());
  await assert.rejects(store.waitingPutAll([round("a", "g1", 1, 1), { game: "g1" }]), { name: "DataError" });

  assert.deepEqual(await store.waitingFor(), []);
});

test("meta values are read back, undefined until set", async () => {
  const store = openStore(new IDBFactory());
  assert.equal(await store.metaGet("last_synced"), undefined);

  await store.metaPut("last_synced", 1234);
  await store.metaPut("last_synced", 5678);

  assert.equal(await store.metaGet("last_synced"), 5678);
});

test("the connection closes when another tab deletes or upgrades the database", async () => {
  const factory = new IDBFactory();
  const store = openStore(factory);
  await store.metaPut("last_synced", 1);

  const deleted = await new Promise((resolve) => {
    const req = factory.deleteDatabase(NAME);
    req.onsuccess = () => resolve("deleted");
    req.onblocked = () => resolve("blocked");
  });

  assert.equal(deleted, "deleted");
  // The next use opens the database again, made anew and empty.
  assert.equal(await store.metaGet("last_synced"), undefined);
  await store.metaPut("last_synced", 2);
  assert.equal(await store.metaGet("last_synced"), 2);
});

test("inRoundOrder sorts by number, then by when each was saved", () => {
  const rows = [round("c", "g", 2, 9), round("a", "g", 1, 5), round("b", "g", 2, 3)];
  assert.deepEqual(inRoundOrder(rows).map((r) => r.key), ["a", "b", "c"]);
});
