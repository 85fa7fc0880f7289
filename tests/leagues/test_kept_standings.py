"""The kept standings (`Standing` rows, `services.standings_refresh`) equal, after every writer of
participations, what the standings were before they were kept: the aggregate of every counted
game at each view, kept here as the reference."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import RowNumber

from leagues import player_stats, selectors, services
from leagues.backup import export as backup
from leagues.charts import rating_chart
from leagues.models import League, Membership, Participation, Standing, rating_of
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_delete_last, round_update
from tests.leagues.conftest import league_with, members, play, table_game

AUTUMN = datetime.date(2026, 10, 1)
WINTER = datetime.date(2026, 12, 3)


# The reference: the standings as `selectors.standings` computed them before issue 18, from every
# counted participation at each view.


def reference_standings(league: League, season) -> list[selectors.StandingRow]:
    rows = Participation.objects.filter(league=league, counted=True)
    if season is not None:
        rows = rows.filter(season=season)
    totals = (
        rows.values("player_id", "player__name")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(outcome="W")),
            ties=Count("id", filter=Q(outcome="T")),
            losses=Count("id", filter=Q(outcome="L")),
            points_for_sum=Sum("points_for"),
            points_against_sum=Sum("points_against"),
        )
        .order_by()
    )
    recent = (
        rows.annotate(
            recent=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("date").desc(), F("league_game_id").desc()],
            )
        )
        .filter(recent__lte=5)
        .values_list("player_id", "outcome", "recent")
    )
    marks: dict[int, list] = {}
    for player_id, outcome, place in recent:
        marks.setdefault(player_id, []).append((place, outcome))
    last = {p: "".join(o for _, o in sorted(found)) for p, found in marks.items()}
    if season is None:
        skills = {
            player_id: rating_of(mu, sigma)
            for player_id, mu, sigma in Membership.objects.filter(
                league=league, rated_games__gt=0
            ).values_list("player_id", "mu", "sigma")
        }
    else:
        latest = (
            rows.filter(mu_after__isnull=False)
            .annotate(
                latest=Window(
                    RowNumber(),
                    partition_by=[F("player_id")],
                    order_by=[F("league_game__ledger").desc()],
                )
            )
            .filter(latest=1)
            .values_list("player_id", "mu_after", "sigma_after")
        )
        skills = {player_id: rating_of(mu, sigma) for player_id, mu, sigma in latest}
    table = [
        selectors.StandingRow(
            player_id=row["player_id"],
            name=row["player__name"],
            games=row["games"],
            wins=row["wins"],
            ties=row["ties"],
            losses=row["losses"],
            points_for=row["points_for_sum"] or 0,
            points_against=row["points_against_sum"] or 0,
            league_points=selectors.league_points(
                league, row["wins"], row["ties"], row["losses"], row["points_for_sum"] or 0
            ),
            rating=skills.get(row["player_id"]),
            last_five=last.get(row["player_id"], ""),
        )
        for row in totals
    ]
    return selectors.sort_standings(selectors.ranked(table), "league_points", True)


def reference_by_ruleset(league: League, player_id: int) -> dict:
    """Per rule set: games, wins, ties, points for, rounds, went out, red threes, hand points
    and canastas by kind, added up from the player's counted games."""
    found: dict[str, dict] = {}
    for preset, outcome, points, *figures, canastas in Participation.objects.filter(
        league=league, player_id=player_id, counted=True
    ).values_list(
        "league_game__game__preset",
        "outcome",
        "points_for",
        "rounds",
        "went_out",
        "red_threes",
        "hand_points",
        "canastas",
    ):
        tally = found.setdefault(preset, {"figures": [0] * 8, "canastas": {}})
        for index, value in enumerate(
            [1, outcome == "W", outcome == "T", points, *figures], start=0
        ):
            tally["figures"][index] += value
        for kind, count in canastas.items():
            tally["canastas"][kind] = tally["canastas"].get(kind, 0) + count
    return found


def shown_by_ruleset(league: League, player_id: int) -> dict:
    return {
        record.preset: {
            "figures": [
                record.games,
                record.wins,
                record.ties,
                record.points_for,
                record.rounds,
                record.went_out,
                record.red_threes,
                record.hand_points,
            ],
            "canastas": {rate.kind: rate.count for rate in record.canastas},
        }
        for record in player_stats.by_ruleset(league, player_id)
    }


def assert_kept(league: League) -> None:
    """Every season's standings, the all-time standings and every player's figures by rule set
    are what the reference computes from the games; nobody without a counted game has a row."""
    league.refresh_from_db()
    for season in [*league.seasons.all(), None]:
        assert selectors.standings(league, season) == reference_standings(league, season), season
    for player_id in Membership.objects.filter(league=league).values_list("player_id", flat=True):
        expected = reference_by_ruleset(league, player_id)
        for figures in expected.values():
            figures["figures"] = [int(v) for v in figures["figures"]]
        assert shown_by_ruleset(league, player_id) == expected, player_id
        # The player page's partners, opponents and rating chart, kept on the all-time row, are
        # what the live aggregation and the live chart give.
        record = player_stats.player_record(league, player_id, shown=None)
        assert record.partners == selectors.partners(league, player_id), player_id
        assert record.opponents == selectors.opponents(league, player_id), player_id
        live_chart = rating_chart(player_stats.rating_history(league, player_id))
        assert record.chart == live_chart, player_id
    played = set(
        Participation.objects.filter(league=league, counted=True).values_list("player", flat=True)
    )
    assert set(Standing.objects.filter(league=league).values_list("player", flat=True)) == played


@pytest.fixture
def club(organiser):
    league = league_with(organiser)
    services.season_create(
        league=league,
        name="Winter 2026",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=organiser,
    )
    return league, members(league, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")


def test_every_writer_keeps_the_standings_equal_to_the_aggregate_of_the_games(club, organiser):
    league, p = club
    assert_kept(league)
    # Games in both seasons, with a tie, each checked as it is scored.
    scored = []
    for n, (four, totals) in enumerate(
        [
            (("Ann", "Bob", "Cat", "Dan"), [500, 300]),
            (("Ann", "Cat", "Bob", "Eve"), [400, 400]),
            (("Bob", "Dan", "Ann", "Fay"), [200, 650]),
            (("Cat", "Eve", "Dan", "Fay"), [900, 100]),
            (("Ann", "Dan", "Bob", "Cat"), [350, 300]),
            (("Eve", "Fay", "Ann", "Bob"), [100, 150]),
            (("Ann", "Bob", "Eve", "Dan"), [600, 620]),
        ]
    ):
        date = (AUTUMN if n < 4 else WINTER) + datetime.timedelta(days=7 * (n % 4))
        game = table_game(league, [[p[four[0]], p[four[1]]], [p[four[2]], p[four[3]]]], date=date)
        # A game being played counts nowhere yet.
        assert_kept(league)
        play(game, totals)
        assert_kept(league)
        scored.append(game)
    assert Standing.objects.filter(league=league, season__isnull=True).count() == 6

    # A round corrected so that the result flips (and the ratings are replayed), then a tie.
    first = scored[0].game
    for totals in ([100, 700], [450, 450]):
        round_update(
            game=first,
            number=1,
            ended_by="stock_exhausted",
            entry=[{"melded_points": total} for total in totals],
        )
        assert_kept(league)

    # The last round deleted: the game is being played again and counts nowhere; then replayed.
    round_delete_last(game=first)
    assert_kept(league)
    assert Standing.objects.filter(league=league, season__isnull=True).count() == 6
    play(scored[0], [800, 100])
    assert_kept(league)

    # Voided and counted again.
    services.game_void(league_game=scored[3], reason="Misdeal", user=organiser)
    assert_kept(league)
    # Fay played only the voided game and two others; Cat's winter row is intact.
    services.game_unvoid(league_game=scored[3], user=organiser)
    assert_kept(league)

    # Gus played nowhere; a newcomer who played once, merged into him, brings his games.
    newcomer = members(league, "Gil")["Gil"]
    game = table_game(
        league,
        [[newcomer, p["Ann"]], [p["Bob"], p["Cat"]]],
        date=WINTER + datetime.timedelta(days=35),
    )
    play(game, [700, 200])
    assert_kept(league)
    services.player_merge(league=league, keep=p["Gus"], absorb=newcomer, user=organiser)
    assert_kept(league)
    assert Standing.objects.filter(league=league, player=p["Gus"]).count() == 2

    # A name change shows at once (the rows hold no name).
    services.player_update(league=league, player=p["Gus"], name="Gustav", account=None, user=None)
    assert "Gustav" in {row.name for row in selectors.standings(league, None)}
    assert_kept(league)


def test_a_restored_league_has_its_standings_rebuilt(club, organiser):
    league, p = club
    for n, totals in enumerate(([500, 300], [300, 300], [100, 900])):
        game = table_game(
            league,
            [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]],
            date=AUTUMN + datetime.timedelta(days=7 * n),
        )
        play(game, totals)
    before = {season.name: selectors.standings(league, season) for season in league.seasons.all()}
    before["all time"] = selectors.standings(league, None)
    data = backup.league_export(league)
    Game.objects.all().delete()
    league.nights.all().delete()
    league.delete()
    assert not Standing.objects.exists()

    restored = backup.league_import(data)

    after = {s.name: selectors.standings(restored, s) for s in restored.seasons.all()}
    after["all time"] = selectors.standings(restored, None)
    assert after == before
    assert_kept(restored)


def test_the_rebuild_command_fills_rows_a_bulk_load_left_out(club, organiser):
    league, p = club
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]], date=AUTUMN)
    play(game, [500, 300])
    kept = list(Standing.objects.order_by("pk").values_list("player", "season", "games", "wins"))
    # As a bulk load would leave them: no rows, or stale ones.
    Standing.objects.filter(player=p["Ann"]).delete()
    Standing.objects.filter(player=p["Bob"]).update(games=7, wins=7)
    out = StringIO()

    call_command("standings_rebuild", stdout=out)

    assert out.getvalue() == "thursday: 8 standing rows\n"
    rows = Standing.objects.order_by("player", "season").values_list(
        "player", "season", "games", "wins"
    )
    assert sorted(rows, key=str) == sorted(kept, key=str)
    assert_kept(league)


def test_a_standing_row_refuses_counts_that_do_not_add_up(club):
    from django.db import IntegrityError

    league, p = club
    with pytest.raises(IntegrityError):
        Standing.objects.create(league=league, player=p["Ann"], games=2, wins=1, ties=0, losses=0)
