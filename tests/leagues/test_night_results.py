"""A club night's results: each table, the night's best and how the season's standings moved
that night (before its games against after them), as a page and a PDF with the night page's
visibility."""

import pytest

from leagues import services
from leagues.night_results import Best, Move, move_text, night_results
from tests.helpers.leagues import OCT, league_with, members, play, table_game
from tests.helpers.pages import text
from tests.helpers.pdfs import download, pdf_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(organiser):
    return league_with(organiser)


@pytest.fixture
def two_nights(league):
    """The first night: Ann & Bob beat Cy & Di. The second: Cy & Di win two tables' worth of
    points at table 1 and Eve & Fay beat Gus & Hal at table 2, by less."""
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]], date=OCT[0]), [900, 500])
    play(table_game(league, [[p["Cy"], p["Di"]], [p["Ann"], p["Bob"]]], date=OCT[1]), [1250, 400])
    play(table_game(league, [[p["Eve"], p["Fay"]], [p["Gus"], p["Hal"]]], date=OCT[1]), [700, 650])
    return league.nights.get(date=OCT[1]), p


def test_a_nights_best_is_its_highest_total_and_its_widest_win(league, two_nights):
    night, _ = two_nights

    results = night_results(league, night)

    assert [t.state for t in results.tables] == ["finished", "finished"]
    assert results.finished == 2
    assert results.highest == Best("Cy & Di", 1250, 1)
    assert results.widest == Best("Cy & Di", 850, 1)


def test_the_standings_move_from_before_the_nights_games_to_after_them(league, two_nights):
    night, p = two_nights

    moves = night_results(league, night).moves

    # Before the night Ann and Bob led (=1) and Cy and Di trailed (=3). After it, Eve and Fay
    # lead with a win from one game; Cy and Di's win, by more, puts them ahead of Ann and Bob,
    # each side one win and one loss; Gus and Hal's first game is a loss.
    assert [(m.name, m.before, m.after, m.places, m.gained, m.games) for m in moves] == [
        ("Eve", None, "=1", 0, 2, 1),
        ("Fay", None, "=1", 0, 2, 1),
        ("Cy", "=3", "=3", 0, 2, 1),
        ("Di", "=3", "=3", 0, 2, 1),
        ("Ann", "=1", "=5", -4, 0, 1),
        ("Bob", "=1", "=5", -4, 0, 1),
        ("Gus", None, "=7", 0, 0, 1),
        ("Hal", None, "=7", 0, 0, 1),
    ]


def test_a_move_is_said_in_words():
    move = Move(1, "Ann", "=3", "1", 2, 2, 1)
    assert move_text(move) == "up 2"
    assert move_text(Move(1, "Ann", "1", "3", -2, 0, 1)) == "down 2"
    assert move_text(Move(1, "Ann", "2", "2", 0, 0, 1)) == "same"
    assert move_text(Move(1, "Ann", None, "2", 0, 2, 1)) == "new"


def test_a_night_without_a_finished_game_has_no_best_and_no_moves(league):
    p = members(league, "Ann", "Bob")
    started = table_game(league, [[p["Ann"]], [p["Bob"]]], date=OCT[0])

    results = night_results(league, started.night)

    assert [t.state for t in results.tables] == ["playing"]
    assert (results.highest, results.widest, results.moves) == (None, None, ())


def test_the_results_page_shows_each_table_the_best_and_the_moves(
    client, league, two_nights, django_assert_max_num_queries
):
    night, _ = two_nights
    url = f"/leagues/thursday/nights/{night.pk}/results/"

    with django_assert_max_num_queries(12):
        response = client.get(url)

    page = text(response)
    assert response.status_code == 200
    assert "Results: Club night, Thursday 8 October 2026" in page
    assert "Table 1 Cy & Di 1,250 ★ Ann & Bob 400 After 1 round" in page
    assert "Table 2 Eve & Fay 700 ★ Gus & Hal 650 After 1 round" in page
    assert (
        "The night's best Highest total: Cy & Di, 1,250 at table 1. "
        "Widest win: Cy & Di, by 850 at table 1."
    ) in page
    assert "=3 Cy =3 same +2" in page
    assert "=1 Eve – new +2" in page


def test_the_results_pdf_says_what_the_page_says(client, league, two_nights):
    night, _ = two_nights

    words = pdf_words(download(client.get(f"/leagues/thursday/nights/{night.pk}/results.pdf")))

    assert "Club night, Thursday 8 October 2026" in words
    assert "Table 1 Cy & Di (won) 1,250 Ann & Bob 400 after 1 round" in words
    assert "Highest total: Cy & Di, 1,250 at table 1." in words
    assert "=3 Cy =3 same +2" in words


def test_the_results_have_the_night_pages_visibility(client, league, two_nights, organiser):
    night, _ = two_nights
    services.league_update(league=league, user=organiser, visibility="private")

    for path in ("results/", "results.pdf"):
        assert client.get(f"/leagues/thursday/nights/{night.pk}/{path}").status_code == 404
    assert client.get(f"/leagues/thursday/nights/{night.pk + 99}/results/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/leagues/thursday/nights/{night.pk}/results/").status_code == 200
    assert (
        client.get(f"/leagues/thursday/nights/{night.pk}/results.pdf?paper=A0").status_code == 400
    )
