"""Scoring offline as a player does: how long after going offline the first breakdown shows, how
long a round form opened offline takes to its breakdown, and each change after that.

Usage: .venv/bin/python bench/offline_swap.py [changes] [--smoke]
Serves the app with `manage.py runserver` (DEBUG on, a throwaway SQLite database; see
bench/first_visit.py) and drives Debian's Chromium (CHROMIUM, default /usr/bin/chromium) as a
scoring phone 360 px wide: the scorer link, then the game page until the phone says it keeps the
game for offline use (data-offline-kept). Then, timed in the page (performance.now):
1. on the round form opened online, the connection cut: the first breakdown after a field changes
   (the engine loaded while the page was idle);
2. from the game page offline, "Enter round" tapped: the round form swapped in place
   (static/js/offline/swap.js, the engine kept running), then its first breakdown;
3. `changes` more changes on that form, one field each (median, 95th percentile and max).
The issue's targets: 1 under 1 s, 2 under 300 ms, 3 under 50 ms. --smoke: 10 changes (CI's).
A change is timed from the field's input event to the moment the new breakdown is in the page,
noticed by a MutationObserver (polling with a timer added up to 4 ms of its own to each change,
and more when the timer fired late).
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.first_visit import CHROMIUM, free_port, serve  # noqa: E402 (sets Django up)
from scorekeeper.models import Game  # noqa: E402
from tests.helpers.offline_browser import go_offline  # noqa: E402
from tests.helpers.offline_games import next_round_form, played_game  # noqa: E402

TARGETS = {"first": 1000, "opened": 300, "change": 50}
ENGINE_MS = 120_000

# Fills the round form as a player would have it, without telling the page (no event).
FILL = """fields => {
  const form = document.querySelector("form.round-form");
  for (const [name, value] of Object.entries(fields)) {
    for (const input of form.querySelectorAll(`[name="${name}"]`)) {
      if (input.type === "radio") input.checked = input.value === value;
      else if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = value;
    }
  }
}"""
# One change, as a keystroke makes it: the time until a new breakdown with the totals is drawn.
CHANGE = """async ([name, value]) => {
  const input = document.querySelector(`form.round-form [name="${name}"]`);
  const before = document.querySelector("#preview");
  const drawn = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const now = document.querySelector("#preview");
      if (now !== before && now.querySelector(".new-totals")) {
        observer.disconnect();
        resolve(performance.now());
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  const start = performance.now();
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return (await drawn) - start;
}"""
# "Enter round" tapped on the game page: the time until the round form is in the page.
OPEN = """async () => {
  const start = performance.now();
  document.querySelector("a.button.big[href$='rounds/new/']").click();
  for (;;) {
    if (document.querySelector("form.round-form")) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - start;
}"""


def main(changes: int) -> int:
    from playwright.sync_api import sync_playwright

    hello = hello_world_ms()
    port = free_port()
    server = serve(port)
    base = f"http://127.0.0.1:{port}"
    game, planned = played_game("four-rounds")
    game = Game.objects.get(pk=game.pk)
    form = {k: v for k, v in next_round_form(game, planned[0]).items() if k != "round_number"}
    hand = int(form.get("s1-hand_points") or 0)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 360, "height": 740})
            page = context.new_page()
            page.goto(f"{base}/g/{game.public_id}/join/{game.scorer_token}/")
            page.wait_for_selector("body[data-offline-kept]", state="attached", timeout=ENGINE_MS)
            # 1. The round form opened online; the connection goes; a field changes.
            page.goto(f"{base}/g/{game.public_id}/rounds/new/")
            page.wait_for_selector("body[data-offline-kept]", state="attached", timeout=ENGINE_MS)
            page.evaluate(FILL, form)
            go_offline(context)
            first = page.evaluate(CHANGE, ["s1-hand_points", str(hand + 5)])
            # 2. Back to the game page (its kept copy, swapped in), then "Enter round".
            page.get_by_role("link", name="Back to the game").click()
            page.wait_for_selector("a.button.big[href$='rounds/new/']")
            opened = page.evaluate(OPEN)
            page.evaluate(FILL, form)
            breakdown = page.evaluate(CHANGE, ["s1-hand_points", str(hand + 10)])
            # 3. Each change after that.
            times = [
                page.evaluate(CHANGE, ["s1-hand_points", str(hand + 5 * (i % 20))])
                for i in range(changes)
            ]
            browser.close()
    finally:
        server.terminate()
        server.wait()

    def line(label: str, ms: float, target: str) -> None:
        met = "met" if ms < TARGETS[target] else "NOT met"
        print(f"  {label}: {ms:.0f} ms (target under {TARGETS[target]} ms: {met})")
        print(f"    {ratio(ms, hello)}")

    print("Scoring offline on a phone (Chromium, 360 px), a Four Rounds game after 3 rounds")
    line("first breakdown after the connection went, on a form opened online", first, "first")
    line("round form opened offline, tap to its first breakdown", opened + breakdown, "opened")
    print(f"    of which the form swapped in: {opened:.0f} ms, its breakdown: {breakdown:.0f} ms")
    median, most = statistics.median(times), max(times)
    p95 = sorted(times)[max(0, -(-95 * len(times) // 100) - 1)]
    met = "met" if most < TARGETS["change"] else "NOT met"
    print(
        f"  each change, {len(times)} changes: median {median:.1f} ms, "
        f"95th percentile {p95:.1f} ms, max {most:.1f} ms"
    )
    print(f"    median {ratio(median, hello)}; target under {TARGETS['change']} ms {met}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("changes", type=int, nargs="?", default=50)
    parser.add_argument("--smoke", action="store_true", help="10 changes, for CI")
    args = parser.parse_args()
    if args.changes < 1:
        parser.error("Needs at least 1 change.")
    sys.exit(main(10 if args.smoke else args.changes))
