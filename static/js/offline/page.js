// What every part of a page shares: redrawing what it shows of the phone's state (the status
// line, the online-only controls, the game), and the engine, loaded only where a page needs it
// (never on the first paint of a page).

import { drawStatus, showOnlineOnly } from "./status.js";

// Set by the part of the page that draws a game (game.js, entry.js); nothing by default.
let redrawPage = async () => {};

/** From now on, `draw` redraws this page's game. */
export function drawWith(draw) {
  redrawPage = draw;
}

/** From now on, `then` runs after each redraw of this page's game. */
export function afterRedraw(then) {
  const before = redrawPage;
  redrawPage = async () => {
    await before();
    await then();
  };
}

export const redraw = () => redrawPage();

/** Redraw whatever this page shows of what the phone keeps. */
export async function refresh() {
  showOnlineOnly();
  await drawStatus();
  await redrawPage();
}

// ---- The engine (../engine.js, relative so that every page and module shares its one worker).
let engineModule = null;
export async function engine() {
  engineModule ||= import("../engine.js").then((mod) => mod.engine || mod.default || mod);
  return engineModule;
}

export async function compute(fn, ...args) {
  return (await engine()).call(fn, ...args);
}

/** Whether the engine has loaded on this page. */
export async function isLoaded() {
  try {
    return (await engine()).isLoaded();
  } catch {
    return false;
  }
}

/** Whether the engine answers within `ms` (false while it loads, or when it cannot load). */
export async function readyWithin(ms) {
  try {
    return await (await engine()).readyWithin(ms);
  } catch {
    return false;
  }
}

// The engine's runtime is large: it is fetched once the page has loaded and the browser is idle.
export function whenIdle() {
  return new Promise((resolve) => {
    const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => resolve()) : setTimeout(resolve, 200));
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}

export function warmWhenIdle() {
  whenIdle()
    .then(engine)
    .then((e) => e.warm && e.warm())
    // Not loaded (offline before it was kept): the page says so where it needs the engine.
    .catch(() => {});
}
