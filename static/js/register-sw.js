// Installs the service worker (static/js/sw.js, served at /sw.js) once the page has loaded, so
// that it never competes with the first paint. A browser without service workers gets the site
// as it always was.
(() => {
  if (!("serviceWorker" in navigator)) return;

  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
      console.warn("The offline copy of the app could not be installed:", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });

  // A new version has taken over: the page may say so ("sw-updated" on document).
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "updated") {
      document.dispatchEvent(new CustomEvent("sw-updated", { detail: event.data }));
    }
  });

  // Ask the worker for something and wait for its answer on a channel of our own.
  async function ask(message) {
    const registration = await navigator.serviceWorker.ready;
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      registration.active.postMessage(message, [channel.port2]);
    });
  }

  // For offline.js: keep these pages now (a game opened online), e.g.
  // offlineShell.cachePages(["/g/abc/", "/g/abc/rounds/new/"]) resolves to
  // {type: "pages-cached", cached: [paths], refused: [paths]}.
  window.offlineShell = {
    cachePages: (urls) => ask({ type: "cache-pages", urls }),
    // Pyodide and the engine zip, fetched now if not kept yet: resolves to
    // {type: "runtime-cached", cached: [paths], refused: [paths]}.
    cacheRuntime: () => ask({ type: "cache-runtime" }),
    version: () => ask({ type: "version" }).then((answer) => answer.version),
  };
})();
