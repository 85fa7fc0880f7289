// static/js/offline/game.js: which waiting rounds the engine counts, the next round's number, the
// player's choices as the rounds they leave, and the offline shell's addresses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import {
  awaitsChoice,
  bothVersions,
  countedWaiting,
  gameState,
  holdWhileUnsettled,
  keptBoth,
  keptMine,
  nextNumber,
  shellPage,
} from "../../static/js/offline/game.js";
import { openStore } from "../../static/js/offline/store.js";

const ENTRY = [{ melded_points: 50 }, { melded_points: 40 }];
const snapshot = (stored) => ({ id: "g1", rounds: Array.from({ length: stored }, (_, i) => ({ number: i + 1, version: `v${i + 1}` })) });
const round = (key, number, extra = {}) => ({
  key, game: "g1", number, ended_by: "stock_exhausted", entry: ENTRY, state: "waiting", saved: number, error: "", theirs: null, ...extra,
});
// What the engine is given of a counted round.
const counted = (key, number) => ({ key, number, ended_by: "stock_exhausted", entry: ENTRY });

test("the rounds that follow the stored ones without a gap are counted", () => {
  assert.deepEqual(countedWaiting(snapshot(2), [round("a", 3), round("b", 4)]), [counted("a", 3), counted("b", 4)]);
  assert.deepEqual(countedWaiting(snapshot(0), [round("a", 1)]), [counted("a", 1)]);
  assert.deepEqual(countedWaiting(snapshot(2), []), []);
});

test("a gap stops the count: what follows it is not counted", () => {
  assert.deepEqual(countedWaiting(snapshot(2), [round("a", 3), round("b", 5), round("c", 6)]), [counted("a", 3)]);
  assert.deepEqual(countedWaiting(snapshot(2), [round("a", 4)]), []);
  // One the server stored meanwhile (another phone's round 3): this phone's 3 is not next.
  assert.deepEqual(countedWaiting(snapshot(3), [round("a", 3), round("b", 4)]), []);
});

test("rounds waiting for a choice are skipped, and the count goes on past them", () => {
  const rounds = [round("a", 3, { state: "conflict" }), round("b", 3), round("c", 4, { state: "refused" }), round("d", 4)];
  assert.deepEqual(countedWaiting(snapshot(2), rounds), [counted("b", 3), counted("d", 4)]);
});

test("a round kept in the place of a stored one is counted there, before the rounds that follow", () => {
  const rounds = [round("a", 2, { place: "replace" }), round("b", 4)];
  assert.deepEqual(countedWaiting(snapshot(3), rounds), [counted("a", 2), counted("b", 4)]);
  // Once the server has as few rounds as its number, it is an ordinary next round.
  assert.deepEqual(countedWaiting(snapshot(1), [round("a", 2, { place: "replace" })]), [counted("a", 2)]);
  assert.deepEqual(countedWaiting(snapshot(0), [round("a", 2, { place: "replace" })]), []);
});

test("the next round's number: stored rounds, then the counted rounds after them", () => {
  assert.equal(nextNumber(snapshot(0), []), 1);
  assert.equal(nextNumber(snapshot(2), [counted("a", 3), counted("b", 4)]), 5);
  // A round kept in place of a stored one adds no round.
  assert.equal(nextNumber(snapshot(3), [counted("a", 2), counted("b", 4)]), 5);
});

test("a game's state from the store: the game, its waiting rounds, those counted", async () => {
  const store = openStore(new IDBFactory());
  assert.deepEqual(await gameState("g1", store), { game: undefined, rounds: [], counted: [] });

  const game = { id: "g1", snapshot: snapshot(2), local: false };
  await store.gamePut(game);
  await store.waitingPutAll([round("b", 5), round("a", 3), round("x", 1, { game: "g2" })]);

  assert.deepEqual(await gameState("g1", store), { game, rounds: [round("a", 3), round("b", 5)], counted: [counted("a", 3)] });
});

test("Keep this phone's round: it waits again, to replace the other phone's version", () => {
  const theirs = { number: 2, version: "v-theirs", scores: [] };
  const conflict = round("a", 2, { state: "conflict", theirs, error: "taken" });
  assert.deepEqual(keptMine(conflict, snapshot(2)), { ...conflict, state: "waiting", place: "replace", version: "v-theirs" });
  // Without the other phone's version, the stored round's.
  assert.deepEqual(keptMine({ ...conflict, theirs: { number: 2 } }, snapshot(2)).version, "v2");
  assert.equal(keptMine({ ...conflict, theirs: null }, snapshot(1)).version, undefined);
});

test("Keep both: this phone's round after the stored ones, its later rounds renumbered after it", () => {
  const conflict = round("a", 2, { state: "conflict", theirs: { number: 2 } });
  const waiting = [conflict, round("b", 3), round("c", 4), round("z", 1)];

  assert.deepEqual(keptBoth(conflict, snapshot(2), waiting), [
    { ...round("b", 3), number: 4 },
    { ...round("c", 4), number: 5 },
    { ...conflict, state: "waiting", place: "end", number: 3, theirs: null },
  ]);
});

test("the offline shell's addresses: a game, its round form, or anything else", () => {
  assert.deepEqual(shellPage("/g/abc_-1/"), { id: "abc_-1", form: false });
  assert.deepEqual(shellPage("/g/abc/rounds/new/"), { id: "abc", form: true });
  assert.deepEqual(shellPage("/g/a%20b/"), { id: "a b", form: false });
  for (const other of ["/", "/g/abc", "/g/abc/rounds/", "/g/abc/rounds/3/", "/games/new/", "/g//"]) {
    assert.equal(shellPage(other), null, other);
  }
});

/** A game's [data-offline-game] element, as far as holdWhileUnsettled touches it. */
function fakeRoot() {
  const attributes = new Set();
  return {
    attributes,
    toggleAttribute(name, force) {
      if (force) attributes.add(name);
      else attributes.delete(name);
      return force;
    },
  };
}

test("a conflict or a refusal waits for the player's choice; rounds waiting to be sent do not", () => {
  assert.equal(awaitsChoice([]), false);
  assert.equal(awaitsChoice([round("a", 3), round("b", 4, { place: "replace" })]), false);
  assert.equal(awaitsChoice([round("a", 3), round("b", 4, { state: "conflict" })]), true);
  assert.equal(awaitsChoice([round("a", 3, { state: "refused" })]), true);
});

test("while a choice waits, the game's Enter, Delete and End controls are held back; once settled, shown", () => {
  const root = fakeRoot();
  holdWhileUnsettled(root, [round("a", 3, { state: "conflict" }), round("b", 4)]);
  assert.deepEqual([...root.attributes], ["data-awaits-choice"]);
  holdWhileUnsettled(root, [round("a", 3, { state: "waiting", place: "replace" })]);
  assert.deepEqual([...root.attributes], []);
  holdWhileUnsettled(root, [round("a", 3, { state: "refused" })]);
  assert.deepEqual([...root.attributes], ["data-awaits-choice"]);
  holdWhileUnsettled(root, []);
  assert.deepEqual([...root.attributes], []);
});

test("the two versions of a round saved on two phones, as the engine scores each at its place", () => {
  const theirs = { number: 3, ended_by: "going_out", entry: [{ went_out: true }, {}], key: null, version: "v3", scores: [] };
  assert.deepEqual(bothVersions(round("a", 3, { state: "conflict", theirs })), [
    { number: 3, ended_by: "stock_exhausted", entry: ENTRY },
    { number: 3, ended_by: "going_out", entry: [{ went_out: true }, {}] },
  ]);
  // An answer that did not say the other round's number: it is at this round's.
  const unnumbered = { ...theirs, number: undefined };
  assert.equal(bothVersions(round("a", 3, { state: "conflict", theirs: unnumbered }))[1].number, 3);
});
