"""A club night's round timer: the organiser starts it for a number of minutes and stops it;
the projector counts down to its end and says "Time" once it has run out.

It is kept in the night's row (`ClubNight.timer_minutes` and `timer_ends_at`), never in a
process, so every app process answers the projector with the same timer. A timer that has run
out stays, showing "Time", until it is stopped or another is started.
"""

import datetime
import math
from typing import Any

from django.db import transaction
from django.utils import timezone

from leagues.models import TIMER_MINUTES, ClubNight, LeagueEvent
from leagues.services.core import User, full_check, record_event, refusal
from leagues.services.seasons import day_text
from scorekeeper.engine.formatting import number

TIMER_MINUTES_MESSAGE = (
    f"Type the round timer's length as a whole number of minutes from {TIMER_MINUTES[0]} to "
    f"{TIMER_MINUTES[1]}."
)


def clock_text(moment: datetime.datetime) -> str:
    """A moment of tonight as the pages write it, in the site's zone: 21:15."""
    return f"{timezone.localtime(moment):%H:%M}"


def _locked(night: ClubNight) -> ClubNight:
    return (
        ClubNight.objects.select_for_update(of=("self",)).select_related("league").get(pk=night.pk)
    )


def _log(night: ClubNight) -> dict[str, Any]:
    ends = night.timer_ends_at
    return {
        "timer_minutes": night.timer_minutes,
        "timer_ends_at": ends.isoformat() if ends is not None else None,
    }


def _minutes_text(minutes: int) -> str:
    return f"{number(minutes)} minute{'' if minutes == 1 else 's'}"


@transaction.atomic
def night_timer_start(*, night: ClubNight, minutes: int, user: User) -> ClubNight:
    """Start the night's round timer: it runs out `minutes` from now. Refused on a closed night,
    and while another timer is still running (a second Start, or a double submit, leaves the
    first as it was); a timer that has run out is replaced."""
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not TIMER_MINUTES[0] <= minutes <= TIMER_MINUTES[1]
    ):
        raise refusal("minutes", TIMER_MINUTES_MESSAGE)
    night = _locked(night)
    if night.closed_at is not None:
        raise refusal(
            "night",
            f"The club night of {day_text(night.date)} is closed: reopen it to start a round "
            "timer.",
        )
    now = timezone.now()
    if night.timer_ends_at is not None and night.timer_ends_at > now:
        raise refusal(
            "night",
            f"A round timer is already running until {clock_text(night.timer_ends_at)}: stop it "
            "first to start another.",
        )
    before = _log(night)
    night.timer_minutes = minutes
    night.timer_ends_at = now + datetime.timedelta(minutes=minutes)
    full_check(night)
    night.save(update_fields=["timer_minutes", "timer_ends_at"])
    record_event(
        night.league,
        LeagueEvent.Kind.TIMER_STARTED,
        user,
        f"Round timer of {_minutes_text(minutes)} started at the club night of "
        f"{day_text(night.date)}, until {clock_text(night.timer_ends_at)}",
        before=before,
        after=_log(night),
    )
    return night


@transaction.atomic
def night_timer_stop(*, night: ClubNight, user: User) -> ClubNight:
    """Stop the night's round timer, running or run out: the projector no longer shows it.
    Refused when there is none (a second Stop, or a double submit)."""
    night = _locked(night)
    if night.timer_ends_at is None:
        raise refusal(
            "night",
            f"No round timer is set at the club night of {day_text(night.date)}: there is "
            "nothing to stop.",
        )
    before = _log(night)
    left = night.timer_ends_at - timezone.now()
    # Whole minutes, rounded up: "1 minute left" until the very end.
    minutes_left = math.ceil(left.total_seconds() / 60)
    how = (
        f"with {_minutes_text(minutes_left)} left"
        if minutes_left > 0
        else f"after it ran out at {clock_text(night.timer_ends_at)}"
    )
    night.timer_minutes = None
    night.timer_ends_at = None
    full_check(night)
    night.save(update_fields=["timer_minutes", "timer_ends_at"])
    record_event(
        night.league,
        LeagueEvent.Kind.TIMER_STOPPED,
        user,
        f"Round timer stopped at the club night of {day_text(night.date)} {how}",
        before=before,
        after=_log(night),
    )
    return night
