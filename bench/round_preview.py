"""Server time of the game page and of the live round preview (the htmx POST made as a person
types), in a game of 20 rounds; and the time of saving a round (the service: lock, score, store,
log) at round 2 and at round 20, which must be the same.

Usage: .venv/bin/python bench/round_preview.py [requests] [--smoke]
Runs against a throwaway SQLite database unless DATABASE_URL names another one, with DEBUG off
(tests/settings.py: the real settings with a throwaway secret and plain HTTP) unless DEBUG is
set; prints the median and 95th-percentile time per request, measured around Django's whole
request handling, each median as a multiple of a hello-world request measured in the same run.
The game page is timed as a scoring phone sees it between rounds (its parts cached under the
game's version) and right after a round is saved (the first view of the new version).
--smoke: 20 requests (CI's size).
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
os.environ.setdefault("DEBUG", "0")
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.models import Game, Round  # noqa: E402
from scorekeeper.portable.start_fields import SideSpec  # noqa: E402
from scorekeeper.rounds.confirmation import round_confirm  # noqa: E402
from scorekeeper.rounds.services import round_delete_last, round_record  # noqa: E402

ROUNDS = 20
# Small rounds that end with the stock run out: 20 of them stay far below Sevens' 50,000.
STORED = [{"melded_points": 150, "red_threes": 1}, {"melded_points": 120, "hand_points": 15}]
FORM = {
    "round_number": str(ROUNDS + 1),
    "went_out": "s0",
    "s0-canastas-sevens": "1",
    "s0-canastas-wild": "1",
    "s0-canastas-natural": "1",
    "s0-canastas-mixed": "1",
    "s0-red_threes": "2",
    "s0-melded_points": "1115",
    "s1-canastas-natural": "1",
    "s1-melded_points": "410",
    "s1-hand_cards-K": "7",
    "s1-hand_cards-5": "9",
    "s1-red_threes": "1",
}


def timed(call, requests: int, check) -> list[float]:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = call()
        times.append((time.perf_counter() - start) * 1000)
        check(response)
    return sorted(times)


def line(what: str, times: list[float], hello: float) -> str:
    median = statistics.median(times)
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    return (
        f"{what}: {len(times)} requests, median {median:.1f} ms, p95 {p95:.1f} ms "
        f"{ratio(median, hello)}"
    )


def save_times(number: int, saves: int) -> list[float]:
    """The time of saving round `number` of a game, `saves` times (each save undone after)."""
    game = services.game_start(preset="sevens", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for earlier in range(1, number):
        round_record(game=game, number=earlier, ended_by="stock_exhausted", entry=STORED)
    times = []
    for _ in range(saves):
        start = time.perf_counter()
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=STORED)
        times.append((time.perf_counter() - start) * 1000)
        round_delete_last(game=game)
    return sorted(times)


def confirm_times(number: int, confirms: int) -> list[float]:
    """The time of the other side confirming round `number` of a game that asks for it (a club
    night's), `confirms` times (the round set waiting again after each, untimed)."""
    game = services.game_start(preset="sevens", sides=[SideSpec("Ann"), SideSpec("Bob")])
    Game.objects.filter(pk=game.pk).update(confirm_rounds=True)
    game.refresh_from_db()
    for earlier in range(1, number + 1):
        round_record(
            game=game, number=earlier, ended_by="stock_exhausted", entry=STORED, phone="ann"
        )
    times = []
    for _ in range(confirms):
        start = time.perf_counter()
        round_confirm(game=game, number=number, version=None, phone="bob")
        times.append((time.perf_counter() - start) * 1000)
        Round.objects.filter(game=game, number=number).update(confirmation="waiting")
    return sorted(times)


def main(requests: int) -> None:
    call_command("migrate", verbosity=0)
    game = services.game_start(preset="sevens", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for number in range(1, ROUNDS + 1):
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=STORED)
    client = Client(HTTP_HOST="localhost")
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    page, new_round = f"/g/{game.public_id}/", f"/g/{game.public_id}/rounds/new/"

    def page_ok(response) -> None:
        assert response.status_code == 200 and f"Round {ROUNDS + 1}</h2>" in response.text

    def preview_ok(response) -> None:
        assert response.status_code == 200 and f"Totals after round {ROUNDS + 1}" in response.text

    def changed_page():
        # A write moves the game's version, as a round saved on another phone does.
        services.game_end(game=game)
        services.game_reopen(game=game)
        start = time.perf_counter()
        response = client.get(page)
        return (time.perf_counter() - start) * 1000, response

    hello = hello_world_ms()
    views = timed(lambda: client.get(page), requests, page_ok)
    previews = timed(
        lambda: client.post(new_round, FORM, headers={"HX-Request": "true"}), requests, preview_ok
    )
    firsts = []
    for _ in range(requests):
        ms, response = changed_page()
        page_ok(response)
        firsts.append(ms)
    firsts.sort()
    hello = statistics.median([hello, hello_world_ms()])
    print(f"a game of {ROUNDS} rounds (Sevens, two players), as its scoring phone sees it:")
    print("  " + line("game page", views, hello))
    print("  " + line("game page, first view after a change", firsts, hello))
    print("  " + line("round preview", previews, hello))
    at_2, at_20 = save_times(2, requests), save_times(ROUNDS, requests)
    print("saving a round (the service, as the round form's Save calls it):")
    print("  " + line("round 2", at_2, hello))
    print("  " + line(f"round {ROUNDS}", at_20, hello))
    print(
        f"  round {ROUNDS} over round 2: "
        f"{statistics.median(at_20) / statistics.median(at_2):.2f} (the same work: 1.0 or near)"
    )
    confirmed_2, confirmed_20 = confirm_times(2, requests), confirm_times(ROUNDS, requests)
    print("confirming a round (the other side's one tap, the service it calls):")
    print("  " + line("round 2", confirmed_2, hello))
    print("  " + line(f"round {ROUNDS}", confirmed_20, hello))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("requests", type=int, nargs="?", default=200)
    parser.add_argument("--smoke", action="store_true", help="20 requests, for CI")
    args = parser.parse_args()
    if args.smoke:
        args.requests = 20
    if args.requests < 1:
        parser.error("Needs at least 1 request.")
    return args


if __name__ == "__main__":
    main(parse_args().requests)
