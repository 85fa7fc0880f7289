"""The standings PDFs and blank score sheet, who may download a league's PDFs, the links."""

import datetime
import re

import pytest
from django.template.defaultfilters import floatformat

from leagues import services
from leagues.models import League, Membership
from leagues.public import documents, views
from scorekeeper import engine
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game
from tests.helpers.pages import body_rows
from tests.helpers.pdfs import download, filename, pdf_words

OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15)]
SUMMER = datetime.date(2026, 8, 6)
PRINTED = datetime.date(2026, 11, 22)
BAD_PAPER = "paper: 'a3' is not a paper size we print on; choose a4 or letter."

# For a visitor who is not signed in.
# League, seasons, the kept standing rows (with their adjustments summed), the adjustments' notes.
STANDINGS_PDF_QUERIES = 4
ALL_TIME_PDF_QUERIES = 3  # league, the kept standing rows, the adjustments' notes
SCORE_SHEET_QUERIES = 2  # league, seasons


def rating(league, player) -> str:
    # As the page writes it: a true minus sign, never a hyphen.
    rated = floatformat(Membership.objects.get(league=league, player=player).rating, 1)
    return rated.replace("-", "\u2212")


def pdf_links(response) -> list[str]:
    return re.findall(r'href="([^"]*\.pdf\?paper=[a-z0-9]+)"', response.content.decode())


# Standings -----------------------------------------------------------------------------------


@pytest.fixture
def club(league, monkeypatch):
    """Four players: a summer game, then three autumn club nights.

    6 Aug  Ann & Bob 700 beat Cat & Dan 100   (Summer 2026)
    1 Oct  Ann & Bob 500 beat Cat & Dan 300   (Autumn 2026, and so on)
    8 Oct  Ann & Cat 400 tie Bob & Dan 400
    15 Oct Ann & Dan 200 lose to Bob & Cat 600
    """
    monkeypatch.setattr(views, "_today", lambda: PRINTED)
    services.season_create(
        league=league,
        name="Summer 2026",
        starts_on=datetime.date(2026, 6, 1),
        ends_on=datetime.date(2026, 8, 31),
        user=None,
    )
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    for date, sides, totals in [
        (SUMMER, [["Ann", "Bob"], ["Cat", "Dan"]], [700, 100]),
        (OCT[0], [["Ann", "Bob"], ["Cat", "Dan"]], [500, 300]),
        (OCT[1], [["Ann", "Cat"], ["Bob", "Dan"]], [400, 400]),
        (OCT[2], [["Ann", "Dan"], ["Bob", "Cat"]], [200, 600]),
    ]:
        play(table_game(league, [[p[n] for n in side] for side in sides], date=date), totals)
    return p


HEADER = (
    "# Player League points Games Wins Ties Losses Win % Points for Points against "
    "Average score Average margin Rating Last five"
)


def test_a_season_standings_pdf_prints_every_row_as_the_page_does(
    client, league, club, django_assert_num_queries
):
    autumn = league.seasons.get(name="Autumn 2026")
    url = f"/leagues/thursday/seasons/{autumn.pk}/standings.pdf"
    with django_assert_num_queries(STANDINGS_PDF_QUERIES):
        response = client.get(url, {"paper": "a4"})
    words = pdf_words(download(response))
    r = {name: rating(league, player) for name, player in club.items()}

    assert filename(response) == "thursday-club-autumn-2026-standings.pdf"
    assert (
        "Thursday Club Standings: Autumn 2026 1 September 2026 to 30 November 2026 · "
        "Printed 22 November 2026"
    ) in words
    # Bob 5 points; Cat and Ann 3 each, Cat ahead on average margin; Dan 1.
    assert (
        f"{HEADER} "
        f"1 Bob 5 3 2 1 0 83.3 1,500 900 500.0 200.0 {r['Bob']} WTW "
        f"2 Cat 3 3 1 1 1 50 1,300 1,100 433.3 66.7 {r['Cat']} WTL "
        f"3 Ann 3 3 1 1 1 50 1,100 1,300 366.7 \u221266.7 {r['Ann']} LTW "
        f"4 Dan 1 3 0 1 2 16.7 900 1,500 300.0 \u2212200.0 {r['Dan']} LTL "
        f"{views.TIE_BREAK_TEXT} League points for a game: Win 2, tie 1, loss 0. "
        f"{documents.RATING_NOTE} {documents.MARKS_NOTE}"
    ) in words
    assert "Thursday Club standings: Autumn 2026 · printed 22 November 2026" in words

    # Cell for cell what the standings page shows.
    page = client.get(f"/leagues/thursday/seasons/{autumn.pk}/standings/")
    for row in body_rows(page):
        assert " ".join(row.split(" | ")) in words


def test_the_all_time_standings_pdf_counts_every_season(
    client, league, club, django_assert_num_queries
):
    with django_assert_num_queries(ALL_TIME_PDF_QUERIES):
        response = client.get("/leagues/thursday/standings.pdf", {"paper": "letter"})
    words = pdf_words(download(response))
    r = {name: rating(league, player) for name, player in club.items()}

    assert filename(response) == "thursday-club-all-time-standings.pdf"
    assert "Thursday Club Standings: All time Printed 22 November 2026" in words
    assert (
        f"{HEADER} "
        f"1 Bob 7 4 3 1 0 87.5 2,200 1,000 550.0 300.0 {r['Bob']} WTWW "
        f"2 Ann 5 4 2 1 1 62.5 1,800 1,400 450.0 100.0 {r['Ann']} LTWW "
        f"3 Cat 3 4 1 1 2 37.5 1,400 1,800 350.0 \u2212100.0 {r['Cat']} WTLL "
        f"4 Dan 1 4 0 1 3 12.5 1,000 2,200 250.0 \u2212300.0 {r['Dan']} LTLL "
    ) in words
    assert "September" not in words
    page = client.get("/leagues/thursday/standings/")
    for row in body_rows(page):
        assert " ".join(row.split(" | ")) in words


def test_a_season_without_games_prints_an_empty_table(client, league):
    season = league.seasons.get()
    words = pdf_words(download(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.pdf")))
    assert f"{HEADER} No games counted yet." in words


def test_a_total_points_league_says_so_under_its_standings(client, organiser):
    league_with(organiser, scoring=League.Scoring.TOTAL)
    words = pdf_words(download(client.get("/leagues/thursday/standings.pdf")))
    assert "League points are the total points scored." in words
    assert "League points for a game" not in words


# The league's blank score sheet --------------------------------------------------------------


def test_the_blank_sheet_prints_the_house_rules_the_season_froze(
    client, organiser, django_assert_num_queries
):
    league_with(
        organiser,
        house_rules={
            "target_score": 10000,
            "rounds": None,
            "red_three_bonus": 150,
            "canasta_bonus": {"natural": 600},
        },
    )
    league = League.objects.get(slug="thursday")
    services.league_update(league=league, user=organiser, house_rules={"red_three_bonus": 200})
    with django_assert_num_queries(SCORE_SHEET_QUERIES):
        response = client.get("/leagues/thursday/score-sheet.pdf", {"paper": "a4"})
    words = pdf_words(download(response))

    assert filename(response) == "thursday-club-autumn-2026-score-sheet.pdf"
    # The season's frozen house rules, not the red-three bonus the league has set since.
    assert (
        "Ten Thousand: score sheet Ten Thousand. The game ends when a side reaches 10,000; the "
        "highest total wins. House rules: red canasta bonus 600 (the rule set's: 500); "
        "red three laid down 150 (the rule set's: 100)."
    ) in words
    assert "League: Thursday Club · Season: Autumn 2026" in words
    assert "Write each side's name at the top of its column." in words
    assert (
        "Round 1 Team 1 Team 2 Opening meld 50 50 Going out Cards left in hand and foot "
        "Red threes in hand × −300 Black threes in hand × −5 Red threes × 150 "
        "Red canastas × 600 Black canastas × 300 Wild canastas × 1,500 Cards melded"
    ) in words
    assert "× 200" not in words
    assert "Team 3" not in words


def test_a_league_without_a_season_prints_its_own_rules(client, organiser):
    services.league_create(name="Baskets Ladder", slug="ladder", preset="baskets", user=organiser)
    response = client.get("/leagues/ladder/score-sheet.pdf", {"paper": "letter"})
    words = pdf_words(download(response))
    assert filename(response) == "baskets-ladder-score-sheet.pdf"
    assert "Baskets. The game ends when a player reaches 5,000" in words
    assert "House rules" not in words
    assert "League: Baskets Ladder Write each player's name" in words
    assert "Round 1 Player 1 Player 2 Opening meld 50 50" in words
    assert "Season" not in words


@pytest.mark.parametrize(
    ("preset", "play", "word"),
    [
        ("four-rounds", League.Play.TEAMS, "Team"),
        ("baskets", League.Play.SINGLES, "Player"),
        ("ten-thousand", League.Play.TEAMS, "Team"),
        ("ten-thousand", League.Play.SINGLES, "Player"),
    ],
)
def test_a_blank_sheet_names_its_columns_by_the_league_s_play(preset, play, word):
    league = League(name="Club", preset=preset, house_rules={}, play=play)
    card = documents.league_score_card(league, None)
    assert [side.name for side in card.sides] == [f"{word} 1", f"{word} 2"]
    assert card.named is False
    assert card.rules == engine.get_ruleset(preset)


# Who may download, and what a bad address answers ----------------------------------------------


def pdf_urls(league: League, night_id: int) -> list[str]:
    season = league.seasons.get()
    return [
        "/leagues/thursday/standings.pdf",
        f"/leagues/thursday/seasons/{season.pk}/standings.pdf",
        f"/leagues/thursday/nights/{night_id}/pack.pdf",
        "/leagues/thursday/score-sheet.pdf",
    ]


def test_a_private_league_s_pdfs_are_404_to_strangers(client, organiser):
    league = league_with(organiser, visibility=League.Visibility.PRIVATE)
    member_user = UserFactory()
    ann = services.member_add(league=league, name="Ann", account=member_user, user=None).player
    p = members(league, "Bob", "Cat", "Dan")
    game = table_game(league, [[ann, p["Bob"]], [p["Cat"], p["Dan"]]])
    urls = pdf_urls(league, game.night_id)

    for url in urls:
        assert client.get(url).status_code == 404, url
        # The paper is not looked at before the league: a bad one reveals nothing either.
        assert client.get(url, {"paper": "a3"}).status_code == 404, url
    client.force_login(UserFactory())
    for url in urls:
        assert client.get(url).status_code == 404, url
    for user in (member_user, organiser):
        client.force_login(user)
        for url in urls:
            download(client.get(url))


def test_a_bad_paper_answers_400_naming_the_field(client, league):
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    for url in pdf_urls(league, game.night_id):
        response = client.get(url, {"paper": "a3"})
        assert response.status_code == 400, url
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response.content.decode() == BAD_PAPER


def test_unknown_seasons_and_nights_are_404(client, league, organiser):
    other = services.league_create(name="Friday", slug="friday", preset="baskets", user=organiser)
    services.season_create(
        league=other,
        name="Spring",
        starts_on=datetime.date(2027, 3, 1),
        ends_on=datetime.date(2027, 5, 31),
        user=None,
    )
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    for url in [
        "/leagues/nowhere/standings.pdf",
        "/leagues/nowhere/score-sheet.pdf",
        "/leagues/thursday/seasons/999999/standings.pdf",
        f"/leagues/thursday/seasons/{other.seasons.get().pk}/standings.pdf",
        "/leagues/thursday/seasons/99999999999999999999/standings.pdf",
        "/leagues/thursday/nights/999999/pack.pdf",
        "/leagues/thursday/nights/0/pack.pdf",
        "/leagues/thursday/nights/99999999999999999999/pack.pdf",
        f"/leagues/friday/nights/{game.night_id}/pack.pdf",
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post("/leagues/thursday/standings.pdf").status_code == 405


# Links on the pages --------------------------------------------------------------------------


def test_the_pages_link_each_pdf_in_both_paper_sizes_the_locale_s_first(client, league):
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    season = league.seasons.get()
    pages = {
        "/leagues/thursday/": "/leagues/thursday/score-sheet.pdf",
        "/leagues/thursday/standings/": "/leagues/thursday/standings.pdf",
        f"/leagues/thursday/seasons/{season.pk}/standings/": (
            f"/leagues/thursday/seasons/{season.pk}/standings.pdf"
        ),
        f"/leagues/thursday/nights/{game.night_id}/": (
            f"/leagues/thursday/nights/{game.night_id}/pack.pdf"
        ),
    }
    for url, pdf in pages.items():
        british = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8")
        assert pdf_links(british) == [f"{pdf}?paper=a4", f"{pdf}?paper=letter"], url
        american = client.get(url, HTTP_ACCEPT_LANGUAGE="en-US")
        assert pdf_links(american) == [f"{pdf}?paper=letter", f"{pdf}?paper=a4"], url
        for link in pdf_links(british):
            download(client.get(link))
    # The link sits on the standings page, not in the table htmx swaps when a column sorts.
    fragment = client.get(
        f"/leagues/thursday/seasons/{season.pk}/standings/?sort=wins", HTTP_HX_REQUEST="true"
    )
    assert "<html" not in fragment.content.decode()
    assert pdf_links(fragment) == []
