"""Cutting a browser context off from the server, the service worker included.

`context.set_offline(True)` used to leave the service worker's own fetches online
(microsoft/playwright#2311; older releases needed PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1
and a route). The Playwright installed here (1.65) attaches to the worker's network in Chromium
by default and applies set_offline to it too: tests/e2e/test_offline_shell.py shows the worker's
fetches fail and reach nothing, and fails when PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK=1 turns
that off. go_offline also aborts every request Playwright sees, page's or worker's, as a dropped
connection would, in case a request slips past the emulation. `server_requests` (a fixture in
tests/e2e/conftest.py, built on `ServerLog`) records what reaches the live server, so a test can
show that nothing does while the phone is offline.

    go_offline(context)   # navigator.onLine is false, "offline" fires, nothing leaves
    ...
    go_online(context)    # "online" fires, requests reach the server again

A route a test adds after go_offline is asked before go_offline's own (Playwright asks the newest
first): a route that fulfils a request answers it even while offline.

`Phone` is one phone of a journey: a page that joined a game by its scorer link and has kept it
(and the phone's scorer) for offline use, with the journey's screenshots at 360 px and 1280 px.
"""

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.servers import basehttp
from playwright.sync_api import BrowserContext, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from scorekeeper.models import Game
from tests.helpers.journeys import AXE_URL, Journey, assert_fits
from tests.helpers.paths import REPO

# What Chromium reports for a request made with the network down.
DISCONNECTED = "internetdisconnected"
# Pyodide's first start on this machine's Chromium takes seconds; a step waits this long for it.
ENGINE_MS = 60_000
PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1280, "height": 900}
AXE_FILE = REPO / "static" / "vendor" / "axe-core" / "axe.min.js"
# Reads one store of the phone's IndexedDB without creating it.
IDB_ALL = """store => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-offline");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const request = open.result.transaction(store).objectStore(store).getAll();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
  };
})"""


def _drop(route: Route) -> None:
    route.abort(DISCONNECTED)


# register-sw.js fires "sw-updated" on the document when a new worker has taken over.
WATCH_UPDATE = """() => { window.updatedTo = null; document.addEventListener(
  "sw-updated", event => { window.updatedTo = event.detail.version; }, {once: true}); }"""
WORKERS = """() => navigator.serviceWorker.getRegistration().then(r => ({
  installing: r.installing && r.installing.state, waiting: r.waiting && r.waiting.state,
  active: r.active && r.active.state}))"""


def update_worker(page: Page, *, timeout_ms: int = 30_000) -> str:
    """Ask the browser to look for a new service worker; the version that took over.

    Bounded: a worker that has not taken over in `timeout_ms` fails the test with the states of
    the registration's workers, instead of waiting on Chromium's own limit (5 minutes for a
    worker's event, which is how long an old worker busy with an unfinished fetch holds back the
    new one)."""
    page.evaluate(WATCH_UPDATE)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    try:
        return page.wait_for_function("() => window.updatedTo", timeout=timeout_ms).json_value()
    except PlaywrightTimeout:
        raise AssertionError(
            f"no new service worker took over in {timeout_ms} ms: {page.evaluate(WORKERS)}"
        ) from None


def go_offline(context: BrowserContext) -> None:
    """The phone loses its connection: pages and the service worker reach nothing."""
    if os.environ.get("PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK"):
        raise RuntimeError(
            "PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK is set: the service worker would stay "
            "online while the page is offline"
        )
    context.set_offline(True)
    context.route("**/*", _drop)


def go_online(context: BrowserContext) -> None:
    """The connection returns."""
    context.unroute("**/*", _drop)
    context.set_offline(False)


class ServerLog:
    """Every request the live server receives while recording, as 'GET /path'."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self._lock = threading.Lock()

    def add(self, line: str) -> None:
        with self._lock:
            self.requests.append(line)

    def since(self, mark: int) -> list[str]:
        """The requests received after the first `mark` ones."""
        with self._lock:
            return self.requests[mark:]

    def mark(self) -> int:
        """How many requests so far; pass it to since()."""
        with self._lock:
            return len(self.requests)


@contextmanager
def recording() -> Iterator[ServerLog]:
    """Record each request the live server (Django's WSGI request handler) parses."""
    log = ServerLog()
    handler = basehttp.WSGIRequestHandler
    original = handler.get_environ

    # get_environ runs once per request on the server's thread, after the request line is read.
    def get_environ(self):
        log.add(f"{self.command} {self.path}")
        return original(self)

    handler.get_environ = get_environ
    try:
        yield log
    finally:
        handler.get_environ = original


class Phone:
    """One phone: a browser context with the scorer link, its page and its JavaScript errors."""

    def __init__(self, context: BrowserContext, base: str, game: Game, shots: Journey, who: str):
        self.context, self.base, self.shots, self.who = context, base, shots, who
        self.errors: list[str] = []
        self.page = context.new_page()
        self.page.set_default_timeout(15_000)
        # Uncaught exceptions only: offline, every failed fetch is logged by Chromium as a
        # console error, and a conflict is a 409, which is the point of the journey.
        self.page.on("pageerror", lambda error: self.errors.append(f"{who}: {error}"))
        self.page.goto(f"{base}/g/{game.public_id}/join/{game.scorer_token}/")
        expect(self.page.get_by_text("This phone can now score the game.")).to_be_visible()
        self.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        expect(self.page.locator(f"[data-offline-kept='{game.public_id}']")).to_be_attached(
            timeout=ENGINE_MS
        )

    def shot(self, step: str) -> list[Path]:
        """The journey's screenshot and axe-core (light and dark) at the phone's width and a
        desktop's, nothing wider than the screen at either."""
        # axe-core is not one of the files the phone keeps: handed over even when offline.
        self.context.route(f"**{AXE_URL}", lambda route: route.fulfill(path=AXE_FILE))
        taken = []
        for size, label in ((PHONE, "360"), (WIDE, "1280")):
            self.page.set_viewport_size(size)
            assert_fits(self.page)
            self.shots.check(self.page, f"{self.who}-{step}-{label}")
            taken.append(self.shots.folder / self.shots.steps[-1])
        self.page.set_viewport_size(PHONE)
        assert self.errors == []
        return taken

    def stored(self, store: str) -> list[dict]:
        return self.page.evaluate(IDB_ALL, store)
