"""Server time and size of a season's head-to-head page in a big league: 200 players, 20,000
finished games.

Usage: .venv/bin/python bench/head_to_head.py [--players 200] [--games 20000] [--nights 100]
                                              [--requests 30] [--pool 600] [--seed 1] [--smoke]

The league is seeded as bench/standings.py seeds it, by bench/seeding.py's `seed_league` (see
its docstring for what is written), and where bench/standings.py runs (bench/environment.py: a
new SQLite file by default, or a dedicated PostgreSQL database when DATABASE_URL names a
PostgreSQL server). Timed, for the second season, each through Django's whole request handling
with the test Client:
- the page as first opened (no player chosen);
- one player's record against everyone (?player=), the player with the most opponents;
- the same sorted by losses, asked for by htmx (the fragment a sort link swaps in).
Each is reported with its median and 95th-percentile time, its queries and its size in KB, the
median as a multiple of a hello-world request, and the median CPU time of this process (server
and SQLite), which waiting for a core on a busy machine does not inflate. The targets (issue
17): under 100 ms and under 200 KB at 20,000 games and 200 players. --smoke: 20 players, 200
games on 10 nights, 3 requests (CI's size).
"""

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.environment import bench_database, django_setup  # noqa: E402
from bench.seeding import analyse, seed_league  # noqa: E402

TARGET_MS = 100
TARGET_KB = 200


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--requests", type=int, default=30, help="timed requests per page")
    parser.add_argument("--pool", type=int, default=600, help="engine-played games per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench", help="PostgreSQL only")
    parser.add_argument(
        "--smoke", action="store_true", help="20 players, 200 games, 3 requests: for CI"
    )
    args = parser.parse_args()
    if args.smoke:
        args.players, args.games, args.nights, args.requests, args.pool = 20, 200, 10, 3, 20
    if args.players < 4 or args.games < 1 or args.nights < 2 or args.requests < 1:
        parser.error("Needs at least 4 players, 1 game, 2 nights and 1 request.")
    return args


def busiest_player(league, season) -> int:
    """The player who met the most different opponents in the season: the longest record."""
    from django.db.models import Count

    from leagues.models import Participation

    rows = Participation.objects.filter(league=league, season=season, counted=True)
    top = (
        rows.values("player_id")
        .annotate(games=Count("id"))
        .order_by("-games", "player_id")
        .values_list("player_id", flat=True)
        .first()
    )
    return top


def measure(label: str, url: str, requests: int, hello: float, htmx: bool = False) -> None:
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    headers = {"HX-Request": "true"} if htmx else {}
    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    def get() -> bytes:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, f"{url} answered {response.status_code}"
        return response.content

    get()  # warm-up: the first request fills caches (templates, content types)
    with connection.execute_wrapper(count):
        body = get()
    times, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        get()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    median = statistics.median(times)
    p95 = times[math.ceil(len(times) * 0.95) - 1]  # nearest rank
    kb = len(body) / 1024
    print(f"{label} GET {url}{' (htmx)' if htmx else ''}:")
    print(
        f"  median {median:.1f} ms, p95 {p95:.1f} ms over {requests}; {len(queries)} queries; "
        f"{kb:,.1f} KB of HTML"
    )
    print(f"  median {ratio(median, hello)}")
    # On a shared machine the wall clock includes waiting for a core; the CPU time does not
    # (SQLite runs in this process, so its work is counted).
    print(f"  median CPU time {statistics.median(cpu):.1f} ms")
    verdict = "within" if median < TARGET_MS and kb < TARGET_KB else "OVER"
    print(f"  {verdict} the targets ({TARGET_MS} ms, {TARGET_KB} KB)")


def main() -> None:
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command
    from django.urls import reverse

    print(f"database: {where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    call_command("migrate", verbosity=0)
    seeded = seed_league(args)
    analyse()
    print(
        f"seeded {args.players} players, {seeded['games']} games, "
        f"{seeded['participations']} participations in 2 seasons: {seeded['seed_time']:.1f} s"
    )
    league, season = seeded["league"], seeded["seasons"][-1]
    page = reverse("leagues:head_to_head", kwargs={"slug": league.slug, "season_id": season.pk})
    player = busiest_player(league, season)
    hello = hello_world_ms()
    measure(f"head to head, {season.name}", page, args.requests, hello)
    measure("one player's record", f"{page}?player={player}", args.requests, hello)
    measure(
        "sorted by losses",
        f"{page}?player={player}&sort=losses&order=desc",
        args.requests,
        hello,
        htmx=True,
    )
    print(f"load average over the last minute at the end: {os.getloadavg()[0]:.2f}")
    if url.startswith("sqlite:"):
        import shutil

        from django.db import connection

        connection.close()
        shutil.rmtree(Path(url.removeprefix("sqlite:///")).parent)


if __name__ == "__main__":
    main()
