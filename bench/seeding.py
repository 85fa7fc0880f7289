"""The data the benches seed: a club night, kitchen-table games and a big league.

A club night (`seed_night`: bench/pdfs.py, bench/load.py, bench/pages.py) goes through the real
services: a league playing the four-round game in teams of two with `4 * tables` members (names
with José, Zoë, Łukasz and Søren's letters), a night today with everyone present, its seating
proposed and its games started, one table a game. A kitchen-table game (`game_played`) is
started by the games' services and its rounds, from `scorekeeper.games.demo_rounds.random_game`,
saved one by one by `round_record`, as phones save them.

A big league (`seed_league`: bench/standings.py, bench/head_to_head.py, bench/projector.py,
bench/pages.py) cannot go through the services: a club night's seating, `round_record` for every
round and the league's signal receiver cost tens of milliseconds a round, hours for 20,000 games;
so the rows the standings read are written with `bulk_create` in batches, inside one transaction:
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
"""

import argparse
import datetime
import random
import time
from types import SimpleNamespace

BATCH = 1000
SEASON_PRESETS = ("ten-thousand", "four-rounds")
# Letters beyond ASCII, which the PDFs' fonts must draw.
NAMES = [
    "José",
    "Zoë",
    "Łukasz",
    "Søren",
    "Ann",
    "Bob",
    "Cy",
    "Di",
    "Renée",
    "Ågot",
    "Ñuño",
    "Ðorđe",
    "Şükrü",
    "Brontë",
    "Chloé",
    "Jürgen",
    "Mónica",
    "Oisín",
    "Siobhán",
    "Tomás",
    "Dvořák",
    "Ilse",
    "Kofi",
    "Mehmet",
    "Nguyễn",
    "Aoife",
    "Björn",
    "Fatima",
    "Margaret",
    "Dev",
]


# -- a club night and kitchen-table games, through the services ----------------------------


def seed_night(tables: int, *, slug: str = "bench") -> dict:
    """A four-round league in teams of two with `4 * tables` members and a club night today,
    everyone present, seated and their games started; its organiser is `<slug>-organiser`."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from leagues import services

    today = timezone.localdate()
    organiser = get_user_model().objects.create_user(f"{slug}-organiser", password="bench-pass")
    league = services.league_create(
        name="Bench Card Club", slug=slug, preset="four-rounds", user=organiser
    )
    services.season_create(
        league=league,
        name="Bench season",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=30),
        user=organiser,
    )
    people = [
        services.member_add(
            league=league, name=f"{NAMES[n % len(NAMES)]} {n // len(NAMES) + 1}", user=organiser
        ).player
        for n in range(4 * tables)
    ]
    night = services.night_create(
        league=league, date=today, player_ids=[p.pk for p in people], user=organiser
    )
    services.night_seating_propose(night=night, user=organiser)
    started = services.night_games_start(night=night, user=organiser)
    return {"night": night, "tables": len(started), "league": league, "organiser": organiser}


def rounds_record(game, rounds: list[dict]) -> None:
    """Save `rounds` (as `scorekeeper.games.demo_rounds` makes them) one by one, as a phone
    would."""
    from scorekeeper.rounds.services import round_record

    for number, round_ in enumerate(rounds, 1):
        entry = [{k: v for k, v in side.items() if k != "name"} for side in round_["sides"]]
        round_record(
            game=game, number=number, ended_by=round_.get("ended_by", "going_out"), entry=entry
        )
    game.refresh_from_db()


def game_played(
    preset: str,
    sides: list[tuple[str, tuple[str, ...]]],
    house_rules: dict,
    rng: random.Random,
    max_rounds: int | None = None,
) -> tuple[object, object, list[dict]]:
    """A kitchen-table game of (side name, players) `sides` with its rounds saved, until it ends
    or `max_rounds` (demo_rounds' own limit by default): the game, its rules and the rounds."""
    from scorekeeper import engine
    from scorekeeper.games import demo_rounds
    from scorekeeper.games import services as games
    from scorekeeper.portable.start_fields import SideSpec

    rules = engine.resolve_rules({"base": preset, "overrides": house_rules})
    game = games.game_start(
        preset=preset,
        sides=[SideSpec(name, players) for name, players in sides],
        house_rules=house_rules,
    )
    names = [name for name, _ in sides]
    limit = {} if max_rounds is None else {"max_rounds": max_rounds}
    played = demo_rounds.random_game(rules, names, rng=rng, **limit)
    rounds_record(game, played)
    return game, rules, played


# -- a big league, bulk-created -------------------------------------------------------------


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


def seed_league(
    args: argparse.Namespace, *, slug: str = "bench", name: str = "Bench League"
) -> dict:
    """Write the league (its organiser is the user `<slug>-organiser`); returns the league, its
    seasons and what was written."""
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


def players_who_played(league, season) -> list[int]:
    """The players a standings page lists, by id: those with a counted game in its scope (the
    whole league when `season` is None)."""
    from leagues.models import Participation

    played = Participation.objects.filter(league=league, counted=True)
    if season is not None:
        played = played.filter(season=season)
    return sorted(set(played.values_list("player", flat=True)))


def analyse() -> None:
    """Fresh planner statistics, as a live database would have after autovacuum."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
