"""The round timer's controls on the night's page: the organiser starts and stops it (post,
then back to the night's page), a bad length is refused beside its field, a double submit is
told what happened, and nobody else may touch it."""

import datetime

import pytest
from django.utils import timezone
from django.utils.html import escape

from leagues import services
from leagues.models import ClubNight, League, LeagueEvent
from tests.helpers.leagues import UserFactory
from tests.helpers.pages import assert_beside, field_block, text

pytestmark = pytest.mark.django_db

STARTED = datetime.datetime(2026, 10, 1, 19, 30, tzinfo=datetime.UTC)
TOO_LONG = "Type the round timer's length as a whole number of minutes from 1 to 180."


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, at STARTED until the test moves it on."""
    now = {"at": STARTED}
    monkeypatch.setattr(timezone, "now", lambda: now["at"])
    return now


def start_url(night: ClubNight) -> str:
    return f"/leagues/thursday/nights/{night.pk}/timer/start/"


def stop_url(night: ClubNight) -> str:
    return f"/leagues/thursday/nights/{night.pk}/timer/stop/"


def night_url(night: ClubNight) -> str:
    return f"/leagues/thursday/nights/{night.pk}/"


def timer(night: ClubNight) -> tuple[int | None, datetime.datetime | None]:
    night.refresh_from_db()
    return night.timer_minutes, night.timer_ends_at


def timer_events(night: ClubNight) -> list[str]:
    kinds = (LeagueEvent.Kind.TIMER_STARTED, LeagueEvent.Kind.TIMER_STOPPED)
    return list(
        night.league.events.filter(kind__in=kinds).order_by("id").values_list("summary", flat=True)
    )


def test_the_organiser_starts_the_timer_and_is_back_on_the_nights_page(as_organiser, night, clock):
    response = as_organiser.post(start_url(night), {"minutes": "20"})

    assert response.status_code == 302
    assert response["Location"] == night_url(night)
    assert timer(night) == (20, STARTED + datetime.timedelta(minutes=20))
    page = text(as_organiser.get(night_url(night)))
    assert (
        "The round timer is running: 20 minutes, until 19:50. The projector shows it at its next "
        "refresh." in page
    )
    # (The page's text with a space where each tag was.)
    assert "Round timer Running: 20 minutes, until 19:50 . The projector counts down to it." in page
    assert "Stop the round timer" in page
    # While it runs there is no second Start to press.
    assert "Start the round timer" not in page
    assert timer_events(night) == [
        "Round timer of 20 minutes started at the club night of 1 October 2026, until 19:50"
    ]


def test_the_organiser_stops_the_timer(as_organiser, night, clock):
    as_organiser.post(start_url(night), {"minutes": "20"})
    clock["at"] = STARTED + datetime.timedelta(minutes=5)

    response = as_organiser.post(stop_url(night))

    assert response.status_code == 302
    assert response["Location"] == night_url(night)
    assert timer(night) == (None, None)
    page = text(as_organiser.get(night_url(night)))
    assert "The round timer is stopped; the projector no longer shows it." in page
    assert "Start the round timer" in page
    assert timer_events(night)[-1] == (
        "Round timer stopped at the club night of 1 October 2026 with 15 minutes left"
    )


@pytest.mark.parametrize("typed", ["0", "181", "-5", "2.5", "abc", "", "1000000000000", "٣"])
def test_a_bad_length_is_refused_beside_the_field_with_what_was_typed(as_organiser, night, typed):
    response = as_organiser.post(start_url(night), {"minutes": typed})

    assert response.status_code == 200
    html = response.content.decode()
    assert_beside(html, "minutes", TOO_LONG)
    assert f'value="{escape(typed)}"' in field_block(html, "minutes")
    assert 'aria-invalid="true"' in field_block(html, "minutes")
    # The night's page around it, as its organiser sees it.
    assert "Club night, Thursday 1 October 2026" in text(html)
    assert timer(night) == (None, None)
    assert timer_events(night) == []


def test_no_length_at_all_is_refused_too(as_organiser, night):
    response = as_organiser.post(start_url(night))

    assert response.status_code == 200
    assert_beside(response.content.decode(), "minutes", TOO_LONG)


def test_start_sent_twice_starts_one_timer_and_the_second_is_told(as_organiser, night, clock):
    first = as_organiser.post(start_url(night), {"minutes": "20"})
    clock["at"] = STARTED + datetime.timedelta(seconds=1)
    second = as_organiser.post(start_url(night), {"minutes": "20"}, follow=True)

    assert first.status_code == 302
    assert second.redirect_chain == [(night_url(night), 302)]
    assert second.status_code == 200
    assert "A round timer is already running until 19:50: stop it first to start another." in text(
        second
    )
    assert timer(night) == (20, STARTED + datetime.timedelta(minutes=20))
    assert len(timer_events(night)) == 1


def test_stop_sent_twice_stops_once_and_the_second_is_told(as_organiser, night, clock):
    as_organiser.post(start_url(night), {"minutes": "20"})

    first = as_organiser.post(stop_url(night))
    second = as_organiser.post(stop_url(night), follow=True)

    assert first.status_code == 302
    assert second.status_code == 200
    assert (
        "No round timer is set at the club night of 1 October 2026: there is nothing to stop."
        in text(second)
    )
    assert len(timer_events(night)) == 2


def test_a_timer_that_ran_out_is_shown_as_such_and_may_be_started_again(as_organiser, night, clock):
    as_organiser.post(start_url(night), {"minutes": "5"})
    clock["at"] = STARTED + datetime.timedelta(minutes=6)

    page = text(as_organiser.get(night_url(night)))

    assert "Round timer Ran out at 19:35 : the projector shows “Time”." in page
    assert "Stop the round timer" in page
    assert "Start the round timer" in page
    assert as_organiser.post(start_url(night), {"minutes": "10"}).status_code == 302
    assert timer(night) == (10, STARTED + datetime.timedelta(minutes=16))


def test_a_closed_night_has_no_timer_controls_and_refuses_a_start(as_organiser, night):
    ClubNight.objects.filter(pk=night.pk).update(closed_at=timezone.now())

    assert "Round timer" not in text(as_organiser.get(night_url(night)))
    response = as_organiser.post(start_url(night), {"minutes": "20"}, follow=True)

    assert "The club night of 1 October 2026 is closed: reopen it to start a round timer." in text(
        response
    )
    assert timer(night) == (None, None)


def test_only_the_organiser_sees_the_controls(client, night, member_user):
    assert "Round timer" not in text(client.get(night_url(night)))
    client.force_login(member_user)
    assert "Round timer" not in text(client.get(night_url(night)))


def test_the_controls_only_answer_a_post(as_organiser, night):
    assert as_organiser.get(start_url(night)).status_code == 405
    assert as_organiser.get(stop_url(night)).status_code == 405


@pytest.mark.parametrize("url", [start_url, stop_url])
def test_nobody_but_the_organiser_may_start_or_stop_it(client, night, member_user, stranger, url):
    services.night_timer_start(night=night, minutes=20, user=None)
    address = url(night)

    signed_out = client.post(address, {"minutes": "20"})
    assert signed_out.status_code == 302
    assert signed_out["Location"] == f"/accounts/login/?next={address}"
    for user in (member_user, stranger):
        client.force_login(user)
        refused = client.post(address, {"minutes": "20"})
        assert refused.status_code == 403
        assert (
            "Only the organisers of Thursday Club can do this. Ask one of them to add you."
            in refused.content.decode()
        )
    # A private league is not found by those who may not see it.
    League.objects.update(visibility=League.Visibility.PRIVATE)
    client.force_login(stranger)
    assert client.post(address, {"minutes": "20"}).status_code == 404
    client.force_login(member_user)
    assert client.post(address, {"minutes": "20"}).status_code == 403
    # Nothing changed: the timer the fixture started runs on, and nobody else's is written.
    assert timer(night)[0] == 20
    assert len(timer_events(night)) == 1


def test_another_leagues_organiser_cannot_reach_this_nights_timer(client, night):
    other = UserFactory(username="otto")
    services.league_create(name="Friday", slug="friday", preset="ten-thousand", user=other)
    client.force_login(other)

    assert client.post(start_url(night), {"minutes": "20"}).status_code == 403
    assert (
        client.post(f"/leagues/friday/nights/{night.pk}/timer/start/", {"minutes": "20"})
    ).status_code == 404
    assert timer(night) == (None, None)
