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
"""

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.servers import basehttp
from playwright.sync_api import BrowserContext, Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# What Chromium reports for a request made with the network down.
DISCONNECTED = "internetdisconnected"


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
