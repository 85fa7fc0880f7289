"""A league's seasons added and changed, and every refusal shown beside its field."""

import datetime

import pytest

from leagues import services
from leagues.models import League
from tests.helpers.pages import assert_beside, field_block

pytestmark = pytest.mark.django_db


def test_a_season_is_added(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Winter 2026", "starts_on": "2026-12-01", "ends_on": "2027-02-28"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/leagues/thursday/"
    season = league.seasons.get(name="Winter 2026")
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2026, 12, 1),
        datetime.date(2027, 2, 28),
    )
    assert season.rules["base"] == "ten-thousand"


def test_an_overlapping_season_is_refused_beside_its_start(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Late autumn", "starts_on": "2026-11-15", "ends_on": "2027-01-31"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert_beside(
        html,
        "starts_on",
        "These dates overlap season Autumn 2026 (1 September 2026 to 30 November 2026); a game's "
        "date must fall in one season only.",
    )
    assert 'value="2027-01-31"' in field_block(html, "ends_on")
    assert league.seasons.count() == 1


def test_a_season_ending_before_it_starts_is_refused_beside_its_end(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Backwards", "starts_on": "2027-03-01", "ends_on": "2027-02-01"},
    )

    assert_beside(
        response.content.decode(), "ends_on", "The season must end on or after the day it starts."
    )
    assert league.seasons.count() == 1


def test_a_season_name_used_twice_is_refused_beside_it(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Autumn 2026", "starts_on": "2027-03-01", "ends_on": "2027-05-01"},
    )

    assert_beside(
        response.content.decode(), "name", "Thursday Club already has a season called Autumn 2026."
    )
    assert league.seasons.count() == 1


def test_a_season_is_renamed_and_moved(as_organiser, league):
    season = league.seasons.get()

    response = as_organiser.post(
        f"/leagues/thursday/seasons/{season.pk}/edit/",
        {"name": "Autumn", "starts_on": "2026-08-15", "ends_on": "2026-11-30"},
    )

    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.starts_on) == ("Autumn", datetime.date(2026, 8, 15))


def test_a_season_cannot_leave_out_its_club_nights(as_organiser, league, night):
    season = league.seasons.get()

    response = as_organiser.post(
        f"/leagues/thursday/seasons/{season.pk}/edit/",
        {"name": "Autumn 2026", "starts_on": "2026-10-02", "ends_on": "2026-11-30"},
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(),
        "starts_on",
        "The club night of 1 October 2026 belongs to this season; its dates must include it.",
    )
    season.refresh_from_db()
    assert season.starts_on == datetime.date(2026, 9, 1)


def test_another_leagues_season_is_not_found(as_organiser, league, organiser):
    other = League.objects.create(name="Other", slug="other", preset="ten-thousand")
    season = services.season_create(
        league=other,
        name="Spring",
        starts_on=datetime.date(2027, 3, 1),
        ends_on=datetime.date(2027, 5, 31),
        user=None,
    )

    assert as_organiser.get(f"/leagues/thursday/seasons/{season.pk}/edit/").status_code == 404
