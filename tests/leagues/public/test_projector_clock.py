"""The projector's clock, round timer and names: the time in the site's zone for the page's
script to keep, the timer's minutes left and its end (readable without JavaScript), "Time" once
it has run out, the timer reaching the board at its next refresh, and long names shortened on
the cards and in the standings."""

import datetime

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import ClubNight
from tests.helpers.leagues import NIGHT, members, play, table_game
from tests.helpers.pages import text

STARTED = datetime.datetime(2026, 10, 1, 19, 30, tzinfo=datetime.UTC)


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, at STARTED until the test moves it on."""
    now = {"at": STARTED}
    monkeypatch.setattr(timezone, "now", lambda: now["at"])
    return now


@pytest.fixture
def night(league) -> ClubNight:
    p = members(league, "Ann", "Bob")
    return services.night_create(
        league=league, date=NIGHT, player_ids=[p["Ann"].pk, p["Bob"].pk], user=None
    )


def board(client, night: ClubNight, **headers) -> str:
    response = client.get(f"/leagues/thursday/nights/{night.pk}/projector/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_the_board_shows_the_time_for_its_script_to_keep(client, night, clock):
    page = board(client, night)

    assert '<script src="/static/js/projector.js" type="module"></script>' in page
    assert (
        '<time data-clock datetime="2026-10-01T19:30:00+00:00" data-now="1790883000000" '
        'data-zone="UTC" data-offset="0">19:30</time>'
    ) in page
    # No timer until the organiser starts one.
    assert "Round timer" not in text(page)


def test_the_clock_is_in_the_sites_zone(client, night, clock, settings):
    settings.TIME_ZONE = "Europe/London"

    page = board(client, night)

    # British Summer Time: an hour ahead of UTC on 1 October.
    assert (
        '<time data-clock datetime="2026-10-01T20:30:00+01:00" data-now="1790883000000" '
        'data-zone="Europe/London" data-offset="60">20:30</time>'
    ) in page


def test_a_running_timer_shows_the_minutes_left_and_when_it_ends(client, night, clock):
    services.night_timer_start(night=night, minutes=20, user=None)
    clock["at"] = STARTED + datetime.timedelta(minutes=4, seconds=30)

    page = board(client, night)

    assert '<div class="round-timer" data-timer-ends="2026-10-01T19:50:00+00:00">' in page
    # 15½ minutes left: the page says 16 until its script counts the seconds.
    assert "Round timer ends 19:50 16 min 19:34 Live · updated 19:34:30" in text(page)


def test_a_timer_that_has_run_out_says_time(client, night, clock):
    services.night_timer_start(night=night, minutes=20, user=None)
    clock["at"] = STARTED + datetime.timedelta(minutes=20)

    page = board(client, night)

    assert '<div class="round-timer out" data-timer-ends="2026-10-01T19:50:00+00:00">' in page
    assert "Round timer ended 19:50 Time 19:50" in text(page)


def test_a_timer_started_reaches_the_board_at_its_next_refresh(client, night, clock):
    before = board(client, night, HTTP_HX_REQUEST="true")
    services.night_timer_start(night=night, minutes=15, user=None)
    after = board(client, night, HTTP_HX_REQUEST="true")
    services.night_timer_stop(night=night, user=None)
    stopped = board(client, night, HTTP_HX_REQUEST="true")

    assert "data-timer-ends" not in before
    assert after.lstrip().startswith('<main id="board"')
    assert "Round timer ends 19:45 15 min" in text(after)
    assert "data-timer-ends" not in stopped


def test_a_closed_night_shows_the_clock_but_no_timer(client, night, clock):
    services.night_timer_start(night=night, minutes=20, user=None)
    ClubNight.objects.filter(pk=night.pk).update(closed_at=STARTED)

    page = board(client, night)

    assert "data-clock" in page
    assert "Round timer" not in text(page)


def test_long_names_show_their_first_names_as_initials_with_the_whole_name_kept(
    client, league, organiser
):
    p = members(
        league,
        "Abigail Fairweather-Montgomery",
        "Bartholomew Ashworth-Beauchamp",
        "Cy",
        "Di",
    )
    game = table_game(
        league,
        [
            [p["Abigail Fairweather-Montgomery"], p["Bartholomew Ashworth-Beauchamp"]],
            [p["Cy"], p["Di"]],
        ],
    )
    play(game, [500, 300])

    # One table: a card as wide as the board has room for the whole names.
    alone = board(client, game.night)
    assert '<span class="name">Abigail Fairweather-Montgomery</span>' in alone
    # The standings' column is narrow whatever the grid.
    assert (
        '<th scope="row"><span class="name" title="Abigail Fairweather-Montgomery">'
        "A. Fairweather-Montgomery</span></th>"
    ) in alone

    # Five tables, three columns of cards: a line holds 25 characters.
    others = list(members(league, *(f"P{n}" for n in range(16))).values())
    for table in range(4):
        seated = others[4 * table : 4 * table + 4]
        table_game(league, [seated[:2], seated[2:]])
    page = board(client, game.night)

    assert (
        '<span class="player"><span class="name" title="Abigail Fairweather-Montgomery">'
        "A. Fairweather-Montgomery</span>&nbsp;&amp;</span>"
    ) in page
    assert (
        '<span class="name" title="Bartholomew Ashworth-Beauchamp">B. Ashworth-Beauchamp</span>'
    ) in page
    assert '<span class="name">Cy</span>' in page
    shown = " ".join(text(page).split())  # the no-break space before each & as a space
    assert "A. Fairweather-Montgomery & B. Ashworth-Beauchamp ★ 500 Cy & Di 300" in shown
