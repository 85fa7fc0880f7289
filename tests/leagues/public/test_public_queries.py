"""The public league pages cost the same number of queries whatever the number of games,
rounds, tables or players."""

import datetime

import pytest

from leagues import services
from leagues.models import League
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game

# For a visitor who is not signed in.
# League, seasons, the kept standing rows (with their adjustments summed), the adjustments' notes.
STANDINGS_QUERIES = 4
HEAD_TO_HEAD_QUERIES = 5  # league, seasons, the season's players, pairs, standing rows
HEAD_TO_HEAD_PLAYER_QUERIES = 5  # league, seasons, the season's players, opponents, partners
LEAGUE_QUERIES = 5  # league, seasons, standing rows, the adjustments' notes, nights
# league, membership, count, the all-time standing row (rule sets with their card figures, the
# rating chart, partners and opponents, all kept), the names of the partners and opponents shown,
# a page of history and its tables' players, other leagues
PLAYER_QUERIES = 8
NIGHT_QUERIES = 5  # league, night, attendances, games, their sides
LIST_QUERIES = 1
MEMBER_EXTRA_QUERIES = 4

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def league_of(organiser, games: int):
    """Eight players at two tables a night, partners changing from night to night."""
    league = league_with(organiser)
    p = list(members(league, *EIGHT).values())
    for n in range(games):
        night, table = divmod(n, 2)
        ring = p[night % 8 :] + p[: night % 8]
        four = ring[4 * table : 4 * table + 4]
        game = table_game(
            league,
            [[four[0], four[2]], [four[1], four[3]]],
            date=datetime.date(2026, 10, 1) + datetime.timedelta(days=7 * night),
            table=table + 1,
        )
        play(game, [300 + 50 * (n % 3), 400 - 50 * (n % 4)])
    return league, p


@pytest.mark.parametrize("games", [1, 12])
def test_league_pages_queries_do_not_grow_with_games(
    client, organiser, django_assert_num_queries, games
):
    league, p = league_of(organiser, games)
    season = league.seasons.get()
    night = league.nights.order_by("date").first()
    pages = [
        ("/leagues/", LIST_QUERIES),
        ("/leagues/thursday/", LEAGUE_QUERIES),
        ("/leagues/thursday/standings/?sort=rating&order=asc", STANDINGS_QUERIES),
        (f"/leagues/thursday/seasons/{season.pk}/standings/", STANDINGS_QUERIES),
        (f"/leagues/thursday/seasons/{season.pk}/head-to-head/", HEAD_TO_HEAD_QUERIES),
        (
            f"/leagues/thursday/seasons/{season.pk}/head-to-head/?player={p[0].pk}&sort=wins",
            HEAD_TO_HEAD_PLAYER_QUERIES,
        ),
        (f"/leagues/thursday/players/{p[0].pk}/", PLAYER_QUERIES),
        (f"/leagues/thursday/nights/{night.pk}/", NIGHT_QUERIES),
    ]
    for url, queries in pages:
        with django_assert_num_queries(queries):
            response = client.get(url)
        assert response.status_code == 200, url
    played = len(response.content.decode().split("Game page")) - 1
    assert played == min(games, 2)

    # A member of a private league pays for the session, the user and the two access checks.
    League.objects.filter(pk=league.pk).update(visibility=League.Visibility.PRIVATE)
    account = UserFactory()
    services.player_update(league=league, player=p[0], name="Ann", account=account, user=None)
    client.force_login(account)
    for url, queries in pages[1:]:
        with django_assert_num_queries(queries + MEMBER_EXTRA_QUERIES):
            response = client.get(url)
        assert response.status_code == 200, url


@pytest.mark.parametrize("tables", [1, 5])
def test_night_page_queries_do_not_grow_with_tables(
    client, organiser, django_assert_num_queries, tables
):
    league = league_with(organiser)
    p = list(members(league, *(f"P{n:02}" for n in range(4 * tables + 2))).values())
    started = [
        table_game(league, [p[4 * t : 4 * t + 2], p[4 * t + 2 : 4 * t + 4]], table=t + 1)
        for t in range(tables)
    ]
    night = league.nights.get()
    # One sits out, one arrives late and waits (before the games end: a night whose every
    # table has finished closes).
    services.night_arrival(night=night, player=p[-2], user=None)
    night.attendances.filter(player=p[-2]).update(arrived_late=False)
    services.night_arrival(night=night, player=p[-1], user=None)
    for game in started[::2]:
        play(game, [500, 300])
    url = f"/leagues/thursday/nights/{night.pk}/"

    with django_assert_num_queries(NIGHT_QUERIES):
        response = client.get(url)
    with django_assert_num_queries(NIGHT_QUERIES):
        fragment = client.get(url, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert page.count('<article class="card night-table">') == tables
    assert f"{4 * tables + 2} players:" in page
    assert "<html" not in fragment.content.decode()
