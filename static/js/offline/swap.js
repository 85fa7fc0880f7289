// Offline, the game page and its round form are swapped in place instead of loaded as new pages:
// the phone's scorer (Pyodide, in a worker of this page) then starts once a visit, not once a
// page, so a round form opened offline shows its breakdown at once. The page swapped in is the
// server's, as the service worker kept it (asked for with the X-Offline-Page header, which it
// answers as it answers a navigation); one code path draws every page.

// The pages swapped in place: a game and its round form.
const SWAPPED = /^\/g\/[\w-]+\/(rounds\/new\/)?$/;
// Tells the service worker that this fetch stands for a navigation (sw.js).
export const PAGE_HEADER = "X-Offline-Page";

/** Whether a click on a link to `url` (from a page at `here`) is swapped in place. */
export function swappable(url, here, online) {
  return !online && url.origin === here.origin && SWAPPED.test(url.pathname);
}

/** Whether a click is a plain one, which the page may take over (not a new tab or window). */
export function plainClick(event) {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

// Per page shown: listeners a page adds on window or document.body go with it when it is swapped
// out (their signal aborts).
let scope = new AbortController();
// The path of the page shown, whichever way it came: a history step to another path is a page to
// show; one to the same path (a link to #main) is not.
let shownPath = typeof location === "undefined" ? "" : location.pathname;

/** The signal of the page shown now, for listeners that must end with it. */
export const pageSignal = () => scope.signal;

/** Show the page at `url` in place of this one; false when it could not be had (the caller then
 *  navigates as usual). `boot` starts the new page's parts. */
export async function swapTo(url, boot, { push = true } = {}) {
  let response;
  try {
    response = await fetch(url, { credentials: "same-origin", headers: { [PAGE_HEADER]: "1" } });
  } catch {
    return false;
  }
  if (!response.ok) return false;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = page.querySelector("main");
  const here = document.querySelector("main");
  if (!main || !here) return false;
  scope.abort();
  scope = new AbortController();
  here.replaceWith(document.adoptNode(main));
  document.title = page.title;
  if (push) history.pushState({ swapped: true }, "", url);
  shownPath = new URL(url, location.href).pathname;
  window.scrollTo(0, 0);
  if (window.htmx) window.htmx.process(document.querySelector("main"));
  boot();
  return true;
}

// What starts a page's parts once it is swapped in (offline.js's bootPage, given to swapLinks).
let bootPage = () => {};

/** Go to `url`: swapped in place when offline, else as a new page. */
export async function goTo(url) {
  const target = new URL(url, location.href);
  if (swappable(target, location, navigator.onLine) && (await swapTo(target.href, bootPage))) return;
  location.assign(target.href);
}

/** Take over the clicks on links to a game page or round form, and the back button, offline. */
export function swapLinks(boot) {
  bootPage = boot;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || !plainClick(event) || link.target) return;
    const url = new URL(link.href, location.href);
    if (!swappable(url, location, navigator.onLine)) return;
    event.preventDefault();
    goTo(url.href);
  });
  window.addEventListener("popstate", () => {
    const url = new URL(location.href);
    if (url.pathname === shownPath) return;
    if (!swappable(url, location, navigator.onLine)) {
      location.reload();
      return;
    }
    swapTo(url.href, boot, { push: false }).then((shown) => shown || location.reload());
  });
}
