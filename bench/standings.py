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

How the league is seeded (and what is left out): going through the services (a club night's
seating, `round_record` for every round and the league's signal receiver) costs tens of
milliseconds a round, hours for 20,000 games; so the rows the standings read are written with
`bulk_create` in batches, inside one transaction:
- one league (partnerships, match points 2/1/0) with two seasons (ten-thousand and four-rounds
  rules, frozen as `season_create` freezes them) and `--nights` club nights spread over them;
- per game: a scorekeeper `Game` (finished, winner or tie) and its two `Side`s (teams of two,
  4 players a game, with their totals), a `LeagueGame` (night, table, date, ledger) and four
  counted `Participation`s (outcome, points for and against, rounds, went out, red threes,
  hand points, canastas, rating before and after);
- the members' `Membership` ratings, from openskill run over the games in ledger order with
  `leagues.ratings.rate`, as the services do;
- the kept standings (`Standing` rows), by `leagues.services.standings_refresh` over the league.
Players are seated in rotations: a random order of everyone, four by four, table after table and
night after night, so that every player has played before anyone plays again.
A game's scores are engine-made: a pool of `--pool` games per rule set is played with
`scorekeeper.games.demo_rounds.random_game` and scored with `engine.game_status`, and each
seeded game takes one at random, with the per-side figures the services would write
(`leagues.services.side_figures`). Not seeded, because the standings never read them: the
rounds and round scores, attendances and seats, and the audit events.

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
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from tests.helpers.app_servers import fresh_database  # noqa: E402

BATCH = 1000
SEASON_PRESETS = ("ten-thousand", "four-rounds")


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


# -- the database ---------------------------------------------------------------------------


def bench_database(db_name: str) -> tuple[str, str]:
    """The DATABASE_URL to seed, and a description: a fresh PostgreSQL database on the server
    of DATABASE_URL, or a new SQLite file."""
    given = os.environ.get("DATABASE_URL", "")
    scheme = urlsplit(given).scheme
    if scheme.startswith("postgres"):
        return fresh_database(given, db_name)
    path = Path(tempfile.mkdtemp(prefix="standings-bench-")) / "bench.sqlite3"
    note = " (DATABASE_URL is SQLite: ignored, so that no real file is touched)" if given else ""
    return f"sqlite:///{path}", f"SQLite, {path}{note}"


def django_setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "1")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


# -- the games ------------------------------------------------------------------------------


def game_pool(preset: str, size: int, rng: random.Random) -> list[dict]:
    """`size` games played by demo_rounds and scored by the engine: each side's total and the
    figures the league's services keep, the number of rounds, the winner."""
    from leagues.services import side_figures
    from scorekeeper import engine
    from scorekeeper.games.demo_rounds import random_game

    rules = engine.RULESETS[preset]
    names = ["North & South", "East & West"]
    pool = []
    for _ in range(size):
        rounds = random_game(rules, names, rng=rng, max_rounds=30)
        inputs = [{"ended_by": r["ended_by"], "sides": r["sides"]} for r in rounds]
        status = engine.game_status(rules, names, inputs)
        by_hand = not status.finished
        if by_hand:
            # A target game that ran long: ended by hand, the highest total wins.
            status = engine.game_status(rules, names, inputs, finished=True)
        figures = side_figures([SimpleNamespace(name=n) for n in names], status)
        pool.append(
            {
                "totals": [status.totals[n] for n in names],
                "figures": [figures[0], figures[1]],
                "rounds": len(status.rounds),
                "tie": status.tie,
                "by_hand": by_hand,
            }
        )
    return pool


def seed(args: argparse.Namespace, *, slug: str = "bench", name: str = "Bench League") -> dict:
    """Write the league (its organiser is the user `<slug>-organiser`); returns the league, its
    seasons and what was written."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import OuterRef, Subquery

    from leagues import ratings, services
    from leagues.models import (
        DEFAULT_MU,
        DEFAULT_SIGMA,
        ClubNight,
        LeagueGame,
        Membership,
        Participation,
        Player,
    )
    from scorekeeper.models import Game, Side

    rng = random.Random(args.seed)
    started = time.perf_counter()
    pools = {preset: game_pool(preset, args.pool, rng) for preset in SEASON_PRESETS}
    pool_time = time.perf_counter() - started

    with transaction.atomic():
        organiser = get_user_model().objects.create_user(f"{slug}-organiser")
        league = services.league_create(
            name=name, slug=slug, preset=SEASON_PRESETS[0], user=organiser
        )
        spans = [
            (datetime.date(2026, 1, 1), datetime.date(2026, 6, 30)),
            (datetime.date(2026, 7, 1), datetime.date(2026, 12, 31)),
        ]
        seasons = []
        for number, (preset, (starts, ends)) in enumerate(
            zip(SEASON_PRESETS, spans, strict=True), start=1
        ):
            league = services.league_update(league=league, user=organiser, preset=preset)
            seasons.append(
                services.season_create(
                    league=league,
                    name=f"Season {number}",
                    starts_on=starts,
                    ends_on=ends,
                    user=organiser,
                )
            )
        players = Player.objects.bulk_create(
            [Player(name=f"Player {i:03d}") for i in range(1, args.players + 1)], batch_size=BATCH
        )

        # Nights: half in each season, evenly spread over its days.
        nights = []
        for index in range(args.nights):
            season = seasons[0] if index < args.nights // 2 else seasons[1]
            first = 0 if season is seasons[0] else args.nights // 2
            count = args.nights // 2 if season is seasons[0] else args.nights - args.nights // 2
            days = (season.ends_on - season.starts_on).days
            date = season.starts_on + datetime.timedelta(days=(index - first) * days // count)
            nights.append(ClubNight(league=league, season=season, date=date))
        nights = ClubNight.objects.bulk_create(nights, batch_size=BATCH)

        per_night = [args.games // args.nights] * args.nights
        for index in range(args.games % args.nights):
            per_night[index] += 1
        skills: dict[int, ratings.Skill] = {}
        rated: dict[int, int] = {}
        ledger = 0
        written = {"games": 0, "participations": 0}
        tables_per_sitting = args.players // 4
        pending: list[tuple] = []

        def flush() -> None:
            """Write the pending games: Games, Sides, winners, LeagueGames, Participations."""
            games = Game.objects.bulk_create([g for g, *_ in pending], batch_size=BATCH)
            sides = []
            for game, (_, pooled, seats, *_) in zip(games, pending, strict=True):
                for position in (0, 1):
                    sides.append(
                        Side(
                            game=game,
                            position=position,
                            name=" & ".join(p.name for p in seats[position]),
                            players=[p.name for p in seats[position]],
                            total=pooled["totals"][position],
                        )
                    )
            Side.objects.bulk_create(sides, batch_size=BATCH)
            best = Side.objects.filter(game=OuterRef("pk")).order_by("-total", "position")
            ids = [g.pk for g in games]
            Game.objects.filter(pk__range=(min(ids), max(ids)), tie=False).update(
                winner=Subquery(best.values("pk")[:1])
            )
            for game, (_, _, _, league_game, _) in zip(games, pending, strict=True):
                league_game.game = game
            league_games = LeagueGame.objects.bulk_create(
                [lg for _, _, _, lg, _ in pending], batch_size=BATCH
            )
            rows = []
            for league_game, (_, _, _, _, parts) in zip(league_games, pending, strict=True):
                for part in parts:
                    part.league_game = league_game
                    rows.append(part)
            Participation.objects.bulk_create(rows, batch_size=BATCH)
            written["games"] += len(games)
            written["participations"] += len(rows)
            pending.clear()

        # One rotation through everyone before anyone plays again, carried from night to night:
        # with few games a night, a fresh draw each night would leave some players out of a
        # season altogether.
        order: list = []
        for night, games_tonight in zip(nights, per_night, strict=True):
            preset = night.season.rules["base"]
            for table in range(1, games_tonight + 1):
                if not order:
                    order = rng.sample(players, len(players))[: tables_per_sitting * 4]
                four, order = order[:4], order[4:]
                seats = [four[:2], four[2:]]
                pooled = rng.choice(pools[preset])
                totals = pooled["totals"]
                ledger += 1
                game = Game(
                    preset=preset,
                    rules=night.season.rules,
                    finished=True,
                    ended_by_hand=pooled["by_hand"],
                    tie=pooled["tie"],
                )
                league_game = LeagueGame(
                    league=league,
                    season=night.season,
                    night=night,
                    table=table,
                    date=night.date,
                    ledger=ledger,
                )
                after = ratings.rate(
                    [
                        [skills.get(p.pk, ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA)) for p in side]
                        for side in seats
                    ],
                    totals,
                )
                parts = []
                for s, side in enumerate(seats):
                    own, other = totals[s], totals[1 - s]
                    fig = pooled["figures"][s]
                    for place, player in enumerate(side):
                        before = skills.get(player.pk, ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA))
                        parts.append(
                            Participation(
                                player=player,
                                side=s,
                                place=place,
                                league=league,
                                season=night.season,
                                date=night.date,
                                counted=True,
                                outcome="W" if own > other else "T" if own == other else "L",
                                points_for=own,
                                points_against=other,
                                rounds=pooled["rounds"],
                                went_out=fig["went_out"],
                                red_threes=fig["red_threes"],
                                hand_points=fig["hand_points"],
                                canastas=fig["canastas"],
                                mu_before=before.mu,
                                sigma_before=before.sigma,
                                mu_after=after[s][place].mu,
                                sigma_after=after[s][place].sigma,
                            )
                        )
                        skills[player.pk] = after[s][place]
                        rated[player.pk] = rated.get(player.pk, 0) + 1
                pending.append((game, pooled, seats, league_game, parts))
                if len(pending) >= BATCH:
                    flush()
        if pending:
            flush()

        memberships = []
        for player in players:
            skill = skills.get(player.pk, ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA))
            memberships.append(
                Membership(
                    league=league,
                    player=player,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    rated_games=rated.get(player.pk, 0),
                )
            )
        Membership.objects.bulk_create(memberships, batch_size=BATCH)
        # The rows the standings read, as every service keeps them (bulk_create bypassed them).
        services.standings_refresh(league=league)

    return {
        "league": league,
        "seasons": seasons,
        "pool_time": pool_time,
        "seed_time": time.perf_counter() - started,
        "nights": len(nights),
        **written,
    }


def players_who_played(league, season) -> int:
    """How many players a standings page lists: those with a counted game in its scope."""
    from leagues.models import Participation

    played = Participation.objects.filter(league=league, counted=True)
    if season is not None:
        played = played.filter(season=season)
    return played.values("player").distinct().count()


def analyse() -> None:
    """Fresh planner statistics, as a live database would have after autovacuum."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


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
    args = parse_args()
    url, where = bench_database(args.db_name)
    django_setup(url)
    from django.core.management import call_command

    print(f"database: {where}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    print(f"migrate: {time.perf_counter() - start:.1f} s")
    seeded = seed(args)
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
        players_who_played(league, season),
        players_who_played(league, None),
        players_who_played(league, season),
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
