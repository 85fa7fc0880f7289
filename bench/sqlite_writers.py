"""Concurrent round saves on the embedded default: an SQLite file, as `make run` uses.

Usage: .venv/bin/python bench/sqlite_writers.py [trials] [--smoke]
Runs on a throwaway SQLite file (never DATABASE_URL: the figure is about SQLite). Prints, for
each scenario, how many saves were stored out of how many were tried and what the others got:
- ten games, each saving a round through `round_record` at the same moment, three rounds over;
- ten phones on ten tables posting the round form at the same moment (the whole request);
- two phones on two tables posting within a tenth of a second of each other, `trials` times.
It exits 1 when any save was not stored; --smoke runs the two-phone scenarios twice each.
"""

import logging
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
tmp = tempfile.mkdtemp()
os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
os.environ.setdefault("DEBUG", "1")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()
# Each 500's traceback would bury the figures; they are counted instead.
logging.getLogger("django.request").setLevel(logging.CRITICAL)

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402

from scorekeeper.games import services  # noqa: E402
from scorekeeper.models import Game, Round  # noqa: E402
from scorekeeper.portable.start_fields import SideSpec  # noqa: E402
from scorekeeper.rounds.services import round_record  # noqa: E402

GAMES = 10
ENTRY = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]
FORM = {"went_out": "stock", "s0-melded_points": "50", "s1-melded_points": "40"}


def together(work, count: int, stagger: float = 0.0) -> list:
    """work(0) ... work(count - 1) in threads released at once (thread i `stagger * i` later);
    each result is what work returned or the name of the exception it raised."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            time.sleep(stagger * index)
            results[index] = work(index)
        except Exception as error:  # noqa: BLE001 - counted and printed
            results[index] = f"{type(error).__name__}: {error}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def games(count: int) -> list[Game]:
    return [
        services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
        for _ in range(count)
    ]


def phones(started: list[Game]) -> list[Client]:
    clients = []
    for game in started:
        client = Client(HTTP_HOST="localhost", raise_request_exception=False)
        client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
        clients.append(client)
    return clients


LOST: list[str] = []


def report(title: str, tried: int, stored: int, outcomes: Counter) -> None:
    if stored != tried:
        LOST.append(title)
    print(f"{title}: {stored}/{tried} stored, {tried - stored}/{tried} failed")
    for outcome, count in outcomes.most_common():
        print(f"    {count:3} x {outcome}")


def services_scenario() -> None:
    started = games(GAMES)
    before = Round.objects.count()
    outcomes: Counter = Counter()
    tried = 0
    for _ in range(3):

        def save(index: int) -> str:
            game = started[index]
            number = game.rounds.count() + 1
            round_record(game=game, number=number, ended_by="stock_exhausted", entry=ENTRY)
            return "stored"

        results = together(save, GAMES)
        tried += len(results)
        outcomes.update(results)
    report(
        "10 games x round_record at once, 3 times",
        tried,
        Round.objects.count() - before,
        outcomes,
    )


def http_scenario(title: str, count: int, trials: int, stagger: float) -> None:
    outcomes: Counter = Counter()
    tried = stored = 0
    for _ in range(trials):
        started = games(count)
        clients = phones(started)

        def post(index: int, started=started, clients=clients) -> str:
            game = started[index]
            form = {**FORM, "round_number": "1"}
            response = clients[index].post(f"/g/{game.public_id}/rounds/new/", form)
            return f"HTTP {response.status_code}"

        results = together(post, count, stagger)
        tried += count
        stored += Round.objects.filter(game__in=started).count()
        outcomes.update(results)
    report(title, tried, stored, outcomes)


def main(trials: int) -> None:
    call_command("migrate", verbosity=0)
    with connections["default"].cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        print(f"SQLite journal_mode={cursor.fetchone()[0]}", end=", ")
    print(f"OPTIONS={connections['default'].settings_dict.get('OPTIONS', {})}")
    services_scenario()
    http_scenario("10 phones x round form at once", GAMES, 3, 0.0)
    for apart in (0.0, 0.01, 0.05):
        http_scenario(f"2 phones {apart} s apart, {trials} times", 2, trials, apart)


if __name__ == "__main__":
    args = [arg for arg in sys.argv[1:] if arg != "--smoke"]
    main(2 if "--smoke" in sys.argv else int(args[0]) if args else 10)
    if LOST:
        sys.exit(f"Saves were lost in: {'; '.join(LOST)}")
