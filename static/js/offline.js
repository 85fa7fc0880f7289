// Offline play on this phone: the status line in the header, rounds entered with no connection
// (their breakdown worked out by the repository's own Python engine, static/js/engine.js), games
// started offline, and sending what waits, in order, when the connection returns. Every sum comes
// from the engine; this module only stores, draws and sends. A round is dropped from the phone only
// once the server has it or the player chose so; a failed send is said and tried again.
// One file, no imports but engine.js: a page opened offline can load only what the service
// worker precached (scorekeeper/offline/shell.py's SHELL_STATIC).

// ---- What this phone keeps for offline play, in IndexedDB (plain, no library):
//   games   - {id, snapshot, local, preset, form, error}: a game as GET /g/<id>/offline.json gave
//             it; `local` while a game started on this phone is not yet on the server.
//   waiting - {key, game, number, ended_by, entry, place, version, state, error, theirs, saved}:
//             rounds saved on this phone and not yet stored by the server. state is "waiting",
//             "conflict" (another phone saved that number) or "refused" (the server said no).
//   meta    - {name, value}: "last_synced" (ms since the epoch).
// A service-worker update never touches this database: only this module opens it.

const NAME = "scorekeeper-offline";
const VERSION = 1;

let opened = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function database() {
  opened ||= new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore("games", { keyPath: "id" });
      const waiting = db.createObjectStore("waiting", { keyPath: "key" });
      waiting.createIndex("game", "game");
      db.createObjectStore("meta", { keyPath: "name" });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    // Another tab holding an older version open: it is told to close (below), so this waits.
    req.onblocked = () => {};
  }).then((db) => {
    db.onversionchange = () => db.close();
    return db;
  });
  return opened;
}

async function read(store, fn) {
  const db = await database();
  return request(fn(db.transaction(store).objectStore(store)));
}

// Resolves once the transaction is committed, so a page may navigate away right after.
async function write(store, fn) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, "readwrite");
    fn(tx.objectStore(store));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("The phone's storage refused the change."));
  });
}

/** A stored game by id, or undefined. */
const gameGet = (id) => read("games", (s) => s.get(id));
/** Every game kept on this phone. */
const gamesAll = () => read("games", (s) => s.getAll());
/** Store or replace a game record. */
const gamePut = (record) => write("games", (s) => s.put(record));

/** Every waiting round of one game (or of every game), in round order. */
async function waitingFor(gameId) {
  const rows = await read("waiting", (s) =>
    gameId === undefined ? s.getAll() : s.index("game").getAll(gameId),
  );
  return rows.sort((a, b) => a.number - b.number || a.saved - b.saved);
}
/** Store or replace a waiting round. */
const waitingPut = (round) => write("waiting", (s) => s.put(round));
/** Store several waiting rounds in one transaction (all or none). */
const waitingPutAll = (rounds) => write("waiting", (s) => rounds.forEach((r) => s.put(r)));
/** Remove a waiting round once the server has it, or the player chose to drop it. */
const waitingDelete = (key) => write("waiting", (s) => s.delete(key));

/** A meta value, or undefined. */
async function metaGet(name) {
  const row = await read("meta", (s) => s.get(name));
  return row ? row.value : undefined;
}
/** Set a meta value. */
const metaPut = (name, value) => write("meta", (s) => s.put({ name, value }));

const db = { gameGet, gamesAll, gamePut, waitingFor, waitingPut, waitingPutAll, waitingDelete, metaGet, metaPut };

const FLASH = "scorekeeper-offline-flash";
// Seconds between tries after a failed send; the last one repeats.
const BACKOFF = [5, 15, 30, 60, 120];
// While rounds wait and nothing else moves, the phone tries again this often (ms).
const PATIENCE = 60_000;

// ---- Markup: every value interpolated is escaped, pieces made by html`` are kept as they are.
class Markup {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}
function escape(value) {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(escape).join("");
  if (value === null || value === undefined || value === false) return "";
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}
function html(strings, ...values) {
  return new Markup(strings.reduce((out, part, i) => out + part + (i < values.length ? escape(values[i]) : ""), ""));
}
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ---- The engine: loaded only where a page needs it (never on the first paint of a page).
let engineModule = null;
async function engine() {
  engineModule ||= import("./engine.js").then((mod) => mod.engine || mod.default || mod);
  return engineModule;
}
async function compute(fn, ...args) {
  return (await engine()).call(fn, ...args);
}
// The engine's runtime is large: it is fetched once the page has loaded and the browser is idle.
function whenIdle() {
  return new Promise((resolve) => {
    const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => resolve()) : setTimeout(resolve, 200));
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}
function warmWhenIdle() {
  whenIdle()
    .then(engine)
    .then((e) => e.warm && e.warm())
    .catch(showTrouble);
}

// ---- Talking to the server.
class SendFailed extends Error {}

function csrfToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
}

async function postJSON(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
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

function messagesOf(data, fallback) {
  const errors = (data && data.errors) || [];
  return errors.length ? errors.map((e) => e.message).join(" ") : fallback;
}

const gameUrl = (id) => `/g/${encodeURIComponent(id)}/`;

async function keepSnapshot(snapshot) {
  const old = (await db.gameGet(snapshot.id)) || {};
  await db.gamePut({ ...old, id: snapshot.id, snapshot, local: false, error: "" });
}

/** Fetch and keep the server's copy of a game this phone scores. */
async function refreshSnapshot(id) {
  try {
    const response = await fetch(`${gameUrl(id)}offline.json`, {
      credentials: "same-origin",
      cache: "no-store",
    });
    if (!response.ok) return false;
    const snapshot = await response.json();
    if (snapshot.can_score === false) return false;
    await keepSnapshot(snapshot);
    await db.metaPut("last_synced", Date.now());
    return true;
  } catch {
    return false;
  }
}

// ---- Sync: games started here first, then each game's waiting rounds in order.
const sync = { running: false, again: false, failures: 0, failure: null, timer: null };

async function createLocalGames() {
  for (const game of await db.gamesAll()) {
    if (!game.local) continue;
    const { status, data } = await postJSON("/offline/games/", {
      id: game.id,
      preset: game.preset,
      form: game.form,
    });
    if (status === 200 || status === 201) {
      await keepSnapshot(data.snapshot);
    } else {
      const why =
        status === 409
          ? "another game already has this game's address, so it was not created"
          : messagesOf(data, `the server refused it (error ${status})`);
      await db.gamePut({ ...game, error: why });
    }
  }
}

async function sendRound(round) {
  const { status, data } = await postJSON(`${gameUrl(round.game)}offline/rounds/`, {
    key: round.key,
    number: round.number,
    ended_by: round.ended_by,
    entry: round.entry,
    place: round.place || "exact",
    version: round.version || null,
  });
  if (data && data.snapshot) await keepSnapshot(data.snapshot);
  if (status === 200 || status === 201) {
    await db.waitingDelete(round.key);
    return true;
  }
  if (status === 409) {
    await db.waitingPut({ ...round, state: "conflict", theirs: data.theirs, error: data.message || "" });
  } else if (status === 403 && (data.errors || []).some((e) => e.key === "csrf")) {
    // Opening any page of the app online renews the token; the next try reads it again.
    throw new SendFailed("this phone's security token is out of date (open any page of the app)");
  } else if (status === 403) {
    await db.waitingPut({
      ...round,
      state: "refused",
      error: "This phone may no longer score this game: ask a scorer for the scorer link.",
    });
  } else {
    await db.waitingPut({
      ...round,
      state: "refused",
      error: messagesOf(data, `The server refused this round (error ${status}).`),
    });
  }
  return false;
}

async function sendWaiting() {
  const games = new Map((await db.gamesAll()).map((g) => [g.id, g]));
  const byGame = new Map();
  for (const round of await db.waitingFor()) {
    if (!byGame.has(round.game)) byGame.set(round.game, []);
    byGame.get(round.game).push(round);
  }
  for (const [id, rounds] of byGame) {
    const game = games.get(id);
    if (!game || game.local) continue;
    for (const round of rounds) {
      // A round waiting for the player's choice holds back the rounds after it.
      if (round.state !== "waiting" || !(await sendRound(round))) break;
    }
  }
}

/** Send whatever waits; on a failure say why and try again later. */
async function syncNow() {
  if (sync.running) {
    sync.again = true;
    return;
  }
  if (!navigator.onLine) {
    await refresh();
    return;
  }
  sync.running = true;
  clearTimeout(sync.timer);
  try {
    const local = (await db.gamesAll()).filter((g) => g.local).length;
    const waiting = (await db.waitingFor()).length;
    await createLocalGames();
    await sendWaiting();
    sync.failures = 0;
    sync.failure = null;
    // "Last synced" is when this phone last exchanged a game with the server, not a page view.
    if (local || waiting) await db.metaPut("last_synced", Date.now());
  } catch (error) {
    sync.failures += 1;
    const delay = BACKOFF[Math.min(sync.failures, BACKOFF.length) - 1];
    const reason = error instanceof SendFailed ? error.message : String(error);
    sync.failure = { reason, at: Date.now() + delay * 1000 };
    sync.timer = setTimeout(syncNow, delay * 1000);
  } finally {
    sync.running = false;
  }
  await refresh();
  if (sync.again) {
    sync.again = false;
    syncNow();
  }
}

// ---- The status line in the header.
function clock(ms) {
  const when = new Date(ms);
  return `${when.getHours()}:${String(when.getMinutes()).padStart(2, "0")}`;
}

async function statusText() {
  const waiting = await db.waitingFor();
  const needChoice = waiting.filter((r) => r.state !== "waiting");
  const parts = [];
  if (sync.failure && navigator.onLine) {
    const seconds = Math.max(0, Math.ceil((sync.failure.at - Date.now()) / 1000));
    parts.push(`Send failed: ${sync.failure.reason}. Trying again in ${seconds} s.`);
  } else {
    parts.push(navigator.onLine ? "Online" : "Offline");
  }
  if (waiting.length) parts.push(`${plural(waiting.length, "round")} waiting to send`);
  if (needChoice.length) parts.push(`${plural(needChoice.length, "round")} need${needChoice.length === 1 ? "s" : ""} your choice`);
  const local = (await db.gamesAll()).filter((g) => g.local).length;
  if (local) parts.push(`${plural(local, "game")} started offline waiting to send`);
  const last = await db.metaGet("last_synced");
  if (last && !waiting.length && !local) parts.push(`Last synced ${clock(last)}`);
  return parts.join(" · ");
}

let statusTick = null;
async function drawStatus() {
  const line = document.getElementById("sync-status");
  if (!line) return;
  const text = await statusText();
  if (line.textContent !== text) line.textContent = text;
  line.hidden = false;
  line.classList.toggle("failed", Boolean(sync.failure && navigator.onLine));
  // The countdown of "Trying again in 30 s" moves each second.
  clearTimeout(statusTick);
  if (sync.failure) statusTick = setTimeout(drawStatus, 1000);
}

// ---- Redrawing whatever this page shows of a game.
let redrawPage = async () => {};
async function refresh() {
  showOnlineOnly();
  await drawStatus();
  await redrawPage();
}

// Deleting a round and ending the game are the server's to do: offline they could only fail,
// on a browser error page instead of ours.
function showOnlineOnly() {
  for (const item of document.querySelectorAll("[data-online-only]")) item.hidden = !navigator.onLine;
}

// The waiting rounds the engine counts: those following the stored rounds without a gap and not
// waiting for a choice; the rest are shown beside, in the problems panel.
function countedWaiting(snapshot, rounds) {
  const counted = [];
  let next = snapshot.rounds.length + 1;
  for (const round of rounds) {
    if (round.state !== "waiting") continue;
    // "Keep this phone's round": shown in the place of the stored one until the server has it.
    if (round.place === "replace" && round.number <= snapshot.rounds.length) {
      counted.push({ key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry });
      continue;
    }
    if (round.number !== next) break;
    counted.push({ key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry });
    next += 1;
  }
  return counted;
}

async function gameState(id) {
  const game = await db.gameGet(id);
  const rounds = await db.waitingFor(id);
  if (!game) return { game, rounds, counted: [] };
  return { game, rounds, counted: countedWaiting(game.snapshot, rounds) };
}

const sideName = (view, side) => (typeof side === "number" ? view.sides[side] : side);

function stateHtml(view, id, canScore) {
  if (view.finished) {
    const totals = view.totals.map((t, i) => `${sideName(view, t.side)} ${t.total_text}`).join(", ");
    return html`<section class="result"><h2>${view.tie ? "It's a tie" : `Winner: ${view.winner}`}</h2>
      <p>Final score: ${totals}.</p></section>`;
  }
  const notes = view.to_win || [];
  return html`<section class="next-round">
    <h2>Round ${view.next_round}</h2>
    <p class="dealer"><strong>${view.dealer}</strong> deals.</p>
    <ul class="meld-needs">${view.meld_requirement.map(
      (m) => html`<li><span>${sideName(view, m.side)} needs</span> <strong class="meld">${m.points_text}</strong> <span>to open</span></li>`,
    )}</ul>
    ${notes.length ? html`<ul class="to-win">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}
    ${canScore ? html`<a class="button big" href="${gameUrl(id)}rounds/new/">Enter round ${view.next_round}</a>` : ""}
  </section>`;
}

function scoresHtml(view, id) {
  const row = (round) => {
    const cells = round.scores.map((score, i) => {
      const inner = html`<span class="visually-hidden">Round ${round.number}, ${view.sides[i]}: </span><span class="points">${score.points_text}</span><span class="visually-hidden">, total</span> <span class="running">${score.total_text}</span>`;
      return round.waiting
        ? html`<td><span class="cell">${inner}</span></td>`
        : html`<td><a href="${gameUrl(id)}rounds/${round.number}/">${inner}</a></td>`;
    });
    const head = round.waiting
      ? html`<th scope="row"><span class="cell">${round.number} <span class="waiting-note">saved on this phone, not sent yet</span></span></th>`
      : html`<th scope="row"><a href="${gameUrl(id)}rounds/${round.number}/">${round.number}</a></th>`;
    return html`<tr${round.waiting ? html` class="waiting"` : ""}>${head}${cells}</tr>`;
  };
  return html`<section data-offline-part="scores">
    <h2>Scores</h2>
    <div class="table-wrap"><table class="scoreboard">
      <thead><tr><th scope="col">Round</th>${view.sides.map((s) => html`<th scope="col">${s}</th>`)}</tr></thead>
      <tbody>${view.rounds.length ? view.rounds.map(row) : html`<tr><td colspan="${view.sides.length + 1}" class="empty">No rounds yet.</td></tr>`}</tbody>
      <tfoot><tr><th scope="row">Total</th>${view.totals.map((t) => html`<td class="total">${t.total_text}</td>`)}</tr></tfoot>
    </table></div>
  </section>`;
}

// ---- Rounds that need the player: a conflict with another phone, or a refusal.
async function mineScores(snapshot, round) {
  const before = { ...snapshot, rounds: snapshot.rounds.filter((r) => r.number < round.number) };
  const view = await compute("game_view", before, [
    { key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry },
  ]);
  return { sides: view.sides, scores: view.rounds[view.rounds.length - 1].scores };
}

function versionHtml(title, sides, scores) {
  return html`<div class="version"><h3>${title}</h3><table class="lines">${scores.map(
    (s, i) => html`<tr><th scope="row">${sideName({ sides }, s.side ?? i)}</th><td>${s.points_text}</td></tr>`,
  )}</table></div>`;
}

// Removing a round is asked once more; the question stays through redraws until answered.
const asking = new Map();

function askHtml(round) {
  const choice = asking.get(round.key);
  const why = choice === "theirs" ? `The other phone's round ${round.number} stays.` : "It cannot be brought back.";
  return html`<div class="choices"><p role="alert">Remove this phone's round ${round.number}? ${why}</p>
    <button type="button" class="button" data-offline-choice="drop" data-key="${round.key}">Yes, remove this phone's round ${round.number}</button>
    <button type="button" class="button secondary" data-offline-choice="back" data-key="${round.key}">No, go back</button></div>`;
}

async function problemHtml(game, round) {
  if (round.state === "refused") {
    return html`<section class="offline-problem" data-key="${round.key}">
      <h2>Round ${round.number} was not stored</h2>
      <p class="field-error" role="alert">${round.error}</p>
      <p>It is still kept on this phone.</p>
      ${asking.has(round.key) ? askHtml(round) : html`<div class="choices">
        <a class="button secondary" href="${gameUrl(round.game)}rounds/new/?edit=${round.key}">Edit round ${round.number}</a>
        <button type="button" class="button secondary" data-offline-choice="discard" data-key="${round.key}">Discard round ${round.number}</button>
      </div>`}
    </section>`;
  }
  if (round.state !== "conflict") {
    return html`<p class="offline-behind">Round ${round.number}, saved on this phone, is sent once the round before it is settled.</p>`;
  }
  if (!round.theirs) {
    // Nothing stored at that number (a round was deleted on another phone): it can only go on.
    return html`<section class="offline-problem conflict" data-key="${round.key}">
      <h2>Round ${round.number} could not be stored at its number</h2>
      <p>${round.error || `The game on the server no longer has the rounds before round ${round.number}.`}</p>
      ${asking.has(round.key) ? askHtml(round) : html`<div class="choices">
        <button type="button" class="button" data-offline-choice="both" data-key="${round.key}">Add it as the next round</button>
        <button type="button" class="button secondary" data-offline-choice="discard" data-key="${round.key}">Discard round ${round.number}</button>
      </div>`}
    </section>`;
  }
  const mine = await mineScores(game.snapshot, round);
  const theirs = round.theirs;
  return html`<section class="offline-problem conflict" data-key="${round.key}">
    <h2>Round ${round.number} was saved on two phones</h2>
    <p>Another phone stored round ${round.number} while this one was offline. Which is right?</p>
    <div class="versions">
      ${versionHtml(`This phone's round ${round.number}`, mine.sides, mine.scores)}
      ${versionHtml(`The other phone's round ${theirs.number ?? round.number}`, mine.sides, theirs.scores)}
    </div>
    ${asking.has(round.key) ? askHtml(round) : html`<div class="choices">
      <button type="button" class="button" data-offline-choice="mine" data-key="${round.key}">Keep this phone's round</button>
      <button type="button" class="button secondary" data-offline-choice="theirs" data-key="${round.key}">Keep the other phone's round</button>
      <button type="button" class="button secondary" data-offline-choice="both" data-key="${round.key}">Keep both</button>
    </div>
    <p class="hint">Keep both when the table really played both rounds: this phone's becomes round ${round.number + 1}.</p>`}
  </section>`;
}

async function problemsHtml(game, rounds, counted) {
  const shown = new Set(counted.map((r) => r.key));
  const parts = [];
  for (const round of rounds) if (!shown.has(round.key)) parts.push(await problemHtml(game, round));
  return html`${parts}`;
}

async function choose(button) {
  const key = button.dataset.key;
  const round = (await db.waitingFor()).find((r) => r.key === key);
  if (!round) return;
  const choice = button.dataset.offlineChoice;
  if (choice === "theirs" || choice === "discard") asking.set(key, choice);
  if (choice === "back") asking.delete(key);
  if (["theirs", "discard", "back"].includes(choice)) {
    await redrawPage();
    document.querySelector(`.offline-problem[data-key="${CSS.escape(key)}"] .choices button`)?.focus();
    return;
  }
  asking.delete(key);
  if (choice === "drop") {
    await db.waitingDelete(key);
  } else if (choice === "mine") {
    const game = await db.gameGet(round.game);
    const stored = game.snapshot.rounds.find((r) => r.number === round.number);
    const version = (round.theirs && round.theirs.version) || (stored && stored.version);
    await db.waitingPut({ ...round, state: "waiting", place: "replace", version });
  } else if (choice === "both") {
    // This phone's round goes after the stored ones (the other phone's included), and the rounds
    // saved after it follow on in order.
    const game = await db.gameGet(round.game);
    const next = game.snapshot.rounds.length + 1;
    const later = (await db.waitingFor(round.game)).filter((r) => r.number > round.number && r.key !== key);
    await db.waitingPutAll([
      ...later.map((r, i) => ({ ...r, number: next + 1 + i })),
      { ...round, state: "waiting", place: "end", number: next, theirs: null },
    ]);
  }
  await refresh();
  syncNow();
}
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-offline-choice]");
  if (button) choose(button).catch(showTrouble);
});

function showTrouble(error) {
  console.error(error);
  const line = document.getElementById("sync-status");
  if (line) line.textContent = `Something went wrong on this phone: ${error && error.message ? error.message : error}`;
}

// ---- The game page (the server's, possibly from the phone's cache) and the offline shell's.
function flash() {
  const text = sessionStorage.getItem(FLASH);
  if (!text) return;
  sessionStorage.removeItem(FLASH);
  const main = document.querySelector("main");
  const box = document.createElement("div");
  box.setAttribute("role", "status");
  box.dataset.offlineFlash = "";
  box.innerHTML = html`<ul class="messages"><li class="message success">${text}</li></ul>`.text;
  main.prepend(box);
}

async function drawGame(root, id, { always, canScore }) {
  const { game, rounds, counted } = await gameState(id);
  if (!game) return false;
  // Once drawn here, the page keeps being drawn here: the server's copy of it may be older.
  if (!always && navigator.onLine && !rounds.length && !root.dataset.offlineDrawn) return false;
  const problems = root.querySelector("[data-offline-part='problems']");
  if (!root.dataset.offlineDrawn && rounds.length) {
    // The engine may take seconds to start on this page: the stale scores are not left unsaid.
    problems.innerHTML = html`<p class="muted">Adding the ${plural(rounds.length, "round")} kept on this phone to the scores…</p>`.text;
  }
  const view = await compute("game_view", game.snapshot, counted);
  // Rounds kept here that the engine cannot count (it says why): none is left out unsaid.
  const refused = (view.errors || []).map((e) => html`<p class="field-error" role="alert">${e.message}</p>`);
  problems.innerHTML = html`${refused}${await problemsHtml(game, rounds, counted)}`.text;
  root.querySelector("[data-offline-part='state']").innerHTML = stateHtml(view, id, canScore).text;
  root.querySelector("[data-offline-part='scores']").outerHTML = scoresHtml(view, id).text;
  const chart = root.querySelector("[data-offline-part='chart']");
  if (chart) chart.hidden = true;
  root.dataset.offlineDrawn = "1";
  return true;
}

function gamePage(root) {
  const id = root.dataset.offlineGame;
  const canScore = root.dataset.canScore === "1";
  if (!canScore) return;
  redrawPage = async () => {
    // The live section may have been swapped for the server's since: find it again.
    const live = document.querySelector("[data-offline-game]");
    if (live) await drawGame(live, id, { always: !navigator.onLine, canScore });
  };
  // htmx:load fires on the fresh live section once it is in the page (an outerHTML swap's
  // settle events go to the old one, no longer in the page).
  document.body.addEventListener("htmx:load", (event) => {
    if (event.detail.elt.matches && event.detail.elt.matches("[data-offline-game]")) redrawPage().catch(showTrouble);
  });
  if (navigator.onLine) keepForOffline(id).then(() => refresh());
}

/** Online, on a page of a game this phone scores: keep what scoring it offline needs (its
 *  snapshot, its pages, the start page of its rule set and the engine), then say so on <body>. */
async function keepForOffline(id) {
  if (!(await refreshSnapshot(id))) return;
  const { snapshot } = await db.gameGet(id);
  const pages = [gameUrl(id), `${gameUrl(id)}rounds/new/`, `/games/new/${snapshot.preset}/`];
  try {
    await whenIdle();
    const runtime = await engine();
    if (runtime.warm) await runtime.warm();
    await runtime.call("ping");
    if (!window.offlineShell) return;
    await window.offlineShell.cachePages(pages);
    // The engine may have loaded before the service worker took over, unseen by it.
    const kept = await window.offlineShell.cacheRuntime();
    if (!kept.refused.length) document.body.dataset.offlineKept = id;
  } catch (error) {
    showTrouble(error);
  }
}

async function shellGame(main, id) {
  const draw = async () => {
    const game = await db.gameGet(id);
    if (!game) {
      main.innerHTML = html`<h1>Offline</h1>
        <p>This game was never opened on this phone, so it cannot be shown without a connection.
        Open it once while online and it is kept here for offline scoring.</p>
        <p><a href="/">Back to the start page</a></p>`.text;
      return;
    }
    const names = game.snapshot.sides;
    const page = (state) => html`<h1>${names.map((n, i) => html`${i ? html` <span class="muted">vs</span> ` : ""}${n}`)}</h1>
      ${game.local ? html`<p class="muted">Started on this phone while offline: it is created on the server when the connection returns.</p>` : ""}
      ${game.error ? html`<p class="field-error" role="alert">Not created on the server: ${game.error}</p>` : ""}
      <div data-offline-game="${id}" data-can-score="1">
        <div data-offline-part="problems"></div>
        <div data-offline-part="state">${state}</div>
        <section data-offline-part="scores"></section>
      </div>`;
    const put = (root) => main.replaceChildren(...main.querySelectorAll("[data-offline-flash]"), ...root.childNodes);
    const root = document.createElement("div");
    if (!main.querySelector("[data-offline-game]")) {
      // At once, while the engine starts: the game's name and a word on what is coming.
      root.innerHTML = page(html`<p class="muted">Working out the scores on this phone…</p>`).text;
      put(root);
    }
    root.innerHTML = page("").text;
    // Drawn aside and put in whole, so the page never shows half of it.
    await drawGame(root.querySelector("[data-offline-game]"), id, { always: true, canScore: true });
    put(root);
  };
  redrawPage = draw;
  await draw();
}

// ---- Round entry: the server's form (from the phone's cache), or one drawn here from the engine.
function formFields(form, number) {
  const fields = {};
  for (const [name, value] of new FormData(form)) {
    if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields[name] = value;
  }
  fields.round_number = String(number);
  return fields;
}

function fillForm(form, fields) {
  for (const element of form.elements) {
    if (!element.name || ["csrfmiddlewaretoken", "round_number"].includes(element.name)) continue;
    const value = fields[element.name];
    if (element.type === "radio") element.checked = value === element.value;
    else if (element.type === "checkbox") element.checked = value !== undefined;
    else if (element.tagName !== "BUTTON") element.value = value ?? "";
  }
}

function clearErrors(root) {
  root.querySelectorAll(".errors[id^='err-']").forEach((slot) => (slot.innerHTML = ""));
  root.querySelectorAll("[aria-invalid='true']").forEach((input) => input.removeAttribute("aria-invalid"));
}

/** Each error beside its field, as the server places them: the most specific slot there is. */
function placeErrors(root, errors) {
  clearErrors(root);
  for (const error of errors) {
    let key = error.key || "__all__";
    const slot = (k) => root.querySelector(`#err-${CSS.escape(k)}`);
    while (!slot(key) && key.includes("-")) key = key.slice(0, key.lastIndexOf("-"));
    const target = slot(key) || slot("__all__");
    if (!target) continue;
    target.insertAdjacentHTML("beforeend", html`<p class="field-error" role="alert">${error.message}</p>`.text);
    const input = root.querySelector(`#${CSS.escape(key)}`);
    if (input && input.tagName === "INPUT") input.setAttribute("aria-invalid", "true");
  }
}

function previewHtml(result, number, note) {
  if (note) return html`<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">${note}</p></section>`;
  if (!result.ok) {
    return html`<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">Fix the fields marked in red to see the breakdown.</p></section>`;
  }
  return html`<section id="preview" class="preview" aria-live="polite" data-offline-preview>
    <h2>Breakdown</h2>
    ${result.sides.map(
      (side) => html`<div class="breakdown"><h3>${side.name}: <span class="round-total">${side.total_text}</span></h3>
        <table class="lines">${side.lines.map((line) => html`<tr><th scope="row">${line.label}</th><td>${line.points_text}</td></tr>`)}</table></div>`,
    )}
    <p class="new-totals">Totals after round ${number}: ${result.totals_after.map(
      (t, i) => html`${i ? ", " : ""}${sideName({ sides: result.sides.map((s) => s.name) }, t.side)} <strong>${t.total_text}</strong>`,
    )}</p>
  </section>`;
}

function summaryHtml(result, number) {
  if (result.ok) return "";
  const general = result.errors.find((e) => e.key === "__all__");
  if (general) return html`<p><a href="#err-__all__">${general.message}</a></p>`;
  const count = result.errors.length;
  return html`<p><a href="#main">Round ${number} not saved yet: ${plural(count, "field")} to fix, marked in red</a></p>`;
}

function roundEntry(form, id) {
  let number = Number(form.querySelector("input[name='round_number']").value);
  let serverBroken = false;
  let asked = 0;
  const editKey = new URLSearchParams(location.search).get("edit");
  const offline = async () => !navigator.onLine || serverBroken || (await db.waitingFor(id)).length > 0 || editKey;

  const patch = async () => {
    const { game, counted } = await gameState(id);
    if (!game) {
      form.querySelector("#preview").outerHTML = previewHtml(null, number, "This game is not kept on this phone: open its page once with a connection to score it offline.").text;
      return null;
    }
    const editing = editKey && (await db.waitingFor(id)).find((r) => r.key === editKey);
    const shown = (n) => {
      number = editing ? editing.number : n;
      form.querySelector("input[name='round_number']").value = String(number);
      const heading = document.querySelector("[data-offline-part='heading']");
      if (heading) heading.textContent = `Round ${number}`;
      const save = form.querySelector(".save-bar button[type='submit']");
      if (save) save.textContent = `Save round ${number}`;
    };
    // The number at once, from what the phone keeps; the engine's answer (which knows whether
    // the game is over) may take a few seconds while its runtime starts.
    const stored = game.snapshot.rounds.length;
    shown(stored + counted.filter((r) => r.number > stored).length + 1);
    const view = await compute("game_view", game.snapshot, counted.filter((r) => r.key !== editKey));
    if (view.finished && !editing) {
      // A round kept on this phone ended the game: there is no next round to enter.
      for (const field of form.elements) field.disabled = true;
      form.querySelector("#preview").outerHTML = previewHtml(null, number, "The game is over with the rounds kept on this phone: go back to the game to see who won.").text;
      return null;
    }
    shown(view.next_round);
    const dealer = document.querySelector("[data-offline-part='dealer']");
    if (dealer) {
      dealer.innerHTML = html`<strong>${view.dealer}</strong> deals. Opening meld: ${view.meld_requirement.map(
        (m, i) => html`${i ? ", " : ""}${sideName(view, m.side)} <strong>${m.points_text}</strong>`,
      )}.`.text;
    }
    return { game, counted: counted.filter((r) => r.key !== editKey) };
  };

  const preview = async () => {
    const ask = ++asked;
    const state = await patch();
    if (!state) return null;
    const result = await compute("round_preview", state.game.snapshot, state.counted, formFields(form, number));
    // A later change answered first: this answer is out of date.
    if (ask !== asked) return null;
    form.querySelector("#preview").outerHTML = previewHtml(result, number).text;
    placeErrors(form, result.errors);
    const summary = form.querySelector("#save-summary");
    if (summary) summary.innerHTML = summaryHtml(result, number).text;
    return result;
  };
  const previewSafely = () =>
    preview().catch((error) => {
      form.querySelector("#preview").outerHTML = previewHtml(null, number, `The scorer on this phone failed: ${error.message || error}`).text;
    });

  let timer = null;
  const onChange = async () => {
    if (!(await offline())) return;
    clearTimeout(timer);
    timer = setTimeout(previewSafely, 120);
  };
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);

  // Offline the server's preview cannot come: the phone's engine answers instead.
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (!form.contains(event.detail.elt)) return;
    // With rounds waiting on the phone the server's preview would be for the wrong round.
    if (offlineNow()) event.preventDefault();
  });
  document.body.addEventListener("htmx:sendError", (event) => {
    if (!form.contains(event.detail.elt)) return;
    serverBroken = true;
    previewSafely();
  });

  form.addEventListener("submit", async (event) => {
    // Decided before any await: the browser sends the form as soon as this handler yields.
    if (!offlineNow()) return;
    event.preventDefault();
    const button = form.querySelector("button[type='submit']");
    button.disabled = true;
    try {
      const result = await preview();
      if (!result || !result.ok) return;
      const old = editKey && (await db.waitingFor(id)).find((r) => r.key === editKey);
      await db.waitingPut({
        key: old ? old.key : crypto.randomUUID(),
        game: id,
        number: result.number ?? number,
        ended_by: result.ended_by,
        entry: result.entry,
        place: old ? old.place || "exact" : "exact",
        version: old ? old.version : null,
        state: "waiting",
        error: "",
        theirs: null,
        saved: old ? old.saved : Date.now(),
        // As typed, so that Edit opens the form as it was.
        fields: formFields(form, number),
      });
      sessionStorage.setItem(FLASH, `Round ${result.number ?? number} saved on this phone, not sent yet.`);
      location.assign(gameUrl(id));
    } catch (error) {
      form.querySelector("#preview").outerHTML = previewHtml(null, number, `Not saved: ${error.message || error}`).text;
    } finally {
      button.disabled = false;
    }
  });
  // The submit handler must decide before the browser sends the form, so it cannot wait for
  // IndexedDB: what it needs is read now and kept up to date.
  let waitingHere = 0;
  const offlineNow = () => !navigator.onLine || serverBroken || waitingHere > 0 || Boolean(editKey);
  const count = async () => {
    waitingHere = (await db.waitingFor(id)).length;
  };
  count();
  const before = redrawPage;
  redrawPage = async () => {
    await before();
    await count();
  };

  if (navigator.onLine && form.hasAttribute("data-watch")) keepForOffline(id);
  else warmWhenIdle();
  if (editKey) {
    db.waitingFor(id).then((rounds) => {
      const old = rounds.find((r) => r.key === editKey);
      if (old && old.fields) fillForm(form, old.fields);
      previewSafely();
    });
  } else {
    offline().then((yes) => yes && previewSafely());
  }
  window.addEventListener("offline", previewSafely);
}

// A round form drawn here, for a game with no server page on this phone (started offline, or
// its form never opened online): the same field names, error slots and breakdown as the server's.
function stepperHtml(field) {
  if (field.kind === "flag") {
    return html`<div class="field flag"><label class="choice" for="${field.key}"><input type="checkbox" id="${field.key}" name="${field.key}" value="1" class="big-check"> ${field.label}</label>
      ${field.help ? html`<p class="hint">${field.help}</p>` : ""}<div id="err-${field.key}" class="errors"></div></div>`;
  }
  const step = field.step || 1;
  return html`<div class="field">
    <div class="field-name"><label for="${field.key}">${field.label}</label>${field.help ? html`<span class="hint">${field.help}</span>` : ""}</div>
    <div class="stepper">
      <button type="button" class="step" data-for="${field.key}" data-step="-${step}" aria-label="${field.label}: less">−</button>
      <input type="number" id="${field.key}" name="${field.key}" min="0" step="${step}" inputmode="numeric" pattern="[0-9]*" placeholder="0">
      <button type="button" class="step" data-for="${field.key}" data-step="${step}" aria-label="${field.label}: more">+</button>
    </div>
    <div id="err-${field.key}" class="errors"></div>
  </div>`;
}

function pileHtml(pile) {
  return html`${stepperHtml(pile.points)}
    <details class="count-cards"><summary>Count cards</summary>
      <p class="hint">Counted cards replace the points typed above.</p>
      <div id="err-${pile.cards_key}" class="errors"></div>
      <div class="rank-grid">${pile.cards.map(
        (card) => html`<div class="rank"><label for="${card.key}">${card.label} <span class="muted">(${card.points_text})</span></label>
          <div class="stepper small">
            <button type="button" class="step" data-for="${card.key}" data-step="-1" aria-label="${card.label}: one less">−</button>
            <input type="number" id="${card.key}" name="${card.key}" min="0" inputmode="numeric" pattern="[0-9]*" placeholder="0">
            <button type="button" class="step" data-for="${card.key}" data-step="1" aria-label="${card.label}: one more">+</button>
          </div><div id="err-${card.key}" class="errors"></div></div>`,
      )}</div>
    </details>`;
}

function sideBlockHtml(side, kinds) {
  const flags = side.before.filter((f) => f.kind === "flag");
  const counts = side.before.filter((f) => f.kind !== "flag");
  return html`<fieldset class="side-block" id="${side.key}">
    <legend>${side.name}${side.is_dealer ? html` <span class="badge">dealer</span>` : ""}</legend>
    <div id="err-${side.key}" class="errors"></div>
    ${flags.map(stepperHtml)}
    <div class="canastas">${side.canastas.map(stepperHtml)}<div id="err-${side.key}-canastas" class="errors"></div></div>
    ${counts.map(stepperHtml)}
    ${pileHtml(side.melded)}${pileHtml(side.hand)}
    ${side.after.map(stepperHtml)}
    ${side.open_books.length ? html`<fieldset class="open-books"><legend>Open books of seven or more left on the table</legend>${side.open_books.map(
      (book, i) => html`<div class="open-book">
        <label for="${book.kind_key}">Book ${i + 1} kind</label>
        <select id="${book.kind_key}" name="${book.kind_key}"><option value="">none</option>${kinds.map((k) => html`<option value="${k.kind}">${k.label}</option>`)}</select>
        <label for="${book.points_key}">Book ${i + 1} points</label>
        <input type="number" id="${book.points_key}" name="${book.points_key}" min="0" step="5" inputmode="numeric">
        <div id="err-${book.points_key}" class="errors"></div></div>`,
    )}</fieldset>` : ""}
  </fieldset>`;
}

function roundFormHtml(id, made) {
  return html`<div class="round-top">
      <h1 data-offline-part="heading">Round ${made.number}</h1>
      <a class="back" href="${gameUrl(id)}">← Back to the game</a>
    </div>
    <p class="dealer" data-offline-part="dealer"><strong>${made.dealer}</strong> deals.</p>
    <form method="post" class="round-form" novalidate data-offline-game="${id}">
      <input type="hidden" name="round_number" value="${made.number}">
      <div id="err-__all__" class="errors"></div>
      <fieldset class="went-out choices-row"><legend>Who went out?</legend>
        ${made.sides.map((side) => html`<label class="choice"><input type="radio" id="went_out-${side.went_out_value}" name="went_out" value="${side.went_out_value}"> ${side.name}<span class="visually-hidden"> went out</span></label>`)}
        <label class="choice"><input type="radio" name="went_out" value="${made.stock_value}"> The stock ran out</label>
        <div id="err-went_out" class="errors"></div>
      </fieldset>
      <div class="side-blocks">${made.sides.map((side) => sideBlockHtml(side, made.kinds))}</div>
      <section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">The breakdown shows here as you type.</p></section>
      <div class="save-bar"><div id="save-summary" class="save-summary"></div>
        <button class="button big" type="submit">Save round ${made.number}</button></div>
    </form>`;
}

async function shellRoundForm(main, id) {
  const { game, counted } = await gameState(id);
  if (!game) return shellGame(main, id);
  const stored = game.snapshot.rounds.length;
  const next = stored + counted.filter((r) => r.number > stored).length + 1;
  main.innerHTML = html`<h1>Round ${next}</h1><p class="muted">Drawing the form on this phone…</p>`.text;
  const made = await compute("round_form", game.snapshot, counted);
  if (made.finished) {
    main.innerHTML = html`<h1>The game is over</h1><p><a href="${gameUrl(id)}">Back to the game</a></p>`.text;
    return;
  }
  main.innerHTML = roundFormHtml(id, made).text;
  roundEntry(main.querySelector("form.round-form"), id);
}

async function shellElsewhere(main) {
  const games = await db.gamesAll();
  main.innerHTML = html`<h1>Offline</h1>
    <p>This page is not kept on this phone, and there is no connection to load it.</p>
    ${games.length ? html`<h2>Games you can score here</h2><ul class="plain">${games.map(
      (g) => html`<li><a href="${gameUrl(g.id)}">${g.snapshot.title || g.snapshot.sides.join(" vs ")}</a></li>`,
    )}</ul>` : ""}`.text;
}

function shell(main) {
  const path = location.pathname.match(/^\/g\/([^/]+)\/(rounds\/new\/)?$/);
  if (!path) return shellElsewhere(main);
  const id = decodeURIComponent(path[1]);
  warmWhenIdle();
  return path[2] ? shellRoundForm(main, id) : shellGame(main, id);
}

// ---- Start a game offline: the phone makes its id; the server creates the game later.
function newGameId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function startPage(form) {
  const preset = form.dataset.offlinePreset;
  form.addEventListener("submit", async (event) => {
    if (navigator.onLine) return;
    event.preventDefault();
    const button = form.querySelector("button[type='submit']");
    button.disabled = true;
    const label = button.textContent;
    button.textContent = "Starting on this phone…";
    try {
      const fields = formFields(form, 0);
      delete fields.round_number;
      const id = newGameId();
      const result = await compute("start_game", preset, fields, id);
      placeErrors(form, result.errors);
      if (!result.ok) {
        form.querySelector(".field-error")?.scrollIntoView({ block: "center" });
        return;
      }
      await db.gamePut({ id, snapshot: result.snapshot, local: true, preset, form: fields, error: "" });
      sessionStorage.setItem(FLASH, "Game started on this phone; it is created on the server when the connection returns.");
      location.assign(gameUrl(id));
    } catch (error) {
      placeErrors(form, [{ key: "__all__", message: `Not started: ${error.message || error}` }]);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  });
}

// ---- Every page: the status line, sending what waits, and whatever this page offers offline.
function boot() {
  const main = document.getElementById("offline-app");
  const game = document.querySelector("#main [data-offline-game]");
  const roundForm = document.querySelector("form.round-form[data-offline-game]");
  const start = document.querySelector("form[data-offline-preset]");
  if (main) {
    shell(main).catch(showTrouble);
    flash();
  } else {
    flash();
    if (roundForm) roundEntry(roundForm, roundForm.dataset.offlineGame);
    else if (game) gamePage(game);
  }
  if (start) startPage(start);
  window.addEventListener("online", syncNow);
  window.addEventListener("offline", () => refresh().catch(showTrouble));
  setInterval(async () => {
    if (!sync.failure && navigator.onLine && (await db.waitingFor()).length) syncNow();
  }, PATIENCE);
  refresh().catch(showTrouble);
  syncNow().catch(showTrouble);
}

if (window.indexedDB) boot();
