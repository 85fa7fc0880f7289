// static/js/offline/kept.js: a round saved before the phone's engine had loaded is kept as typed,
// holds back the rounds after it, and is scored in order once the engine answers.
import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { openStore } from "../../static/js/offline/store.js";
import { countedWaiting, nextNumber, scoreKept, scoredRound, unscoredRound } from "../../static/js/offline/kept.js";

const snapshot = (stored) => ({ id: "g1", rounds: Array.from({ length: stored }, (_, i) => ({ number: i + 1 })) });
const waiting = (key, number) => ({ key, game: "g1", number, ended_by: "stock_exhausted", entry: [{}, {}], state: "waiting", saved: number });
const typed = (key, number, fields = { went_out: "stock" }) =>
  unscoredRound({ key, game: "g1", number, fields: { ...fields, round_number: String(number) }, saved: number });

test("a round saved before the engine loaded keeps the fields as typed and no entry", () => {
  assert.deepEqual(typed("k", 3), {
    key: "k",
    game: "g1",
    number: 3,
    ended_by: null,
    entry: null,
    place: "exact",
    version: null,
    state: "waiting",
    error: "",
    theirs: null,
    saved: 3,
    fields: { went_out: "stock", round_number: "3" },
    unscored: true,
  });
});

test("an unscored round is not counted and holds back the rounds after it, but is numbered", () => {
  const rounds = [waiting("a", 3), typed("b", 4), waiting("c", 5)];
  const counted = countedWaiting(snapshot(2), rounds);
  assert.deepEqual(counted.map((r) => r.key), ["a"]);
  assert.equal(nextNumber(snapshot(2), counted, rounds), 6);
  assert.equal(nextNumber(snapshot(2), counted), 4);
});

test("scored, a round waits to be sent with the engine's entry; refused, it waits for the player", () => {
  const round = typed("k", 1);
  const ok = { ok: true, ended_by: "stock_exhausted", entry: [{ melded_points: 50 }, {}], errors: [] };
  assert.deepEqual(scoredRound(round, ok), { ...round, ended_by: "stock_exhausted", entry: [{ melded_points: 50 }, {}], unscored: false });
  const refused = { ok: false, errors: [{ key: "s0-melded_points", message: "Ann's melded points must be a multiple of 5." }, { key: "__all__", message: "Say who went out." }] };
  assert.deepEqual(scoredRound(round, refused), {
    ...round,
    unscored: false,
    state: "refused",
    error: "Saved before this phone's scorer was ready, and it says: Ann's melded points must be a multiple of 5. Say who went out.",
  });
});

test("the engine scores a game's unscored rounds in order, each after the rounds before it", async () => {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot(1) });
  await store.waitingPutAll([waiting("a", 2), typed("b", 3, { x: "1" }), typed("c", 4, { x: "2" })]);
  const asked = [];
  const run = async (fn, snap, counted, fields) => {
    asked.push([fn, counted.map((r) => r.key), fields]);
    return { ok: true, ended_by: "going_out", entry: [{ melded_points: Number(fields.x) * 10 }, {}], errors: [] };
  };

  assert.equal(await scoreKept({ store, run }), 2);

  assert.deepEqual(asked, [
    ["round_preview", ["a"], { x: "1", round_number: "3" }],
    ["round_preview", ["a", "b"], { x: "2", round_number: "4" }],
  ]);
  const rounds = await store.waitingFor("g1");
  assert.deepEqual(rounds.map((r) => [r.key, r.unscored ?? false, r.entry]), [
    ["a", false, [{}, {}]],
    ["b", false, [{ melded_points: 10 }, {}]],
    ["c", false, [{ melded_points: 20 }, {}]],
  ]);
});

test("a refused unscored round holds back the next one, which stays unscored", async () => {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot(0) });
  await store.waitingPutAll([typed("a", 1), typed("b", 2)]);
  const run = async () => ({ ok: false, errors: [{ key: "__all__", message: "Say who went out." }] });

  assert.equal(await scoreKept({ store, run }), 1);

  const rounds = await store.waitingFor("g1");
  assert.deepEqual(rounds.map((r) => [r.key, r.state, r.unscored]), [
    ["a", "refused", false],
    ["b", "waiting", true],
  ]);
});
