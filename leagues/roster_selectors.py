"""Reads for a roster import: what `leagues.roster.decide` needs to know about the league.

Its own module rather than `leagues.selectors`, whose reads are the standings' and players'."""

from collections.abc import Collection

from django.contrib.auth import get_user_model

from leagues import roster
from leagues.models import League, Membership


def roster_facts(
    *,
    league: League,
    organiser,
    rows: Collection[roster.Row],
    players: Collection[int] | None = None,
) -> roster.Facts:
    """The league's members, the accounts the rows name and the organiser's players of the
    same names in their other leagues (only those in `players`, when given)."""
    members = [
        roster.Member(m.player_id, m.player.name, m.user.get_username() if m.user else None)
        for m in Membership.objects.filter(league=league)
        .select_related("player", "user")
        .order_by("player__name", "player_id")
    ]
    User = get_user_model()
    usernames = {row.username for row in rows if row.username}
    accounts = dict(
        User.objects.filter(**{f"{User.USERNAME_FIELD}__in": usernames}).values_list(
            User.USERNAME_FIELD, "pk"
        )
    )
    # Memberships of the leagues the organiser runs, so a league they do not run is never named.
    others = Membership.objects.filter(
        league__organisers=organiser, player__name__in={row.name for row in rows}
    ).exclude(player__memberships__league=league)
    if players is not None:
        others = others.filter(player__in=players)
    found: dict[int, tuple[str, str]] = {}
    for pk, name, league_name in others.order_by("player_id", "league__name").values_list(
        "player_id", "player__name", "league__name"
    ):
        found.setdefault(pk, (name, league_name))
    known: dict[str, list[roster.Known]] = {}
    for pk, (name, league_name) in found.items():
        known.setdefault(name, []).append(roster.Known(pk, league_name))
    return roster.Facts(members, accounts, known)
