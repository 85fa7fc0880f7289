"""Writes of a league's members: adding, renaming, linking, retiring and merging players."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from leagues import roster
from leagues.models import (
    Attendance,
    League,
    LeagueEvent,
    Membership,
    Participation,
    Player,
    PointsAdjustment,
)
from leagues.selectors import merged_away
from leagues.services.core import (
    User,
    full_check,
    player_locked,
    record_event,
    refusal,
    save_unique,
)
from leagues.services.results import ratings_replay
from leagues.services.standings import standings_refresh

# Players and leagues are locked FOR NO KEY UPDATE (`no_key=True`): it queues the writers of
# one player or league, and leaves alone the rows that only refer to them (a standing, an audit
# entry, an attendance), so that a table finishing never waits for a merge or an edit while
# holding what they wait for. Every write takes its locks in one order: players by id, a game's
# rows, leagues by id, then participations, members and the night.


def _league_locked(league: League) -> League:
    """The league's row again, locked: its members change one write at a time (an add, a roster
    import, a merge), each deciding after the one before it committed."""
    return League.objects.select_for_update(no_key=True).get(pk=league.pk)


def _named_member(league: League, name: str) -> str | None:
    """The name of the league's member called `name` (spaces aside, as a roster import compares
    names), or None."""
    wanted = roster.clean_name(name)
    names = Membership.objects.filter(league=league).values_list("player__name", flat=True)
    return next((each for each in names if roster.clean_name(each) == wanted), None)


@transaction.atomic
def member_add(
    *,
    league: League,
    name: str = "",
    player: Player | None = None,
    account: AbstractBaseUser | None = None,
    user: User,
) -> Membership:
    """Add a player to the league: an existing player (from another league) or a new one,
    linked in this league to `account` if given. A new player is refused when a member has
    that name already (a form sent twice, or the same name added meanwhile by another organiser
    or a roster import)."""
    if player is not None:
        # A merge of this player waits for the add (or the add for the merge), never both
        # moving memberships at once.
        player = player_locked(league, player, "name")
    league = _league_locked(league)
    if player is None:
        name = name.strip()
        taken = _named_member(league, name)
        if taken is not None:
            raise refusal(
                "name",
                f"{taken} is already a member of {league.name}, so nobody was added. A second "
                "player of that name needs something to tell them apart, such as an initial.",
            )
        player = Player(name=name)
        full_check(player)
        player.save()
    membership = Membership(league=league, player=player, user=account)
    save_unique(
        membership,
        clash=Membership.objects.filter(league=league, player=player),
        field="name",
        message=f"{player.name} is already a member of {league.name}.",
    )
    record_event(
        league,
        LeagueEvent.Kind.MEMBER_ADDED,
        user,
        f"{player.name} joined",
        after={"player": player.pk, "name": player.name},
    )
    return membership


@transaction.atomic
def player_update(
    *, league: League, player: Player, name: str, account: AbstractBaseUser | None, user: User
) -> Player:
    """Rename a member, or link their membership of this league to a user account (which
    makes that account a member of this league, and of no other)."""
    # The player first, as a merge locks them: an edit that waited for a merge of this player
    # is told they went, never a server error.
    player = player_locked(league, player, "player")
    membership = Membership.objects.select_for_update().filter(league=league, player=player).first()
    if membership is None:
        raise refusal("player", f"{player.name} is not a member of {league.name}.")
    before = {"name": player.name, "account": _username(membership.user)}
    player.name, membership.user = name.strip(), account
    full_check(player)
    player.save()
    full_check(membership)
    membership.save(update_fields=["user"])
    after = {"name": player.name, "account": _username(account)}
    record_event(
        league,
        LeagueEvent.Kind.MEMBER_CHANGED,
        user,
        f"Member {player.name} changed",
        before=before,
        after=after,
    )
    return player


def _membership_locked(league: League, player: Player) -> Membership:
    # The player first, as a merge and an edit lock them.
    player = player_locked(league, player, "player")
    membership = (
        Membership.objects.select_for_update()
        .select_related("player")
        .filter(league=league, player=player)
        .first()
    )
    if membership is None:
        raise refusal("player", f"{player.name} is not a member of {league.name}.")
    return membership


@transaction.atomic
def member_retire(*, league: League, player: Player, on: datetime.date, user: User) -> Membership:
    """Retire a member: off the tick lists of new nights and late arrivals, kept in the
    league's games, standings and history. Retiring a retired member changes nothing."""
    membership = _membership_locked(league, player)
    if membership.retired_on is not None:
        return membership
    membership.retired_on = on
    full_check(membership)
    membership.save(update_fields=["retired_on"])
    name = membership.player.name
    record_event(
        league,
        LeagueEvent.Kind.MEMBER_RETIRED,
        user,
        f"{name} retired",
        after={"player": membership.player_id, "name": name, "retired_on": str(on)},
    )
    return membership


@transaction.atomic
def member_return(*, league: League, player: Player, user: User) -> Membership:
    """Bring a retired member back onto the tick lists. A member who plays is left as is."""
    membership = _membership_locked(league, player)
    if membership.retired_on is None:
        return membership
    before = {"retired_on": str(membership.retired_on)}
    membership.retired_on = None
    membership.save(update_fields=["retired_on"])
    name = membership.player.name
    record_event(
        league,
        LeagueEvent.Kind.MEMBER_BACK,
        user,
        f"{name} is back",
        before=before,
        after={"player": membership.player_id, "name": name},
    )
    return membership


def _username(account: AbstractBaseUser | None) -> str | None:
    return account.get_username() if account is not None else None


def _locked_pair(league: League, keep: Player, absorb: Player) -> tuple[Player, Player]:
    """Both players, locked in ascending id order so that two merges of the same players (in
    either direction) queue instead of deadlocking; refused if one was merged away."""
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[keep.pk, absorb.pk])
        .order_by("pk")
    }
    for field, player in (("keep", keep), ("absorb", absorb)):
        if player.pk not in locked:
            told = merged_away(league, player.pk)
            raise refusal(
                field, told or f"{player.name} is no longer a player; nothing was changed."
            )
    return locked[keep.pk], locked[absorb.pk]


@transaction.atomic
def player_merge(*, league: League, keep: Player, absorb: Player, user: User) -> Player:
    """Merge two records of the same person: `absorb`'s games, nights and memberships move to
    `keep`, and the ratings of every league concerned are replayed."""
    if keep.pk == absorb.pk:
        raise refusal("absorb", "Choose two different players to merge.")
    # Everything below is read after the locks, so a merge that waited sees the one before it.
    keep, absorb = _locked_pair(league, keep, absorb)
    for player in (keep, absorb):
        if not Membership.objects.filter(league=league, player=player).exists():
            raise refusal("absorb", f"{player.name} is not a member of {league.name}.")
    foreign = (
        Membership.objects.filter(player=absorb)
        .exclude(league__organisers=user)
        .select_related("league")
        .first()
    )
    if foreign is not None:
        raise refusal(
            "absorb",
            f"{absorb.name} also plays in {foreign.league.name}, which you do not organise; "
            "ask its organisers to merge there.",
        )
    shared = (
        Participation.objects.filter(
            player=keep, league_game__participations__player=absorb
        ).exists()
        or Attendance.objects.filter(player=keep, night__attendances__player=absorb).exists()
    )
    if shared:
        raise refusal(
            "absorb",
            f"{keep.name} and {absorb.name} were at the same club night, so they are two people.",
        )
    # The leagues whose ratings are replayed, locked (by id) so that two merges in one league
    # replay one after the other rather than each from a stale picture.
    leagues = list(
        League.objects.select_for_update(of=("self",), no_key=True)
        .filter(memberships__player=absorb)
        .order_by("pk")
    )
    # Every league whose standings held the merged player, members or not (a player merged
    # away elsewhere may still hold participations).
    played_in = set(
        Participation.objects.filter(player=absorb).values_list("league_id", flat=True)
    ) | {each.pk for each in leagues}
    played_in |= set(
        PointsAdjustment.objects.filter(player=absorb).values_list("league_id", flat=True)
    )
    Participation.objects.filter(player=absorb).update(player=keep)
    # The organiser's penalties and bonuses go with the games.
    PointsAdjustment.objects.filter(player=absorb).update(player=keep)
    Attendance.objects.filter(player=absorb).update(player=keep)
    for membership in Membership.objects.filter(player=absorb):
        kept = Membership.objects.filter(league=membership.league, player=keep).first()
        if kept is None:
            membership.player = keep
            membership.save(update_fields=["player"])
            continue
        # One membership a league: the kept player's, with the account link it has, or else
        # the one the league gave the merged record.
        if kept.user_id is None and membership.user_id is not None:
            kept.user_id = membership.user_id
            kept.save(update_fields=["user"])
        membership.delete()
    summary = f"{absorb.name} merged into {keep.name}"
    absorbed = {"player": absorb.pk, "name": absorb.name}
    absorb.delete()
    for each in leagues:
        ratings_replay(league=each, start=None)
    # The merged player's rows went with them; the kept player's now count both records, and
    # so do the records with and against the kept player of everyone they met.
    for league_id in sorted(played_in):
        met = Participation.objects.filter(
            league_id=league_id, league_game__participations__player=keep
        ).values_list("player_id", flat=True)
        standings_refresh(league=league_id, player_ids={keep.pk, *met})
    for each in leagues:
        record_event(
            each,
            LeagueEvent.Kind.PLAYERS_MERGED,
            user,
            summary,
            before=absorbed,
            after={"player": keep.pk, "name": keep.name},
        )
    return keep
