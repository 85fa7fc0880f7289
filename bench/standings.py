"""Server time of the standings pages of a big league: 200 players, 20,000 finished games.

Usage: .venv/bin/python bench/standings.py [--players 200] [--games 20000] [--nights 100]
                                           [--requests 30] [--pool 600] [--seed 1] [--keep]
                                           [--smoke]

Where it runs:
- by default on a new SQLite file in a temporary directory (never the project's db.sqlite3;
  an SQLite DATABASE_URL is ignored for the same reason), deleted at the end unless --keep;
- when DATABASE_URL names a PostgreSQL server, on a dedicated database of that server,
  `scorekeeper_bench` (--db-name), dropped and created afresh; the database named in the URL
  (e.g. `scorekeeper`, whose copy the tests use) is never opened, let alone changed.

The league is seeded by bench/seeding.py's `seed_league` (its docstring says what is written,
how, and what is left out): one league, two seasons, --nights club nights, --games finished games
of four players whose scores are engine-made from a pool of --pool games per rule set, the
ratings and the kept standings, all bulk-created in one transaction.

Reported: the seeding time, then for each page (a season's standings, the all-time standings,
`leagues.selectors.standings` alone, and the player page of the member with the most games) the
median and 95th-percentile time over --requests requests, measured around Django's whole
request handling with the test Client, the number of queries one request makes, and the median
as a multiple of a hello-world request; each standings page is checked to list every player with
a game in its scope. When a standings URL does not resolve
(the pages not built yet), the selector plus the standings table template is timed instead, and
the report says so. --smoke: 20 players, 200 games on 10 nights, 3 requests (CI's size).
DEBUG is on, as in bench/round_preview.py (the settings need it without a SECRET_KEY).
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
from bench.seeding import analyse, players_who_played, seed_league  # noqa: E402


def parse_args() -> argparse.Namespace:
    """The command line, checked; --smoke sets CI's size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--requests", type=int, default=30, help="timed requests per page")
    parser.add_argument("--pool", type=int, default=600, help="engine-played games per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench", help="PostgreSQL only")
    parser.add_argument(
        "--keep", action="store_true", help="keep the SQLite file (deleted by default)"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="20 players, 200 games, 3 requests: for CI"
    )
    args = parser.parse_args()
    if args.smoke:
        args.players, args.games, args.nights, args.requests, args.pool = 20, 200, 10, 3, 20
    if args.players < 4 or args.games < 1 or args.nights < 2 or args.requests < 1:
        parser.error("Needs at least 4 players, 1 game, 2 nights and 1 request.")
    return args


# -- timing ---------------------------------------------------------------------------------


def targets(league, season) -> list[tuple[str, object]]:
    """(label, callable returning the response body) for each thing timed."""
    from django.db.models import Count
    from django.template.loader import render_to_string
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from leagues import selectors
    from leagues.models import Participation

    client = Client(HTTP_HOST="localhost")

    def page(url: str):
        def get() -> bytes:
            response = client.get(url)
            assert response.status_code == 200, f"{url} answered {response.status_code}"
            return response.content

        return get

    def fallback(season_or_none):
        # The pages are not there: the selector and the standings table's template.
        from leagues.public.views import standing_rows, standings_columns

        def run() -> bytes:
            rows = selectors.standings(league, season_or_none)
            return render_to_string(
                "leagues/_pub_standings_table.html",
                {
                    "league": league,
                    "rows": standing_rows(rows, league),
                    "columns": standings_columns(None, None),
                },
            ).encode()

        return run

    found = []
    for label, name, kwargs, which in (
        (
            f"season standings page ({season.name})",
            "leagues:season_standings",
            {"slug": league.slug, "season_id": season.pk},
            season,
        ),
        ("all-time standings page", "leagues:standings", {"slug": league.slug}, None),
    ):
        try:
            url = reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            found.append((f"{label}: URL missing, selector + table template", fallback(which)))
        else:
            found.append((f"{label} GET {url}", page(url)))
    found.append(
        (f"selectors.standings alone ({season.name})", lambda: selectors.standings(league, season))
    )
    # The player page of the member with the most games: every one of their games feeds its
    # figures by rule set, its rating chart and its partners and opponents.
    busiest = (
        Participation.objects.filter(league=league)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by("-n", "player_id")
        .values_list("player_id", flat=True)
        .first()
    )
    url = reverse("leagues:player", kwargs={"slug": league.slug, "player_id": busiest})
    found.append((f"player page GET {url}", page(url)))
    return found


def measure(label: str, run, requests: int, players: int, hello: float) -> None:
    """Time `run` and print its figures beside the hello-world's; check its player links."""
    from django.db import connection

    # Counted with a wrapper: the request cycle resets connection.queries at each request.
    queries = []

    def count(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append(((time.perf_counter() - start) * 1000, sql))

    run()  # warm-up: the first request fills caches (templates, content types)
    with connection.execute_wrapper(count):
        body = run()
    if isinstance(body, bytes):
        shown = body.count(b"/players/")
        assert shown >= players, f"{label}: {shown} player links for {players} players who played"
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[math.ceil(len(times) * 0.95) - 1]  # nearest rank
    print(f"{label}:")
    print(
        f"  median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
        f" over {requests}; {len(queries)} queries a request"
    )
    print(f"  median {ratio(statistics.median(times), hello)}")
    slowest = sorted(queries, reverse=True)[:2]
    print(
        "  slowest queries: "
        + "; ".join(f"{ms:.1f} ms {' '.join(sql.split())[:70]}..." for ms, sql in slowest)
    )


def main() -> None:
    """Seed the league, time each target, then the ratings replay."""
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command

    print(f"database: {where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    print(f"migrate: {time.perf_counter() - start:.1f} s")
    seeded = seed_league(args)
    analyse()
    print(
        f"seeded {args.players} players, {seeded['games']} games, "
        f"{seeded['participations']} participations, {seeded['nights']} nights in 2 seasons: "
        f"{seeded['seed_time']:.1f} s (of which {seeded['pool_time']:.1f} s playing the "
        f"{2 * args.pool} engine games of the pool)"
    )
    league, season = seeded["league"], seeded["seasons"][-1]
    hello = hello_world_ms()
    # The standings list every player who played in their scope; the player page is not
    # checked for links (it lists the player's partners and opponents, not everyone).
    expected = (
        len(players_who_played(league, season)),
        len(players_who_played(league, None)),
        len(players_who_played(league, season)),
        0,
    )
    for (label, run), players in zip(targets(league, season), expected, strict=True):
        measure(label, run, args.requests, players, hello)
    from leagues.services import ratings_replay

    start = time.perf_counter()
    replayed = ratings_replay(league=league, start=None)
    print(
        f"ratings replayed from the first game: {replayed} games in "
        f"{time.perf_counter() - start:.1f} s (what merging two players costs; a correction "
        "replays from the corrected game on)"
    )
    print(f"load average over the last minute at the end: {os.getloadavg()[0]:.2f}")
    if url.startswith("sqlite:") and not args.keep:
        from django.db import connection

        connection.close()
        shutil.rmtree(Path(url.removeprefix("sqlite:///")).parent)


if __name__ == "__main__":
    main()
