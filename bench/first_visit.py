"""What a phone that never goes offline pays on its first visit: requests and bytes before each
page's load event, and what follows in the background once the page is idle (the service
worker's precache, the offline engine's runtime).

Usage: .venv/bin/python bench/first_visit.py [--idle 8] [--smoke]
Serves the app with `manage.py runserver` (DEBUG on, a throwaway SQLite database) on a free port
and drives Debian's Chromium (CHROMIUM, default /usr/bin/chromium) with Playwright, as a phone
360 px wide with an empty cache: it opens the home page, the Baskets start page, starts a game
and lands on its game page, then waits --idle seconds. Every response is counted by its body
size, split into before the page's load event and after it, and by part: the pages and the
app's own static files, the service worker and what it caches, and the offline runtime (Pyodide
and the packed engine). Load times are printed beside a hello-world request. The exit status is
1 when the offline runtime is fetched before a game page's load event, or at all on the home
and start pages. --smoke: 3 s of idle (CI's size).
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from bench.baseline import hello_world_ms, ratio  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
RUNTIME = ("/static/vendor/pyodide/", "/offline/engine-")


def part(url: str) -> str:
    path = urllib.parse.urlsplit(url).path
    if path.startswith(RUNTIME):
        return "offline runtime"
    if path in ("/sw.js", "/manifest.webmanifest") or path.startswith("/static/icons/"):
        return "service worker"
    return "pages and app"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    server = subprocess.Popen(
        [python, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("The server did not start.")


PAGE_BYTES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const load = nav.loadEventStart;
  const rows = [[true, nav.name, nav.transferSize]];
  for (const r of performance.getEntriesByType("resource")) {
    rows.push([r.responseEnd <= load, r.name, r.transferSize]);
  }
  return {load: load, rows: rows};
}"""


class Tally:
    """One page visit: what the page fetched before its load event (the Performance API, bytes
    on the wire), and what the browser fetched over the network during the whole visit, by part
    (Playwright's responses, which include the workers' fetches)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.load_ms = 0.0
        self.before: list[tuple[str, int]] = []
        self.after: list[tuple[str, int]] = []
        self.fetched: list[tuple[str, str, int]] = []

    def add(self, response) -> None:
        # The body as it came over the network: 0 when the browser's cache answered (a 304
        # after revalidation, or a fresh copy), so a file fetched twice is paid once.
        try:
            size = response.request.sizes()["responseBodySize"]
        except Exception:  # noqa: BLE001 - an aborted request has no sizes
            size = 0
        self.fetched.append((part(response.url), response.url, size))


def visit(page, context, tally: Tally, go, idle: float) -> None:
    context.on("response", tally.add)
    go()
    page.wait_for_load_state("load")
    page.wait_for_timeout(idle * 1000)
    timing = page.evaluate(PAGE_BYTES)
    context.remove_listener("response", tally.add)
    tally.load_ms = timing["load"]
    for before, url, size in timing["rows"]:
        (tally.before if before else tally.after).append((url, size))


def report(tally: Tally, hello: float) -> list[str]:
    size = sum(s for _, s in tally.before)
    lines = [
        f"{tally.name}: load event at {tally.load_ms:.0f} ms {ratio(tally.load_ms, hello)}; "
        f"before it {len(tally.before)} requests, {size:,} bytes on the wire"
    ]
    if tally.after:
        size = sum(s for _, s in tally.after)
        lines.append(f"  the page after it: {len(tally.after)} requests, {size:,} bytes")
    for which in ("pages and app", "service worker", "offline runtime"):
        rows = [r for r in tally.fetched if r[0] == which]
        if rows:
            size = sum(r[2] for r in rows)
            lines.append(f"  all fetched during the visit, {which}: {len(rows)}, {size:,} bytes")
    return lines


def main(idle: float) -> int:
    from playwright.sync_api import sync_playwright

    hello = hello_world_ms()
    port = free_port()
    server = serve(port)
    base = f"http://127.0.0.1:{port}"
    failures = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 360, "height": 740})
            page = context.new_page()
            home = Tally("Home page")
            visit(page, context, home, lambda: page.goto(base + "/"), idle)
            start = Tally("Start page (Baskets)")
            visit(page, context, start, lambda: page.goto(base + "/games/new/baskets/"), idle)
            game = Tally("Game page, first one opened")
            start_button = page.get_by_role("button", name="Start the game")
            visit(page, context, game, start_button.click, idle)
            if "/g/" not in page.url:
                failures.append(f"Start did not open a game page but {page.url}.")
            browser.close()
    finally:
        server.terminate()
        server.wait()
    for tally in (home, start, game):
        print("\n".join(report(tally, hello)))
    for tally in (home, start):
        if any(r[0] == "offline runtime" for r in tally.fetched):
            failures.append(f"{tally.name} fetched the offline runtime.")
    if any(part(url) == "offline runtime" for url, _ in game.before):
        failures.append("The game page fetched the offline runtime before its load event.")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=float, default=8.0, help="seconds idle after each load")
    parser.add_argument("--smoke", action="store_true", help="3 s idle: for CI")
    args = parser.parse_args()
    sys.exit(main(3.0 if args.smoke else args.idle))
