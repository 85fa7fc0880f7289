"""Writes of seasons, and the season a date falls in."""

import datetime

from django.db import transaction

from leagues.models import (
    League,
    LeagueEvent,
    Season,
)
from leagues.services.core import (
    User,
    league_rule_set,
    record_event,
    refusal,
    save_unique,
)
from scorekeeper.games.scoring import frozen_rules


@transaction.atomic
def season_create(
    *, league: League, name: str, starts_on: datetime.date, ends_on: datetime.date, user: User
) -> Season:
    """Add a season; it freezes the league's rule set as it is now."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if ends_on < starts_on:
        raise refusal("ends_on", "The season must end on or after the day it starts.")
    _no_overlap(league, starts_on, ends_on, exclude=None)
    rules = league_rule_set(league.preset, league.house_rules)
    season = Season(
        league=league,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        rules=frozen_rules(rules),
    )
    _season_saved(season)
    record_event(
        league,
        LeagueEvent.Kind.SEASON_ADDED,
        user,
        f"Season {season.name} added ({day_text(starts_on)} to {day_text(ends_on)})",
        after={
            "name": season.name,
            "starts_on": str(starts_on),
            "ends_on": str(ends_on),
            "rules": rules.spec(),
        },
    )
    return season


def _season_saved(season: Season) -> None:
    save_unique(
        season,
        clash=Season.objects.filter(league=season.league_id, name=season.name).exclude(
            pk=season.pk
        ),
        field="name",
        message=f"{season.league.name} already has a season called {season.name}.",
    )


def _no_overlap(league: League, starts_on, ends_on, exclude: Season | None) -> None:
    clash = league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on)
    if exclude is not None:
        clash = clash.exclude(pk=exclude.pk)
    other = clash.first()
    if other is not None:
        raise refusal(
            "starts_on",
            f"These dates overlap season {other.name} ({day_text(other.starts_on)} to "
            f"{day_text(other.ends_on)}); "
            "a game's date must fall in one season only.",
        )


@transaction.atomic
def season_update(
    *, season: Season, name: str, starts_on: datetime.date, ends_on: datetime.date, user: User
) -> Season:
    """Rename a season or move its dates; its games must still fall inside it."""
    # The league first, as season_create locks it: the league's seasons change one at a time,
    # so neither their names nor their dates can cross.
    League.objects.select_for_update().get(pk=season.league_id)
    season = Season.objects.select_for_update().get(pk=season.pk)
    if ends_on < starts_on:
        raise refusal("ends_on", "The season must end on or after the day it starts.")
    _no_overlap(season.league, starts_on, ends_on, exclude=season)
    outside = season.nights.exclude(date__range=(starts_on, ends_on)).order_by("date").first()
    if outside is not None:
        raise refusal(
            "starts_on",
            f"The club night of {day_text(outside.date)} belongs to this season; its dates must "
            "include it.",
        )
    before = {
        "name": season.name,
        "starts_on": str(season.starts_on),
        "ends_on": str(season.ends_on),
    }
    season.name, season.starts_on, season.ends_on = name.strip(), starts_on, ends_on
    _season_saved(season)
    after = {"name": season.name, "starts_on": str(starts_on), "ends_on": str(ends_on)}
    record_event(
        season.league,
        LeagueEvent.Kind.SEASON_CHANGED,
        user,
        f"Season {season.name} changed",
        before=before,
        after=after,
    )
    return season


def day_text(date: datetime.date) -> str:
    """A date as the messages and the audit write it: 1 September 2026."""
    return f"{date.day} {date:%B %Y}"


def season_for(league: League, date: datetime.date) -> Season:
    """The season of the league that covers `date`."""
    season = league.seasons.filter(starts_on__lte=date, ends_on__gte=date).first()
    if season is None:
        raise refusal(
            "date", f"No season of {league.name} covers {day_text(date)}; add a season first."
        )
    return season
