"""Time to first byte, whole time and peak memory of a season's games CSV of 10,000 games, and of
its standings CSV: 200 players, 20,000 finished games over two seasons.

Usage: .venv/bin/python bench/csv_exports.py [--players 200] [--games 20000] [--nights 100]
                                             [--requests 5] [--pool 600] [--seed 1] [--keep]
                                             [--smoke]

The league is seeded by bench/seeding.py's `seed_league` (see its docstring), where
bench/standings.py seeds it (bench/environment.py: a new SQLite file by default, or a dedicated
PostgreSQL database when DATABASE_URL names a PostgreSQL server), and each game of the second
season is given the rounds it was played in (`seed_league` leaves rounds out, but the games CSV
counts them). Timed through Django's whole request handling with the test Client, reading the
body as a server would send it (a streamed answer chunk by chunk, each chunk dropped once read):
- the time to the first byte of the body (for an answer that is not streamed, the whole time:
  nothing leaves before the body is built);
- the time to the last byte;
each the median over --requests requests and as a multiple of a hello-world request; then, in
one more request, the peak of the memory Python allocated meanwhile (tracemalloc), and the
size of the file. Each file is read back with the csv module and checked to hold a row a game
(or a row a player) under its header. --smoke: 20 players, 200 games on 10 nights, 3 requests
(CI's size). The database, SQLite file or PostgreSQL database, is removed at the end unless --keep.
"""

import argparse
import csv
import io
import os
import shutil
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.environment import bench_database, django_setup  # noqa: E402
from bench.seeding import BATCH, analyse, players_who_played, seed_league  # noqa: E402
from tests.helpers.app_servers import drop_database  # noqa: E402


def parse_args() -> argparse.Namespace:
    """The command line, checked; --smoke sets CI's size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--requests", type=int, default=5, help="timed requests per file")
    parser.add_argument("--pool", type=int, default=600, help="engine-played games per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench_csv", help="PostgreSQL only")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--smoke", action="store_true", help="20 players, 200 games, 3 requests: for CI"
    )
    args = parser.parse_args()
    if args.smoke:
        args.players, args.games, args.nights, args.requests, args.pool = 20, 200, 10, 3, 20
    if args.players < 4 or args.games < 1 or args.nights < 2 or args.requests < 1:
        parser.error("Needs at least 4 players, 1 game, 2 nights and 1 request.")
    return args


def seed_rounds(season) -> int:
    """Each of the season's games its rounds, as many as its players' participations say."""
    from leagues.models import Participation
    from scorekeeper.models import Round

    counts = (
        Participation.objects.filter(season=season, side=0, place=0)
        .values_list("league_game__game_id", "rounds")
        .order_by("league_game__game_id")
    )
    rounds = [
        Round(game_id=game_id, number=number, entry=[{}, {}])
        for game_id, played in counts
        for number in range(1, played + 1)
    ]
    Round.objects.bulk_create(rounds, batch_size=BATCH)
    return len(rounds)


def fetch(client, url: str) -> tuple[float, float]:
    """(ms to the first byte of the body, ms to the last) of one GET, each chunk dropped once
    read: a client holding the whole file would measure its own memory."""
    start = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    if not response.streaming:
        done = (time.perf_counter() - start) * 1000
        return done, done
    first = None
    for _ in response.streaming_content:
        if first is None:
            first = (time.perf_counter() - start) * 1000
    response.close()
    done = (time.perf_counter() - start) * 1000
    return (done if first is None else first), done


def whole(client, url: str) -> bytes:
    """The body of one GET, whole, for the checks."""
    response = client.get(url)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return b"".join(response.streaming_content) if response.streaming else response.content


def peak_kib(client, url: str) -> tuple[float, int]:
    """(peak KiB Python allocated during one GET read chunk by chunk, the body's bytes)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    response = client.get(url)
    size = 0
    if response.streaming:
        for chunk in response.streaming_content:
            size += len(chunk)
        response.close()
    else:
        size = len(response.content)
    del response
    peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    return peak / 1024, size


def measure(label: str, url: str, rows: int, requests: int, hello: float) -> None:
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    body = whole(client, url)  # warm-up, and the checks
    read = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
    assert len(read) == rows + 1, f"{url}: {len(read) - 1} rows, not {rows}"
    firsts, lasts = [], []
    for _ in range(requests):
        first, last = fetch(client, url)
        firsts.append(first)
        lasts.append(last)
    peak, size = peak_kib(client, url)
    print(f"{label} GET {url}: {rows:,} rows, {size / 1024:,.0f} KiB")
    print(f"  first byte: median {statistics.median(firsts):.1f} ms over {requests}")
    print(f"    {ratio(statistics.median(firsts), hello)}")
    print(f"  last byte:  median {statistics.median(lasts):.1f} ms over {requests}")
    print(f"    {ratio(statistics.median(lasts), hello)}")
    print(f"  peak memory allocated (tracemalloc): {peak:,.0f} KiB")


def main() -> None:
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command
    from django.urls import reverse

    print(f"database: {where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    call_command("migrate", verbosity=0)
    seeded = seed_league(args)
    league, season = seeded["league"], seeded["seasons"][-1]
    rounds = seed_rounds(season)
    analyse()
    games = season.games.count()
    print(
        f"seeded {args.players} players, {seeded['games']} games ({games} in {season.name}, "
        f"with {rounds} rounds): {seeded['seed_time']:.1f} s"
    )
    hello = hello_world_ms()
    kwargs = {"slug": league.slug, "season_id": season.pk}
    measure(
        f"games CSV, {season.name}",
        reverse("leagues:season_games_csv", kwargs=kwargs),
        games,
        args.requests,
        hello,
    )
    measure(
        f"standings CSV, {season.name}",
        reverse("leagues:season_standings_csv", kwargs=kwargs),
        len(players_who_played(league, season)),
        args.requests,
        hello,
    )
    print(f"load average over the last minute at the end: {os.getloadavg()[0]:.2f}")
    from django.db import connection

    connection.close()
    if args.keep:
        print(f"kept: {url}")
    elif url.startswith("sqlite:"):
        shutil.rmtree(Path(url.removeprefix("sqlite:///")).parent)
    else:
        drop_database(url, args.db_name)


if __name__ == "__main__":
    main()
