"""Writes of a league's settings and its organisers."""

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from leagues.models import (
    League,
    LeagueEvent,
)
from leagues.services.core import (
    RESERVED_SLUGS,
    LeagueError,
    User,
    full_check,
    league_rule_set,
    record_event,
    refusal,
    save_unique,
)
from scorekeeper import engine
from scorekeeper.engine.formatting import listing, rule_set_name
from scorekeeper.engine.house_rules import house_rule_changes

LEAGUE_FIELDS = (
    "name",
    "slug",
    "description",
    "preset",
    "house_rules",
    "play",
    "scoring",
    "win_points",
    "tie_points",
    "loss_points",
    "confirm_rounds",
    "visibility",
)

# How the settings page names each setting, for the audit line that lists what changed.
SETTING_LABELS = {
    "name": "name",
    "slug": "address",
    "description": "description",
    "preset": "rule set",
    "house_rules": "house rules",
    "play": "play",
    "scoring": "standings by",
    "win_points": "points for a win",
    "tie_points": "points for a tie",
    "loss_points": "points for a loss",
    "confirm_rounds": "rounds confirmed at the table",
    "visibility": "who can see it",
}
RULE_SET_CHOICE = "Choose one of the rule sets: {}.".format(
    listing([rule_set_name(preset) for preset in engine.RULESETS], "or")
)


# An audit line's length (LeagueEvent.summary).
SUMMARY_MAX = 300


def _rules_now(rules: engine.RuleSet, room: int) -> str:
    """The house rules in words, as many whole ones as fit in `room` characters."""
    changes = house_rule_changes(rules)
    if not changes:
        return "the rule set as published"
    for count in range(len(changes), 0, -1):
        left = len(changes) - count
        text = "; ".join(changes[:count]) + (f"; and {left} more (see After)" if left else "")
        if len(text) <= room:
            return text
    return f"{len(changes)} house rules (see After)"


def _league_values(league: League) -> dict[str, Any]:
    return {name: getattr(league, name) for name in LEAGUE_FIELDS}


@transaction.atomic
def league_create(
    *,
    name: str,
    slug: str,
    preset: str,
    user: AbstractBaseUser,
    description: str = "",
    house_rules: Mapping[str, Any] | None = None,
    play: str | None = None,
    scoring: str = League.Scoring.MATCH,
    win_points: int = 2,
    tie_points: int = 1,
    loss_points: int = 0,
    visibility: str = League.Visibility.PUBLIC,
    confirm_rounds: bool = True,
) -> League:
    """Create a league run by `user`."""
    if preset not in engine.RULESETS:
        raise refusal("preset", RULE_SET_CHOICE)
    rules = league_rule_set(preset, house_rules or {})
    if slug in RESERVED_SLUGS:
        raise refusal(
            "slug", f"The address “{slug}” is taken by a page of the site; choose another."
        )
    league = League(
        name=name.strip(),
        slug=slug,
        description=description,
        preset=preset,
        house_rules=rules.overrides(),
        play=play or _default_play(rules),
        scoring=scoring,
        win_points=win_points,
        tie_points=tie_points,
        loss_points=loss_points,
        visibility=visibility,
        confirm_rounds=confirm_rounds,
    )
    save_unique(
        league,
        clash=League.objects.filter(slug=slug),
        field="slug",
        message=f"Another league already uses the address “{slug}”; choose another.",
    )
    league.organisers.add(user)
    record_event(
        league,
        LeagueEvent.Kind.LEAGUE_CREATED,
        user,
        f"League {league.name} created",
        after=_league_values(league),
    )
    return league


def _default_play(rules: engine.RuleSet) -> str:
    return League.Play.TEAMS if rules.partnerships else League.Play.SINGLES


@transaction.atomic
def league_update(*, league: League, user: User, **changes: Any) -> League:
    """Change a league's settings; seasons already created keep the rules they froze."""
    league = League.objects.select_for_update().get(pk=league.pk)
    unknown = set(changes) - set(LEAGUE_FIELDS)
    if unknown:
        raise refusal(sorted(unknown)[0], "This setting cannot be changed here.")
    before = _league_values(league)
    for name, value in changes.items():
        setattr(league, name, value)
    if league.preset not in engine.RULESETS:
        raise refusal("preset", RULE_SET_CHOICE)
    rules = league_rule_set(league.preset, league.house_rules)
    league.house_rules = rules.overrides()
    full_check(league)
    league.save()
    after = _league_values(league)
    if after != before:
        changed = {k: before[k] for k in before if before[k] != after[k]}
        summary = f"Settings changed: {listing(SETTING_LABELS[key] for key in changed)}"
        if "house_rules" in changed:
            # The stored before and after name the parameters; the line says them in words.
            summary += f". Now: {_rules_now(rules, SUMMARY_MAX - len(summary) - 7)}"
        record_event(
            league,
            LeagueEvent.Kind.LEAGUE_CHANGED,
            user,
            summary,
            before=changed,
            after={k: after[k] for k in changed},
        )
    return league


@transaction.atomic
def organiser_add(*, league: League, account: AbstractBaseUser, user: User) -> None:
    """Let another user account run the league."""
    league = League.objects.select_for_update().get(pk=league.pk)
    before = sorted(league.organisers.values_list("username", flat=True))
    if account.get_username() in before:
        raise LeagueError(
            [("username", f"{account.get_username()} already organises {league.name}.")]
        )
    league.organisers.add(account)
    record_event(
        league,
        LeagueEvent.Kind.LEAGUE_CHANGED,
        user,
        f"{account.get_username()} added as an organiser",
        before={"organisers": before},
        after={"organisers": sorted([*before, account.get_username()])},
    )


@transaction.atomic
def organiser_remove(*, league: League, username: str, user: User) -> None:
    """Stop a user running the league; a league keeps at least one organiser."""
    league = League.objects.select_for_update().get(pk=league.pk)
    organisers = {u.get_username(): u for u in league.organisers.all()}
    if username not in organisers:
        raise LeagueError([("username", f"{username} does not organise {league.name}.")])
    if len(organisers) == 1:
        raise LeagueError(
            [
                (
                    "username",
                    f"A league needs at least one organiser: add another before removing "
                    f"{username}.",
                )
            ]
        )
    league.organisers.remove(organisers[username])
    before = sorted(organisers)
    record_event(
        league,
        LeagueEvent.Kind.LEAGUE_CHANGED,
        user,
        f"{username} removed as an organiser",
        before={"organisers": before},
        after={"organisers": [name for name in before if name != username]},
    )
