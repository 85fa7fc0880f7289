"""Data migrations of the leagues app, run forwards and back on real rows."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.helpers.migrations import back_to_the_latest_migrations, migrated  # noqa: F401

BEFORE = [("leagues", "0001_players_leagues_seasons_nights_games")]
AFTER = [("leagues", "0002_account_link_per_membership")]


pytestmark = pytest.mark.usefixtures("back_to_the_latest_migrations")


@pytest.mark.django_db(transaction=True)
def test_a_players_account_link_moves_to_each_of_its_memberships_and_back():
    apps = migrated(BEFORE)
    User = apps.get_model("auth", "User")
    League = apps.get_model("leagues", "League")
    Player = apps.get_model("leagues", "Player")
    Membership = apps.get_model("leagues", "Membership")
    mia = User.objects.create(username="mia")
    leagues = [League.objects.create(name=n, slug=n, preset="sevens") for n in ("a", "b")]
    linked = Player.objects.create(name="Mia", user=mia)
    unlinked = Player.objects.create(name="Ann")
    for league in leagues:
        Membership.objects.create(league=league, player=linked)
        Membership.objects.create(league=league, player=unlinked)

    apps = migrated(AFTER)
    Membership = apps.get_model("leagues", "Membership")
    after = sorted(Membership.objects.values_list("league__slug", "player__name", "user__username"))
    back = dict(
        migrated(BEFORE)
        .get_model("leagues", "Player")
        .objects.values_list("name", "user__username")
    )
    assert after == [
        ("a", "Ann", None),
        ("a", "Mia", "mia"),
        ("b", "Ann", None),
        ("b", "Mia", "mia"),
    ]
    assert back == {"Ann": None, "Mia": "mia"}


@pytest.mark.django_db(transaction=True)
def test_the_standings_migration_fills_the_kept_rows_from_the_games():
    from tests.helpers.kept_standings import reference_standings
    from tests.helpers.leagues import UserFactory, league_with, members, play, table_game

    league = league_with(UserFactory())
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    for n, totals in enumerate(([500, 300], [300, 300], [100, 900])):
        game = table_game(
            league,
            [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]],
            date=datetime.date(2026, 10, 1) + datetime.timedelta(days=7 * n),
        )
        play(game, totals)
    migrated([("leagues", "0003_night_closed_at")])

    migrated([("leagues", "0004_standings")])

    from leagues import selectors
    from leagues.models import Standing

    assert Standing.objects.count() == 8  # four players, a season and all time
    # Read as the app reads them, on today's tables: the standings sum each player's league
    # points adjustments (issue 30) beside the rows 0004 filled.
    executor = MigrationExecutor(connection)
    migrated(executor.loader.graph.leaf_nodes())
    for season in (league.seasons.get(), None):
        assert selectors.standings(league, season) == reference_standings(league, season)
