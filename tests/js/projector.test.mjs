// static/js/projector/clock.js: the projector's clock in the club's zone and the round timer's
// countdown, on a stand-in board whose elements record what was written into them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { clockText, startClock, tick, timeLeft } from "../../static/js/projector/clock.js";

// 18:35:20 UTC on 27 November 2026 (winter: London is on UTC) and 17:05:00 UTC on 1 July 2026
// (summer: London is an hour ahead).
const WINTER = Date.UTC(2026, 10, 27, 18, 35, 20);
const SUMMER = Date.UTC(2026, 6, 1, 17, 5, 0);

test("the clock reads the time in the zone the server named, as the server writes it", () => {
  assert.equal(clockText(WINTER, "Europe/London", 0), "18:35");
  assert.equal(clockText(SUMMER, "Europe/London", 60), "18:05");
  assert.equal(clockText(SUMMER, "UTC", 0), "17:05");
  assert.equal(clockText(SUMMER, "America/Chicago", -300), "12:05");
  // Midnight is 00:00, never 24:00.
  assert.equal(clockText(Date.UTC(2026, 10, 27, 0, 0, 30), "UTC", 0), "00:00");
});

test("a zone this browser does not know falls back to the server's offset", () => {
  assert.equal(clockText(SUMMER, "Nowhere/Atlantis", 60), "18:05");
  assert.equal(clockText(SUMMER, "", -90), "15:35");
  assert.equal(clockText(SUMMER, undefined, undefined), "17:05");
});

test("the timer counts minutes and seconds, hours from an hour up, and says Time at the end", () => {
  const ends = WINTER + 15 * 60_000;
  assert.deepEqual(timeLeft(ends, WINTER), { text: "15:00", out: false });
  assert.deepEqual(timeLeft(ends, WINTER + 1), { text: "15:00", out: false });
  assert.deepEqual(timeLeft(ends, WINTER + 1000), { text: "14:59", out: false });
  assert.deepEqual(timeLeft(ends, ends - 9_000), { text: "0:09", out: false });
  // The last second shows 0:01, never 0:00; at the end and after it, Time.
  assert.deepEqual(timeLeft(ends, ends - 1), { text: "0:01", out: false });
  assert.deepEqual(timeLeft(ends, ends), { text: "Time", out: true });
  assert.deepEqual(timeLeft(ends, ends + 60_000), { text: "Time", out: true });
  assert.deepEqual(timeLeft(WINTER + 180 * 60_000, WINTER), { text: "3:00:00", out: false });
  assert.deepEqual(timeLeft(WINTER + 62 * 60_000 + 3_000, WINTER), { text: "1:02:03", out: false });
  assert.deepEqual(timeLeft(Number.NaN, WINTER), { text: "Time", out: true });
});

/** An element: its text, its data attributes, its classes and the elements it holds. */
function element(dataset = {}, text = "", holds = {}) {
  const classes = new Set();
  return {
    dataset,
    textContent: text,
    classList: {
      toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)),
      contains: (name) => classes.has(name),
    },
    querySelector: (selector) => holds[selector] ?? null,
  };
}

/** The board as the server writes it at `serverMs`, with a round timer ending at `endsIso`. */
function board(serverMs, endsIso) {
  const clock = element(
    { now: String(serverMs), zone: "Europe/London", offset: "0" },
    "18:35",
  );
  const left = element({}, "15 min");
  const word = element({}, "ends");
  const timer = endsIso
    ? element({ timerEnds: endsIso }, "", { "[data-timer-left]": left, "[data-timer-word]": word })
    : null;
  const listeners = {};
  const doc = {
    querySelector(selector) {
      if (selector === "time[data-clock]") return clock;
      if (selector === "[data-timer-ends]") return timer;
      return null;
    },
    addEventListener: (name, listener) => (listeners[name] ||= []).push(listener),
    fire: (name) => (listeners[name] || []).forEach((listener) => listener()),
  };
  return { doc, clock, timer, left, word };
}

test("the board counts from the server's clock, however wrong the projector's own is", () => {
  // The projector's clock is 7 minutes slow: the board still shows the server's time.
  const slow = WINTER - 7 * 60_000;
  const { doc, clock, left, word, timer } = board(WINTER, "2026-11-27T18:50:20+00:00");

  assert.equal(tick(doc, slow), WINTER);
  assert.equal(clock.textContent, "18:35");
  assert.equal(left.textContent, "15:00");
  assert.equal(word.textContent, "ends");
  assert.equal(timer.classList.contains("out"), false);

  assert.equal(tick(doc, slow + 61_000), WINTER + 61_000);
  assert.equal(clock.textContent, "18:36");
  assert.equal(left.textContent, "13:59");

  tick(doc, slow + 15 * 60_000);
  assert.equal(left.textContent, "Time");
  assert.equal(word.textContent, "ended");
  assert.equal(timer.classList.contains("out"), true);
});

test("a fresh board sets its own reckoning of the server's clock", () => {
  const first = board(WINTER, null);
  tick(first.doc, WINTER);
  assert.equal(first.clock.dataset.skew, "0");
  // The next refresh's board: written 20 s later by a server now 2 s ahead of the projector.
  const second = board(WINTER + 22_000, null);
  tick(second.doc, WINTER + 20_000);
  assert.equal(second.clock.dataset.skew, "2000");
  assert.equal(tick(second.doc, WINTER + 40_000), WINTER + 42_000);
});

test("a board without a server time, a timer or a clock is left as it is", () => {
  const { doc, clock } = board(Number.NaN, null);
  assert.equal(tick(doc, WINTER), WINTER);
  assert.equal(clock.textContent, "18:35");
  const empty = { querySelector: () => null };
  assert.equal(tick(empty, WINTER), null);
  // A timer whose end is unreadable keeps what the server wrote.
  const bad = board(WINTER, "not a time");
  tick(bad.doc, WINTER);
  assert.equal(bad.left.textContent, "15 min");
});

test("the clock ticks at once, every second and as soon as htmx brings a fresh board", () => {
  const { doc, clock } = board(WINTER, null);
  let now = WINTER;
  const timers = [];
  startClock(doc, { now: () => now, every: (run, ms) => timers.push([run, ms]) });
  assert.equal(clock.dataset.skew, "0");
  assert.deepEqual(timers.map(([, ms]) => ms), [1000]);

  now += 60_000;
  timers[0][0]();
  assert.equal(clock.textContent, "18:36");
  now += 60_000;
  doc.fire("htmx:afterSwap");
  assert.equal(clock.textContent, "18:37");
  now += 60_000;
  doc.fire("htmx:load");
  assert.equal(clock.textContent, "18:38");
});
