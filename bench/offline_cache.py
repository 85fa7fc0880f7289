"""Bytes a phone keeps for offline use: the service worker's caches, in total, per cache and per
part (shell, runtime, pages), measured in Chromium.

Usage: .venv/bin/python bench/offline_cache.py [--games 5] [--rounds 12] [--smoke]
Runs the app on a live server over a throwaway SQLite database (DEBUG on, static files as
runserver serves them), starts --games games of --rounds rounds each, and opens each on one phone
(Debian's Chromium through Playwright, 360 px wide) as its scorer: the game page and its round
form. When the engine's runtime is in the repository (static/vendor/pyodide/ and the engine
zip), the phone then has it kept (offlineShell.cacheRuntime(), as a game page does once idle).
Then it reads every cache with the Cache API in the page and sums the bodies' bytes.
Beside the bytes: the worker's install (registration to control of the page) and the /sw.js
view (asked on every visit) in milliseconds, printed beside a hello-world request, and the game
page's own bytes for scale. The exit status is 1 when a precached file, an opened page or a
runtime file is missing from the caches.
--smoke: 1 game of 3 rounds (CI's size).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
tmp = tempfile.mkdtemp()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
# Playwright's sync API runs an event loop in this thread; the ORM work is done before it starts.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

import django  # noqa: E402

django.setup()

from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.offline import shell  # noqa: E402
from scorekeeper.portable.start_fields import SideSpec  # noqa: E402
from scorekeeper.rounds.services import round_record  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]

# Every cache's entries with their body sizes, read in the page.
CACHE_SIZES = """async () => {
  const sizes = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    sizes[name] = {};
    for (const request of await cache.keys()) {
      const body = await (await cache.match(request)).arrayBuffer();
      sizes[name][new URL(request.url).pathname] = body.byteLength;
    }
  }
  return sizes;
}"""
KEPT_PAGES = """async count => {
  for (let tries = 0; tries < 100; tries++) {
    if ((await (await caches.open("pages")).keys()).length >= count) return;
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}"""


def part(cache: str) -> str:
    """shell, runtime or pages: which part of the offline app a cache holds."""
    return "shell" if cache.startswith("shell-") else cache


def kib(size: int) -> str:
    return f"{size / 1024:,.1f} KiB"


def start_games(games: int, rounds: int) -> list:
    """Games of Ann and Bob with `rounds` small rounds each."""
    started = []
    for _ in range(games):
        game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
        for number in range(1, rounds + 1):
            round_record(game=game, number=number, ended_by="stock_exhausted", entry=SMALL)
        started.append(game)
    return started


def worker_ms(requests: int = 100) -> float:
    """Median milliseconds of GET /sw.js, which a phone asks on every visit to check for a new
    version: the hashing of what it precaches."""
    client = Client(HTTP_HOST="localhost")
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        assert client.get("/sw.js").status_code == 200
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(games: int, rounds: int) -> int:
    call_command("migrate", verbosity=0)
    started = start_games(games, rounds)
    server = LiveServerThread("localhost", StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://localhost:{server.port}"
    with_runtime = bool(shell.runtime_files())
    failures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(30_000)
        opened = []
        for index, game in enumerate(started):
            answer = page.goto(f"{base}/g/{game.public_id}/join/{game.scorer_token}/")
            if index == 0:
                page_bytes = len(answer.body())
                start = time.perf_counter()
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                install_ms = (time.perf_counter() - start) * 1000
            page.goto(f"{base}/g/{game.public_id}/rounds/new/")
            opened += [f"/g/{game.public_id}/", f"/g/{game.public_id}/rounds/new/"]
        page.goto(f"{base}/g/{started[0].public_id}/")
        page.evaluate(KEPT_PAGES, len(opened))
        if with_runtime:
            # What the engine worker fetches, kept as a game page has it kept once idle.
            answer = page.evaluate("offlineShell.cacheRuntime()")
            failures += [f"runtime not kept: {path}" for path in answer["refused"]]
        sizes = page.evaluate(CACHE_SIZES)
        usage = page.evaluate("navigator.storage.estimate().then(estimate => estimate.usage)")
        browser.close()
    server.terminate()

    version = shell.shell_version()
    precached = {path: size for path, size in sizes.get(f"shell-{version}", {}).items()}
    missing = [path for path in shell.worker_config()["precache"] if path not in precached]
    missing += [path for path in opened if path not in sizes.get("pages", {})]
    failures += [f"not cached: {path}" for path in missing]

    hello = hello_world_ms()
    sw_ms = worker_ms()
    print(f"GET /sw.js (the update check on every visit): {sw_ms:.2f} ms {ratio(sw_ms, hello)}")
    print(f"{games} games of {rounds} rounds opened on one phone, each with its round form")
    print(
        f"service worker install, registration to control: {install_ms:.0f} ms "
        f"{ratio(install_ms, hello)}"
    )
    total = sum(sum(entries.values()) for entries in sizes.values())
    parts: dict[str, int] = {}
    for name, entries in sizes.items():
        size = sum(entries.values())
        parts[part(name)] = parts.get(part(name), 0) + size
        print(f"cache {name}: {len(entries)} entries, {size:,} bytes ({kib(size)})")
        for path, entry in sorted(entries.items(), key=lambda item: -item[1])[:6]:
            print(f"    {entry:>10,}  {path}")
    for name in ("shell", "runtime", "pages"):
        size = parts.get(name, 0)
        print(f"part {name}: {size:,} bytes ({kib(size)}, {size / max(total, 1):.0%})")
    if not with_runtime:
        print("part runtime: the engine's runtime (static/vendor/pyodide/) is not here yet")
    print(
        f"total cached for offline use: {total:,} bytes ({kib(total)}) "
        f"= {total / page_bytes:.0f} x the game page ({page_bytes:,} bytes)"
    )
    if games:
        print(f"pages per game opened: {parts.get('pages', 0) / games:,.0f} bytes")
    print(f"the browser's own estimate of the origin's storage: {usage:,} bytes ({kib(usage)})")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.rounds = 1, 3
    sys.exit(main(args.games, args.rounds))
