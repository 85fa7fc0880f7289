// The projector's clock and round timer (templates/leagues/projector.html): the time now in the
// club's zone, as the server writes it, and the time left on the round timer, kept current
// between the board's refreshes. The server's clock counts, not the projector's: each board
// the server sends carries its time (data-now), and the page keeps how far its own clock is
// from it. The board is swapped whole every refresh, so every tick looks its elements up again.

const two = (n) => String(n).padStart(2, "0");
const formats = new Map();

/** "19:35": the moment `ms` in the zone the server named, or at its offset in minutes when
 * this browser does not know the zone. */
export function clockText(ms, zone, offsetMinutes) {
  if (zone) {
    try {
      if (!formats.has(zone)) {
        formats.set(zone, new Intl.DateTimeFormat("en-GB", {
          timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23",
        }));
      }
      return formats.get(zone).format(new Date(ms));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  const shifted = new Date(ms + (Number(offsetMinutes) || 0) * 60_000);
  return `${two(shifted.getUTCHours())}:${two(shifted.getUTCMinutes())}`;
}

/** What the round timer shows at `nowMs`: "14:59" (minutes and seconds), "1:02:03" from an
 * hour up, and "Time" once it has run out. Seconds are rounded up, so "0:01" is the last. */
export function timeLeft(endsMs, nowMs) {
  const seconds = Math.ceil((endsMs - nowMs) / 1000);
  if (!(seconds > 0)) return { text: "Time", out: true };
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = two(seconds % 60);
  const text = hours ? `${hours}:${two(minutes)}:${rest}` : `${minutes}:${rest}`;
  return { text, out: false };
}

function show(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

/** Bring the board's clock and timer up to `nowMs` (this browser's clock); returns the
 * server's time it showed, or null when the page has no clock. */
export function tick(doc, nowMs) {
  const clock = doc.querySelector("time[data-clock]");
  if (!clock) return null;
  if (clock.dataset.skew === undefined) {
    // First seen: a fresh board. How far the server's clock is from ours, kept with it.
    const server = Number(clock.dataset.now);
    clock.dataset.skew = String(Number.isFinite(server) && server > 0 ? server - nowMs : 0);
  }
  const at = nowMs + Number(clock.dataset.skew);
  show(clock, clockText(at, clock.dataset.zone, clock.dataset.offset));
  const timer = doc.querySelector("[data-timer-ends]");
  if (timer) {
    const ends = Date.parse(timer.dataset.timerEnds);
    if (!Number.isNaN(ends)) {
      const left = timeLeft(ends, at);
      show(timer.querySelector("[data-timer-left]"), left.text);
      show(timer.querySelector("[data-timer-word]"), left.out ? "ended" : "ends");
      timer.classList.toggle("out", left.out);
    }
  }
  return at;
}

/** Tick now, every second and as soon as htmx puts a fresh board in: htmx:afterSwap comes in
 * the same task as the swap, so the server's "15 min" never shows in place of the seconds
 * (htmx:load, a few milliseconds later, too). `now` and `every` are the browser's (Date.now,
 * setInterval) unless a test passes its own. */
export function startClock(doc, { now = () => Date.now(), every = (f, ms) => setInterval(f, ms) } = {}) {
  const run = () => tick(doc, now());
  run();
  doc.addEventListener("htmx:afterSwap", run);
  doc.addEventListener("htmx:load", run);
  return every(run, 1000);
}
