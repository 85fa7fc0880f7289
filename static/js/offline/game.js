// A game as this phone shows it: the server's game page (possibly from the phone's cache) with the
// rounds kept here added by the engine, the offline shell's game page, and the rounds that need
// the player (a conflict with another phone, or a refusal) with the player's choice carried out.

import { db } from "./store.js";
import {
  addingHtml,
  elsewhereHtml,
  flashHtml,
  gameUrl,
  nextWithoutEngineHtml,
  notReadyHtml,
  html,
  problemHtml,
  refusedHtml,
  shellGameHtml,
  unknownGameHtml,
  workingHtml,
} from "./render.js";
import { drawStatus, readiness, showTrouble } from "./status.js";
import { compute, drawWith, engine, redraw, refresh, whenIdle } from "./page.js";
import { refreshSnapshot, syncNow } from "./sync.js";
import { countedWaiting, nextNumber, scoreKept } from "./kept.js";
import { pageSignal } from "./swap.js";

// sessionStorage's key for the message the next page shows (a round or game saved on the phone).
export const FLASH = "scorekeeper-offline-flash";

// Which waiting rounds count, and the next round's number: kept.js's, shared with sync.js.
export { countedWaiting, nextNumber };

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
/** Whether a round of `rounds` (a game's waiting ones) waits for the player's choice. */
export const awaitsChoice = (rounds) => rounds.some((r) => r.state === "conflict" || r.state === "refused");

/** While a round of the game waits for the player's choice, the page's controls marked
 *  data-needs-settled (Enter round, Delete round, End the game now) are hidden (app.css): a
 *  round entered or deleted meanwhile would be numbered around the undecided one. `root`: the
 *  game's [data-offline-game] element, which holds them. */
export function holdWhileUnsettled(root, rounds) {
  root.toggleAttribute("data-awaits-choice", awaitsChoice(rounds));
}

/** The two versions of a round saved on two phones, as phone.py's round_lines takes them: this
 *  phone's, and the other phone's as the server's conflict answer gave it (`theirs`). */
export function bothVersions(round) {
  const { theirs } = round;
  return [
    { number: round.number, ended_by: round.ended_by, entry: round.entry },
    { number: theirs.number ?? round.number, ended_by: theirs.ended_by, entry: theirs.entry },
  ];
}

/** Each version's lines, scored at its place in the game the phone keeps. */
async function versionLines(snapshot, round) {
  const [mine, theirs] = await Promise.all(bothVersions(round).map((r) => compute("round_lines", snapshot, [], r)));
  return { mine, theirs };
}

// Removing a round is asked once more; the question stays through redraws until answered.
const asking = new Map();

async function problemsHtml(game, rounds, counted) {
  const shown = new Set(counted.map((r) => r.key));
  const parts = [];
  for (const round of rounds) {
    if (shown.has(round.key)) continue;
    const asked = asking.get(round.key);
    const lines = round.state === "conflict" && round.theirs ? await versionLines(game.snapshot, round) : {};
    parts.push(problemHtml(round, { asked, ...lines }));
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
  holdWhileUnsettled(root, rounds);
  if (!game) return false;
  // Once drawn here, the page keeps being drawn here: the server's copy of it may be older.
  if (!always && navigator.onLine && !rounds.length && !root.dataset.offlineDrawn) return false;
  const problems = root.querySelector("[data-offline-part='problems']");
  if (!root.dataset.offlineDrawn && rounds.length) {
    // The engine may take seconds to start on this page: the stale scores are not left unsaid.
    problems.innerHTML = addingHtml(rounds.length).text;
  }
  let view;
  try {
    // Rounds saved before the engine was ready are scored first, now that it answers.
    if (rounds.some((r) => r.unscored) && (await scoreKept({ store: db, run: compute }))) {
      return drawGame(root, id, { always, canScore });
    }
    view = await compute("game_view", game.snapshot, counted, Boolean(canScore));
  } catch (error) {
    // The engine could not load (offline, never kept on this phone): the page keeps the scores it
    // has and says what is kept and why it is not added yet.
    console.warn("The engine did not answer:", error);
    problems.innerHTML = notReadyHtml(rounds).text;
    if (rounds.some((r) => r.state === "waiting")) {
      const next = nextNumber(game.snapshot, counted, rounds);
      root.querySelector("[data-offline-part='state']").innerHTML = nextWithoutEngineHtml(id, next, canScore).text;
    }
    return false;
  }
  problems.innerHTML = html`${refusedHtml(view.errors)}${await problemsHtml(game, rounds, counted)}`.text;
  // Drawn by the engine's own renderer (scorekeeper/portable/fragments.py), as on the server.
  root.querySelector("[data-offline-part='state']").innerHTML = view.state_html;
  root.querySelector("[data-offline-part='scores']").outerHTML = view.scores_html;
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
  document.body.addEventListener(
    "htmx:load",
    (event) => {
      if (event.detail.elt.matches && event.detail.elt.matches("[data-offline-game]")) redraw().catch(showTrouble);
    },
    { signal: pageSignal() },
  );
  if (navigator.onLine) keepForOffline(id, { show: true }).then(() => refresh());
}

/** Online, on a page of a game this phone scores: keep what scoring it offline needs (its
 *  snapshot and pages at once, then the engine), saying on the status line how far it got, and
 *  on <body> once it is all kept (data-offline-pages, then data-offline-kept). */
export async function keepForOffline(id, { show = false } = {}) {
  if (!(await refreshSnapshot(id))) return;
  const { snapshot } = await db.gameGet(id);
  const pages = [gameUrl(id), `${gameUrl(id)}rounds/new/`, `/games/new/${snapshot.preset}/`];
  // Said on the game page, where the player looks before the connection goes; the round form
  // keeps its height for the form.
  const say = (state, reason = "") => {
    if (!show) return undefined;
    Object.assign(readiness, { state, reason });
    return drawStatus();
  };
  await say("loading");
  try {
    if (!window.offlineShell) {
      await say("failed", "this browser cannot keep pages for use offline");
      return;
    }
    // The pages first, at once and small: with them and the game kept above, a round can be
    // saved offline from the first seconds, before the engine has loaded (kept.js).
    const held = await window.offlineShell.cachePages(pages);
    if (!held.refused.length) document.body.dataset.offlinePages = id;
    await whenIdle();
    const runtime = await engine();
    if (runtime.warm) await runtime.warm();
    await runtime.call("ping");
    // The engine may have loaded before the service worker took over, unseen by it.
    const kept = await window.offlineShell.cacheRuntime();
    if (kept.refused.length || held.refused.length) {
      await say("failed", "some of what it needs could not be kept; it is tried again on the next page");
      return;
    }
    document.body.dataset.offlineKept = id;
    await say("ready");
  } catch (error) {
    // Its reason is the browser's (a failed download, in its words): the player gets ours.
    console.warn("The engine could not be kept for offline use:", error);
    await say("failed", "its scorer could not be downloaded; it is tried again on the next page opened online");
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
