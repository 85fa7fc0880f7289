// static/js/display/: the screen kept on during an open game, and the totals read aloud, on a
// stand-in page and stand-in browser APIs that record what was asked of them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { keepAwake, wantsAwake } from "../../static/js/display/awake.js";
import { JUST_SAVED, noteSaves, readAloud, spokenText } from "../../static/js/display/speak.js";

/** A page: its <html> data attributes, which selectors it holds, its visibility. */
function page({ awake = "on", speak = "off", holds = [], visible = true, spoken = "" } = {}) {
  const listeners = {};
  const button = { hidden: true, clicks: [], addEventListener: (_, f) => button.clicks.push(f) };
  const form = { sends: [], addEventListener: (_, f) => form.sends.push(f) };
  const doc = {
    documentElement: { dataset: { awake, speak } },
    visibilityState: visible ? "visible" : "hidden",
    holds: new Set(holds),
    querySelector(selector) {
      if (selector === "[data-spoken]") return spoken ? { textContent: ` ${spoken} ` } : null;
      if (selector === "button[data-read-aloud]") return doc.holds.has("button") ? button : null;
      if (selector === "form.round-form") return doc.holds.has("form") ? form : null;
      return doc.holds.has("game") ? {} : null;
    },
    addEventListener(name, listener) {
      (listeners[name] ||= []).push(listener);
    },
    async fire(name) {
      for (const listener of listeners[name] || []) await listener();
    },
  };
  return { doc, button, form };
}

/** sessionStorage, as a Map. */
function storage(entries = {}) {
  const kept = new Map(Object.entries(entries));
  return {
    kept,
    getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, value) => kept.set(key, String(value)),
    removeItem: (key) => kept.delete(key),
  };
}

/** navigator.wakeLock, recording each request and release. */
function wakeLock({ refuse = false } = {}) {
  const log = [];
  return {
    log,
    wakeLock: {
      async request(kind) {
        log.push(`request ${kind}`);
        if (refuse) throw new Error("NotAllowedError");
        return { release: async () => log.push("release"), addEventListener: () => {} };
      },
    },
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

test("an open game on a shown page wants the screen on, unless the player turned it off", () => {
  assert.equal(wantsAwake(page({ holds: ["game"] }).doc), true);
  assert.equal(wantsAwake(page({ holds: ["game"], awake: "off" }).doc), false);
  assert.equal(wantsAwake(page({ holds: [] }).doc), false);
  assert.equal(wantsAwake(page({ holds: ["game"], visible: false }).doc), false);
});

test("the lock is asked for once on an open game and let go when the game is over", async () => {
  const { doc } = page({ holds: ["game"] });
  const nav = wakeLock();
  const awake = keepAwake(doc, nav);
  await settled();
  await awake.update();
  assert.deepEqual(nav.log, ["request screen"]);
  assert.equal(awake.held(), true);

  doc.holds.delete("game");
  await doc.fire("htmx:afterSettle");
  assert.deepEqual(nav.log, ["request screen", "release"]);
  assert.equal(awake.held(), false);
});

test("shown again after being hidden, the page asks for the lock again", async () => {
  const { doc } = page({ holds: ["game"] });
  const nav = wakeLock();
  const awake = keepAwake(doc, nav);
  await settled();
  doc.visibilityState = "hidden";
  await doc.fire("visibilitychange");
  doc.visibilityState = "visible";
  await doc.fire("visibilitychange");
  assert.deepEqual(nav.log, ["request screen", "release", "request screen"]);
  assert.equal(awake.held(), true);
});

test("a browser without the API, or one that refuses, simply does without", async () => {
  const { doc } = page({ holds: ["game"] });
  const without = keepAwake(doc, {});
  await settled();
  assert.equal(without.held(), false);
  const nav = wakeLock({ refuse: true });
  const refused = keepAwake(doc, nav);
  await settled();
  assert.deepEqual(nav.log, ["request screen"]);
  assert.equal(refused.held(), false);
});

/** speechSynthesis and SpeechSynthesisUtterance, recording what was said. */
function speech() {
  const said = [];
  return {
    said,
    synth: { cancel: () => said.push("(cancel)"), speak: (u) => said.push(u.text) },
    Utterance: class {
      constructor(text) {
        this.text = text;
      }
    },
  };
}

const TOTALS = "Us 4,215, Them 3,890; Ann deals next.";

test("the totals are said on the page after a save when the player turned reading aloud on", () => {
  const { doc, button } = page({ speak: "on", holds: ["button"], spoken: TOTALS });
  const voice = speech();
  const tab = storage({ [JUST_SAVED]: "1" });
  assert.equal(readAloud(doc, voice.synth, voice.Utterance, tab), true);
  assert.deepEqual(voice.said, ["(cancel)", TOTALS]);
  assert.equal(tab.kept.has(JUST_SAVED), false);
  assert.equal(button.hidden, false);
  button.clicks[0]();
  assert.deepEqual(voice.said, ["(cancel)", TOTALS, "(cancel)", TOTALS]);
});

test("sending the round form marks the tab; any next page clears the mark", () => {
  const { doc, form } = page({ holds: ["form"] });
  const tab = storage();
  noteSaves(doc, tab);
  form.sends[0]();
  assert.equal(tab.getItem(JUST_SAVED), "1");
  // A refused Save comes back as the form: nothing to say, and the mark is gone.
  const voice = speech();
  assert.equal(readAloud(page({ speak: "on" }).doc, voice.synth, voice.Utterance, tab), false);
  assert.equal(tab.getItem(JUST_SAVED), null);
  assert.deepEqual(voice.said, []);
});

test("nothing is said on a page not reached by a save, but the button says it on a tap", () => {
  const { doc, button } = page({ speak: "on", holds: ["button"], spoken: TOTALS });
  const voice = speech();
  assert.equal(readAloud(doc, voice.synth, voice.Utterance, storage()), false);
  assert.deepEqual(voice.said, []);
  button.clicks[0]();
  assert.deepEqual(voice.said, ["(cancel)", TOTALS]);
});

test("off by default, and no button where the browser cannot speak", () => {
  assert.equal(spokenText(page({ spoken: TOTALS }).doc), null);
  assert.equal(spokenText(page({ speak: "on", spoken: TOTALS }).doc), TOTALS);
  const { doc, button } = page({ speak: "on", holds: ["button"], spoken: TOTALS });
  assert.equal(readAloud(doc, undefined, undefined, storage({ [JUST_SAVED]: "1" })), false);
  assert.equal(button.hidden, true);
});

import { localText, localiseTimes } from "../../static/js/display/times.js";

test("a moment is written as the server writes it, in this phone's zone", () => {
  // 27 November 2026, 11:35 and 9:05 on this machine's clock, whatever its zone.
  assert.equal(localText(new Date(2026, 10, 27, 11, 35), "short"), "27 Nov 2026 11:35");
  assert.equal(localText(new Date(2026, 10, 27, 9, 5), "long"), "27 November 2026 at 09:05");
});

test("every <time data-local> is rewritten from its datetime, and a bad one is left alone", () => {
  const moment = new Date(2026, 10, 27, 11, 35);
  const good = { getAttribute: () => moment.toISOString(), dataset: { local: "short" }, textContent: "27 Nov 2026 17:35 UTC" };
  const bad = { getAttribute: () => "not a date", dataset: { local: "short" }, textContent: "as sent" };
  const root = { querySelectorAll: () => [good, bad] };
  assert.equal(localiseTimes(root), 1);
  assert.equal(good.textContent, "27 Nov 2026 11:35");
  assert.equal(bad.textContent, "as sent");
});
