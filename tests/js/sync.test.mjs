// static/js/offline/sync.js: what is sent, in which order, what each answer of the server does to
// what the phone keeps (a store on fake-indexeddb), and the tries after a failure. The server is
// a function answering {status, data}, or a fake fetch for postJSON itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import {
  BACKOFF,
  SendFailed,
  backoff,
  createLocalGames,
  csrfFrom,
  messagesOf,
  postJSON,
  refreshSnapshot,
  sendRound,
  sendWaiting,
  sender,
} from "../../static/js/offline/sync.js";
import { openStore } from "../../static/js/offline/store.js";

const waiting = (key, game, number, extra = {}) => ({
  key, game, number, ended_by: "stock_exhausted", entry: [{ melded_points: 50 }], state: "waiting", saved: number, ...extra,
});
const snapshot = (id, rounds = 1) => ({ id, sides: ["Ann", "Bob"], rounds: Array.from({ length: rounds }, (_, i) => ({ number: i + 1 })) });

/** A server answering each POST with the next answer (the last repeats), recording the posts. */
function server(...answers) {
  const posts = [];
  const post = async (url, body) => {
    posts.push({ url, body });
    const answer = answers[Math.min(posts.length, answers.length) - 1];
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(url, body) : answer;
  };
  return { post, posts };
}

/** A fetch answering with `status` and `body` (JSON when not a string), recording its calls. */
function fakeFetch(status, body) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    if (status instanceof Error) throw status;
    return {
      status,
      ok: status >= 200 && status < 300,
      json: async () => (typeof body === "string" ? JSON.parse(body) : body),
    };
  };
  return { fetch, calls };
}

test("the tries after a failure wait 5, 15, 30, 60, then 120 s each", () => {
  assert.deepEqual(BACKOFF, [5, 15, 30, 60, 120]);
  assert.deepEqual([1, 2, 3, 4, 5, 6, 50].map(backoff), [5, 15, 30, 60, 120, 120, 120]);
});

test("the CSRF token comes from the cookie, else from base.html's hx-headers", () => {
  assert.equal(csrfFrom("sessionid=x; csrftoken=abc%3D; theme=dark", '{"X-CSRFToken": "other"}'), "abc=");
  assert.equal(csrfFrom("sessionid=x", '{"X-CSRFToken": "from-page"}'), "from-page");
  assert.equal(csrfFrom("", null), "");
  assert.equal(csrfFrom("", "{not json"), "");
  assert.equal(csrfFrom("", '{"Other": 1}'), "");
});

test("postJSON sends JSON with the token and gives the status and the answer", async () => {
  const { fetch, calls } = fakeFetch(201, { snapshot: { id: "g1" } });

  const answer = await postJSON("/offline/games/", { id: "g1" }, { fetch, token: () => "tok" });

  assert.deepEqual(answer, { status: 201, data: { snapshot: { id: "g1" } } });
  assert.deepEqual(calls, [
    {
      url: "/offline/games/",
      init: {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRFToken": "tok" },
        body: '{"id":"g1"}',
      },
    },
  ]);
});

test("postJSON: an answer that is not JSON (a refusal page) gives an empty answer", async () => {
  const { fetch } = fakeFetch(403, "<!doctype html><title>Forbidden</title>");
  assert.deepEqual(await postJSON("/x", {}, { fetch, token: () => "" }), { status: 403, data: {} });
});

test("postJSON fails, saying why, when the server cannot be reached or cannot take it", async () => {
  const cases = [
    [new TypeError("Failed to fetch"), "no connection to the server"],
    [503, "the server is busy"],
    [500, "the server answered with error 500"],
    [502, "the server answered with error 502"],
  ];
  for (const [status, reason] of cases) {
    const { fetch } = fakeFetch(status, {});
    await assert.rejects(postJSON("/x", {}, { fetch, token: () => "" }), (error) => {
      assert.ok(error instanceof SendFailed);
      assert.equal(error.message, reason);
      return true;
    });
  }
});

test("the server's messages in one sentence, or the fallback", () => {
  assert.equal(messagesOf({ errors: [{ message: "One." }, { message: "Two." }] }, "none"), "One. Two.");
  assert.equal(messagesOf({ errors: [] }, "none"), "none");
  assert.equal(messagesOf({}, "none"), "none");
  assert.equal(messagesOf(null, "none"), "none");
});

test("a round the server stores leaves the phone; the snapshot it sends back is kept", async () => {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot("g1"), local: false, preset: "baskets", error: "old" });
  const round = waiting("k1", "g1", 2, { place: "replace", version: "v1" });
  await store.waitingPut(round);
  const { post, posts } = server({ status: 201, data: { snapshot: snapshot("g1", 2) } });

  assert.equal(await sendRound(round, { store, post }), true);

  assert.deepEqual(posts, [
    {
      url: "/g/g1/offline/rounds/",
      body: { key: "k1", number: 2, ended_by: "stock_exhausted", entry: [{ melded_points: 50 }], place: "replace", version: "v1" },
    },
  ]);
  assert.deepEqual(await store.waitingFor(), []);
  assert.deepEqual(await store.gameGet("g1"), { id: "g1", snapshot: snapshot("g1", 2), local: false, preset: "baskets", error: "" });
});

test("a round with no place or version is sent as exact, version null", async () => {
  const store = openStore(new IDBFactory());
  const { post, posts } = server({ status: 200, data: {} });
  await sendRound(waiting("k1", "g1", 2), { store, post });
  assert.equal(posts[0].body.place, "exact");
  assert.equal(posts[0].body.version, null);
});

test("another phone's round at that number: a conflict, with theirs and the server's words", async () => {
  const store = openStore(new IDBFactory());
  const round = waiting("k1", "g1", 2);
  await store.waitingPut(round);
  const theirs = { number: 2, version: "v9", scores: [] };
  const { post } = server({ status: 409, data: { theirs, message: "Round 2 is taken." } });

  assert.equal(await sendRound(round, { store, post }), false);
  assert.deepEqual(await store.waitingFor(), [{ ...round, state: "conflict", theirs, error: "Round 2 is taken." }]);
});

test("a refusal keeps the round with the reason: no scorer right, or the server's messages", async () => {
  const cases = [
    [{ status: 403, data: {} }, "This phone may no longer score this game: ask a scorer for the scorer link."],
    [{ status: 400, data: { errors: [{ key: "__all__", message: "The game is over: nothing was added." }] } }, "The game is over: nothing was added."],
    [{ status: 404, data: {} }, "The server refused this round (error 404)."],
  ];
  for (const [answer, error] of cases) {
    const store = openStore(new IDBFactory());
    const round = waiting("k1", "g1", 2);
    await store.waitingPut(round);
    assert.equal(await sendRound(round, { store, post: server(answer).post }), false);
    assert.deepEqual(await store.waitingFor(), [{ ...round, state: "refused", error }]);
  }
});

test("an out-of-date CSRF token fails the send, to be tried again, and keeps the round as it was", async () => {
  const store = openStore(new IDBFactory());
  const round = waiting("k1", "g1", 2);
  await store.waitingPut(round);
  const { post } = server({ status: 403, data: { errors: [{ key: "csrf", message: "CSRF" }] } });

  await assert.rejects(sendRound(round, { store, post }), (error) => {
    assert.ok(error instanceof SendFailed);
    assert.equal(error.message, "this phone's security token is out of date (open any page of the app)");
    return true;
  });
  assert.deepEqual(await store.waitingFor(), [round]);
});

test("games started on this phone are created, or keep the server's reason", async () => {
  const store = openStore(new IDBFactory());
  const local = (id) => ({ id, snapshot: snapshot(id, 0), local: true, preset: "baskets", form: { "side-0": "Ann" }, error: "" });
  await store.gamePut(local("a"));
  await store.gamePut(local("b"));
  await store.gamePut(local("c"));
  await store.gamePut({ id: "d", snapshot: snapshot("d"), local: false });
  const answers = {
    a: { status: 201, data: { snapshot: snapshot("a", 0) } },
    b: { status: 409, data: {} },
    c: { status: 400, data: { errors: [{ message: "Two sides at least." }] } },
  };
  const { post, posts } = server((url, body) => answers[body.id]);

  await createLocalGames({ store, post });

  assert.deepEqual(posts.map((p) => [p.url, p.body]), [
    ["/offline/games/", { id: "a", preset: "baskets", form: { "side-0": "Ann" } }],
    ["/offline/games/", { id: "b", preset: "baskets", form: { "side-0": "Ann" } }],
    ["/offline/games/", { id: "c", preset: "baskets", form: { "side-0": "Ann" } }],
  ]);
  assert.deepEqual(await store.gameGet("a"), { ...local("a"), local: false });
  assert.deepEqual(await store.gameGet("b"), { ...local("b"), error: "another game already has this game's address, so it was not created" });
  assert.deepEqual(await store.gameGet("c"), { ...local("c"), error: "Two sides at least." });
});

test("each game's rounds go in order; one that needs a choice holds back the rest of its game", async () => {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot("g1"), local: false });
  await store.gamePut({ id: "g2", snapshot: snapshot("g2"), local: false });
  await store.gamePut({ id: "g3", snapshot: snapshot("g3", 0), local: true });
  await store.waitingPutAll([
    waiting("a3", "g1", 3),
    waiting("a2", "g1", 2),
    waiting("b2", "g2", 2, { state: "conflict" }),
    waiting("b3", "g2", 3),
    waiting("c1", "g3", 1),
    waiting("d1", "gone", 1),
  ]);
  const { post, posts } = server({ status: 201, data: {} });

  await sendWaiting({ store, post });

  assert.deepEqual(posts.map((p) => p.body.key), ["a2", "a3"]);
  assert.deepEqual((await store.waitingFor()).map((r) => r.key), ["c1", "d1", "b2", "b3"]);
});

test("a refused round stops its game's sending at once", async () => {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot("g1"), local: false });
  await store.waitingPutAll([waiting("a2", "g1", 2), waiting("a3", "g1", 3)]);
  const { post, posts } = server({ status: 400, data: {} });

  await sendWaiting({ store, post });

  assert.deepEqual(posts.map((p) => p.body.key), ["a2"]);
});

test("the server's copy of a game is fetched and kept, and last synced set", async () => {
  const store = openStore(new IDBFactory());
  const { fetch, calls } = fakeFetch(200, { ...snapshot("g 1"), can_score: true });

  assert.equal(await refreshSnapshot("g 1", { store, fetch, now: () => 777 }), true);

  assert.deepEqual(calls, [{ url: "/g/g%201/offline.json", init: { credentials: "same-origin", cache: "no-store" } }]);
  assert.deepEqual(await store.gameGet("g 1"), { id: "g 1", snapshot: { ...snapshot("g 1"), can_score: true }, local: false, error: "" });
  assert.equal(await store.metaGet("last_synced"), 777);
});

test("nothing is kept from a game this phone may not score, a refusal or no connection", async () => {
  for (const [status, body] of [[200, { ...snapshot("g1"), can_score: false }], [404, {}], [new TypeError("offline"), {}]]) {
    const store = openStore(new IDBFactory());
    const { fetch } = fakeFetch(status, body);
    assert.equal(await refreshSnapshot("g1", { store, fetch, now: () => 1 }), false);
    assert.equal(await store.gameGet("g1"), undefined);
    assert.equal(await store.metaGet("last_synced"), undefined);
  }
});

/** Wait, a turn of the event loop at a time, until `done()` (at most 1,000 turns). */
async function until(done) {
  for (let turns = 0; !done(); turns++) {
    if (turns > 1000) throw new Error("waited too long");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A sender on its own store and server, its timers and redraws recorded. */
async function syncing(answers, { online = true, locks = null } = {}) {
  const store = openStore(new IDBFactory());
  await store.gamePut({ id: "g1", snapshot: snapshot("g1"), local: false });
  const { post, posts } = server(...answers);
  const timers = [];
  const shown = { failure: null };
  let redraws = 0;
  let time = 1_000_000;
  const { state, syncNow } = sender({
    store,
    post,
    online: () => online,
    now: () => time,
    redraw: async () => {
      redraws += 1;
    },
    shown,
    later: (fn, ms) => timers.push({ fn, ms }) && `timer ${timers.length}`,
    cancel: () => {},
    locks,
  });
  return { store, posts, timers, shown, state, syncNow, redraws: () => redraws, tick: (ms) => (time += ms) };
}

/** The browser's Web Locks as its tabs share them: `elsewhere()` has another tab take the lock
 *  (until the function it returns is called); this tab's requests are recorded. */
function fakeLocks() {
  const requests = [];
  let held = null;
  const take = () => {
    let release;
    held = { released: new Promise((resolve) => (release = resolve)) };
    return () => {
      held = null;
      release();
    };
  };
  return {
    requests,
    held: () => held !== null,
    elsewhere: take,
    async request(name, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      requests.push({ name, options });
      if (held && options.ifAvailable) return callback(null);
      while (held) await held.released;
      const letGo = take();
      try {
        return await callback({ name, mode: "exclusive" });
      } finally {
        letGo();
      }
    },
  };
}

test("another tab sending: this tab sends nothing, and redraws once that tab is done", async () => {
  const locks = fakeLocks();
  const run = await syncing([{ status: 201, data: {} }], { locks });
  await run.store.waitingPut(waiting("a2", "g1", 2));
  const letGo = locks.elsewhere();

  const sync = run.syncNow();
  await until(() => locks.requests.length === 2);
  assert.equal(run.redraws(), 0);
  letGo();
  await sync;

  assert.deepEqual(run.posts, []);
  assert.equal(run.redraws(), 1);
  assert.deepEqual(locks.requests, [
    { name: "scorekeeper-offline-sync", options: { ifAvailable: true } },
    { name: "scorekeeper-offline-sync", options: {} },
  ]);
  assert.deepEqual((await run.store.waitingFor()).map((r) => r.key), ["a2"]);
  assert.equal(await run.store.metaGet("last_synced"), undefined);
  assert.equal(run.state.running, false);
});

test("no other tab sending: this tab takes the lock and sends while it holds it", async () => {
  const locks = fakeLocks();
  const heldWhileSent = [];
  const run = await syncing([() => (heldWhileSent.push(locks.held()), { status: 201, data: {} })], { locks });
  await run.store.waitingPut(waiting("a2", "g1", 2));

  await run.syncNow();

  assert.deepEqual(run.posts.map((p) => p.body.key), ["a2"]);
  assert.deepEqual(heldWhileSent, [true]);
  assert.equal(locks.held(), false);
  assert.deepEqual(locks.requests, [{ name: "scorekeeper-offline-sync", options: { ifAvailable: true } }]);
  assert.deepEqual(await run.store.waitingFor(), []);
  assert.equal(run.redraws(), 1);
});

test("a browser without Web Locks sends as before", async () => {
  const run = await syncing([{ status: 201, data: {} }], { locks: null });
  await run.store.waitingPut(waiting("a2", "g1", 2));

  await run.syncNow();

  assert.deepEqual(run.posts.map((p) => p.body.key), ["a2"]);
  assert.deepEqual(await run.store.waitingFor(), []);
  assert.equal(await run.store.metaGet("last_synced"), 1_000_000);
  assert.equal(run.redraws(), 1);
});

test("offline, a sync only redraws the page", async () => {
  const run = await syncing([{ status: 201, data: {} }], { online: false });
  await run.store.waitingPut(waiting("a2", "g1", 2));

  await run.syncNow();

  assert.deepEqual(run.posts, []);
  assert.equal(run.redraws(), 1);
  assert.equal(await run.store.metaGet("last_synced"), undefined);
});

test("a sync that sends something sets last synced; one with nothing to send does not", async () => {
  const run = await syncing([{ status: 201, data: {} }]);
  await run.syncNow();
  assert.equal(await run.store.metaGet("last_synced"), undefined);

  await run.store.waitingPut(waiting("a2", "g1", 2));
  await run.syncNow();

  assert.deepEqual(run.posts.map((p) => p.body.key), ["a2"]);
  assert.equal(await run.store.metaGet("last_synced"), 1_000_000);
  assert.equal(run.redraws(), 2);
});

test("failed sends are said and tried again 5 s, then 15 s later; a success clears the failure", async () => {
  const run = await syncing([
    new SendFailed("the server is busy"),
    new SendFailed("no connection to the server"),
    { status: 201, data: {} },
  ]);
  await run.store.waitingPut(waiting("a2", "g1", 2));

  await run.syncNow();
  assert.deepEqual(run.shown.failure, { reason: "the server is busy", at: 1_005_000 });
  assert.deepEqual(run.timers.map((t) => t.ms), [5000]);
  assert.equal(run.state.failures, 1);

  run.tick(5000);
  await run.timers[0].fn();
  assert.deepEqual(run.shown.failure, { reason: "no connection to the server", at: 1_020_000 });
  assert.deepEqual(run.timers.map((t) => t.ms), [5000, 15000]);

  await run.timers[1].fn();
  assert.equal(run.shown.failure, null);
  assert.equal(run.state.failures, 0);
  assert.deepEqual(await run.store.waitingFor(), []);
  assert.equal(run.redraws(), 3);
});

test("a failure that is not the server's is said as the error says it", async () => {
  const run = await syncing([new TypeError("boom")]);
  await run.store.waitingPut(waiting("a2", "g1", 2));
  await run.syncNow();
  assert.deepEqual(run.shown.failure, { reason: "TypeError: boom", at: 1_005_000 });
});

test("a sync asked for while one runs runs once more when it ends", async () => {
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  const run = await syncing([async () => (await held, { status: 201, data: {} }), { status: 201, data: {} }]);
  await run.store.waitingPut(waiting("a2", "g1", 2));

  const first = run.syncNow();
  // Let the first sync reach the server before asking again.
  await until(() => run.posts.length === 1);
  await run.store.waitingPut(waiting("a3", "g1", 3));
  await run.syncNow();
  await run.syncNow();
  assert.equal(run.state.again, true);
  release();
  await first;
  await until(() => run.posts.length === 2 && !run.state.running);

  assert.deepEqual(run.posts.map((p) => p.body.key), ["a2", "a3"]);
  assert.equal(run.state.again, false);
});
