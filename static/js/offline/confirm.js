// A round confirmed while the phone is offline: the other side's tap on "Confirm round N" (or
// "Them: confirm" on the phone that saved it) is kept on the phone and sent when the connection
// returns (sync.js, sendConfirms), as the form would have posted it. Online, and without
// JavaScript, the form posts as it always does.

import { CONFIRMS, db } from "./store.js";

/** What a confirm form asks, read from its data-confirm-* attributes and fields:
 *  {game, number, version, handedOver}, or null when the form is not a confirmation. */
export function confirmationOf(form) {
  const { confirmGame, confirmRound } = form.dataset || {};
  const number = Number(confirmRound);
  if (!confirmGame || !Number.isInteger(number) || number < 1) return null;
  const field = (name) => form.querySelector(`input[name="${name}"]`)?.value ?? "";
  return { game: confirmGame, number, version: field("round_version") || null, handedOver: field("handed_over") === "1" };
}

/** Keep a confirmation to send later; one per round of a game (a second tap changes nothing).
 *  Returns the sentence the page says. */
export async function keepConfirmation(asked, store = db) {
  const kept = (await store.metaGet(CONFIRMS)) || [];
  if (!kept.some((each) => each.game === asked.game && each.number === asked.number)) {
    await store.metaPut(CONFIRMS, [...kept, asked]);
  }
  return `Round ${asked.number} confirmed on this phone, not sent yet: it is sent when the phone is online.`;
}

/** Offline, a confirm form under `root` keeps its confirmation instead of posting it. One
 *  listener on `root`, so that a form the live page swapped in later is heard too. `said` shows
 *  the sentence, `sync` sends at once if the phone is online by then. */
export function confirmForms(root, { store = db, online = () => navigator.onLine, said, sync } = {}) {
  root.addEventListener("submit", async (event) => {
    const form = event.target;
    if (online() || !form?.matches?.("form[data-confirm-round]")) return;
    const asked = confirmationOf(form);
    if (!asked) return;
    event.preventDefault();
    const button = form.querySelector("button");
    if (button) button.disabled = true;
    said(await keepConfirmation(asked, store));
    if (sync) sync();
  });
}
