"""The standings show the organiser's league points adjustments: a mark on the adjusted players'
league points and a note for each under the table, on the page, the league's page, the PDF and
the CSV (two columns of its own), with no column added to the page's table."""

import datetime

import pytest
from django.utils import timezone

from leagues import services
from tests.helpers.leagues import members, play, table_game
from tests.helpers.pages import csv_rows, tables, text
from tests.helpers.pdfs import pdf_words

pytestmark = pytest.mark.django_db

NOVEMBER = datetime.datetime(2026, 11, 12, 20, 0, tzinfo=datetime.UTC)


@pytest.fixture
def adjusted(league, organiser, monkeypatch):
    """Ann beat Bob 500 to 300; Ann was late twice (−10, by olive on 12 Nov 2026), Bob hosted
    (+3, by the system)."""
    p = members(league, "Ann Smith", "Bob")
    play(table_game(league, [[p["Ann Smith"]], [p["Bob"]]]), [500, 300])
    season = league.seasons.get()
    monkeypatch.setattr(timezone, "now", lambda: NOVEMBER)
    for player, points, reason, user in (
        (p["Ann Smith"], -10, "late twice", organiser),
        (p["Bob"], 3, "hosted", None),
    ):
        services.adjustment_add(
            league=league, season=season, player=player, points=points, reason=reason, user=user
        )
    monkeypatch.undo()
    return season


NOTES = (
    "* League points adjusted by the organiser: −10 Ann Smith: late twice (olive, 12 Nov 2026) "
    "+3 Bob: hosted (the system, 12 Nov 2026)"
)


def test_the_season_standings_mark_the_points_and_note_why(client, adjusted):
    response = client.get(f"/leagues/thursday/seasons/{adjusted.pk}/standings/")

    # Bob (0 + 3) above Ann (2 − 10); the mark's words are for screen readers only.
    header, *rows = tables(response)[0]
    assert [row[:4] for row in rows] == [["1", "Bob", "3*", "1"], ["2", "Ann Smith", "−8*", "1"]]
    assert NOTES in text(response)
    # The table keeps its columns.
    assert len(rows[0]) == len(header) == 14
    assert response.text.count('<span class="visually-hidden"> (adjusted)</span>') == 2


def test_the_all_time_standings_name_the_season(client, adjusted):
    response = client.get("/leagues/thursday/standings/")

    assert "−10 Ann Smith, Autumn 2026: late twice (olive, 12 Nov 2026)" in text(response)


def test_the_leagues_page_notes_them_under_its_top_ten(client, adjusted):
    assert NOTES in text(client.get("/leagues/thursday/"))


def test_a_sort_through_htmx_keeps_the_marks(client, adjusted):
    response = client.get(
        f"/leagues/thursday/seasons/{adjusted.pk}/standings/?sort=name&order=asc",
        HTTP_HX_REQUEST="true",
    )

    assert [row[2] for row in tables(response)[0][1:]] == ["−8*", "3*"]


def test_the_pdf_marks_and_notes_them(client, adjusted):
    response = client.get(f"/leagues/thursday/seasons/{adjusted.pk}/standings.pdf")

    words = pdf_words(b"".join(response.streaming_content))
    assert "−8*" in words and "3*" in words
    assert "−10 Ann Smith: late twice (olive, 12 Nov 2026)" in words
    assert "+3 Bob: hosted (the system, 12 Nov 2026)" in words


def test_the_csv_has_the_sum_and_the_notes(client, adjusted):
    rows = csv_rows(client.get(f"/leagues/thursday/seasons/{adjusted.pk}/standings.csv"))

    assert rows[0][-2:] == ["Points adjusted", "Adjustments"]
    assert [(row[2], row[3], row[-2], row[-1]) for row in rows[1:]] == [
        ("Bob", "3", "3", "hosted (+3, the system, 12 Nov 2026)"),
        ("Ann Smith", "-8", "-10", "late twice (−10, olive, 12 Nov 2026)"),
    ]


def test_a_season_without_adjustments_has_no_notes(client, league):
    page = client.get(f"/leagues/thursday/seasons/{league.seasons.get().pk}/standings/")

    assert "adjusted by the organiser" not in page.text
    assert "adjusted-mark" not in page.text


def test_only_the_organiser_is_offered_the_adjustments_page(client, organiser, adjusted):
    url = f"/leagues/thursday/seasons/{adjusted.pk}/standings/"
    link = f'href="/leagues/thursday/seasons/{adjusted.pk}/adjustments/"'
    assert link not in client.get(url).text
    client.force_login(organiser)
    assert link in client.get(url).text
    assert link in client.get("/leagues/thursday/").text
