// static/js/offline/status.js: the status line's exact text from plain inputs, and from what a
// store (fake-indexeddb) keeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { clock, currentStatus, readinessText, sending, statusText } from "../../static/js/offline/status.js";
import { openStore } from "../../static/js/offline/store.js";

// 27 November 2026, 9:05 and 21:30 on this machine's clock, whatever its zone.
const MORNING = new Date(2026, 10, 27, 9, 5, 59).getTime();
const EVENING = new Date(2026, 10, 27, 21, 30).getTime();
const NOW = MORNING;
const quiet = { online: true, failure: null, now: NOW, waiting: [], local: 0, lastSynced: undefined };
const rounds = (...states) => states.map((state, i) => ({ key: `k${i}`, number: i + 2, state }));

test("the clock is hours without a leading zero, minutes with one", () => {
  assert.equal(clock(MORNING), "9:05");
  assert.equal(clock(EVENING), "21:30");
  assert.equal(clock(new Date(2026, 0, 1, 0, 0).getTime()), "0:00");
});

test("online or offline, and when this phone last synced once nothing waits", () => {
  assert.equal(statusText(quiet), "Online");
  assert.equal(statusText({ ...quiet, online: false }), "Offline");
  assert.equal(statusText({ ...quiet, lastSynced: EVENING }), "Online · Last synced 21:30");
  assert.equal(statusText({ ...quiet, online: false, lastSynced: MORNING }), "Offline · Last synced 9:05");
});

test("rounds waiting, one or several, and no last synced while they wait", () => {
  assert.equal(statusText({ ...quiet, online: false, waiting: rounds("waiting"), lastSynced: EVENING }), "Offline · 1 round waiting to send");
  assert.equal(
    statusText({ ...quiet, online: false, waiting: rounds("waiting", "waiting", "waiting") }),
    "Offline · 3 rounds waiting to send",
  );
});

test("rounds that need the player's choice are counted among the waiting and said apart", () => {
  assert.equal(
    statusText({ ...quiet, waiting: rounds("waiting", "conflict") }),
    "Online · 2 rounds waiting to send · 1 round needs your choice",
  );
  assert.equal(
    statusText({ ...quiet, waiting: rounds("refused", "conflict", "waiting") }),
    "Online · 3 rounds waiting to send · 2 rounds need your choice",
  );
});

test("games started offline wait too, and hold back last synced", () => {
  assert.equal(statusText({ ...quiet, online: false, local: 1, lastSynced: EVENING }), "Offline · 1 game started offline waiting to send");
  assert.equal(
    statusText({ ...quiet, online: false, local: 2, waiting: rounds("waiting") }),
    "Offline · 1 round waiting to send · 2 games started offline waiting to send",
  );
});

test("a failed send, online, says why and counts down to the next try, rounded up", () => {
  const failure = { reason: "the server is busy", at: NOW + 14_200 };
  assert.equal(
    statusText({ ...quiet, failure, waiting: rounds("waiting") }),
    "Send failed: the server is busy. Trying again in 15 s. · 1 round waiting to send",
  );
  assert.equal(statusText({ ...quiet, failure: { ...failure, at: NOW - 3000 } }), "Send failed: the server is busy. Trying again in 0 s.");
});

test("a failed send is not said offline: the phone is simply offline", () => {
  const failure = { reason: "no connection to the server", at: NOW + 5000 };
  assert.equal(statusText({ ...quiet, online: false, failure, waiting: rounds("waiting") }), "Offline · 1 round waiting to send");
});

test("the line from a store: every game's waiting rounds, the local games, last synced", async () => {
  const store = openStore(new IDBFactory());
  assert.equal(await currentStatus({ store, online: true, now: NOW }), "Online");

  await store.metaPut("last_synced", EVENING);
  assert.equal(await currentStatus({ store, online: false, now: NOW }), "Offline · Last synced 21:30");

  await store.gamePut({ id: "g1", local: false });
  await store.gamePut({ id: "g2", local: true });
  await store.waitingPut({ key: "a", game: "g1", number: 2, saved: 1, state: "waiting" });
  await store.waitingPut({ key: "b", game: "g2", number: 1, saved: 2, state: "refused" });
  assert.equal(
    await currentStatus({ store, online: false, now: NOW }),
    "Offline · 2 rounds waiting to send · 1 round needs your choice · 1 game started offline waiting to send",
  );

  sending.failure = { reason: "the server is busy", at: NOW + 30_000 };
  try {
    assert.equal(
      await currentStatus({ store, online: true, now: NOW }),
      "Send failed: the server is busy. Trying again in 30 s. · 2 rounds waiting to send · " +
        "1 round needs your choice · 1 game started offline waiting to send",
    );
  } finally {
    sending.failure = null;
  }
});

test("on a scorer's game page the phone says whether it is ready to score offline", () => {
  assert.equal(readinessText({ state: null, reason: "" }), "");
  assert.equal(readinessText({ state: "loading" }), "Getting ready to score offline…");
  assert.equal(readinessText({ state: "ready" }), "Ready to score offline");
  assert.equal(readinessText({ state: "failed", reason: "no room left" }), "Not ready to score offline: no room left");
});
