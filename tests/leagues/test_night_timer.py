"""A club night's round timer: started for 1 to 180 minutes and stopped by the organiser, kept in
the night's row and written in the league's audit like every other change to a night."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues import services
from leagues.models import ClubNight, LeagueEvent
from leagues.services import LeagueError
from tests.helpers.leagues import NIGHT, members

# 19:30 in the site's zone (UTC in the tests).
STARTED = datetime.datetime(2026, 10, 1, 19, 30, tzinfo=datetime.UTC)
TOO_LONG = "Type the round timer's length as a whole number of minutes from 1 to 180."


@pytest.fixture
def night(league) -> ClubNight:
    p = members(league, "Ann", "Bob")
    return services.night_create(
        league=league, date=NIGHT, player_ids=[p["Ann"].pk, p["Bob"].pk], user=None
    )


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, at STARTED until the test moves it on."""
    now = {"at": STARTED}
    monkeypatch.setattr(timezone, "now", lambda: now["at"])
    return now


def refused(call, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(LeagueError) as caught:
        call(**kwargs)
    return caught.value.errors


def timer(night: ClubNight) -> tuple[int | None, datetime.datetime | None]:
    night.refresh_from_db()
    return night.timer_minutes, night.timer_ends_at


def audit(night: ClubNight) -> list[tuple[str, str, str, dict | None, dict | None]]:
    kinds = (LeagueEvent.Kind.TIMER_STARTED, LeagueEvent.Kind.TIMER_STOPPED)
    return list(
        night.league.events.filter(kind__in=kinds)
        .order_by("id")
        .values_list("kind", "who", "summary", "before", "after")
    )


def test_a_timer_started_runs_out_its_length_from_now_and_is_in_the_audit(night, organiser, clock):
    started = services.night_timer_start(night=night, minutes=20, user=organiser)

    assert started.timer_ends_at == STARTED + datetime.timedelta(minutes=20)
    assert timer(night) == (20, datetime.datetime(2026, 10, 1, 19, 50, tzinfo=datetime.UTC))
    assert audit(night) == [
        (
            "timer_started",
            "olive",
            "Round timer of 20 minutes started at the club night of 1 October 2026, until 19:50",
            {"timer_minutes": None, "timer_ends_at": None},
            {"timer_minutes": 20, "timer_ends_at": "2026-10-01T19:50:00+00:00"},
        )
    ]


def test_a_timer_stopped_is_gone_and_the_audit_says_how_long_was_left(night, organiser, clock):
    services.night_timer_start(night=night, minutes=1, user=organiser)
    clock["at"] = STARTED + datetime.timedelta(seconds=20)

    services.night_timer_stop(night=night, user=organiser)

    assert timer(night) == (None, None)
    assert audit(night)[-1] == (
        "timer_stopped",
        "olive",
        "Round timer stopped at the club night of 1 October 2026 with 1 minute left",
        {"timer_minutes": 1, "timer_ends_at": "2026-10-01T19:31:00+00:00"},
        {"timer_minutes": None, "timer_ends_at": None},
    )


def test_a_timer_that_ran_out_can_be_stopped_or_replaced(night, clock):
    services.night_timer_start(night=night, minutes=5, user=None)
    clock["at"] = STARTED + datetime.timedelta(minutes=7)

    services.night_timer_start(night=night, minutes=10, user=None)
    assert timer(night) == (10, STARTED + datetime.timedelta(minutes=17))
    clock["at"] = STARTED + datetime.timedelta(minutes=30)
    services.night_timer_stop(night=night, user=None)

    assert [summary for _, who, summary, _, _ in audit(night)] == [
        "Round timer of 5 minutes started at the club night of 1 October 2026, until 19:35",
        "Round timer of 10 minutes started at the club night of 1 October 2026, until 19:47",
        "Round timer stopped at the club night of 1 October 2026 after it ran out at 19:47",
    ]
    assert {who for _, who, _, _, _ in audit(night)} == {"the system"}


@pytest.mark.parametrize("minutes", [0, -5, 181, 10_000, 2.5, "20", None, True])
def test_a_length_outside_1_to_180_whole_minutes_is_refused_naming_the_field(night, minutes):
    assert refused(services.night_timer_start, night=night, minutes=minutes, user=None) == [
        ("minutes", TOO_LONG)
    ]
    assert timer(night) == (None, None)
    assert audit(night) == []


@pytest.mark.parametrize("minutes", [1, 180])
def test_one_minute_and_three_hours_are_the_bounds(night, minutes, clock):
    services.night_timer_start(night=night, minutes=minutes, user=None)

    assert timer(night) == (minutes, STARTED + datetime.timedelta(minutes=minutes))


def test_a_second_start_while_a_timer_runs_leaves_the_first(night, clock):
    services.night_timer_start(night=night, minutes=20, user=None)
    clock["at"] = STARTED + datetime.timedelta(minutes=3)

    assert refused(services.night_timer_start, night=night, minutes=30, user=None) == [
        ("night", "A round timer is already running until 19:50: stop it first to start another.")
    ]
    assert timer(night) == (20, STARTED + datetime.timedelta(minutes=20))
    assert len(audit(night)) == 1


def test_stopping_when_no_timer_is_set_is_refused(night):
    assert refused(services.night_timer_stop, night=night, user=None) == [
        (
            "night",
            "No round timer is set at the club night of 1 October 2026: there is nothing to stop.",
        )
    ]
    assert audit(night) == []


def test_a_closed_night_starts_no_timer_but_may_stop_one(night, clock):
    services.night_timer_start(night=night, minutes=20, user=None)
    ClubNight.objects.filter(pk=night.pk).update(closed_at=STARTED)
    clock["at"] = STARTED + datetime.timedelta(minutes=30)

    assert refused(services.night_timer_start, night=night, minutes=20, user=None) == [
        (
            "night",
            "The club night of 1 October 2026 is closed: reopen it to start a round timer.",
        )
    ]
    services.night_timer_stop(night=night, user=None)
    assert timer(night) == (None, None)


def test_the_database_holds_a_timer_whole_or_not_at_all(night):
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubNight.objects.filter(pk=night.pk).update(timer_minutes=20)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubNight.objects.filter(pk=night.pk).update(timer_minutes=181, timer_ends_at=STARTED)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubNight.objects.filter(pk=night.pk).update(timer_ends_at=STARTED)
