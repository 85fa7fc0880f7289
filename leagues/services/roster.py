"""Writes of a roster import: the rows of a checked list added to a league in one go."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from leagues import roster
from leagues.models import League, LeagueEvent, Membership, Player
from leagues.roster_selectors import roster_facts
from leagues.services.core import User, full_check, record_event, refusal, save_unique
from scorekeeper.engine.formatting import listing, number

# A double submit, or another organiser adding the same player meanwhile: not added again.
GONE = (roster.MEMBER, roster.DUPLICATE)


@dataclass(frozen=True)
class RosterResult:
    added: list[Membership]
    # Names the organiser saw as to be added that had become members by the confirm.
    already: list[str]


def _unchanged(now: str, seen: str) -> bool:
    return now == seen or now in GONE


def _summary(names: list[str]) -> str:
    count = f"{number(len(names))} player{'s' if len(names) != 1 else ''}"
    full = f"Roster imported: {count} added ({listing(names)})"
    if len(full) <= 300:
        return full
    return f"Roster imported: {count} added"


@transaction.atomic
def roster_import(
    *,
    league: League,
    rows: Sequence[roster.Row],
    seen: Sequence[str],
    choices: Mapping[int, bool],
    user: User,
) -> RosterResult:
    """Add the rows of a previewed list that the organiser saw as to be added (`seen`, one
    outcome a row; `choices`: line: add anyway, for the rows to check), deciding them again
    against the members as they are now. Rows that became members meanwhile are skipped; any
    other change since the preview refuses the whole list, and nothing is added."""
    # The players of the organiser's other leagues that rows may reuse are locked before the
    # league, each in id order, as a merge locks its players before its leagues.
    first = roster_facts(league=league, organiser=user, rows=rows)
    wanted = sorted(known.player_id for found in first.others.values() for known in found)
    locked = list(
        Player.objects.select_for_update(no_key=True)
        .filter(pk__in=wanted)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    # Two imports (a double submit) queue here; the second decides after the first's commit.
    league = League.objects.select_for_update(no_key=True).get(pk=league.pk)
    facts = roster_facts(league=league, organiser=user, rows=rows, players=locked)
    decisions = roster.decide(rows, facts)
    if len(seen) != len(decisions) or not all(
        _unchanged(d.outcome, was) for d, was in zip(decisions, seen, strict=False)
    ):
        raise refusal(
            "roster",
            f"The members of {league.name} changed since this list was checked, so nothing "
            "was added. Check the list again below.",
        )
    accounts = get_user_model().objects.in_bulk([d.account_id for d in decisions if d.account_id])
    players = Player.objects.in_bulk(locked)
    members_before = Membership.objects.filter(league=league).count()
    added: list[Membership] = []
    already: list[str] = []
    for decision, was in zip(decisions, seen, strict=True):
        wanted_row = was == roster.ADD or (was == roster.NEAR and choices.get(decision.row.line))
        if not wanted_row:
            continue
        if decision.outcome in GONE:
            already.append(decision.row.name)
            continue
        player = players.get(decision.player_id) if decision.player_id else None
        account = accounts.get(decision.account_id)
        if player is None:
            player = Player(name=decision.row.name)
            full_check(player)
            player.save()
            # A player made just now is nobody's member yet: nothing to clash with.
            membership = Membership(league=league, player=player, user=account)
            full_check(membership)
            membership.save()
        else:
            membership = Membership(league=league, player=player, user=account)
            save_unique(
                membership,
                clash=Membership.objects.filter(league=league, player=player),
                field="roster",
                message=f"{player.name} is already a member of {league.name}.",
            )
        added.append(membership)
    if added:
        names = [
            m.player.name + (f" (account {m.user.get_username()})" if m.user else "") for m in added
        ]
        record_event(
            league,
            LeagueEvent.Kind.ROSTER_IMPORTED,
            user,
            _summary([m.player.name for m in added]),
            before={"members": members_before},
            after={
                "members": members_before + len(added),
                "added": listing(names),
                "players": [m.player_id for m in added],
            },
        )
    return RosterResult(added, already)
