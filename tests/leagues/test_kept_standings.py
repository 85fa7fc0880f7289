"""The kept standings (`Standing` rows, `services.standings_refresh`) equal, after every writer of
participations, what the standings were before they were kept: the aggregate of every counted
game at each view, the reference in tests/helpers/kept_standings.py."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command

from leagues import selectors, services
from leagues.backup import export as backup
from leagues.models import Standing
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_delete_last, round_update
from tests.helpers.kept_standings import assert_kept
from tests.helpers.leagues import league_with, members, play, table_game

AUTUMN = datetime.date(2026, 10, 1)
WINTER = datetime.date(2026, 12, 3)


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
