"""The standings pages: their rows and ratings, sorting, and what htmx and a restore get."""

import re

import pytest
from django.template.defaultfilters import floatformat

from leagues.models import League, Membership, Participation
from leagues.selectors import SORTS
from scorekeeper.engine.formatting import MINUS as M
from tests.helpers.leagues import league_with, members, play, table_game
from tests.helpers.pages import body_rows, text


def rating(league, player) -> str:
    # As the page writes it: a true minus sign, never a hyphen.
    rated = floatformat(Membership.objects.get(league=league, player=player).rating, 1)
    return rated.replace("-", "\u2212")


def test_the_standings_rows_are_what_the_games_give(client, league, club, season):
    response = client.get(f"/leagues/thursday/seasons/{season.pk}/standings/")

    assert response.status_code == 200
    r = {name: rating(league, club[name]) for name in club}
    assert body_rows(response) == [
        f"1 | Bob | 5 | 3 | 2 | 1 | 0 | 83.3 | 1,500 | 900 | 500.0 | 200.0 | {r['Bob']} | WTW",
        f"2 | Cat | 3 | 3 | 1 | 1 | 1 | 50 | 1,300 | 1,100 | 433.3 | 66.7 | {r['Cat']} | WTL",
        f"3 | Ann | 3 | 3 | 1 | 1 | 1 | 50 | 1,100 | 1,300 | 366.7 | {M}66.7 | {r['Ann']} | LTW",
        f"4 | Dan | 1 | 3 | 0 | 1 | 2 | 16.7 | 900 | 1,500 | 300.0 | {M}200.0 | {r['Dan']} | LTL",
    ]
    page = response.content.decode()
    assert 'aria-label="Win, tie, win, newest first"' in page
    assert (
        "Ranked by league points, then wins, then win % (a tie counts half a win), then average "
        "margin, then points for. Players level on all of these share a rank, shown as “=1”, "
        "and are listed by name. # is that standing rank, whichever column the table is sorted by."
    ) in text(response)
    assert "League points for a game: Win 2, tie 1, loss 0." in text(response)
    assert f'href="/leagues/thursday/seasons/{season.pk}/head-to-head/"' in page


def test_all_time_standings_cover_every_season(client, league, club):
    response = client.get("/leagues/thursday/standings/")

    assert [row.split(" | ")[1] for row in body_rows(response)] == ["Bob", "Cat", "Ann", "Dan"]
    assert '<a href="/leagues/thursday/standings/" aria-current="page">All time</a>' in (
        response.content.decode()
    )


def test_total_scoring_explains_itself_and_ranks_by_points(client, organiser):
    league = league_with(organiser, scoring=League.Scoring.TOTAL)
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]]), [500, 300])

    response = client.get("/leagues/thursday/standings/")

    assert "League points are the total points scored." in text(response)
    # Ann and Bob won the same game together: nothing separates them, so they share the top.
    assert [row.split(" | ")[:10] for row in body_rows(response)] == [
        ["=1", "Ann", "500", "1", "1", "0", "0", "100", "500", "300"],
        ["=1", "Bob", "500", "1", "1", "0", "0", "100", "500", "300"],
        ["=3", "Cat", "300", "1", "0", "0", "1", "0", "300", "500"],
        ["=3", "Dan", "300", "1", "0", "0", "1", "0", "300", "500"],
    ]


def test_unrated_players_show_a_dash(client, league, club, season):
    Membership.objects.filter(league=league, player=club["Dan"]).update(rated_games=0)

    response = client.get("/leagues/thursday/standings/")

    assert body_rows(response)[3].split(" | ")[12] == "–"


def test_a_seasons_table_shows_the_rating_its_last_game_left(client, league, club, season):
    dan = (
        Participation.objects.filter(player=club["Dan"], counted=True)
        .order_by("-league_game__ledger")
        .first()
    )
    Membership.objects.filter(league=league, player=club["Dan"]).update(mu=40.0, sigma=1.0)

    season_page = client.get(f"/leagues/thursday/seasons/{season.pk}/standings/")
    all_time = client.get("/leagues/thursday/standings/")

    expected = f"{dan.mu_after - 3 * dan.sigma_after:.1f}".replace("-", "\u2212")
    assert body_rows(season_page)[3].split(" | ")[12] == expected
    assert body_rows(all_time)[3].split(" | ")[12] == "37.0"


BY_EACH_COLUMN = [
    ("name", "asc", "Ann Bob Cat Dan"),
    ("name", "desc", "Dan Cat Bob Ann"),
    ("games", "desc", "Bob Cat Ann Dan"),
    ("wins", "desc", "Bob Cat Ann Dan"),
    ("ties", "desc", "Bob Cat Ann Dan"),
    ("losses", "desc", "Dan Cat Ann Bob"),
    ("losses", "asc", "Bob Cat Ann Dan"),
    ("win_pct", "desc", "Bob Cat Ann Dan"),
    ("points_for", "desc", "Bob Cat Ann Dan"),
    ("points_for", "asc", "Dan Ann Cat Bob"),
    ("points_against", "desc", "Dan Ann Cat Bob"),
    ("avg_score", "desc", "Bob Cat Ann Dan"),
    ("avg_margin", "desc", "Bob Cat Ann Dan"),
    ("avg_margin", "asc", "Dan Ann Cat Bob"),
    ("league_points", "desc", "Bob Cat Ann Dan"),
    ("league_points", "asc", "Dan Cat Ann Bob"),
]


def test_sorting_by_each_column(client, league, club, season):
    url = f"/leagues/thursday/seasons/{season.pk}/standings/"
    for sort, order, expected in BY_EACH_COLUMN:
        response = client.get(url, {"sort": sort, "order": order})

        names = [row.split(" | ")[1] for row in body_rows(response)]
        assert names == expected.split(), (sort, order)
        page = response.content.decode()
        assert page.count("aria-sort=") == 1
        flipped = "asc" if order == "desc" else "desc"
        aria_sort = "descending" if order == "desc" else "ascending"
        # The sorted header says how it is sorted, and its link turns the order round.
        assert re.search(
            rf'<th scope="col"(?: class="player")? aria-sort="{aria_sort}">'
            rf'\s*<a href="{url}\?sort={sort}&amp;order={flipped}" hx-get="{url}\?sort={sort}'
            rf'&amp;order={flipped}" hx-target="#standings-table" hx-swap="outerHTML" '
            rf'hx-push-url="true">{re.escape(SORTS[sort])}',
            page,
        ), (sort, order)


def test_sorting_by_rating(client, league, club, season):
    ratings = {name: Membership.objects.get(player=p).rating for name, p in club.items()}

    response = client.get(
        f"/leagues/thursday/seasons/{season.pk}/standings/", {"sort": "rating", "order": "desc"}
    )

    names = [row.split(" | ")[1] for row in body_rows(response)]
    assert names == sorted(ratings, key=ratings.get, reverse=True)


def test_every_column_is_sortable(client, league, club):
    page = client.get("/leagues/thursday/standings/").content.decode()

    for key in SORTS:
        assert f'href="/leagues/thursday/standings/?sort={key}&amp;order=' in page, key


@pytest.mark.parametrize(
    "query", [{"sort": "bogus"}, {"sort": "rating; drop", "order": "sideways"}, {"order": "up"}]
)
def test_a_bogus_sort_falls_back_to_league_points(client, league, club, query):
    response = client.get("/leagues/thursday/standings/", query)

    assert response.status_code == 200
    assert [row.split(" | ")[1] for row in body_rows(response)] == ["Bob", "Cat", "Ann", "Dan"]
    assert re.search(r'aria-sort="descending">\s*<a[^>]*>League points', response.content.decode())


def test_htmx_gets_the_table_alone(client, league, club):
    response = client.get(
        "/leagues/thursday/standings/", {"sort": "name", "order": "asc"}, HTTP_HX_REQUEST="true"
    )

    page = response.content.decode()
    assert page.lstrip().startswith('<div class="standings-box" id="standings-table">')
    assert "<html" not in page
    assert [row.split(" | ")[1] for row in body_rows(response)] == ["Ann", "Bob", "Cat", "Dan"]
    assert "HX-Request" in response["Vary"]


def test_a_history_restore_gets_the_whole_page(client, league, club):
    response = client.get(
        "/leagues/thursday/standings/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )

    assert "<html" in response.content.decode()
