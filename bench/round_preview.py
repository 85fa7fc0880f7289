"""Server time of the live round preview (the htmx POST made as a person types).

Usage: .venv/bin/python bench/round_preview.py [requests] [--smoke]
Runs against a throwaway SQLite database unless DATABASE_URL names another one; prints the
median and 95th-percentile time per preview, measured around Django's whole request handling,
and the median as a multiple of a hello-world request. --smoke: 20 requests (CI's size).
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
os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from scorekeeper import services  # noqa: E402
from scorekeeper.services import SideSpec  # noqa: E402


def main(requests: int) -> None:
    call_command("migrate", verbosity=0)
    game = services.game_start(
        preset="four-rounds",
        sides=[SideSpec("Ann & Cy", ("Ann", "Cy")), SideSpec("Bob & Di", ("Bob", "Di"))],
    )
    entry = [
        {"went_out": True, "canastas": {"natural": 2, "mixed": 3}, "melded_points": 1240},
        {"canastas": {"natural": 1}, "melded_points": 410, "hand_points": 195, "red_threes": 1},
    ]
    for number in (1, 2, 3):
        services.round_record(game=game, number=number, ended_by="going_out", entry=entry)
    client = Client(HTTP_HOST="localhost")
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    form = {
        "went_out": "s0",
        "s0-canastas-natural": "2",
        "s0-canastas-mixed": "3",
        "s0-red_threes": "3",
        "s0-melded_points": "1240",
        "s1-canastas-natural": "1",
        "s1-melded_points": "410",
        "s1-hand_cards-K": "7",
        "s1-hand_cards-5": "9",
        "s1-red_threes": "1",
    }
    url = f"/g/{game.public_id}/rounds/new/"
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.post(url, form, headers={"HX-Request": "true"})
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200 and b"Totals after round 4" in response.content
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"round preview, {requests} requests:")
    print(f"  median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")
    print(f"  median {ratio(statistics.median(times), hello_world_ms())}")


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
