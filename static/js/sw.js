// The service worker. The /sw.js view serves this file with `self.SHELL = {...}` as its first
// line (scorekeeper/offline/shell.py): the version, what to precache, and where the runtime files live.
// A new version of anything precached changes that line, so the browser installs a new worker.
//
// Caches:
//   shell-<version>  precached at install: /offline/, the manifest, CSS, JS, htmx, icons.
//   runtime          Pyodide and the engine zip, cache-first, kept when first fetched.
//   pages            the pages a phone needs to score offline, network-first, kept without
//                    their one-time messages.
//   owner            whose pages and offline database these are (the X-Offline-Owner header).
// IndexedDB (the games and rounds kept for offline play) belongs to the pages; this worker only
// deletes it, with the kept pages, when their owner changes.

const SHELL = self.SHELL || { version: "dev", precache: [], assets: {}, static: "/static/" };
const SHELL_CACHE = `shell-${SHELL.version}`;
const RUNTIME_CACHE = "runtime";
const PAGES_CACHE = "pages";
// The runtime cache's own record of which Pyodide it holds: a new Pyodide empties it.
const RUNTIME_MARKER = "/sw/runtime-version";

// Pages kept for offline use (home, the start pages, a game and its round form), as patterns
// the server makes from its own URL map (scorekeeper/offline/shell.py, KEPT_PAGES).
const PAGES = (SHELL.pages || []).map((pattern) => new RegExp(pattern));
// Whose pages these are: the server names the account or anonymous phone of every page it
// sends in this header (scorekeeper/offline/owner.py); when it changes, what was kept goes.
const OWNER_HEADER = "X-Offline-Owner";
const OWNER_CACHE = "owner";
const OWNER_MARKER = "/sw/owner";
const OFFLINE_DATABASE = "scorekeeper-offline";
// A page that has not answered in this long is shown from what this phone kept, if it kept it.
const PATIENCE_MS = 4000;
// The page's one-time messages ("Round 3 saved."), between these marks in base.html, are never
// kept: a kept page shown again later would say them again.
const ONCE = /<!--once-->[\s\S]*?<!--\/once-->/g;

function isPage(path) {
  return PAGES.some((pattern) => pattern.test(path));
}

function isRuntime(path) {
  return path.startsWith(`${SHELL.static}vendor/pyodide/`) || /^\/offline\/engine-[\w-]+\.zip$/.test(path);
}

// A page is kept under its whole address, and only when it has no query string: the kept copy
// never carries values a link put in the address (a crafted start page, say).
function pageKey(url) {
  return new URL(url.pathname + url.search, self.location.origin).href;
}

function keepable(response) {
  return response.ok && response.type === "basic";
}

function keepablePage(url, response) {
  return !url.search && isPage(url.pathname) && keepable(response);
}

// What is kept of a page: its text without the one-time messages, with its own headers.
async function pageCopy(response) {
  const text = (await response.text()).replace(ONCE, "");
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// The phone and account a page from the server was made for, as "<phone>.<account>" (hashes,
// empty for none). When the phone's id the kept pages belong to has changed (signed out, the
// session expired) or their account has (signed out, another account), the kept pages and the
// offline database go before anything of the new owner is kept. Signing in keeps the phone's id.
function ownerChanged(held, owner) {
  const [heldPhone, heldUser] = held.split(".");
  const [phone, user] = owner.split(".");
  return Boolean((heldPhone && heldPhone !== phone) || (heldUser && heldUser !== user));
}

async function checkOwner(response) {
  const owner = response.headers.get(OWNER_HEADER);
  if (owner === null) return;
  const cache = await caches.open(OWNER_CACHE);
  const marker = await cache.match(OWNER_MARKER);
  const held = marker ? await marker.text() : null;
  if (held === owner) return;
  if (held !== null && ownerChanged(held, owner)) await forgetPrivate();
  await cache.put(OWNER_MARKER, new Response(owner));
}

async function forgetPrivate() {
  await caches.delete(PAGES_CACHE);
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(OFFLINE_DATABASE);
    // Pages holding it open are asked to close it (offline.js does on "versionchange").
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: "forgotten" });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // cache: "reload" skips the HTTP cache, so the shell is what the server has now.
    await cache.addAll(SHELL.precache.map((url) => new Request(url, { cache: "reload" })));
    // A new version takes over at once: the rounds waiting to be sent are in IndexedDB,
    // which an update leaves alone, and the pages keep working with either version.
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const old = names.filter((name) => name.startsWith("shell-") && name !== SHELL_CACHE);
    await Promise.all(old.map((name) => caches.delete(name)));
    await pruneRuntime();
    await self.clients.claim();
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    if (old.length) {
      for (const client of windows) {
        client.postMessage({ type: "updated", version: SHELL.version });
      }
      // Pages kept by the old version name its static files; fetch them again while online.
      await refreshPages();
    }
    // A game page that installed the worker loaded before it: keep it now, so that a game
    // opened once online can be reopened offline. Other pages wait for their next visit, so a
    // first look at the home page costs the server nothing more.
    for (const client of windows) {
      const url = new URL(client.url);
      if (url.origin === self.location.origin && url.pathname.startsWith("/g/")
          && isPage(url.pathname)) {
        await keepPage(url.href).catch(() => false);
      }
    }
  })());
});

// Engine zips other than the current one go; everything goes when Pyodide changed.
async function pruneRuntime() {
  const cache = await caches.open(RUNTIME_CACHE);
  const marker = await cache.match(RUNTIME_MARKER);
  const held = marker ? await marker.text() : null;
  if (held !== null && held !== SHELL.runtime) {
    await caches.delete(RUNTIME_CACHE);
  } else {
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/offline/engine-") && SHELL.engine && path !== SHELL.engine) {
        await cache.delete(request);
      }
    }
  }
  await (await caches.open(RUNTIME_CACHE)).put(RUNTIME_MARKER, new Response(SHELL.runtime || ""));
}

async function refreshPages() {
  const cache = await caches.open(PAGES_CACHE);
  for (const request of await cache.keys()) {
    await keepPage(request.url).catch(() => null);
  }
}

async function keepPage(url) {
  const address = new URL(url);
  const response = await fetch(address.href, { credentials: "same-origin", cache: "no-cache" });
  await checkOwner(response);
  if (!keepablePage(address, response)) return false;
  await (await caches.open(PAGES_CACHE)).put(pageKey(address), await pageCopy(response));
  return true;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // POSTs and other writes always go to the server, and are never kept.
  if (request.method !== "GET") return;
  // A page swapped in place offline (static/js/offline/swap.js) is asked for as a navigation.
  if (request.mode === "navigate" || request.headers.get("X-Offline-Page")) {
    event.respondWith(navigation(event, url));
  } else if (isRuntime(url.pathname)) {
    event.respondWith(runtimeFile(request));
  } else if (url.pathname.startsWith(SHELL.static) || url.pathname === SHELL.manifest) {
    event.respondWith(shellFile(request, url));
  }
  // Anything else (htmx's partial pages, the state checks, JSON) goes to the network as usual.
});

// Network first, so that an online phone always sees the server's page; offline, or when the
// server has not answered within PATIENCE_MS, the page as it was last seen, else the offline
// shell, whose script shows what this phone keeps.
async function navigation(event, url) {
  const kept = isPage(url.pathname) ? keptPage(url) : Promise.resolve(undefined);
  const fresh = fetch(event.request).then(async (response) => {
    await checkOwner(response);
    if (keepablePage(url, response)) {
      const copy = await pageCopy(response.clone());
      await (await caches.open(PAGES_CACHE)).put(pageKey(url), copy);
    }
    return response;
  });
  // The copy is brought up to date even when the kept one was shown.
  event.waitUntil(fresh.catch(() => null));
  const slow = new Promise((resolve) => setTimeout(resolve, PATIENCE_MS)).then(async () => {
    const copy = await kept;
    // Nothing kept: wait for the server as long as it takes.
    return copy || fresh;
  });
  try {
    return await Promise.race([fresh, slow]);
  } catch (error) {
    const copy = await kept;
    if (copy) return copy;
    const shell = await caches.match(SHELL.offline, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
}

// The kept copy of a page: of its own address, else (a link with a query string, such as the round
// form's ?edit=, read by the page's script) of its address without the query string.
async function keptPage(url) {
  const cache = await caches.open(PAGES_CACHE);
  return (await cache.match(pageKey(url))) || (await cache.match(new URL(url.pathname, url.origin).href));
}

async function runtimeFile(request) {
  const cache = await caches.open(RUNTIME_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  try {
    const response = await fetch(request);
    if (keepable(response)) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    // A page kept before an update names the engine zip it was served with, which the update
    // dropped: offline, it gets the current one, the engine the server now scores with.
    const current = SHELL.engine && (await cache.match(SHELL.engine));
    if (current && new URL(request.url).pathname.startsWith("/offline/engine-")) return current;
    throw error;
  }
}

// Cache first from this version's shell. A page kept by an older version may ask for a static
// file by its old hashed name: offline, it gets this version's file of the same name.
async function shellFile(request, url) {
  // A script asked for with a query string (the engine worker's addresses) is the same file,
  // answered as a new response: a kept one carries its own URL, which a worker would take as its
  // location, losing the query string it reads.
  const kept = await caches.match(request, { cacheName: SHELL_CACHE, ignoreSearch: true });
  if (kept) return url.search ? new Response(kept.body, kept) : kept;
  try {
    return await fetch(request);
  } catch (error) {
    const plain = url.pathname.replace(/\.[0-9a-f]{12}(\.[^./]+)$/, "$1");
    const current = SHELL.assets[plain];
    const fallback = current && (await caches.match(current, { cacheName: SHELL_CACHE }));
    if (fallback) return fallback;
    throw error;
  }
}

// The pages ask: {type: "cache-pages", urls: [...]} keeps those pages now (a game opened
// online), answering {type: "pages-cached", cached: [paths], refused: [paths]} on the port
// sent with the message, else to the page that asked. {type: "cache-runtime"} keeps Pyodide and
// the engine zip now (a game page, once idle), answering {type: "runtime-cached", cached,
// refused}: the runtime is then offline even if the engine loaded before this worker took over.
// {type: "version"} answers the version.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  const reply = (answer) => {
    const port = event.ports && event.ports[0];
    if (port) port.postMessage(answer);
    else if (event.source) event.source.postMessage(answer);
  };
  if (data.type === "version") {
    reply({ type: "version", version: SHELL.version });
  } else if (data.type === "cache-pages") {
    event.waitUntil(cachePages(data.urls || []).then(reply));
  } else if (data.type === "cache-runtime") {
    event.waitUntil(cacheRuntime().then(reply));
  }
});

async function cacheRuntime() {
  const cache = await caches.open(RUNTIME_CACHE);
  const cached = [];
  const refused = [];
  for (const path of SHELL.runtimeFiles || []) {
    const ok = Boolean(await cache.match(path))
      || (await fetch(path).then(async (response) => {
        if (!keepable(response)) return false;
        await cache.put(path, response);
        return true;
      }).catch(() => false));
    (ok ? cached : refused).push(path);
  }
  return { type: "runtime-cached", cached, refused };
}

async function cachePages(urls) {
  const cached = [];
  const refused = [];
  for (const raw of urls) {
    const url = new URL(raw, self.location.origin);
    const ok = url.origin === self.location.origin && isPage(url.pathname)
      && (await keepPage(url.href).catch(() => false));
    (ok ? cached : refused).push(url.pathname);
  }
  return { type: "pages-cached", cached, refused };
}
