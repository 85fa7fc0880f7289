"""CSV downloads of a season's games and of the standings: exact rows, UTF-8 with a BOM,
text quoted and numbers not, formulas defused, ranks as numbers with a "Tied" column, the pages'
visibility, and their cost in queries. (tests/leagues/public/test_csv_safety.py reads every file
as a spreadsheet splitting on ";" would.)"""

import csv
import datetime

import pytest
from django.template.defaultfilters import floatformat

from leagues import services
from leagues.models import League, Membership
from leagues.public import documents
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game
from tests.helpers.pages import csv_rows, csv_text, read_csv

OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15)]
# For a visitor who is not signed in, as the PDFs: league, seasons, the kept standing rows (with
# their adjustments summed), the adjustments' notes.
SEASON_STANDINGS_QUERIES = 4
ALL_TIME_STANDINGS_QUERIES = 3
# League, seasons, the most sides a game has, the games with their nights and round counts, and
# their sides: the last two read a chunk at a time, side by side.
GAMES_QUERIES = 5

STANDINGS_HEADER = [
    "#",
    "Tied",
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
    "Points adjusted",
    "Adjustments",
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


def test_a_spreadsheets_figures_are_rounded_as_the_page_rounds_them():
    figures = [documents.tenths(value) for value in (2.675, -2.25, -0.04, 500, 83.35)]

    # A half away from zero, from the shortest repr; never -0.0.
    assert [str(figure) for figure in figures] == ["2.7", "-2.3", "0.0", "500.0", "83.4"]


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
    assert response["Cache-Control"] == "no-store"
    # Text quoted (a quote doubled), numbers bare; a formula, even after a comma, defused.
    first_page = f"http://testserver/g/{first.game.public_id}/"
    second_page = f"http://testserver/g/{second.game.public_id}/"
    assert csv_text(response) == (
        '"Date","Club night","Table","Side 1","Side 1 total","Side 2","Side 2 total","Result",'
        '"Voided","Void reason","Rounds","Game"\r\n'
        '"2026-10-01","2026-10-01",1,"Ann ""Ace"", Jr",500,"Bob\nBrown",300,"Ann ""Ace"", Jr",'
        f'"No","",1,"{first_page}"\r\n'
        '"2026-10-08","2026-10-08",1,"Zoë",400,"\'=cmd|\' /C calc\'!A0",400,"Tie","Yes",'
        f'"Wrong deck, \'=again",1,"{second_page}"\r\n'
    )


@pytest.mark.django_db
def test_a_table_of_three_widens_the_file_and_each_game_keeps_its_own_sides(client, organiser):
    league = league_with(organiser, play="singles")
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus")
    # Table 2 is seated first, so the games' ids run against their tables' order.
    three = table_game(league, [[p["Eve"]], [p["Fay"]], [p["Gus"]]], date=OCT[0], table=2)
    play(three, [900, 200, 100])
    two = table_game(league, [[p["Ann"]], [p["Bob"]]], date=OCT[0], table=1)
    play(two, [300, 500])
    waiting = table_game(league, [[p["Cy"]], [p["Di"]]], date=OCT[1])
    season = league.seasons.get()

    rows = csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/games.csv"))

    assert rows[0][3:10] == [
        "Side 1", "Side 1 total", "Side 2", "Side 2 total", "Side 3", "Side 3 total", "Result",
    ]  # fmt: skip
    assert [row[:2] for row in rows[1:]] == [["2026-10-01"] * 2] * 2 + [["2026-10-08"] * 2]
    # Table, the sides and their totals, result, voided, reason, rounds.
    assert [row[2:13] for row in rows[1:]] == [
        ["1", "Ann", "300", "Bob", "500", "", "", "Bob", "No", "", "1"],
        ["2", "Eve", "900", "Fay", "200", "Gus", "100", "Eve", "No", "", "1"],
        ["1", "Cy", "0", "Di", "0", "", "", "In progress", "No", "", "0"],
    ]
    assert [row[13] for row in rows[1:]] == [
        f"http://testserver/g/{game.game.public_id}/" for game in (two, three, waiting)
    ]


@pytest.mark.django_db
def test_season_standings_csv_has_the_columns_of_the_page(client, small):
    league, players = small
    season = league.seasons.get()

    response = client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv")

    assert response["Content-Disposition"] == (
        'attachment; filename="thursday-club-autumn-2026-standings.csv"'
    )
    ann, bob, zoe, evil = (rating(league, players[name]) for name in (ANN, BOB, "Zoë", EVIL))
    text = csv_text(response)
    # The figures as the page rounds them, bare, in plain digits with a hyphen-minus.
    assert text.split("\r\n")[1:] == [
        f'1,"No","Ann ""Ace"", Jr",2,1,1,0,0,100,500,300,500.0,200.0,{ann},"W",0,""',
        # Tied on everything, the two share second place: rank 2, tied, in name order ("="
        # comes before "Z"); the formula is defused.
        f'2,"Yes","\'=cmd|\' /C calc\'!A0",1,1,0,1,0,50,400,400,400.0,0.0,{evil},"T",0,""',
        f'2,"Yes","Zoë",1,1,0,1,0,50,400,400,400.0,0.0,{zoe},"T",0,""',
        f'4,"No","Bob\nBrown",0,1,0,0,1,0,300,500,300.0,-200.0,{bob},"L",0,""',
        "",
    ]
    # Read as the csv module reads numbers (QUOTE_NONNUMERIC): every unquoted cell a float.
    assert read_csv(text, quoting=csv.QUOTE_NONNUMERIC) == [
        STANDINGS_HEADER,
        [1, "No", ANN, 2, 1, 1, 0, 0, 100, 500, 300, 500, 200, float(ann), "W", 0, ""],
        [2, "Yes", "'" + EVIL, 1, 1, 0, 1, 0, 50, 400, 400, 400, 0, float(evil), "T", 0, ""],
        [2, "Yes", "Zoë", 1, 1, 0, 1, 0, 50, 400, 400, 400, 0, float(zoe), "T", 0, ""],
        [4, "No", BOB, 0, 1, 0, 0, 1, 0, 300, 500, 300, -200, float(bob), "L", 0, ""],
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
    assert [row[:4] for row in rows[1:]] == [
        ["1", "No", ANN, "2"],
        ["2", "Yes", "'" + EVIL, "1"],
        ["2", "Yes", "Zoë", "1"],
        ["4", "No", BOB, "0"],
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
