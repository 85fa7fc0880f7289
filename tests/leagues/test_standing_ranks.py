"""Ranks in the standings: players the documented tie-breaks cannot separate share a rank ("=1"),
on the page whatever it is sorted by and in the PDF, and in the CSV (rank 1, "Tied": Yes); a
tie-break that separates two players gives them ranks of their own."""

import dataclasses
import datetime

import pytest

from leagues.selectors import StandingRow, ranked, standings
from tests.helpers.leagues import members, play, table_game
from tests.helpers.pages import body_rows, csv_rows
from tests.helpers.pdfs import download, pdf_words

OCT = [datetime.date(2026, 10, day) for day in (1, 8)]


@pytest.fixture
def tied(league):
    """Ann & Bob beat Cy & Di 500 to 300; then Cy beats Di 400 to 100 on his own.

    Ann and Bob have the same record in every tie-break (2 league points, a win, 100 %, +200
    a game, 500 for): they share first. Cy has 2 league points too, but one win in two games;
    Di none.
    """
    p = members(league, "Ann", "Bob", "Cy", "Di")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]], date=OCT[0]), [500, 300])
    play(table_game(league, [[p["Cy"]], [p["Di"]]], date=OCT[1]), [400, 100])
    return p


def ranks(rows) -> list[str]:
    return [f"{row.rank} {row.name}" for row in rows]


def test_players_the_tie_breaks_cannot_separate_share_a_rank(league, tied):
    rows = standings(league)

    assert ranks(rows) == ["=1 Ann", "=1 Bob", "3 Cy", "4 Di"]


def test_the_rank_stays_with_the_player_whatever_the_sort(league, tied):
    by_name = standings(league, sort="name", descending=True)
    by_losses = standings(league, sort="losses", descending=True)

    assert ranks(by_name) == ["4 Di", "3 Cy", "=1 Bob", "=1 Ann"]
    assert ranks(by_losses) == ["4 Di", "3 Cy", "=1 Ann", "=1 Bob"]


def test_a_tie_break_further_down_the_list_still_separates(league, tied):
    # Eve wins one game 600 to 400: league points, wins and win % level with Ann and Bob,
    # average margin (+200) too, but 600 points for beats their 500. Fay's −200 a game puts
    # her above Di's −250.
    p = members(league, "Eve", "Fay")
    play(table_game(league, [[p["Eve"]], [p["Fay"]]], date=OCT[1]), [600, 400])

    rows = standings(league)

    assert ranks(rows) == ["1 Eve", "=2 Ann", "=2 Bob", "4 Cy", "5 Fay", "6 Di"]


def test_a_three_way_tie_shares_the_rank_and_the_next_one_skips(league, tied):
    p = members(league, "Eve", "Fay")
    play(table_game(league, [[p["Eve"]], [p["Fay"]]], date=OCT[1]), [500, 300])

    rows = standings(league)

    assert ranks(rows) == ["=1 Ann", "=1 Bob", "=1 Eve", "4 Cy", "5 Fay", "6 Di"]


def record(name: str, games: int, wins: int, ties: int, points_for: int, against: int):
    # A league scored on total points: the league points are the points for.
    losses = games - wins - ties
    figures = (games, wins, ties, losses, points_for, against, points_for)
    return StandingRow(1, name, *figures, rating=None, last_five="")


def test_equal_records_from_different_games_share_a_rank():
    # Ann: a win, a tie and a loss; Bob: a win and a loss. Both: 900 points, 1 win, 50 %,
    # +100 a game. The games played are not a tie-break.
    rows = [
        record("Cy", 2, 1, 0, 900, 800),
        record("Bob", 2, 1, 0, 900, 700),
        record("Ann", 3, 1, 1, 900, 600),
    ]

    assert ranks(ranked(rows)) == ["3 Cy", "=1 Bob", "=1 Ann"]


def test_the_standings_page_shows_shared_ranks_and_says_what_the_rank_is(client, league, tied):
    season = league.seasons.get()
    url = f"/leagues/thursday/seasons/{season.pk}/standings/"

    page = client.get(url)
    by_name = client.get(url, {"sort": "name", "order": "asc"})

    assert [row.split(" | ")[:4] for row in body_rows(page)] == [
        ["=1", "Ann", "2", "1"],
        ["=1", "Bob", "2", "1"],
        ["3", "Cy", "2", "2"],
        ["4", "Di", "0", "2"],
    ]
    assert [row.split(" | ")[:2] for row in body_rows(by_name)] == [
        ["=1", "Ann"],
        ["=1", "Bob"],
        ["3", "Cy"],
        ["4", "Di"],
    ]
    assert "# is that standing rank, whichever column the table is sorted by." in (
        page.content.decode()
    )


def test_the_league_page_top_table_shows_shared_ranks(client, league, tied):
    assert [row.split(" | ")[:3] for row in body_rows(client.get("/leagues/thursday/"))] == [
        ["=1", "Ann", "2"],
        ["=1", "Bob", "2"],
        ["3", "Cy", "2"],
        ["4", "Di", "0"],
    ]


def test_the_standings_pdf_prints_the_same_ranks(client, league, tied):
    season = league.seasons.get()

    words = pdf_words(download(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.pdf")))

    assert "Average margin Rating Last five =1 Ann 2 1 1 0 0 100 500 300 500.0 200.0" in words
    assert " =1 Bob 2 1 1 0 0 100 500 300 500.0 200.0 " in words
    assert " 3 Cy 2 2 1 0 1 50 700 600 350.0 50.0 " in words
    assert " 4 Di 0 2 0 0 2 0 400 900 200.0 \u2212250.0 " in words


def test_the_standings_csv_has_the_same_ranks(client, league, tied):
    season = league.seasons.get()

    rows = csv_rows(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv"))

    # The rank a number a spreadsheet sorts, and a shared one said in the "Tied" column: "=1"
    # would be run as a formula, or shown as '=1 once defused.
    assert rows[0][:3] == ["#", "Tied", "Player"]
    assert [row[:9] for row in rows[1:]] == [
        ["1", "Yes", "Ann", "2", "1", "1", "0", "0", "100"],
        ["1", "Yes", "Bob", "2", "1", "1", "0", "0", "100"],
        ["3", "No", "Cy", "2", "2", "1", "0", "1", "50"],
        ["4", "No", "Di", "0", "2", "0", "0", "2", "0"],
    ]


def test_a_ranked_row_keeps_every_figure_of_the_row_it_ranks():
    rows = [
        StandingRow(1, "Ann", 2, 1, 1, 0, 900, 800, 3, 25.5, "WT"),
        StandingRow(2, "Bob", 2, 0, 1, 1, 800, 900, 1, None, "TL"),
    ]

    assert [field.name for field in dataclasses.fields(StandingRow)][-2:] == ["place", "shared"]
    assert ranked(rows) == [
        dataclasses.replace(rows[0], place=1),
        dataclasses.replace(rows[1], place=2),
    ]
