"""The offline engine in the browser: how long the runtime takes from a cold start to the first
live breakdown, how long each breakdown takes once it has loaded, and what it fetches.

Usage: .venv/bin/python bench/offline_engine.py [changes] [--smoke]
Serves the app with `manage.py runserver` (DEBUG on, a throwaway SQLite database; see
bench/first_visit.py) and drives Debian's Chromium (CHROMIUM, default /usr/bin/chromium) with
Playwright as a phone 360 px wide with an empty cache. On a game page (opened by a viewer, so
that nothing has started the engine yet) it times `engine.call("round_preview", ...)` from the
import of engine.js to the first breakdown: the worker starts, Pyodide and the engine zip are
fetched and loaded (timed apart, to the answer to a ping), the breakdown computed. Then
`changes` more breakdowns, one field changed each time, as a player types (median and max; the
issue's target is under 100 ms). Then the same cold start on a new page with the files in the
browser's cache, as a phone offline has them. Every file of the runtime is listed with its
bytes as fetched (what a phone caches) and gzipped as whitenoise serves the static ones after
collectstatic. --smoke: 10 changes (CI's).
"""

import argparse
import gzip
import statistics
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.first_visit import CHROMIUM, RUNTIME, free_port, serve  # noqa: E402 (sets Django up)
from scorekeeper.models import Game  # noqa: E402
from tests.helpers.offline_games import next_round_form, played_game, snapshot  # noqa: E402

STATIC = Path(__file__).resolve().parents[1] / "static"
TARGET_MS = 100

# Runs in the page: the first breakdown from nothing loaded, then one per change.
TIMED_PREVIEWS = """async ([game, forms]) => {
  const start = performance.now();
  const engine = await import("/static/js/engine.js");
  await engine.call("ping");
  const loaded = performance.now() - start;
  const first = await engine.call("round_preview", game, [], forms[0]);
  const cold = performance.now() - start;
  const times = [];
  let refused = first.ok ? 0 : 1;
  for (const form of forms.slice(1)) {
    const at = performance.now();
    const preview = await engine.call("round_preview", game, [], form);
    times.push(performance.now() - at);
    if (!preview.ok) refused += 1;
  }
  return {loaded, cold, times, refused};
}"""


def changed_forms(form: dict[str, str], changes: int) -> list[dict[str, str]]:
    """The form, then `changes` versions of it, each as the next keystroke leaves it: the
    second side's hand points going up by 5 and back."""
    base = int(form.get("s1-hand_points") or 0)
    return [form] + [
        {**form, "s1-hand_points": str(base + 5 * (i % 20))} for i in range(1, changes + 1)
    ]


def gzipped_size(url: str) -> int | None:
    path = urllib.parse.urlsplit(url).path
    if not path.startswith("/static/") or path.endswith(".zip"):
        return None  # the zips are served as they are: they are compressed already
    return len(gzip.compress((STATIC / path.removeprefix("/static/")).read_bytes(), 9))


def main(changes: int) -> int:
    from playwright.sync_api import sync_playwright

    hello = hello_world_ms()
    port = free_port()
    server = serve(port)
    base = f"http://127.0.0.1:{port}"
    game, planned = played_game("four-rounds")
    game = Game.objects.get(pk=game.pk)
    kept = snapshot(game)
    forms = changed_forms(next_round_form(game, planned[0]), changes)
    fetched: dict[str, int] = {}

    def count(response) -> None:
        if any(part in response.url for part in RUNTIME):
            fetched[response.url] = len(response.body())

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 360, "height": 740})
            context.on("response", count)
            page = context.new_page()
            page.goto(f"{base}/g/{game.public_id}/", wait_until="load")
            cold = page.evaluate(TIMED_PREVIEWS, [kept, forms])
            again = context.new_page()
            again.goto(f"{base}/g/{game.public_id}/", wait_until="load")
            cached = again.evaluate(TIMED_PREVIEWS, [kept, forms[:1]])
            browser.close()
    finally:
        server.terminate()
        server.wait()

    times = cold["times"]
    rounds = len(kept["rounds"])
    print(f"Offline engine (Pyodide in a Web Worker), a Four Rounds game after {rounds} rounds")
    print(f"  cold start to the first breakdown: {cold['cold']:.0f} ms")
    print(f"    {ratio(cold['cold'], hello)}")
    print(f"    of which the runtime loading (Pyodide, the engine zip): {cold['loaded']:.0f} ms")
    print(f"  the same with the files cached:    {cached['cold']:.0f} ms")
    print(f"    of which the runtime loading: {cached['loaded']:.0f} ms")
    median, most = statistics.median(times), max(times)
    met = "met" if most < TARGET_MS else "NOT met"
    print(f"  per change, {len(times)} changes: median {median:.1f} ms, max {most:.1f} ms")
    print(f"    median {ratio(median, hello)}; target under {TARGET_MS} ms {met}")
    if cold["refused"]:
        print(f"  ({cold['refused']} of the breakdowns showed errors instead of lines)")
    print("  runtime fetched (bytes as cached; gzipped as served after collectstatic):")
    total = total_sent = 0
    for url, size in sorted(fetched.items(), key=lambda item: -item[1]):
        sent = gzipped_size(url)
        total += size
        total_sent += size if sent is None else sent
        name = urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1]
        shown = "as is" if sent is None else f"{sent:,}"
        print(f"    {name:32} {size:>12,}  {shown:>12}")
    print(f"    {'total':32} {total:>12,}  {total_sent:>12,}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("changes", type=int, nargs="?", default=100)
    parser.add_argument("--smoke", action="store_true", help="10 changes, for CI")
    args = parser.parse_args()
    if args.changes < 1:
        parser.error("Needs at least 1 change.")
    sys.exit(main(10 if args.smoke else args.changes))
