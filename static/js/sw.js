// The service worker. The /sw.js view serves this file with `self.SHELL = {...}` as its first
// line (scorekeeper/offline/shell.py): the version, what to precache, and where the runtime files live.
// A new version of anything precached changes that line, so the browser installs a new worker.
//
// Caches:
//   shell-<version>  precached at install: /offline/, the manifest, CSS, JS, htmx, icons.
//   runtime          Pyodide and the engine zip, cache-first, kept when first fetched.
//   pages            the pages a phone needs to score offline, network-first.
// IndexedDB (the rounds waiting to be sent) belongs to the pages; this worker never touches it.

const SHELL = self.SHELL || { version: "dev", precache: [], assets: {}, static: "/static/" };
const SHELL_CACHE = `shell-${SHELL.version}`;
const RUNTIME_CACHE = "runtime";
const PAGES_CACHE = "pages";
// The runtime cache's own record of which Pyodide it holds: a new Pyodide empties it.
const RUNTIME_MARKER = "/sw/runtime-version";

// Pages kept for offline use: home, the start pages, a game and its round form.
const PAGES = [
  /^\/$/,
  /^\/games\/new\/([\w-]+\/)?$/,
  /^\/g\/[\w-]+\/$/,
  /^\/g\/[\w-]+\/rounds\/new\/$/,
];
// Never kept, whatever the patterns above say: accounts, admin, the leagues' organiser pages.
const NEVER = [/^\/accounts\//, /^\/admin\//, /^\/leagues\//, /\.json$/];

function isPage(path) {
  return PAGES.some((pattern) => pattern.test(path)) && !NEVER.some((pattern) => pattern.test(path));
}

function isRuntime(path) {
  return path.startsWith(`${SHELL.static}vendor/pyodide/`) || /^\/offline\/engine-[\w-]+\.zip$/.test(path);
}

// A page is kept under its path alone: a query string never makes a second copy.
function pageKey(url) {
  return new URL(url.pathname, self.location.origin).href;
}

function keepable(response) {
  return response.ok && response.type === "basic";
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
    const cache = await caches.open(PAGES_CACHE);
    for (const client of windows) {
      const url = new URL(client.url);
      if (url.origin === self.location.origin && url.pathname.startsWith("/g/")
          && isPage(url.pathname)) {
        await keepPage(cache, url.href).catch(() => false);
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
    await keepPage(cache, request.url).catch(() => null);
  }
}

async function keepPage(cache, url) {
  const response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
  if (!keepable(response)) return false;
  await cache.put(pageKey(new URL(url)), response);
  return true;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Signing out leaves nothing of that account's pages on a shared phone.
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
  // POSTs and other writes always go to the server, and are never kept.
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(navigation(event, url));
  } else if (isRuntime(url.pathname)) {
    event.respondWith(runtimeFile(request));
  } else if (url.pathname.startsWith(SHELL.static) || url.pathname === SHELL.manifest) {
    event.respondWith(shellFile(request, url));
  }
  // Anything else (htmx's partial pages, the state checks, JSON) goes to the network as usual.
});

// Network first, so that an online phone always sees the server's page; offline, the page as
// it was last seen, else the offline shell, whose script shows what this phone keeps.
async function navigation(event, url) {
  const keep = isPage(url.pathname);
  try {
    const response = await fetch(event.request);
    if (keep && keepable(response)) {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGES_CACHE).then((cache) => cache.put(pageKey(url), copy)));
    }
    return response;
  } catch (error) {
    if (keep) {
      const kept = await caches.match(pageKey(url), { cacheName: PAGES_CACHE });
      if (kept) return kept;
    }
    const shell = await caches.match(SHELL.offline, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
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
  const cache = await caches.open(PAGES_CACHE);
  const cached = [];
  const refused = [];
  for (const raw of urls) {
    const url = new URL(raw, self.location.origin);
    const ok = url.origin === self.location.origin && isPage(url.pathname)
      && (await keepPage(cache, url.href).catch(() => false));
    (ok ? cached : refused).push(url.pathname);
  }
  return { type: "pages-cached", cached, refused };
}
