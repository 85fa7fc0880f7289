"""What every league write shares: the error a refusal raises, the model check, the audit
event and the rule set a league plays."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from leagues.models import League, LeagueEvent, Player
from leagues.selectors import merged_away
from scorekeeper import engine

User = AbstractBaseUser | AnonymousUser | None
HISTORY_NIGHTS = 6
# Addresses under /leagues/ that are pages, not leagues.
RESERVED_SLUGS = {"new"}


class LeagueError(Exception):
    """Invalid input for a league write: a list of (field, message) pairs."""

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(message for _, message in self.errors))


def refusal(field: str, message: str) -> LeagueError:
    """The error that refuses a write, with its message beside `field`."""
    return LeagueError([(field, message)])


def full_check(instance) -> None:
    """full_clean(), with Django's errors turned into a LeagueError naming the fields."""
    try:
        instance.full_clean()
    except ValidationError as error:
        raise LeagueError(
            [
                (name, message)
                for name, messages in error.message_dict.items()
                for message in messages
            ]
        ) from None


def save_unique(
    instance: models.Model, *, clash: models.QuerySet, field: str, message: str
) -> None:
    """Check and save a row that a unique constraint guards; `clash` finds the row it would
    duplicate. Found before the save, or saved first by a concurrent request (the database
    refuses the insert then), it is refused beside `field`, never a server error."""
    if clash.exists():
        raise refusal(field, message)
    try:
        full_check(instance)
        # A savepoint, so that the transaction goes on after the database's refusal.
        with transaction.atomic():
            instance.save()
    except (LeagueError, IntegrityError):
        # full_clean's own uniqueness check may be the one that met the concurrent row.
        if clash.exists():
            raise refusal(field, message) from None
        raise


def record_event(league: League, kind: str, user: User, summary: str, **fields: Any) -> None:
    """Add an event to the league's audit, by `user` (the system when nobody is signed in)."""
    signed_in = user is not None and user.is_authenticated
    event = LeagueEvent(
        league=league,
        kind=kind,
        user=user if signed_in else None,
        who=user.get_username() if signed_in else "the system",
        summary=summary[:300],
        **fields,
    )
    full_check(event)
    event.save()


def league_rule_set(preset: str, house_rules: Mapping[str, Any]) -> engine.RuleSet:
    """The rule set of a preset and house rules, bad house rules refused beside their field."""
    try:
        # House rules a league sets are held to what a table plays, as a new game's are.
        return engine.table_rules({"base": preset, "overrides": dict(house_rules)})
    except engine.RoundError as error:
        raise LeagueError(
            [
                (
                    "house_rules." + item.path.removeprefix("rules.").removeprefix("overrides."),
                    item.message,
                )
                for item in error.errors
            ]
        ) from None


def player_locked(league: League, player: Player, field: str) -> Player:
    """The player's row again, locked as a merge locks it; refused beside `field` when a merge
    took them away meanwhile."""
    locked = Player.objects.select_for_update(no_key=True).filter(pk=player.pk).first()
    if locked is None:
        told = merged_away(league, player.pk)
        raise refusal(field, told or f"{player.name} is no longer a player; nothing was changed.")
    return locked
