"""Server time of a club night's projector view, which every room's screen asks for again every
20 seconds all evening: a 50-table night in a league of 200 players and 18,000 games.

Usage: .venv/bin/python bench/projector.py [--players 200] [--games 18000] [--nights 360]
                                           [--requests 50] [--pool 600] [--seed 1] [--smoke]

The league is bench/standings.py's, from bench/seeding.py's `seed_league` (same database rules:
a new SQLite file unless DATABASE_URL names a PostgreSQL server, where a dedicated database is
dropped and made afresh), seeded with
games / nights tables a night: 50 by default (everyone plays every night; two seasons of about
180 days hold at most 360 nights, one a day). Its last night is made the evening in progress:
every third table's game unfinished, as if still being played. That night's projector view (page
1 of its tables, as a screen first opens it) is timed as a whole page and as the htmx fragment a
refresh fetches, around Django's whole request handling (the test Client, all the middleware),
with the queries one request makes, the bytes of the body and the median as a multiple of a
hello-world request. It also prints what one screen costs the server: a refresh every 20 s.
--smoke: 20 players, 200 games on 10 nights, 5 requests (CI's size).
"""

import argparse
import math
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.environment import bench_database, django_setup  # noqa: E402
from bench.seeding import analyse, seed_league  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=18_000)
    parser.add_argument("--nights", type=int, default=360)
    parser.add_argument("--requests", type=int, default=50, help="timed requests per page")
    parser.add_argument("--pool", type=int, default=600, help="engine-played games per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench", help="PostgreSQL only")
    parser.add_argument("--smoke", action="store_true", help="a small league, 5 requests: for CI")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.games, args.nights, args.requests, args.pool = 20, 200, 10, 5, 20
    if args.players < 4 or args.games < 1 or args.nights < 2 or args.requests < 1:
        parser.error("Needs at least 4 players, 1 game, 2 nights and 1 request.")
    return args


def evening(league):
    """The league's last night, turned into one still being played."""
    from leagues.models import LeagueGame, Participation
    from scorekeeper.models import Game

    night = league.nights.order_by("-date").first()
    playing = LeagueGame.objects.filter(night=night, table__in=range(1, 10_000, 3))
    Game.objects.filter(league_game__in=playing).update(finished=False, tie=False, winner=None)
    Participation.objects.filter(league_game__in=playing).update(counted=False, outcome="")
    return night


CARD = b'<li class="card '


def measure(label: str, url: str, headers: dict, requests: int, hello: float) -> float:
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_HOST="localhost", **headers)
    queries = []

    def count(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append(((time.perf_counter() - start) * 1000, sql))

    assert client.get(url).status_code == 200, url  # warm-up: templates, content types
    with connection.execute_wrapper(count):
        body = client.get(url).content
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    times.sort()
    median = statistics.median(times)
    p95 = times[math.ceil(len(times) * 0.95) - 1]  # nearest rank
    print(f"{label} GET {url}:")
    print(
        f"  median {median:.1f} ms, p95 {p95:.1f} ms over {requests}; {len(queries)} queries, "
        f"{len(body):,} bytes, {body.count(CARD)} tables shown"
    )
    print(f"  median {ratio(median, hello)}")
    slowest = sorted(queries, reverse=True)[:3]
    print(
        "  slowest queries: "
        + "; ".join(f"{ms:.1f} ms {' '.join(sql.split())[:90]}..." for ms, sql in slowest)
    )
    return median


def main() -> None:
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command
    from django.urls import reverse

    from leagues.public import projector

    print(f"database: {where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    call_command("migrate", verbosity=0)
    args.keep = False
    seeded = seed_league(args)
    league = seeded["league"]
    night = evening(league)
    analyse()
    tables = night.games.count()
    print(
        f"seeded {args.players} players, {seeded['games']:,} games on {seeded['nights']} nights "
        f"({seeded['seed_time']:.1f} s); the evening: {tables} tables, "
        f"{night.games.filter(game__finished=False).count()} still playing, season "
        f"{night.season.name} with {night.season.games.count():,} games"
    )
    hello = hello_world_ms()
    page = reverse("leagues:night_projector", args=[league.slug, night.pk])
    measure("projector page", page, {}, args.requests, hello)
    fragment = measure(
        "projector refresh (htmx)", page, {"HTTP_HX_REQUEST": "true"}, args.requests, hello
    )
    print(
        f"one screen refreshing every {projector.REFRESH_SECONDS} s keeps the server busy "
        f"{fragment / (projector.REFRESH_SECONDS * 1000):.3%} of one process's time"
    )
    if url.startswith("sqlite:"):
        from django.db import connection

        connection.close()
        shutil.rmtree(Path(url.removeprefix("sqlite:///")).parent)


if __name__ == "__main__":
    main()
