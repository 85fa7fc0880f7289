// The screen kept on while a game is open and not over (the Display page's "Keep the screen on
// during a game", on unless the player turned it off): the Screen Wake Lock API, asked for again
// when the page is shown again (the browser lets it go when the page is hidden), and let go when
// the game is over or the setting is off. A browser without the API simply does without.

// A game open and not over: the game page's next round, or a round form.
export const OPEN_GAME = "[data-offline-game] .next-round, form.round-form";

/** Whether this page wants the screen kept on now. */
export function wantsAwake(doc) {
  return (
    doc.documentElement.dataset.awake !== "off" &&
    doc.visibilityState === "visible" &&
    doc.querySelector(OPEN_GAME) !== null
  );
}

/** Keep the screen on while `wantsAwake(doc)`; `nav` is the browser's navigator. Returns
 *  `update`, run again whenever the page may have changed, and `held()`. */
export function keepAwake(doc, nav) {
  let lock = null;
  let asking = null;

  async function update() {
    if (asking) await asking;
    const want = wantsAwake(doc);
    if (want && lock === null && nav.wakeLock) {
      asking = nav.wakeLock
        .request("screen")
        .then((sentinel) => {
          lock = sentinel;
          // The browser lets it go by itself when the page is hidden.
          sentinel.addEventListener("release", () => {
            if (lock === sentinel) lock = null;
          });
        })
        .catch(() => {
          // Refused (a low battery, a browser policy): the game goes on without it.
          lock = null;
        })
        .finally(() => {
          asking = null;
        });
      await asking;
    } else if (!want && lock !== null) {
      const held = lock;
      lock = null;
      await held.release();
    }
  }

  doc.addEventListener("visibilitychange", update);
  // A round saved on another phone may end the game: the live section is drawn again.
  doc.addEventListener("htmx:afterSettle", update);
  update();
  return { update, held: () => lock !== null };
}
