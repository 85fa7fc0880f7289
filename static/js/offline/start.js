// Starting a game with no connection: the phone makes the game's id and the engine its first
// snapshot from the start page's fields; the server creates the game when the connection returns
// (sync.js), under the same id.

import { db } from "./store.js";
import { gameUrl } from "./render.js";
import { compute } from "./page.js";
import { FLASH } from "./game.js";
import { formFields, placeErrors } from "./entry.js";
import { goTo } from "./swap.js";

/** A new game's id: 16 random bytes in URL-safe base64, 22 characters, as the server makes them. */
export function newGameId(bytes = crypto.getRandomValues(new Uint8Array(16))) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The start page's fields as the engine takes them: no round number. */
export function startFields(form) {
  const fields = formFields(form, 0);
  delete fields.round_number;
  return fields;
}

/** Start game `id` on this phone: the engine's answer, and the game kept here when it is ok. */
export async function startGame(preset, fields, id, { run = compute, store = db } = {}) {
  const result = await run("start_game", preset, fields, id);
  if (result.ok) await store.gamePut({ id, snapshot: result.snapshot, local: true, preset, form: fields, error: "" });
  return result;
}

/** The start page's form (data-offline-preset): offline, the game starts on this phone. */
export function startPage(form) {
  const preset = form.dataset.offlinePreset;
  form.addEventListener("submit", async (event) => {
    if (navigator.onLine) return;
    event.preventDefault();
    const button = form.querySelector("button[type='submit']");
    button.disabled = true;
    const label = button.textContent;
    button.textContent = "Starting on this phone…";
    try {
      const id = newGameId();
      const result = await startGame(preset, startFields(form), id);
      placeErrors(form, result.errors);
      if (!result.ok) {
        form.querySelector(".field-error")?.scrollIntoView({ block: "center" });
        return;
      }
      sessionStorage.setItem(FLASH, "Game started on this phone; it is created on the server when the connection returns.");
      await goTo(gameUrl(id));
    } catch (error) {
      placeErrors(form, [{ key: "__all__", message: `Not started: ${error.message || error}` }]);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  });
}
