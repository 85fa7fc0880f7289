"""Every page of issue 18's table, served by gunicorn on PostgreSQL, beside a hello-world view.

Usage: .venv/bin/python bench/pages.py [--requests 20] [--seed 1]
                                       [--db-name scorekeeper_bench_pages] [--keep] [--smoke]

What it does:
1. Creates a dedicated PostgreSQL database, `scorekeeper_bench_pages` (--db-name), dropped and
   created afresh on the server DATABASE_URL names (default postgres://postgres@127.0.0.1:5432;
   the database the URL names is never opened, and `scorekeeper` and `test_scorekeeper` are
   refused), and migrates it, as bench/load.py does.
2. Seeds it (bench/pages_content.py, with bench/seeding.py's builders):
   - two leagues of 200 players each through `seed_league` (bulk-created, one transaction each,
     ratings and all): one with 200 finished games, one with 20,000, each on 100 club nights in
     two seasons;
   - a kitchen-table game of Hand and Foot to 10,000 between two teams of two, with the target
     raised to 100,000 (a house rule) so that it is still being played after 20 rounds: its 20
     rounds from `scorekeeper.games.demo_rounds.random_game`, saved one by one by
     `scorekeeper.rounds.services.round_record`, as phones save them (`game_played`);
   - a club night of 20 tables through the league services (`seed_night`, as bench/pdfs.py and
     bench/load.py seed it).
3. Serves the app with gunicorn (2 sync workers, DEBUG off, plain HTTP, static files collected
   into a temporary directory: tests/helpers/app_servers.py), through `bench.server_timing`,
   which wraps the app's WSGI application and adds its server time as a
   `Server-Timing: app;dur=<ms>` header.
4. One client, over HTTP (bench/http_timing.py's `Browser`), asks each page in turn, in a new
   random order at each pass, so that a noisy moment on the machine hurts every page alike: the
   hello-world view (bench/baseline.py, five times a pass), the game page, the round preview (the
   htmx POST the round form makes as one types: round 21 of the game, `HX-Request: true`, with the
   form's CSRF token), the season standings, the all-time standings and a player page of each
   league (the player with the median number of games), the game's score card PDF and the night's
   pack PDF. The game's pages are asked by a phone that joined with the scorer link, the pack by
   the organiser, signed in; the league pages by a visitor. Two passes warm the workers up, then
   --requests passes count. The first answer of each page is checked to be that page (the game page
   links its 20 rounds and no 21st, the preview shows the totals after round 21, a standings page
   links every player with a game in its scope, a player page names the player, each PDF opens with
   its pages); every answer must be a 200.
5. Counts the queries of each page once, in this process, with Django's test Client and
   `CaptureQueriesContext` on the same database, as the same visitor (on the second request of
   the page, the first filling this process's caches as the server's workers have).

Reported, per page: the median server time, that median as a multiple of the hello-world's,
the queries, the issue's goal and whether it is met; for the standings and the player page, the
time at 20,000 games over the time at 200 (goal at most 1.5) and both query counts (goal: the
same); then a last line `N of M goals met`. The figures are printed, never asserted: the exit
status is 0 when goals are missed, 1 when a page answered anything but a 200, a check failed or
gunicorn logged an error. The database is dropped at the end unless --keep. --smoke: 20
players, 200 and 400 games on 10 nights, a 2-table night and 3 requests a page (CI's size; the
same lines, marked as the smoke size, the goals judged the same way).
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.environment import Deployment  # noqa: E402
from bench.http_timing import Browser  # noqa: E402
from bench.pages_content import Page, page_list, seed  # noqa: E402
from bench.seeding import analyse  # noqa: E402

WORKERS = 2
WARM_UP = 2  # passes not counted
HELLO_PER_PASS = 5  # the yardstick is cheap: more of it steadies the ratios


def parse_args() -> argparse.Namespace:
    """The command line; --smoke sets CI's size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20, help="timed requests per page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench_pages")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--smoke", action="store_true", help="20 players, 200 and 400 games, 3 requests: for CI"
    )
    args = parser.parse_args()
    args.players, args.small, args.big, args.nights, args.pool, args.tables = (
        (20, 200, 400, 10, 20, 2) if args.smoke else (200, 200, 20_000, 100, 600, 20)
    )
    if args.smoke:
        args.requests = 3
    if args.requests < 1:
        parser.error("Needs at least 1 request.")
    return args


# -- over HTTP ----------------------------------------------------------------------------


def browsers(base: str, seeded: dict) -> dict[str, Browser]:
    """The visitor, the phone that joined with the scorer link and the signed-in organiser."""
    game = seeded["game"]
    visitor, phone, organiser = Browser(base), Browser(base), Browser(base)
    status, _, _, _ = phone.request(f"/g/{game.public_id}/join/{game.scorer_token}/")
    if status != 302:
        sys.exit(f"FAIL: the scorer link answered {status}, not a redirect to the game.")
    phone.read_token(f"/g/{game.public_id}/rounds/new/")
    organiser.read_token("/accounts/login/")
    user = seeded["organiser"].username
    status, _, _, _ = organiser.request(
        "/accounts/login/", {"username": user, "password": "bench-pass"}
    )
    if status != 302:
        sys.exit(f"FAIL: signing in as {user} answered {status}, not a redirect.")
    return {"visitor": visitor, "phone": phone, "organiser": organiser}


def measure(found: list[Page], by: dict[str, Browser], passes: int, rng: random.Random) -> list:
    """Every page once a pass (the hello-world HELLO_PER_PASS times), in a new order each pass;
    the complaints of the checks and of any answer other than a 200."""
    complaints = []
    checked = set()
    hello = found[0]
    for n in range(WARM_UP + passes):
        order = found[1:] + [hello] * HELLO_PER_PASS
        rng.shuffle(order)
        for page in order:
            status, body, ms, _ = by[page.visitor].request(page.path, page.form, page.headers)
            if status != 200 or ms is None:
                complaints.append(f"{page.label}: {page.path} answered {status}")
                continue
            if page.label not in checked:
                checked.add(page.label)
                complaint = page.check(body)
                if complaint:
                    complaints.append(f"{page.label}: {page.path} is not the page: {complaint}")
            if n >= WARM_UP:
                page.times.append(ms)
    return complaints


# -- queries, in this process -------------------------------------------------------------


def count_queries(found: list[Page], seeded: dict) -> list[str]:
    """Each page's queries on its second request here, as its visitor; complaints."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    game = seeded["game"]
    clients = {name: Client(HTTP_HOST="127.0.0.1") for name in ("visitor", "phone", "organiser")}
    if clients["phone"].get(f"/g/{game.public_id}/join/{game.scorer_token}/").status_code != 302:
        return ["the scorer link did not answer a redirect to the game in this process"]
    # force_login: django-axes refuses Client.login, which authenticates without a request.
    clients["organiser"].force_login(
        seeded["organiser"], backend="django.contrib.auth.backends.ModelBackend"
    )
    complaints = []
    for page in found:
        client = clients[page.visitor]

        def ask(page=page, client=client):
            if page.form is None:
                return client.get(page.path, headers=page.headers)
            return client.post(page.path, page.form, headers=page.headers)

        ask()
        with CaptureQueriesContext(connection) as captured:
            response = ask()
            if response.streaming:
                b"".join(response.streaming_content)
        if response.status_code != 200:
            complaints.append(f"{page.label}: {response.status_code} in this process")
        page.queries = len(captured)
    return complaints


# -- the report ---------------------------------------------------------------------------


def ms_text(ms: float) -> str:
    """Milliseconds with the digits that matter."""
    return f"{ms:.2f}" if ms < 1 else f"{ms:.1f}" if ms < 100 else f"{ms:,.0f}"


def times_text(value: float) -> str:
    """A multiple of the hello-world's with the digits that matter."""
    return f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def report(args: argparse.Namespace, found: list[Page]) -> tuple[int, int]:
    """Print the table; (goals met, goals)."""
    by_label = {page.label: page for page in found}
    hello = statistics.median(found[0].times)
    goals = met = 0

    def row(label: str, ms: str, times: str, queries: str, goal: str = "", ok=None) -> None:
        nonlocal goals, met
        verdict = "" if ok is None else "yes" if ok else "no"
        goals += ok is not None
        met += bool(ok)
        print(f"{label:<48}{ms:>10}{times:>10}{queries:>9}  {goal:<14}{verdict}")

    def page_row(page: Page, goal: str = "", ok=None) -> None:
        ms = statistics.median(page.times)
        row(page.label, ms_text(ms), times_text(ms / hello), str(page.queries), goal, ok)

    print(f"{'page':<48}{'server ms':>10}{'x hello':>10}{'queries':>9}  {'goal':<14}met")
    page_row(found[0])
    for page in found[1:3]:
        page_row(page, "<= 15 x", statistics.median(page.times) / hello <= 15)
    small, big = f"{args.small:,} games", f"{args.big:,} games"
    for kind in ("season standings", "all-time standings", "player page"):
        scale = f", {args.players} players"
        low, high = by_label[f"{kind}, {small}{scale}"], by_label[f"{kind}, {big}{scale}"]
        page_row(low)
        page_row(high, "<= 40 x", statistics.median(high.times) / hello <= 40)
        growth = statistics.median(high.times) / statistics.median(low.times)
        row(f"  time at {big} / at {small}", f"{growth:.2f}", "", "", "<= 1.5", growth <= 1.5)
        row(
            f"  queries at {big} / at {small}",
            f"{high.queries} / {low.queries}",
            "",
            "",
            "the same",
            high.queries == low.queries,
        )
    card, pack = found[-2], found[-1]
    page_row(card, "< 60 ms", statistics.median(card.times) < 60)
    page_row(pack, "< 400 ms", statistics.median(pack.times) < 400)
    return met, goals


def main() -> None:
    """Seed, serve, time and count each page, report; exit 1 on any complaint."""
    args = parse_args()
    deployment = Deployment.fresh(args.db_name, "pages-bench-")
    phases = {}
    clock = time.perf_counter()

    def phase(name: str) -> None:
        nonlocal clock
        phases[name] = time.perf_counter() - clock
        clock = time.perf_counter()

    deployment.migrate()
    phase("migrate")
    # This process: the same database, settings module and URLs as the server, for the seeding
    # and the query counts.
    deployment.django_setup(as_served=True)
    print("Seeding ...", flush=True)
    seeded = seed(args)
    analyse()
    found = page_list(args, seeded)
    phase("seed")
    with deployment.served(WORKERS, app="bench.server_timing") as base:
        print(f"Timing {len(found)} pages, {args.requests} requests each ...", flush=True)
        complaints = measure(found, browsers(base, seeded), args.requests, random.Random(args.seed))
    phase("time")
    complaints += count_queries(found, seeded)
    phase("count queries")
    logged = deployment.log_errors()
    if logged:
        complaints.append("gunicorn's log has errors:\n" + logged)

    # A page that never answered a 200 has no figure: the complaints say why.
    timed = all(page.times for page in found)
    if timed:
        print()
        print(
            "Pages at club scale"
            + (" (SMOKE SIZE, CI's: not the issue's figures)" if args.smoke else "")
        )
        print(f"gunicorn, {WORKERS} sync workers, DEBUG off, on {deployment.where}")
        print(
            f"server time from Server-Timing: median of {args.requests} requests a page, the "
            "pages in a new random order at each pass"
        )
        print(
            f"{os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.2f}; "
            + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in phases.items())
        )
        print()
        met, goals = report(args, found)
    deployment.close(keep=args.keep)
    if args.keep:
        print(f"\nKept the database {args.db_name}.")
    print()
    for complaint in complaints:
        print("FAIL:", complaint)
    if timed:
        if args.smoke:
            print(
                "Smoke size: the goals judged as at full size, on leagues of a few hundred games."
            )
        print(f"{met} of {goals} goals met")
    if complaints:
        sys.exit(1)


if __name__ == "__main__":
    main()
