"""Every page of issue 18's table, served by gunicorn on PostgreSQL, beside a hello-world view.

Usage: .venv/bin/python bench/pages.py [--requests 20] [--seed 1]
                                       [--db-name scorekeeper_bench_pages] [--keep] [--smoke]

What it does:
1. Creates a dedicated PostgreSQL database, `scorekeeper_bench_pages` (--db-name), dropped and
   created afresh on the server DATABASE_URL names (default postgres://postgres@127.0.0.1:5432;
   the database the URL names is never opened, and `scorekeeper` and `test_scorekeeper` are
   refused), and migrates it, as bench/load.py does.
2. Seeds it:
   - two leagues of 200 players each through bench/standings.py's `seed` (bulk-created, one
     transaction each, ratings and all): one with 200 finished games, one with 20,000, each on
     100 club nights in two seasons;
   - a kitchen-table game of Hand and Foot to 10,000 between two teams of two, with the target
     raised to 100,000 (a house rule) so that it is still being played after 20 rounds: its 20
     rounds from `scorekeeper.games.demo_rounds.random_game`, saved one by one by
     `scorekeeper.games.services.round_record`, as phones save them;
   - a club night of 20 tables through the league services, as bench/pdfs.py seeds it.
3. Serves the app with gunicorn (2 sync workers, DEBUG off, plain HTTP, static files collected
   into a temporary directory: tests/helpers/app_servers.py), through `bench.server_timing`,
   which wraps the app's WSGI application and adds its server time as a
   `Server-Timing: app;dur=<ms>` header.
4. One client, over HTTP, asks each page in turn, in a new random order at each pass, so that a
   noisy moment on the machine hurts every page alike: the hello-world view (bench/baseline.py,
   five times a pass), the game page, the round preview (the htmx POST the round form makes as
   one types: round 21 of the game, `HX-Request: true`, with the form's CSRF token), the season
   standings, the all-time standings and a player page of each league (the player with the
   median number of games), the game's score card PDF and the night's pack PDF. The game's pages
   are asked by a phone that joined with the scorer link, the pack by the organiser, signed in;
   the league pages by a visitor. Two passes warm the workers up, then --requests passes count.
   The first answer of each page is checked to be that page (the game page links its 20 rounds
   and no 21st, the preview shows the totals after round 21, a standings page links every player
   with a game in its scope, a player page names the player, each PDF opens with its pages);
   every answer must be a 200.
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
import http.cookiejar
import io
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pdfs import rounds_record, seed_night  # noqa: E402
from bench.standings import analyse  # noqa: E402
from bench.standings import seed as league_seed  # noqa: E402
from tests.helpers import app_servers  # noqa: E402  (the HTTP benches and the tests share it

WORKERS = 2
WARM_UP = 2  # passes not counted
HELLO_PER_PASS = 5  # the yardstick is cheap: more of it steadies the ratios
ROUNDS = 20
TIMEOUT = 60
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SERVER_TIMING = re.compile(r"app;dur=([0-9.]+)")
TEAMS = (("Ann & Cy", ("Ann", "Cy")), ("Bob & Di", ("Bob", "Di")))


def parse_args() -> argparse.Namespace:
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


# -- seeding ------------------------------------------------------------------------------


def seed(args: argparse.Namespace) -> dict:
    """The two leagues, the 20-round game and the club night; what the pages need of them."""
    from django.db.models import Count

    from leagues.models import Participation
    from scorekeeper import engine
    from scorekeeper.games import demo_rounds
    from scorekeeper.games import services as games
    from scorekeeper.portable.start_fields import SideSpec

    leagues = {}
    for games_count in (args.small, args.big):
        start = time.perf_counter()
        seeded = league_seed(
            SimpleNamespace(
                players=args.players,
                games=games_count,
                nights=args.nights,
                pool=args.pool,
                seed=args.seed,
            ),
            slug=f"bench-{games_count}",
            name=f"Bench League of {games_count:,} games",
        )
        league = seeded["league"]
        # The player page of a typical player: the middle one, ordered by their games.
        counts = sorted(
            (row["n"], row["player"])
            for row in Participation.objects.filter(league=league, counted=True)
            .values("player")
            .annotate(n=Count("id"))
            .order_by()
        )
        games_of, player_id = counts[len(counts) // 2]
        leagues[games_count] = {
            "league": league,
            "season": seeded["seasons"][-1],
            "player": player_id,
            "player_games": games_of,
            "seconds": time.perf_counter() - start,
        }
        print(
            f"  league of {games_count:,} games, {args.players} players: "
            f"{leagues[games_count]['seconds']:.1f} s; the player page is player "
            f"#{player_id}'s, {games_of:,} games",
            flush=True,
        )

    start = time.perf_counter()
    rules = engine.resolve_rules({"base": "ten-thousand", "overrides": {"target_score": 100_000}})
    game = games.game_start(
        preset="ten-thousand",
        sides=[SideSpec(name, players) for name, players in TEAMS],
        house_rules={"target_score": 100_000},
    )
    names = [name for name, _ in TEAMS]
    played = demo_rounds.random_game(rules, names, rng=random.Random(args.seed), max_rounds=ROUNDS)
    rounds_record(game, played)
    if len(played) != ROUNDS or game.finished:
        sys.exit(f"FAIL: the kitchen game ended after {len(played)} rounds, not {ROUNDS}.")
    # Round 21 as the next phone would type it, to preview.
    totals = {side.name: side.total for side in game.sides.all()}
    preview = demo_rounds.random_round(
        rules,
        names,
        number=ROUNDS + 1,
        rng=random.Random(args.seed + 1),
        dealer_side=ROUNDS % len(names),
        totals=totals,
    )
    night = seed_night(args.tables, slug="bench-night")
    print(
        f"  the {ROUNDS}-round game and a {night['tables']}-table night: "
        f"{time.perf_counter() - start:.1f} s",
        flush=True,
    )
    return {"leagues": leagues, "game": game, "rules": rules, "preview": preview, **night}


# -- the pages ----------------------------------------------------------------------------


@dataclass
class Page:
    label: str
    path: str
    visitor: str  # "visitor", "phone" (joined with the scorer link) or "organiser"
    check: Callable[[bytes], str]  # a complaint, or "" when the page is the right one
    form: dict[str, str] | None = None  # a POST of the form, with the visitor's CSRF token
    headers: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    queries: int | None = None


def links_all(urls: list[str]):
    def check(body: bytes) -> str:
        missing = [url for url in urls if f'href="{url}"'.encode() not in body]
        return f"{len(missing)} of {len(urls)} links missing, e.g. {missing[:2]}" if missing else ""

    return check


def contains(*texts: str, absent: tuple[str, ...] = ()):
    def check(body: bytes) -> str:
        html = body.decode(errors="replace")
        missing = [text for text in texts if text not in html]
        there = [text for text in absent if text in html]
        return (f"missing {missing}; " if missing else "") + (f"has {there}" if there else "")

    return check


def a_pdf(least_pages: int, *texts: str):
    def check(body: bytes) -> str:
        from pypdf import PdfReader

        if not body.startswith(b"%PDF"):
            return f"not a PDF: {body[:60]!r}"
        reader = PdfReader(io.BytesIO(body))
        text = reader.pages[0].extract_text()
        missing = [t for t in texts if t not in text]
        if len(reader.pages) < least_pages or missing:
            return f"{len(reader.pages)} pages (at least {least_pages}), missing {missing}"
        return ""

    return check


def pages(args: argparse.Namespace, seeded: dict) -> list[Page]:
    from leagues.models import Participation, Player
    from scorekeeper.portable.round_fields import values_from_entry

    game, preview = seeded["game"], seeded["preview"]
    gid = game.public_id
    form = values_from_entry(seeded["rules"], preview["ended_by"], preview["sides"])
    form["round_number"] = str(ROUNDS + 1)
    found = [
        Page("hello-world", "/bench/hello/", "visitor", contains("Hello, world")),
        Page(
            f"game page, {ROUNDS} rounds",
            f"/g/{gid}/",
            "phone",
            contains(
                *(f'href="/g/{gid}/rounds/{n}/"' for n in range(1, ROUNDS + 1)),
                absent=(f'href="/g/{gid}/rounds/{ROUNDS + 1}/"',),
            ),
        ),
        Page(
            "round preview (htmx POST)",
            f"/g/{gid}/rounds/new/",
            "phone",
            contains(f"Totals after round {ROUNDS + 1}"),
            form=form,
            headers={"HX-Request": "true"},
        ),
    ]

    def player_urls(league, season) -> list[str]:
        played = Participation.objects.filter(league=league, counted=True)
        if season is not None:
            played = played.filter(season=season)
        ids = sorted(set(played.values_list("player", flat=True)))
        return [f"/leagues/{league.slug}/players/{pk}/" for pk in ids]

    for size, seeded_league in seeded["leagues"].items():
        league, season = seeded_league["league"], seeded_league["season"]
        scale = f"{size:,} games, {args.players} players"
        player = Player.objects.get(pk=seeded_league["player"])
        found += [
            Page(
                f"season standings, {scale}",
                f"/leagues/{league.slug}/seasons/{season.pk}/standings/",
                "visitor",
                links_all(player_urls(league, season)),
            ),
            Page(
                f"all-time standings, {scale}",
                f"/leagues/{league.slug}/standings/",
                "visitor",
                links_all(player_urls(league, None)),
            ),
            Page(
                f"player page, {scale}",
                f"/leagues/{league.slug}/players/{player.pk}/",
                "visitor",
                contains(f">{player.name}</h1>"),
            ),
        ]
    names = [name for name, _ in TEAMS]
    found += [
        Page(
            f"score card PDF, {ROUNDS} rounds",
            f"/g/{gid}/score-card.pdf",
            "phone",
            a_pdf(1, *names),
        ),
        Page(
            f"club-night pack PDF, {seeded['tables']} tables",
            f"/leagues/bench-night/nights/{seeded['night'].pk}/pack.pdf",
            "organiser",
            a_pdf(seeded["tables"] + 1),
        ),
    ]
    return found


# -- over HTTP ----------------------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # a redirect is an answer like any other: not the page


class Browser:
    """One visitor's cookie jar and CSRF token."""

    def __init__(self, base: str):
        self.base = base
        self.token = ""
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(
        self, path: str, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes, float | None, str]:
        """(status, body, server ms from Server-Timing, Location)."""
        data = None
        if form is not None:
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.token}).encode()
        request = urllib.request.Request(self.base + path, data, headers or {})
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                status, body, got = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as answer:
            status, body, got = answer.code, answer.read(), answer.headers
        timing = SERVER_TIMING.search(got.get("Server-Timing", ""))
        return status, body, float(timing.group(1)) if timing else None, got.get("Location", "")

    def read_token(self, path: str) -> None:
        status, body, _, _ = self.request(path)
        found = TOKEN.search(body.decode(errors="replace"))
        if status != 200 or found is None:
            sys.exit(f"FAIL: GET {path} answered {status} without a CSRF token.")
        self.token = found.group(1)


def browsers(base: str, seeded: dict) -> dict[str, Browser]:
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
    return f"{ms:.2f}" if ms < 1 else f"{ms:.1f}" if ms < 100 else f"{ms:,.0f}"


def times_text(value: float) -> str:
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
    args = parse_args()
    database_url, where = app_servers.fresh_database(app_servers.postgres_server(), args.db_name)
    scratch = Path(tempfile.mkdtemp(prefix="pages-bench-"))
    env = app_servers.deployment_env(database_url, scratch, hello_world=True)
    phases = {}
    clock = time.perf_counter()

    def phase(name: str) -> None:
        nonlocal clock
        phases[name] = time.perf_counter() - clock
        clock = time.perf_counter()

    print(f"Migrating {where} ...", flush=True)
    app_servers.prepare(env)
    phase("migrate")
    # This process: the same database, settings module and URLs as the server, for the seeding
    # and the query counts.
    sys.path.insert(0, str(scratch))
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": app_servers.SETTINGS,
            "LOG_LEVEL": "WARNING",
        }
    )
    import django

    django.setup()
    print("Seeding ...", flush=True)
    seeded = seed(args)
    analyse()
    found = pages(args, seeded)
    phase("seed")
    log = scratch / "gunicorn.log"
    with app_servers.app_server(env, log, workers=WORKERS, app="bench.server_timing") as base:
        print(f"Timing {len(found)} pages, {args.requests} requests each ...", flush=True)
        complaints = measure(found, browsers(base, seeded), args.requests, random.Random(args.seed))
    phase("time")
    complaints += count_queries(found, seeded)
    phase("count queries")
    if app_servers.log_has_errors(log):
        complaints.append("gunicorn's log has errors:\n" + log.read_text()[-3000:])

    # A page that never answered a 200 has no figure: the complaints say why.
    timed = all(page.times for page in found)
    if timed:
        print()
        print(
            "Pages at club scale"
            + (" (SMOKE SIZE, CI's: not the issue's figures)" if args.smoke else "")
        )
        print(f"gunicorn, {WORKERS} sync workers, DEBUG off, on {where}")
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
    from django.db import connections

    connections.close_all()
    if args.keep:
        print(f"\nKept the database {args.db_name}.")
    else:
        app_servers.drop_database(app_servers.postgres_server(), args.db_name)
    shutil.rmtree(scratch, ignore_errors=True)
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
