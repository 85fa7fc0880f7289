// A game as this phone shows it: the server's game page (possibly from the phone's cache) with the
// rounds kept here added by the engine, the offline shell's game page, and the rounds that need
// the player (a conflict with another phone, or a refusal) with the player's choice carried out.

import { db } from "./store.js";
import {
  addingHtml,
  elsewhereHtml,
  flashHtml,
  gameUrl,
  html,
  problemHtml,
  refusedHtml,
  scoresHtml,
  shellGameHtml,
  stateHtml,
  unknownGameHtml,
  workingHtml,
} from "./render.js";
import { showTrouble } from "./status.js";
import { compute, drawWith, engine, redraw, refresh, whenIdle } from "./page.js";
import { refreshSnapshot, syncNow } from "./sync.js";

// sessionStorage's key for the message the next page shows (a round or game saved on the phone).
export const FLASH = "scorekeeper-offline-flash";

/** The waiting rounds the engine counts: those following the stored rounds without a gap and not
 *  waiting for a choice; the rest are shown beside, in the problems panel. */
export function countedWaiting(snapshot, rounds) {
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

/** The number of the round to enter next, before the engine has said (it knows whether the game
 *  is over): the stored rounds and the counted ones that come after them. */
export function nextNumber(snapshot, counted) {
  const stored = snapshot.rounds.length;
  return stored + counted.filter((r) => r.number > stored).length + 1;
}

/** A game kept on this phone, its waiting rounds and those of them the engine counts. */
export async function gameState(id, store = db) {
  const game = await store.gameGet(id);
  const rounds = await store.waitingFor(id);
  if (!game) return { game, rounds, counted: [] };
  return { game, rounds, counted: countedWaiting(game.snapshot, rounds) };
}

/** "Keep this phone's round": it replaces the stored one, of the version the server showed. */
export function keptMine(round, snapshot) {
  const stored = snapshot.rounds.find((r) => r.number === round.number);
  const version = (round.theirs && round.theirs.version) || (stored && stored.version);
  return { ...round, state: "waiting", place: "replace", version };
}

/** "Keep both": this phone's round goes after the stored ones (the other phone's included), and
 *  the rounds of `waiting` (the game's) saved after it follow on in order. */
export function keptBoth(round, snapshot, waiting) {
  const next = snapshot.rounds.length + 1;
  const later = waiting.filter((r) => r.number > round.number && r.key !== round.key);
  return [
    ...later.map((r, i) => ({ ...r, number: next + 1 + i })),
    { ...round, state: "waiting", place: "end", number: next, theirs: null },
  ];
}

// ---- Rounds that need the player.
async function mineScores(snapshot, round) {
  const before = { ...snapshot, rounds: snapshot.rounds.filter((r) => r.number < round.number) };
  const view = await compute("game_view", before, [
    { key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry },
  ]);
  return { sides: view.sides, scores: view.rounds[view.rounds.length - 1].scores };
}

// Removing a round is asked once more; the question stays through redraws until answered.
const asking = new Map();

async function problemsHtml(game, rounds, counted) {
  const shown = new Set(counted.map((r) => r.key));
  const parts = [];
  for (const round of rounds) {
    if (shown.has(round.key)) continue;
    const asked = asking.get(round.key);
    const mine = round.state === "conflict" && round.theirs ? await mineScores(game.snapshot, round) : null;
    parts.push(problemHtml(round, { asked, mine }));
  }
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
    await redraw();
    document.querySelector(`.offline-problem[data-key="${CSS.escape(key)}"] .choices button`)?.focus();
    return;
  }
  asking.delete(key);
  if (choice === "drop") {
    await db.waitingDelete(key);
  } else if (choice === "mine") {
    const game = await db.gameGet(round.game);
    await db.waitingPut(keptMine(round, game.snapshot));
  } else if (choice === "both") {
    const game = await db.gameGet(round.game);
    await db.waitingPutAll(keptBoth(round, game.snapshot, await db.waitingFor(round.game)));
  }
  await refresh();
  syncNow();
}

/** The problems panel's buttons, wherever the page draws them. */
export function listenForChoices() {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-offline-choice]");
    if (button) choose(button).catch(showTrouble);
  });
}

// ---- The game page (the server's, possibly from the phone's cache) and the offline shell's.
/** The message a page left for this one (a round or game saved on the phone). */
export function flash() {
  const text = sessionStorage.getItem(FLASH);
  if (!text) return;
  sessionStorage.removeItem(FLASH);
  const main = document.querySelector("main");
  const box = document.createElement("div");
  box.setAttribute("role", "status");
  box.dataset.offlineFlash = "";
  box.innerHTML = flashHtml(text).text;
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
    problems.innerHTML = addingHtml(rounds.length).text;
  }
  const view = await compute("game_view", game.snapshot, counted);
  problems.innerHTML = html`${refusedHtml(view.errors)}${await problemsHtml(game, rounds, counted)}`.text;
  root.querySelector("[data-offline-part='state']").innerHTML = stateHtml(view, id, canScore).text;
  root.querySelector("[data-offline-part='scores']").outerHTML = scoresHtml(view, id).text;
  const chart = root.querySelector("[data-offline-part='chart']");
  if (chart) chart.hidden = true;
  root.dataset.offlineDrawn = "1";
  return true;
}

/** The server's game page: drawn here once rounds wait on the phone or the phone is offline. */
export function gamePage(root) {
  const id = root.dataset.offlineGame;
  const canScore = root.dataset.canScore === "1";
  if (!canScore) return;
  drawWith(async () => {
    // The live section may have been swapped for the server's since: find it again.
    const live = document.querySelector("[data-offline-game]");
    if (live) await drawGame(live, id, { always: !navigator.onLine, canScore });
  });
  // htmx:load fires on the fresh live section once it is in the page (an outerHTML swap's
  // settle events go to the old one, no longer in the page).
  document.body.addEventListener("htmx:load", (event) => {
    if (event.detail.elt.matches && event.detail.elt.matches("[data-offline-game]")) redraw().catch(showTrouble);
  });
  if (navigator.onLine) keepForOffline(id).then(() => refresh());
}

/** Online, on a page of a game this phone scores: keep what scoring it offline needs (its
 *  snapshot, its pages, the start page of its rule set and the engine), then say so on <body>. */
export async function keepForOffline(id) {
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

/** The offline shell's page of a game kept on this phone. */
export async function shellGame(main, id) {
  const draw = async () => {
    const game = await db.gameGet(id);
    if (!game) {
      main.innerHTML = unknownGameHtml().text;
      return;
    }
    const put = (root) => main.replaceChildren(...main.querySelectorAll("[data-offline-flash]"), ...root.childNodes);
    const root = document.createElement("div");
    if (!main.querySelector("[data-offline-game]")) {
      // At once, while the engine starts: the game's name and a word on what is coming.
      root.innerHTML = shellGameHtml(id, game, workingHtml()).text;
      put(root);
    }
    root.innerHTML = shellGameHtml(id, game, "").text;
    // Drawn aside and put in whole, so the page never shows half of it.
    await drawGame(root.querySelector("[data-offline-game]"), id, { always: true, canScore: true });
    put(root);
  };
  drawWith(draw);
  await draw();
}

/** The offline shell on any other page: the games this phone can score. */
export async function shellElsewhere(main) {
  main.innerHTML = elsewhereHtml(await db.gamesAll()).text;
}

/** Which of the shell's pages an address is: a game's ({id}), its round form ({id, form: true}),
 *  or null for any other. */
export function shellPage(pathname) {
  const path = pathname.match(/^\/g\/([^/]+)\/(rounds\/new\/)?$/);
  if (!path) return null;
  return { id: decodeURIComponent(path[1]), form: Boolean(path[2]) };
}
