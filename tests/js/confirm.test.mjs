// static/js/offline/confirm.js and sync.js's sendConfirms: a round confirmed while offline is
// kept once on the phone (a store on fake-indexeddb), sent when the connection returns, and
// leaves the phone once the server has answered it; a failed send keeps it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { confirmForms, confirmationOf, keepConfirmation } from "../../static/js/offline/confirm.js";
import { CONFIRMS, openStore } from "../../static/js/offline/store.js";
import { SendFailed, sendConfirms } from "../../static/js/offline/sync.js";
import { statusText } from "../../static/js/offline/status.js";

/** A confirm form as game_detail.html draws it: its data-confirm-* and hidden fields. */
function confirmForm({ game = "g1", round = "3", version = "2026-11-28T20:14:00+00:00", handed = null } = {}) {
  const fields = { round_version: version, ...(handed === null ? {} : { handed_over: handed }) };
  const listeners = {};
  const button = { disabled: false };
  return {
    dataset: { confirmGame: game, confirmRound: round },
    button,
    listeners,
    querySelector: (selector) => {
      if (selector === "button") return button;
      const name = /name="([^"]+)"/.exec(selector)?.[1];
      return name in fields ? { value: fields[name] } : null;
    },
    addEventListener: (type, fn) => (listeners[type] = fn),
  };
}

test("a confirm form says which game, round and save of it, and whether the phone was handed over", () => {
  assert.deepEqual(confirmationOf(confirmForm()), {
    game: "g1", number: 3, version: "2026-11-28T20:14:00+00:00", handedOver: false,
  });
  assert.equal(confirmationOf(confirmForm({ handed: "1" })).handedOver, true);
  assert.equal(confirmationOf(confirmForm({ round: "x" })), null);
  assert.equal(confirmationOf(confirmForm({ round: "0" })), null);
  assert.equal(confirmationOf(confirmForm({ game: "" })), null);
});

test("a round confirmed twice offline is kept once, and says when it is sent", async () => {
  const store = openStore(new IDBFactory());
  const asked = { game: "g1", number: 3, version: "v", handedOver: false };

  const said = await keepConfirmation(asked, store);
  await keepConfirmation(asked, store);
  await keepConfirmation({ ...asked, number: 4 }, store);

  assert.equal(said, "Round 3 confirmed on this phone, not sent yet: it is sent when the phone is online.");
  assert.deepEqual((await store.metaGet(CONFIRMS)).map((c) => c.number), [3, 4]);
});

test("offline a confirm form keeps its confirmation instead of posting; online it posts", async () => {
  const store = openStore(new IDBFactory());
  const form = confirmForm();
  form.matches = (selector) => selector === "form[data-confirm-round]";
  const other = { matches: () => false };
  let online = false;
  const said = [];
  let synced = 0;
  let listener = null;
  confirmForms({ addEventListener: (type, fn) => (listener = fn) }, {
    store, online: () => online, said: (text) => said.push(text), sync: () => (synced += 1),
  });
  let prevented = 0;
  const submit = (target) => listener({ target, preventDefault: () => (prevented += 1) });

  await submit(other);
  await submit(form);
  online = true;
  await submit(form);

  assert.equal(prevented, 1);
  assert.equal(form.button.disabled, true);
  assert.equal(said.length, 1);
  assert.equal(synced, 1);
  assert.deepEqual(await store.metaGet(CONFIRMS), [
    { game: "g1", number: 3, version: "2026-11-28T20:14:00+00:00", handedOver: false },
  ]);
});

test("the kept confirmations are sent in order and leave the phone once answered", async () => {
  const store = openStore(new IDBFactory());
  await store.metaPut(CONFIRMS, [
    { game: "g1", number: 3, version: "v3", handedOver: false },
    { game: "g1", number: 4, version: "v4", handedOver: true },
  ]);
  const posts = [];
  const answers = [
    { status: 200, data: { number: 3, confirmed: true } },
    { status: 409, data: { errors: [{ key: "round", message: "Round 4 was corrected on another phone at 20:15." }] } },
  ];
  const post = async (url, body) => {
    posts.push({ url, body });
    return answers[posts.length - 1];
  };

  const refused = await sendConfirms({ store, post });

  assert.deepEqual(posts, [
    { url: "/g/g1/offline/confirm/", body: { number: 3, version: "v3", handed_over: false } },
    { url: "/g/g1/offline/confirm/", body: { number: 4, version: "v4", handed_over: true } },
  ]);
  assert.deepEqual(refused, ["Round 4 was corrected on another phone at 20:15."]);
  assert.deepEqual(await store.metaGet(CONFIRMS), []);
});

test("a send that fails keeps the confirmation for the next try", async () => {
  const store = openStore(new IDBFactory());
  await store.metaPut(CONFIRMS, [{ game: "g1", number: 3, version: "v3", handedOver: false }]);
  const post = async () => {
    throw new SendFailed("no connection to the server");
  };

  await assert.rejects(sendConfirms({ store, post }), SendFailed);

  assert.deepEqual((await store.metaGet(CONFIRMS)).map((c) => c.number), [3]);
});

test("the status line counts the confirmations waiting and says a refusal", () => {
  const line = statusText({
    online: false, failure: null, now: 0, waiting: [], local: 0, lastSynced: 1, confirms: 2,
  });
  const refused = statusText({
    online: true, failure: null, now: 0, waiting: [], local: 0, lastSynced: null, confirms: 0,
    refused: "Round 4 was corrected on another phone at 20:15.",
  });

  assert.equal(line, "Offline · 2 confirmations waiting to send");
  assert.equal(refused, "Online · Round 4 was corrected on another phone at 20:15.");
});
