// The status line in the header (base.html's #sync-status): online or not, what waits to be sent,
// a failed send and its countdown, when this phone last synced; and trouble on this phone, said
// there rather than only in the console.

import { CONFIRMS, db } from "./store.js";
import { plural } from "./render.js";

// The last send's failure, {reason, at} (at: when the next try is, ms since the epoch), kept
// until a send goes through; the line counts down to it. Set by sync.js, as is `refused`: why
// the server did not take rounds confirmed here while offline, said until the next send.
export const sending = { failure: null, refused: "" };

// Whether the game this page shows can be scored offline: null (not a scorer's game page),
// "loading", "ready", or "failed" with the reason. Set by game.js's keepForOffline.
export const readiness = { state: null, reason: "" };

const READY_TEXT = {
  loading: () => "Getting ready to score offline…",
  ready: () => "Ready to score offline",
  failed: (reason) => `Not ready to score offline: ${reason}`,
};

/** A time of day as the line says it: 9:05, 21:30 (the phone's own clock and zone). */
export function clock(ms) {
  const when = new Date(ms);
  return `${when.getHours()}:${String(when.getMinutes()).padStart(2, "0")}`;
}

/** The line's text. `waiting`: the waiting rounds of every game; `local`: how many games started
 *  on this phone wait to be created; `lastSynced`, `now`: ms since the epoch. */
export function statusText({ online, failure, now, waiting, local, lastSynced, confirms = 0, refused = "" }) {
  const needChoice = waiting.filter((r) => r.state !== "waiting");
  const parts = [];
  if (failure && online) {
    const seconds = Math.max(0, Math.ceil((failure.at - now) / 1000));
    parts.push(`Send failed: ${failure.reason}. Trying again in ${seconds} s.`);
  } else {
    parts.push(online ? "Online" : "Offline");
  }
  if (waiting.length) parts.push(`${plural(waiting.length, "round")} waiting to send`);
  if (needChoice.length) parts.push(`${plural(needChoice.length, "round")} need${needChoice.length === 1 ? "s" : ""} your choice`);
  if (local) parts.push(`${plural(local, "game")} started offline waiting to send`);
  if (confirms) parts.push(`${plural(confirms, "confirmation")} waiting to send`);
  if (refused) parts.push(refused);
  if (lastSynced && !waiting.length && !local && !confirms) parts.push(`Last synced ${clock(lastSynced)}`);
  return parts.join(" · ");
}

/** Whether the phone is ready to score this page's game offline, in words ("" when the page
 *  shows no game this phone scores). */
export function readinessText({ state, reason }) {
  return READY_TEXT[state] ? READY_TEXT[state](reason) : "";
}

/** The line's text now, from what the phone keeps. */
export async function currentStatus({ store = db, online = navigator.onLine, now = Date.now() } = {}) {
  const waiting = await store.waitingFor();
  const local = (await store.gamesAll()).filter((g) => g.local).length;
  const lastSynced = await store.metaGet("last_synced");
  const confirms = ((await store.metaGet(CONFIRMS)) || []).length;
  return statusText({
    online, failure: sending.failure, now, waiting, local, lastSynced, confirms, refused: sending.refused,
  });
}

let statusTick = null;
export async function drawStatus() {
  const line = document.getElementById("sync-status");
  if (!line) return;
  const text = await currentStatus();
  if (line.textContent !== text) line.textContent = text;
  line.hidden = false;
  line.classList.toggle("failed", Boolean(sending.failure && navigator.onLine));
  // Beside it, on a scorer's game page: whether this phone can score the game offline.
  const ready = document.getElementById("offline-ready");
  if (ready) {
    const said = readinessText(readiness);
    if (ready.textContent !== said) ready.textContent = said;
    ready.hidden = !said;
    ready.classList.toggle("failed", readiness.state === "failed");
  }
  // The countdown of "Trying again in 30 s" moves each second.
  clearTimeout(statusTick);
  if (sending.failure) statusTick = setTimeout(drawStatus, 1000);
}

export function showTrouble(error) {
  console.error(error);
  const line = document.getElementById("sync-status");
  if (line) line.textContent = `Something went wrong on this phone: ${error && error.message ? error.message : error}`;
}

// Deleting a round and ending the game are the server's to do: offline they could only fail,
// on a browser error page instead of ours.
export function showOnlineOnly() {
  for (const item of document.querySelectorAll("[data-online-only]")) item.hidden = !navigator.onLine;
}
