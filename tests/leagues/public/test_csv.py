"""CSV downloads of a season's games and of the standings: exact rows, UTF-8 with a BOM,
awkward names quoted and formulas defused, the pages' visibility, and their cost in queries."""

import datetime

import pytest
from django.template.defaultfilters import floatformat

from leagues import services
from leagues.models import League, Membership
from leagues.public.csv_exports import safe_cell
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game
from tests.helpers.pages import csv_rows

OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15)]
# For a visitor who is not signed in, as the PDFs: league, seasons, the kept standing rows.
SEASON_STANDINGS_QUERIES = 3
ALL_TIME_STANDINGS_QUERIES = 2
GAMES_QUERIES = 4  # league, seasons, the games with their nights and round counts, their sides

STANDINGS_HEADER = [
    "#",
    "Player",
    "League points",
    "Games",
    "Wins",
    "Ties",
    "Losses",
    "Win %",
    "Points for",
    "Points against",
    "Average score",
    "Average margin",
    "Rating",
    "Last five",
]
GAMES_HEADER = [
    "Date",
    "Club night",
    "Table",
    "Side 1",
    "Side 1 total",
    "Side 2",
    "Side 2 total",
    "Result",
    "Voided",
    "Void reason",
    "Rounds",
    "Game",
]
# A comma and quotes, a line break, and a formula a spreadsheet would run.
ANN = 'Ann "Ace", Jr'
BOB = "Bob\nBrown"
EVIL = "=cmd|' /C calc'!A0"


def rating(league, player) -> str:
    return floatformat(Membership.objects.get(league=league, player=player).rating, 1)


@pytest.fixture
def small(organiser):
    """Two October nights: Ann beats Bob, then Zoë ties the formula player."""
    league = league_with(organiser, play="singles")
    players = members(league, ANN, BOB, "Zoë", EVIL)
    play(table_game(league, [[players[ANN]], [players[BOB]]], date=OCT[0]), [500, 300])
    play(table_game(league, [[players["Zoë"]], [players[EVIL]]], date=OCT[1]), [400, 400])
    return league, players


def test_safe_cell_defuses_formulas_but_keeps_numbers():
    assert [
        safe_cell(v) for v in ("=1+2", "+1", "-x", "@sum", "\tx", "-12.5", "-3", "3", None)
    ] == [
        "'=1+2",
        "'+1",
        "'-x",
        "'@sum",
        "'\tx",
        "-12.5",
        "-3",
        "3",
        "",
    ]


@pytest.mark.django_db
def test_season_games_csv_has_a_row_a_game(client, small):
    league, players = small
    season = league.seasons.get()
    first, second = league.games.order_by("date")
    services.game_void(league_game=second, reason="Wrong deck, =again", user=None)

    response = client.get(f"/leagues/thursday/seasons/{season.pk}/games.csv")

    assert response["Content-Disposition"] == (
        'attachment; filename="thursday-club-autumn-2026-games.csv"'
    )
    assert csv_rows(response) == [
        GAMES_HEADER,
        [
            "2026-10-01", "2026-10-01", "1", ANN, "500", BOB, "300", ANN, "No", "", "1",
            f"http://testserver/g/{first.game.public_id}/",
        ],
        [
            "2026-10-08", "2026-10-08", "1", "Zoë", "400", "'" + EVIL, "400", "Tie", "Yes",
            "Wrong deck, =again", "1", f"http://testserver/g/{second.game.public_id}/",
        ],
    ]  # fmt: skip
    # The quoting is the csv module's: a comma or a line break puts the cell in quotes.
    assert b'"Ann ""Ace"", Jr"' in response.content and b'"Bob\nBrown"' in response.content


@pytest.mark.django_db
def test_season_standings_csv_has_the_columns_of_the_page(client, small):
    league, players = small
    season = league.seasons.get()

    response = client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv")

    assert response["Content-Disposition"] == (
        'attachment; filename="thursday-club-autumn-2026-standings.csv"'
    )
    ann, bob, zoe, evil = (rating(league, players[name]) for name in (ANN, BOB, "Zoë", EVIL))
    assert csv_rows(response) == [
        STANDINGS_HEADER,
        ["1", ANN, "2", "1", "1", "0", "0", "100", "500", "300", "500.0", "200.0", ann, "W"],
        # Tied on everything, the two share second place ("=2", defused as a formula would be,
        # which a spreadsheet shows as =2) and are in name order: "=" comes before "Z".
        ["'=2", "'" + EVIL, "1", "1", "0", "1", "0", "50", "400", "400", "400.0", "0.0", evil, "T"],
        ["'=2", "Zoë", "1", "1", "0", "1", "0", "50", "400", "400", "400.0", "0.0", zoe, "T"],
        ["4", BOB, "0", "1", "0", "0", "1", "0", "300", "500", "300.0", "-200.0", bob, "L"],
    ]  # fmt: skip


@pytest.mark.django_db
def test_all_time_standings_csv(client, small):
    league, players = small
    response = client.get("/leagues/thursday/standings.csv")

    assert response["Content-Disposition"] == (
        'attachment; filename="thursday-club-all-time-standings.csv"'
    )
    rows = csv_rows(response)
    assert rows[0] == STANDINGS_HEADER
    assert [row[:3] for row in rows[1:]] == [
        ["1", ANN, "2"],
        ["'=2", "'" + EVIL, "1"],
        ["'=2", "Zoë", "1"],
        ["4", BOB, "0"],
    ]


@pytest.mark.django_db
def test_the_standings_page_links_its_csv(client, small):
    league, _ = small
    season = league.seasons.get()

    season_page = client.get(f"/leagues/thursday/seasons/{season.pk}/standings/").content.decode()
    all_time = client.get("/leagues/thursday/standings/").content.decode()

    assert f'href="/leagues/thursday/seasons/{season.pk}/standings.csv"' in season_page
    assert f'href="/leagues/thursday/seasons/{season.pk}/games.csv"' in season_page
    assert 'href="/leagues/thursday/standings.csv"' in all_time
    assert "games.csv" not in all_time


@pytest.mark.django_db
def test_private_league_csv_is_404_to_outsiders_and_open_to_its_organiser(client, organiser):
    league = league_with(organiser, visibility=League.Visibility.PRIVATE)
    season = league.seasons.get()
    urls = [
        "/leagues/thursday/standings.csv",
        f"/leagues/thursday/seasons/{season.pk}/standings.csv",
        f"/leagues/thursday/seasons/{season.pk}/games.csv",
    ]
    assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    client.force_login(UserFactory())
    assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    client.force_login(organiser)
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
    # An unknown season is 404 too.
    assert client.get("/leagues/thursday/seasons/999/games.csv").status_code == 404


@pytest.mark.django_db
def test_an_empty_season_has_the_header_only(client, league):
    season = league.seasons.get()
    assert csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/games.csv")) == [
        GAMES_HEADER
    ]
    assert csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv")) == [
        STANDINGS_HEADER
    ]


@pytest.mark.parametrize("nights", [1, 3])
@pytest.mark.django_db
def test_csv_query_counts_do_not_grow_with_the_league(
    client, organiser, nights, django_assert_num_queries
):
    league = league_with(organiser, play="singles")
    players = list(members(league, *(f"P{n}" for n in range(6))).values())
    for date in OCT[:nights]:
        for table in range(3):
            a, b = players[2 * table], players[2 * table + 1]
            play(table_game(league, [[a], [b]], date=date), [300 + 10 * table, 200])
    season = league.seasons.get()
    assert league.games.count() == 3 * nights

    with django_assert_num_queries(GAMES_QUERIES):
        rows = csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/games.csv"))
    assert len(rows) == 1 + 3 * nights
    with django_assert_num_queries(SEASON_STANDINGS_QUERIES):
        rows = csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv"))
    assert len(rows) == 1 + 6
    with django_assert_num_queries(ALL_TIME_STANDINGS_QUERIES):
        rows = csv_rows(client.get("/leagues/thursday/standings.csv"))
    assert len(rows) == 1 + 6
