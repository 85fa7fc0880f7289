// Talking to the server: the server's copy of a game kept on the phone, and what waits sent, in
// order: games started here first, then each game's waiting rounds, then the rounds confirmed
// here while offline (confirm.js). A round is dropped from the
// phone only once the server has it; a failed send is said on the status line and tried again,
// later each time (BACKOFF).

import { CONFIRMS, db } from "./store.js";
import { gameUrl } from "./render.js";
import { sending } from "./status.js";
import { compute, refresh } from "./page.js";
import { scoreKept } from "./kept.js";

// Seconds between tries after a failed send; the last one repeats.
export const BACKOFF = [5, 15, 30, 60, 120];

/** Seconds to wait before the next try, after `failures` failed tries in a row (1 or more). */
export const backoff = (failures) => BACKOFF[Math.min(failures, BACKOFF.length) - 1];

export class SendFailed extends Error {}

/** Django's CSRF token: the csrftoken cookie's, else the one base.html gives htmx (its body's
 *  hx-headers attribute, `hxHeaders`). */
export function csrfFrom(cookie, hxHeaders) {
  const found = cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (found) return decodeURIComponent(found.slice("csrftoken=".length));
  try {
    return JSON.parse(hxHeaders || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
}

const csrfToken = () => csrfFrom(document.cookie, document.body.getAttribute("hx-headers"));

/** POST `body` as JSON: {status, data}; throws SendFailed when the server could not take it. */
export async function postJSON(url, body, { fetch = globalThis.fetch, token = csrfToken } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token() },
      body: JSON.stringify(body),
    });
  } catch {
    throw new SendFailed("no connection to the server");
  }
  if (response.status === 503) throw new SendFailed("the server is busy");
  if (response.status >= 500) throw new SendFailed(`the server answered with error ${response.status}`);
  let data = {};
  try {
    data = await response.json();
  } catch {
    // A refusal page in HTML (a 403 from the middleware, say): the status says enough.
  }
  return { status: response.status, data };
}

/** The server's error messages in one sentence, or `fallback` when it gave none. */
export function messagesOf(data, fallback) {
  const errors = (data && data.errors) || [];
  return errors.length ? errors.map((e) => e.message).join(" ") : fallback;
}

export async function keepSnapshot(snapshot, store = db) {
  const old = (await store.gameGet(snapshot.id)) || {};
  await store.gamePut({ ...old, id: snapshot.id, snapshot, local: false, error: "" });
}

/** Fetch and keep the server's copy of a game this phone scores; whether it was kept. */
export async function refreshSnapshot(id, { store = db, fetch = globalThis.fetch, now = Date.now } = {}) {
  try {
    const response = await fetch(`${gameUrl(id)}offline.json`, {
      credentials: "same-origin",
      cache: "no-store",
    });
    if (!response.ok) return false;
    const snapshot = await response.json();
    if (snapshot.can_score === false) return false;
    await keepSnapshot(snapshot, store);
    await store.metaPut("last_synced", now());
    return true;
  } catch {
    return false;
  }
}

/** Ask the server to create each game started on this phone; a refusal is kept on the game. */
export async function createLocalGames({ store = db, post = postJSON } = {}) {
  for (const game of await store.gamesAll()) {
    if (!game.local) continue;
    const { status, data } = await post("/offline/games/", {
      id: game.id,
      preset: game.preset,
      form: game.form,
    });
    if (status === 200 || status === 201) {
      await keepSnapshot(data.snapshot, store);
    } else {
      const why =
        status === 409
          ? "another game already has this game's address, so it was not created"
          : messagesOf(data, `the server refused it (error ${status})`);
      await store.gamePut({ ...game, error: why });
    }
  }
}

/** Send one waiting round: true once the server has it; otherwise the round keeps why not. */
export async function sendRound(round, { store = db, post = postJSON } = {}) {
  const { status, data } = await post(`${gameUrl(round.game)}offline/rounds/`, {
    key: round.key,
    number: round.number,
    ended_by: round.ended_by,
    entry: round.entry,
    place: round.place || "exact",
    version: round.version || null,
  });
  if (data && data.snapshot) await keepSnapshot(data.snapshot, store);
  if (status === 200 || status === 201) {
    await store.waitingDelete(round.key);
    return true;
  }
  if (status === 409) {
    await store.waitingPut({ ...round, state: "conflict", theirs: data.theirs, error: data.message || "" });
  } else if (status === 403 && (data.errors || []).some((e) => e.key === "csrf")) {
    // Opening any page of the app online renews the token; the next try reads it again.
    throw new SendFailed("this phone's security token is out of date (open any page of the app)");
  } else if (status === 403) {
    await store.waitingPut({
      ...round,
      state: "refused",
      error: "This phone may no longer score this game: ask a scorer for the scorer link.",
    });
  } else {
    await store.waitingPut({
      ...round,
      state: "refused",
      error: messagesOf(data, `The server refused this round (error ${status}).`),
    });
  }
  return false;
}

/** Each game's waiting rounds, in order, for the games the server has. */
export async function sendWaiting({ store = db, post = postJSON } = {}) {
  const games = new Map((await store.gamesAll()).map((g) => [g.id, g]));
  const byGame = new Map();
  for (const round of await store.waitingFor()) {
    if (!byGame.has(round.game)) byGame.set(round.game, []);
    byGame.get(round.game).push(round);
  }
  for (const [id, rounds] of byGame) {
    const game = games.get(id);
    if (!game || game.local) continue;
    for (const round of rounds) {
      // A round waiting for the player's choice, or not scored yet, holds back the rounds after it.
      if (round.state !== "waiting" || round.unscored || !(await sendRound(round, { store, post }))) break;
    }
  }
}

/** Send each round confirmed on this phone while offline, after the rounds: a confirmation the
 *  server answered (confirmed, or refused because the round changed or went since) leaves the
 *  list, and the refusals are returned as sentences for the status line; a failed send keeps
 *  it (SendFailed is thrown, tried again later). */
export async function sendConfirms({ store = db, post = postJSON } = {}) {
  const refused = [];
  let left = (await store.metaGet(CONFIRMS)) || [];
  for (const sent of [...left]) {
    const { status, data } = await post(`${gameUrl(sent.game)}offline/confirm/`, {
      number: sent.number,
      version: sent.version || null,
      handed_over: Boolean(sent.handedOver),
    });
    if (status === 403 && (data.errors || []).some((e) => e.key === "csrf")) {
      throw new SendFailed("this phone's security token is out of date (open any page of the app)");
    }
    if (status !== 200) {
      refused.push(messagesOf(data, `Round ${sent.number} was not confirmed (error ${status}).`));
    }
    left = left.filter((each) => !(each.game === sent.game && each.number === sent.number));
    await store.metaPut(CONFIRMS, left);
  }
  return refused;
}

// The Web Lock a tab holds while it sends (navigator.locks): one tab of the browser at a time.
export const SYNC_LOCK = "scorekeeper-offline-sync";

/** Run `send` holding the lock of sending, unless another tab holds it; whether it ran. Without
 *  Web Locks (`locks` null: an older browser) it always runs, as it did before them. */
export async function inOneTab(locks, send) {
  if (!locks) {
    await send();
    return true;
  }
  return locks.request(SYNC_LOCK, { ifAvailable: true }, async (lock) => {
    if (!lock) return false;
    await send();
    return true;
  });
}

/** A sender of whatever waits, on the page's store and server unless told otherwise (tests). One
 *  send runs at a time, and one tab at a time of the browser's (`locks`, its Web Locks); asked
 *  again meanwhile, it sends once more when done. On a failure it says why (status.js's
 *  `sending`) and tries again after backoff(). */
export function sender({
  store = db,
  post = postJSON,
  online = () => navigator.onLine,
  now = Date.now,
  redraw = refresh,
  shown = sending,
  later = (fn, ms) => setTimeout(fn, ms),
  cancel = (timer) => clearTimeout(timer),
  score = scoreKept,
  locks = globalThis.navigator?.locks ?? null,
} = {}) {
  const state = { running: false, again: false, failures: 0, timer: null };

  // Create the games started here and send the waiting rounds; a failure is said, tried again.
  async function send() {
    cancel(state.timer);
    try {
      const local = (await store.gamesAll()).filter((g) => g.local).length;
      const waiting = (await store.waitingFor()).length;
      await createLocalGames({ store, post });
      // Rounds saved before the engine had loaded: online, it loads from the server and scores
      // them, so that what is sent is what the player would have seen.
      if ((await store.waitingFor()).some((r) => r.unscored)) await score({ store, run: compute });
      await sendWaiting({ store, post });
      const confirms = ((await store.metaGet(CONFIRMS)) || []).length;
      const refused = await sendConfirms({ store, post });
      shown.refused = refused.join(" ");
      state.failures = 0;
      shown.failure = null;
      // "Last synced" is when this phone last exchanged a game with the server, not a page view.
      if (local || waiting || confirms) await store.metaPut("last_synced", now());
    } catch (error) {
      state.failures += 1;
      const delay = backoff(state.failures);
      const reason = error instanceof SendFailed ? error.message : String(error);
      shown.failure = { reason, at: now() + delay * 1000 };
      state.timer = later(syncNow, delay * 1000);
    }
  }

  async function syncNow() {
    if (state.running) {
      state.again = true;
      return;
    }
    if (!online()) {
      await redraw();
      return;
    }
    state.running = true;
    try {
      // Another tab is sending: this one sends nothing, and redraws once that tab is done.
      if (!(await inOneTab(locks, send))) await locks.request(SYNC_LOCK, async () => {});
    } finally {
      state.running = false;
    }
    await redraw();
    if (state.again) {
      state.again = false;
      syncNow();
    }
  }

  return { state, syncNow };
}

/** Send whatever waits; on a failure say why and try again later. */
export const { syncNow } = sender();
