// Offline play on this phone: the status line in the header, rounds entered with no connection
// (their breakdown worked out by the repository's own Python engine, static/js/engine.js), games
// started offline, and sending what waits, in order, when the connection returns. Every sum comes
// from the engine; these modules only store, draw and send. A round is dropped from the phone only
// once the server has it or the player chose so; a failed send is said and tried again.
//
// This is the page's entry (base.html loads it as a module); the work is done by the modules of
// offline/, each with one job: store.js (IndexedDB), sync.js (the server), status.js (the status
// line), render.js (the HTML), game.js (the game page and the player's choices), entry.js (round
// entry), start.js (a game started offline), confirm.js (a round confirmed offline), page.js (redrawing, the engine), kept.js (rounds
// saved before the engine loaded), swap.js (pages swapped in place offline). Their imports are
// relative, so they resolve beside whatever name this file was served by (hashed in production),
// and offline the service worker answers them from its precache (scorekeeper/offline/shell.py
// precaches every script under static/js/).

import { db } from "./offline/store.js";
import { sending, showTrouble } from "./offline/status.js";
import { drawWith, refresh, warmWhenIdle } from "./offline/page.js";
import { syncNow } from "./offline/sync.js";
import { FLASH, flash, gamePage, listenForChoices, shellElsewhere, shellGame, shellPage } from "./offline/game.js";
import { confirmForms } from "./offline/confirm.js";
import { roundEntry, shellRoundForm } from "./offline/entry.js";
import { startPage } from "./offline/start.js";
import { swapLinks } from "./offline/swap.js";

// While rounds wait and nothing else moves, the phone tries again this often (ms).
const PATIENCE = 60_000;

// The offline shell (/offline/, served by the service worker in place of any page it does not
// keep): what this phone keeps of the page asked for.
function shell(main) {
  const page = shellPage(location.pathname);
  if (!page) return shellElsewhere(main);
  warmWhenIdle();
  return page.form ? shellRoundForm(main, page.id) : shellGame(main, page.id);
}

// ---- The page's own parts: what the page shown (loaded, or swapped in offline) offers.
function bootPage() {
  const main = document.getElementById("offline-app");
  const game = document.querySelector("#main [data-offline-game]");
  const roundForm = document.querySelector("form.round-form[data-offline-game]");
  const start = document.querySelector("form[data-offline-preset]");
  // Whatever the page before drew is not this page's to redraw.
  drawWith(async () => {});
  if (main) {
    shell(main).catch(showTrouble);
    flash();
  } else {
    flash();
    if (roundForm) roundEntry(roundForm, roundForm.dataset.offlineGame);
    else if (game) gamePage(game);
  }
  if (start) startPage(start);
  refresh().catch(showTrouble);
}

// ---- Once a visit: the status line, sending what waits, and pages swapped in place offline.
function boot() {
  listenForChoices();
  swapLinks(bootPage);
  // The service worker dropped what this phone kept for a former owner (sw.js, checkOwner).
  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data && event.data.type === "forgotten") refresh().catch(showTrouble);
  });
  // Offline, the other side's Confirm is kept and sent when the connection returns.
  confirmForms(document, {
    said: (text) => {
      sessionStorage.setItem(FLASH, text);
      flash();
      refresh().catch(showTrouble);
    },
    sync: () => syncNow().catch(showTrouble),
  });
  window.addEventListener("online", syncNow);
  window.addEventListener("offline", () => refresh().catch(showTrouble));
  setInterval(async () => {
    if (!sending.failure && navigator.onLine && (await db.waitingFor()).length) syncNow();
  }, PATIENCE);
  bootPage();
  syncNow().catch(showTrouble);
}

// Only where the phone can keep anything (and not when node's tests import this file).
if (globalThis.indexedDB) boot();
