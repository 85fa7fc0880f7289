"""Time to build a filled score card and a 20-table club-night pack.

Usage: .venv/bin/python bench/pdfs.py [--tables 20] [--requests 20] [--seed 1] [--db-name ...]
                                      [--smoke]

Where it runs: as bench/standings.py, on a new SQLite file in a temporary directory, or, when
DATABASE_URL names a PostgreSQL server, on a dedicated database of that server
(`scorekeeper_bench_pdfs`, dropped and created afresh).

What is seeded, through the real services (bench/seeding.py): a league playing the four-round
game in teams of two with `4 * --tables` members (names with José, Zoë, Łukasz and Søren's
letters), a club night today with everyone present, its seating proposed and its games started
(one table a game), and three kitchen-table games played to their end with
`scorekeeper.games.demo_rounds.random_game`: a four-round game of two teams, the same game made
20 rounds long by a house rule (the issue's score card of 20 rounds) and a Hand and Foot to
10,000 game of three players.

Reported, for each PDF: the median and 95th-percentile time of the whole request (Django's test
Client, the organiser signed in for the pack, so that its QR codes hold the scorer links), the
builder alone on data gathered once, the queries a request makes, and the file's size and pages;
the request's median as a multiple of a hello-world request. --smoke: 2 tables and 3 requests
a PDF (CI's size).
"""

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from bench.environment import bench_database, django_setup  # noqa: E402
from bench.seeding import game_played, seed_night  # noqa: E402


def parse_args() -> argparse.Namespace:
    """The command line, checked; --smoke sets CI's size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--requests", type=int, default=20, help="timed requests per PDF")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench_pdfs", help="PostgreSQL only")
    parser.add_argument("--smoke", action="store_true", help="2 tables, 3 requests: for CI")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.requests = 2, 3
    if args.tables < 1 or args.requests < 1:
        parser.error("Needs at least 1 table and 1 request.")
    return args


def seed(args: argparse.Namespace) -> dict:
    """The club night and three kitchen-table games played to their end."""
    rng = random.Random(args.seed)
    seeded = seed_night(args.tables)
    played = {}
    teams = [("José & Zoë", ("José", "Zoë")), ("Łukasz & Søren", ("Łukasz", "Søren"))]
    for label, preset, house_rules, sides in (
        ("four-rounds", "four-rounds", {}, teams),
        # The issue's score card: a game of 20 rounds (the house rules' most).
        ("four-rounds, 20 rounds by house rule", "four-rounds", {"rounds": 20}, teams),
        ("ten-thousand", "ten-thousand", {}, [("José", ()), ("Łukasz", ()), ("Søren", ())]),
    ):
        played[label], _, _ = game_played(preset, sides, house_rules, rng)
    return {**seeded, "games": played}


def timed(client, url: str, requests: int) -> tuple[list[float], bytes, int]:
    """The times, the last body and the queries of `requests` requests of `url`."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    data = b""
    queries = 0
    for _ in range(requests):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            data = b"".join(response.streaming_content)
            times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
        queries = len(captured)
    return times, data, queries


def builder_times(build, requests: int) -> list[float]:
    """The times of `requests` calls of `build`."""
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        build()
        times.append(time.perf_counter() - start)
    return times


def report(
    label: str, times: list[float], build: list[float], data: bytes, queries: int, hello: float
) -> None:
    """Print one PDF's figures, its request median beside the hello-world's."""
    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(data)).pages)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{label}: request median {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, {queries} queries; builder alone median "
        f"{statistics.median(build) * 1000:.0f} ms; {len(data) / 1024:.0f} KiB, {pages} pages"
    )
    print(f"  request median {ratio(statistics.median(times) * 1000, hello)}")


def main() -> None:
    """Seed, then time each score card and the pack, whole and builder alone."""
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command
    from django.test import Client

    from leagues import player_stats
    from leagues.public import documents as league_documents
    from scorekeeper.documents import cards as documents
    from scorekeeper.documents.pdf.night_pack import build_night_pack
    from scorekeeper.documents.pdf.score_card import build_score_card
    from scorekeeper.games.selectors import game_get

    print(f"Database: {where}")
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    seeded = seed(args)
    print(f"Seeded in {time.perf_counter() - start:.1f} s: {seeded['tables']} tables started.")

    hello = hello_world_ms()
    client = Client(HTTP_HOST="127.0.0.1:8000")
    # force_login: django-axes refuses Client.login, which authenticates without a request.
    client.force_login(seeded["organiser"], backend="django.contrib.auth.backends.ModelBackend")
    for label, game in seeded["games"].items():
        rounds = game.rounds.count()
        times, data, queries = timed(client, f"/g/{game.public_id}/score-card.pdf", args.requests)
        card = documents.game_score_card(game_get(game.public_id))
        build = builder_times(lambda card=card: build_score_card(card, paper="a4"), args.requests)
        report(f"Score card, {label}, {rounds} rounds", times, build, data, queries, hello)

    night = seeded["night"]
    pack_url = f"/leagues/bench/nights/{night.pk}/pack.pdf"
    times, data, queries = timed(client, pack_url, args.requests)
    league = seeded["league"]
    pack = league_documents.night_pack(
        league,
        player_stats.night_get(league, night.pk),
        organiser=True,
        absolute_url=lambda path: f"http://127.0.0.1:8000{path}",
    )
    build = builder_times(lambda: build_night_pack(pack, paper="a4"), args.requests)
    report(f"Club-night pack, {seeded['tables']} tables", times, build, data, queries, hello)


if __name__ == "__main__":
    main()
