"""Writes for leagues: leagues, seasons, members, club nights and the league's record of games.

Invalid input raises `LeagueError` with the field and a sentence that says what is allowed;
nothing is written then.
"""

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, Max, OuterRef, Subquery

from leagues import ratings, seating
from leagues.models import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Attendance,
    ClubNight,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
    Player,
    Season,
)
from scorekeeper import engine
from scorekeeper import services as games
from scorekeeper.models import Game, Side
from scorekeeper.scoring import frozen_rules, status_for

User = AbstractBaseUser | AnonymousUser | None
HISTORY_NIGHTS = 6
# Addresses under /leagues/ that are pages, not leagues.
RESERVED_SLUGS = {"new"}


class LeagueError(Exception):
    """Invalid input for a league write: a list of (field, message) pairs."""

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(message for _, message in self.errors))


def _refuse(field: str, message: str) -> LeagueError:
    return LeagueError([(field, message)])


def _checked(instance) -> None:
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


def _event(league: League, kind: str, user: User, summary: str, **fields: Any) -> None:
    signed_in = user is not None and user.is_authenticated
    event = LeagueEvent(
        league=league,
        kind=kind,
        user=user if signed_in else None,
        who=user.get_username() if signed_in else "the system",
        summary=summary[:300],
        **fields,
    )
    _checked(event)
    event.save()


def _rules(preset: str, house_rules: Mapping[str, Any]) -> engine.RuleSet:
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


# Leagues -------------------------------------------------------------------------------------

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
    "visibility",
)


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
) -> League:
    """Create a league run by `user`."""
    if preset not in engine.RULESETS:
        raise _refuse("preset", f"Choose one of the rule sets: {', '.join(engine.RULESETS)}.")
    rules = _rules(preset, house_rules or {})
    if slug in RESERVED_SLUGS:
        raise _refuse(
            "slug", f"The address “{slug}” is taken by a page of the site; choose another."
        )
    if League.objects.filter(slug=slug).exists():
        raise _refuse("slug", f"Another league already uses the address “{slug}”; choose another.")
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
    )
    _checked(league)
    league.save()
    league.organisers.add(user)
    _event(
        league,
        LeagueEvent.Kind.LEAGUE_CREATED,
        user,
        f"League {league.name} created",
        after=_league_values(league),
    )
    return league


def _default_play(rules: engine.RuleSet) -> str:
    # Baskets is a game for two players; the other presets are partnership games.
    return League.Play.SINGLES if rules.id == "baskets" else League.Play.TEAMS


@transaction.atomic
def league_update(*, league: League, user: User, **changes: Any) -> League:
    """Change a league's settings; seasons already created keep the rules they froze."""
    league = League.objects.select_for_update().get(pk=league.pk)
    unknown = set(changes) - set(LEAGUE_FIELDS)
    if unknown:
        raise _refuse(sorted(unknown)[0], "This setting cannot be changed here.")
    before = _league_values(league)
    for name, value in changes.items():
        setattr(league, name, value)
    if league.preset not in engine.RULESETS:
        raise _refuse("preset", f"Choose one of the rule sets: {', '.join(engine.RULESETS)}.")
    league.house_rules = _rules(league.preset, league.house_rules).overrides()
    _checked(league)
    league.save()
    after = _league_values(league)
    if after != before:
        changed = {k: before[k] for k in before if before[k] != after[k]}
        _event(
            league,
            LeagueEvent.Kind.LEAGUE_CHANGED,
            user,
            f"Settings changed: {', '.join(changed)}",
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
    _event(
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
    _event(
        league,
        LeagueEvent.Kind.LEAGUE_CHANGED,
        user,
        f"{username} removed as an organiser",
        before={"organisers": before},
        after={"organisers": [name for name in before if name != username]},
    )


# Seasons -------------------------------------------------------------------------------------


@transaction.atomic
def season_create(
    *, league: League, name: str, starts_on: datetime.date, ends_on: datetime.date, user: User
) -> Season:
    """Add a season; it freezes the league's rule set as it is now."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if ends_on < starts_on:
        raise _refuse("ends_on", "The season must end on or after the day it starts.")
    _no_overlap(league, starts_on, ends_on, exclude=None)
    if league.seasons.filter(name=name.strip()).exists():
        raise _refuse("name", f"{league.name} already has a season called {name.strip()}.")
    rules = _rules(league.preset, league.house_rules)
    season = Season(
        league=league,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        rules=frozen_rules(rules),
    )
    _checked(season)
    season.save()
    _event(
        league,
        LeagueEvent.Kind.SEASON_ADDED,
        user,
        f"Season {season.name} added ({starts_on} to {ends_on})",
        after={
            "name": season.name,
            "starts_on": str(starts_on),
            "ends_on": str(ends_on),
            "rules": rules.spec(),
        },
    )
    return season


def _no_overlap(league: League, starts_on, ends_on, exclude: Season | None) -> None:
    clash = league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on)
    if exclude is not None:
        clash = clash.exclude(pk=exclude.pk)
    other = clash.first()
    if other is not None:
        raise _refuse(
            "starts_on",
            f"These dates overlap season {other.name} ({other.starts_on} to {other.ends_on}); "
            "a game's date must fall in one season only.",
        )


@transaction.atomic
def season_update(
    *, season: Season, name: str, starts_on: datetime.date, ends_on: datetime.date, user: User
) -> Season:
    """Rename a season or move its dates; its games must still fall inside it."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if ends_on < starts_on:
        raise _refuse("ends_on", "The season must end on or after the day it starts.")
    _no_overlap(season.league, starts_on, ends_on, exclude=season)
    outside = season.nights.exclude(date__range=(starts_on, ends_on)).order_by("date").first()
    if outside is not None:
        raise _refuse(
            "starts_on",
            f"The club night of {outside.date} belongs to this season; its dates must include it.",
        )
    before = {
        "name": season.name,
        "starts_on": str(season.starts_on),
        "ends_on": str(season.ends_on),
    }
    season.name, season.starts_on, season.ends_on = name.strip(), starts_on, ends_on
    _checked(season)
    season.save()
    after = {"name": season.name, "starts_on": str(starts_on), "ends_on": str(ends_on)}
    _event(
        season.league,
        LeagueEvent.Kind.SEASON_CHANGED,
        user,
        f"Season {season.name} changed",
        before=before,
        after=after,
    )
    return season


def _day(date: datetime.date) -> str:
    return f"{date.day} {date:%B %Y}"


def season_for(league: League, date: datetime.date) -> Season:
    """The season of the league that covers `date`."""
    season = league.seasons.filter(starts_on__lte=date, ends_on__gte=date).first()
    if season is None:
        raise _refuse(
            "date", f"No season of {league.name} covers {_day(date)}; add a season first."
        )
    return season


# Members and players -------------------------------------------------------------------------


@transaction.atomic
def member_add(
    *,
    league: League,
    name: str = "",
    player: Player | None = None,
    account: AbstractBaseUser | None = None,
    user: User,
) -> Membership:
    """Add a player to the league: an existing player (from another league) or a new one."""
    if player is None:
        player = Player(name=name.strip(), user=account)
        _checked(player)
        player.save()
    if Membership.objects.filter(league=league, player=player).exists():
        raise _refuse("name", f"{player.name} is already a member of {league.name}.")
    membership = Membership(league=league, player=player)
    _checked(membership)
    membership.save()
    _event(
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
    """Rename a member or link them to a user account."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not Membership.objects.filter(league=league, player=player).exists():
        raise _refuse("player", f"{player.name} is not a member of {league.name}.")
    before = {"name": player.name, "account": player.user.get_username() if player.user else None}
    player.name, player.user = name.strip(), account
    _checked(player)
    player.save()
    after = {"name": player.name, "account": account.get_username() if account else None}
    _event(
        league,
        LeagueEvent.Kind.MEMBER_CHANGED,
        user,
        f"Member {player.name} changed",
        before=before,
        after=after,
    )
    return player


@transaction.atomic
def player_merge(*, league: League, keep: Player, absorb: Player, user: User) -> Player:
    """Merge two records of the same person: `absorb`'s games, nights and memberships move to
    `keep`, and the ratings of every league concerned are replayed."""
    if keep.pk == absorb.pk:
        raise _refuse("absorb", "Choose two different players to merge.")
    for player in (keep, absorb):
        if not Membership.objects.filter(league=league, player=player).exists():
            raise _refuse("absorb", f"{player.name} is not a member of {league.name}.")
    foreign = (
        Membership.objects.filter(player=absorb)
        .exclude(league__organisers=user)
        .select_related("league")
        .first()
    )
    if foreign is not None:
        raise _refuse(
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
        raise _refuse(
            "absorb",
            f"{keep.name} and {absorb.name} were at the same club night, so they are two people.",
        )
    leagues = list(League.objects.filter(memberships__player=absorb))
    Participation.objects.filter(player=absorb).update(player=keep)
    Attendance.objects.filter(player=absorb).update(player=keep)
    for membership in Membership.objects.filter(player=absorb):
        if Membership.objects.filter(league=membership.league, player=keep).exists():
            membership.delete()
        else:
            membership.player = keep
            membership.save(update_fields=["player"])
    if keep.user is None and absorb.user is not None:
        keep.user = absorb.user
        keep.save(update_fields=["user"])
    summary = f"{absorb.name} merged into {keep.name}"
    absorbed = {"player": absorb.pk, "name": absorb.name}
    absorb.delete()
    for each in leagues:
        ratings_replay(league=each, start=None)
        _event(
            each,
            LeagueEvent.Kind.PLAYERS_MERGED,
            user,
            summary,
            before=absorbed,
            after={"player": keep.pk, "name": keep.name},
        )
    return keep


# Club nights ---------------------------------------------------------------------------------


def _members(league: League, player_ids: Sequence[int]) -> list[Player]:
    players = list(Player.objects.filter(memberships__league=league, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        raise _refuse("players", "Every player present must be a member of the league.")
    return players


@transaction.atomic
def night_create(
    *, league: League, date: datetime.date, player_ids: Sequence[int], user: User, notes: str = ""
) -> ClubNight:
    """Open a club night on `date` with the players present."""
    season = season_for(league, date)
    if ClubNight.objects.filter(league=league, date=date).exists():
        raise _refuse("date", f"{league.name} already has a club night on {_day(date)}.")
    players = _members(league, player_ids)
    night = ClubNight(league=league, season=season, date=date, notes=notes)
    _checked(night)
    night.save()
    Attendance.objects.bulk_create(Attendance(night=night, player=p) for p in players)
    _event(
        league,
        LeagueEvent.Kind.NIGHT_ADDED,
        user,
        f"Club night of {date} added with {len(players)} players",
        after={"date": str(date), "players": sorted(p.name for p in players)},
    )
    return night


def _started_tables(night: ClubNight) -> set[int]:
    return set(night.games.values_list("table", flat=True))


def _history(night: ClubNight) -> list[seating.PastNight]:
    """The seatings of the league's most recent earlier nights, newest first."""
    earlier = list(
        ClubNight.objects.filter(league=night.league, date__lt=night.date).order_by("-date")[
            :HISTORY_NIGHTS
        ]
    )
    seats = Attendance.objects.filter(night__in=earlier).values_list(
        "night_id", "table", "side", "player_id"
    )
    by_night: dict[int, dict] = {n.pk: {"tables": {}, "out": []} for n in earlier}
    for night_id, table, side, player_id in seats:
        if table is None:
            by_night[night_id]["out"].append(player_id)
        else:
            by_night[night_id]["tables"].setdefault(table, {}).setdefault(side, []).append(
                player_id
            )
    return [
        seating.PastNight(
            tables=tuple(
                tuple(tuple(sides[s]) for s in sorted(sides))
                for _, sides in sorted(by_night[n.pk]["tables"].items())
            ),
            sitting_out=tuple(by_night[n.pk]["out"]),
        )
        for n in earlier
    ]


@transaction.atomic
def night_seating_propose(*, night: ClubNight, user: User) -> seating.Seating:
    """Seat everyone present who is not at a table already playing: the proposal avoids recent
    partners and opponents and balances teams by rating."""
    night = ClubNight.objects.select_for_update().select_related("league").get(pk=night.pk)
    started = _started_tables(night)
    free = list(night.attendances.exclude(table__in=started).select_related("player"))
    league = night.league
    rules = engine.resolve_rules(night.season.rules)
    ratings_by_player = dict(
        Membership.objects.filter(
            league=league, player__in=[a.player_id for a in free]
        ).values_list("player_id", "mu")
    )
    proposal = seating.propose(
        [a.player_id for a in free],
        teams=league.play == League.Play.TEAMS,
        max_sides=rules.parameters()["max_sides"],
        ratings=ratings_by_player,
        history=_history(night),
        seed=night.pk,
    )
    first = max(started, default=0) + 1
    seats = {
        player: (first + t, s, p)
        for t, table in enumerate(proposal.tables)
        for s, side in enumerate(table.sides)
        for p, player in enumerate(side)
    }
    _seats_write(night, free, seats)
    _event(
        league,
        LeagueEvent.Kind.SEATING_SET,
        user,
        f"Seating proposed for the club night of {night.date}",
        after=_seating_log(night),
    )
    return proposal


def _seats_write(night: ClubNight, attendances: list[Attendance], seats: Mapping) -> None:
    # Clear first, so that two players swapping seats never meet the unique seat constraint.
    Attendance.objects.filter(pk__in=[a.pk for a in attendances]).update(
        table=None, side=None, place=None
    )
    for attendance in attendances:
        attendance.table, attendance.side, attendance.place = seats.get(
            attendance.player_id, (None, None, None)
        )
    Attendance.objects.bulk_update(attendances, ["table", "side", "place"])


def _seating_log(night: ClubNight) -> dict[str, Any]:
    tables: dict[str, list[list[str]]] = {}
    out = []
    for a in night.attendances.select_related("player").order_by("table", "side", "place"):
        if a.table is None:
            out.append(a.player.name)
        else:
            sides = tables.setdefault(str(a.table), [])
            while len(sides) <= a.side:
                sides.append([])
            sides[a.side].append(a.player.name)
    return {"tables": tables, "sitting_out": out}


@dataclass(frozen=True)
class SeatChoice:
    """Where the organiser puts a player: a table and side, or None to sit out."""

    player_id: int
    table: int | None
    side: int | None


@transaction.atomic
def night_seating_set(*, night: ClubNight, choices: Sequence[SeatChoice], user: User) -> None:
    """Seat players by hand; tables whose games have started keep their players."""
    night = (
        ClubNight.objects.select_for_update().select_related("league", "season").get(pk=night.pk)
    )
    started = _started_tables(night)
    attendances = {a.player_id: a for a in night.attendances.select_related("player")}
    errors = []
    seats: dict[int, tuple[int, int, int]] = {}
    places: dict[tuple[int, int], int] = {}
    for choice in choices:
        attendance = attendances.get(choice.player_id)
        field = f"seat-{choice.player_id}"
        if attendance is None:
            errors.append((field, "This player is not at tonight's club night."))
            continue
        if attendance.table in started and attendance.table != choice.table:
            errors.append(
                (
                    field,
                    f"{attendance.player.name} is playing at table {attendance.table}, "
                    "whose game has started; they stay there.",
                )
            )
            continue
        if choice.table is None:
            continue
        if choice.table in started and attendance.table != choice.table:
            errors.append(
                (
                    field,
                    f"Table {choice.table}'s game has started; seat "
                    f"{attendance.player.name} at a new table.",
                )
            )
            continue
        if not (1 <= choice.table <= 99 and choice.side is not None and 0 <= choice.side <= 9):
            errors.append((field, "Choose a table from 1 to 99 and a side."))
            continue
        place = places.get((choice.table, choice.side), 0)
        places[(choice.table, choice.side)] = place + 1
        seats[choice.player_id] = (choice.table, choice.side, place)
    errors.extend(_table_problems(night, seats, started))
    if errors:
        raise LeagueError(errors)
    free = [a for a in attendances.values() if a.table not in started]
    _seats_write(night, free, seats)
    _event(
        night.league,
        LeagueEvent.Kind.SEATING_SET,
        user,
        f"Seating set by hand for the club night of {night.date}",
        after=_seating_log(night),
    )


def _table_problems(night: ClubNight, seats: Mapping, started: set[int]) -> list[tuple[str, str]]:
    rules = engine.resolve_rules(night.season.rules)
    params = rules.parameters()
    low, high = params["min_sides"], params["max_sides"]
    tables: dict[int, dict[int, int]] = {}
    for table, side, _ in seats.values():
        tables.setdefault(table, {}).setdefault(side, 0)
        tables[table][side] += 1
    problems = []
    for table, sides in sorted(tables.items()):
        count = len(sides)
        if sorted(sides) != list(range(count)):
            problems.append(
                (f"table-{table}", f"Table {table}: number its sides from 1 with no gap.")
            )
        elif count < low or (high is not None and count > high):
            allowed = f"{low}" if high == low else f"{low} to {high}" if high else f"{low} or more"
            problems.append(
                (
                    f"table-{table}",
                    f"Table {table} has {count} side{'' if count == 1 else 's'}; "
                    f"this rule set plays with {allowed}.",
                )
            )
        elif any(size > 3 for size in sides.values()):
            problems.append((f"table-{table}", f"Table {table}: a side has at most 3 players."))
    return problems


@transaction.atomic
def night_arrival(*, night: ClubNight, player: Player, user: User) -> Attendance:
    """A player who came after the seating: present, waiting for a seat."""
    if not Membership.objects.filter(league=night.league_id, player=player).exists():
        raise _refuse("player", f"{player.name} is not a member of the league.")
    if Attendance.objects.filter(night=night, player=player).exists():
        raise _refuse("player", f"{player.name} is already here tonight.")
    attendance = Attendance(night=night, player=player, arrived_late=True)
    _checked(attendance)
    attendance.save()
    _event(
        night.league,
        LeagueEvent.Kind.LATE_ARRIVAL,
        user,
        f"{player.name} arrived late at the club night of {night.date}",
        after={"player": player.name},
    )
    return attendance


def _side_names(tables_sides: list[list[Player]]) -> list[str]:
    names = []
    for side in tables_sides:
        name = " & ".join(p.name for p in side)
        if len(name) > 100:
            name = name[:97] + "..."
        while name in names:
            name = f"{name[:95]} ({len(names) + 1})"
        names.append(name)
    return names


@transaction.atomic
def night_games_start(*, night: ClubNight, user: User) -> list[LeagueGame]:
    """Start a game for every seated table that has none yet, with the season's frozen rules."""
    night = (
        ClubNight.objects.select_for_update().select_related("league", "season").get(pk=night.pk)
    )
    started = _started_tables(night)
    tables: dict[int, dict[int, list[Player]]] = {}
    for a in (
        night.attendances.filter(table__isnull=False)
        .exclude(table__in=started)
        .select_related("player")
        .order_by("table", "side", "place")
    ):
        tables.setdefault(a.table, {}).setdefault(a.side, []).append(a.player)
    if not tables:
        raise _refuse("tables", "Every seated table is already playing; seat players first.")
    problems = _table_problems(
        night,
        {
            i: (t, s, 0)
            for i, (t, s) in enumerate(
                (t, s) for t, sides in tables.items() for s, ps in sides.items() for _ in ps
            )
        },
        started,
    )
    if problems:
        raise LeagueError(problems)
    rules = night.season.rules
    created = []
    for table, sides in sorted(tables.items()):
        ordered = [sides[s] for s in sorted(sides)]
        names = _side_names(ordered)
        team_play = any(len(side) > 1 for side in ordered)
        game = games.game_start(
            preset=rules["base"],
            sides=[
                games.SideSpec(name, tuple(p.name for p in side) if team_play else ())
                for name, side in zip(names, ordered, strict=True)
            ],
            house_rules=rules["overrides"],
            owner=None,
        )
        game.rules = rules
        game.save(update_fields=["rules"])
        league_game = LeagueGame(
            game=game,
            league=night.league,
            season=night.season,
            night=night,
            table=table,
            date=night.date,
        )
        _checked(league_game)
        league_game.save()
        Participation.objects.bulk_create(
            Participation(
                league_game=league_game,
                player=player,
                side=s,
                place=p,
                league=night.league,
                season=night.season,
                date=night.date,
            )
            for s, side in enumerate(ordered)
            for p, player in enumerate(side)
        )
        created.append(league_game)
    _event(
        night.league,
        LeagueEvent.Kind.GAMES_STARTED,
        user,
        f"Games started at table{'s' if len(created) > 1 else ''} "
        f"{', '.join(str(g.table) for g in created)} on {night.date}",
        after={"tables": [g.table for g in created]},
    )
    return created


# Results and ratings -------------------------------------------------------------------------


@transaction.atomic
def league_game_refresh(*, game: Game, sides: Sequence[Side], status: engine.GameStatus) -> None:
    """Bring a league game's participations and the league's ratings up to date with its
    score; called whenever the kitchen-table app stores a score."""
    league_game = LeagueGame.objects.select_for_update().filter(game=game).first()
    if league_game is None:
        return
    _results_write(league_game, sides, status)


def _results_write(league_game: LeagueGame, sides: Sequence[Side], status) -> None:
    participations = list(league_game.participations.order_by("side", "place"))
    before = _ranking(participations)
    counted = bool(status is not None and status.finished and not league_game.voided)
    figures = _side_figures(sides, status) if status is not None else {}
    totals = [status.totals[side.name] for side in sides] if status is not None else []
    for p in participations:
        p.counted, p.outcome = counted, ""
        if status is None:
            continue
        own = totals[p.side]
        best_other = max((t for i, t in enumerate(totals) if i != p.side), default=0)
        p.points_for, p.points_against = own, best_other
        if counted:
            p.outcome = "W" if own > best_other else "T" if own == best_other else "L"
        p.rounds = len(status.rounds)
        fig = figures[p.side]
        p.went_out, p.red_threes = fig["went_out"], fig["red_threes"]
        p.hand_points, p.canastas = fig["hand_points"], fig["canastas"]
    Participation.objects.bulk_update(
        participations,
        [
            "counted",
            "outcome",
            "points_for",
            "points_against",
            "rounds",
            "went_out",
            "red_threes",
            "hand_points",
            "canastas",
        ],
    )
    if counted and league_game.ledger is None:
        league_game.ledger = (
            LeagueGame.objects.filter(league=league_game.league_id).aggregate(m=Max("ledger"))["m"]
            or 0
        ) + 1
        league_game.save(update_fields=["ledger"])
        _ratings_apply_last(league_game, participations, totals)
    elif league_game.ledger is not None and _ranking(participations) != before:
        ratings_replay(league=league_game.league, start=league_game.ledger)


def _ranking(participations: Sequence[Participation]) -> tuple:
    """What the ratings depend on: whether the game counts and the order of its sides."""
    totals = {p.side: p.points_for for p in participations}
    ranks = ratings.ranks_of([totals[s] for s in sorted(totals)])
    return (tuple(p.counted for p in participations), tuple(ranks))


def _side_figures(sides: Sequence[Side], status: engine.GameStatus) -> dict[int, dict]:
    figures = {
        i: {"went_out": 0, "red_threes": 0, "hand_points": 0, "canastas": {}}
        for i in range(len(sides))
    }
    index = {side.name: i for i, side in enumerate(sides)}
    for game_round in status.rounds:
        for side in game_round.result.sides:
            fig = figures[index[side.name]]
            for line in side.lines:
                if line.item == "going_out":
                    fig["went_out"] += 1
                elif line.item == "red_threes":
                    fig["red_threes"] += line.count or 0
                elif line.item == "hand_cards":
                    fig["hand_points"] -= line.points
                elif line.item.endswith("_canastas") and not line.item.startswith("taken_"):
                    kind = line.item.removesuffix("_canastas")
                    fig["canastas"][kind] = fig["canastas"].get(kind, 0) + (line.count or 0)
    return figures


def _ratings_apply_last(
    league_game: LeagueGame, participations: list[Participation], totals: list[int]
) -> None:
    """Rate the newest game of the ledger from the members' current ratings."""
    members = {
        m.player_id: m
        for m in Membership.objects.filter(
            league=league_game.league_id, player__in=[p.player_id for p in participations]
        )
    }
    state = {pid: ratings.Skill(m.mu, m.sigma) for pid, m in members.items()}
    _rate_one(participations, totals, state)
    Participation.objects.bulk_update(
        participations, ["mu_before", "sigma_before", "mu_after", "sigma_after"]
    )
    for pid, member in members.items():
        member.mu, member.sigma = state[pid].mu, state[pid].sigma
        member.rated_games += 1
    Membership.objects.bulk_update(members.values(), ["mu", "sigma", "rated_games"])


def _rate_one(
    participations: Sequence[Participation], totals: Sequence[int], state: dict[int, Any]
) -> None:
    default = ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA)
    sides: dict[int, list[Participation]] = {}
    for p in participations:
        sides.setdefault(p.side, []).append(p)
    order = sorted(sides)
    rated = ratings.rate(
        [[state.get(p.player_id, default) for p in sides[s]] for s in order],
        [totals[s] for s in order],
    )
    for s, skills in zip(order, rated, strict=True):
        for p, skill in zip(sides[s], skills, strict=True):
            before = state.get(p.player_id, default)
            p.mu_before, p.sigma_before = before.mu, before.sigma
            p.mu_after, p.sigma_after = skill.mu, skill.sigma
            state[p.player_id] = skill


@transaction.atomic
def ratings_replay(*, league: League, start: int | None) -> int:
    """Recompute the league's ratings from ledger position `start` on (None: from the first
    game), after a correction, a void or a merge; returns how many games were rated."""
    start = start or 0
    # Every member's skill just before `start`: their last rating from an earlier game.
    earlier = Participation.objects.filter(
        league=league,
        player=OuterRef("player"),
        mu_after__isnull=False,
        league_game__ledger__lt=start,
    ).order_by("-league_game__ledger")
    members = list(
        Membership.objects.filter(league=league).annotate(
            prev_mu=Subquery(earlier.values("mu_after")[:1]),
            prev_sigma=Subquery(earlier.values("sigma_after")[:1]),
        )
    )
    state = {
        m.player_id: ratings.Skill(m.prev_mu, m.prev_sigma)
        for m in members
        if m.prev_mu is not None
    }
    later = Participation.objects.filter(league=league, league_game__ledger__gte=start)
    later.update(mu_before=None, sigma_before=None, mu_after=None, sigma_after=None)
    rows = list(
        later.filter(counted=True)
        .select_related("league_game")
        .order_by("league_game__ledger", "side", "place")
    )
    by_game: dict[int, list[Participation]] = {}
    for p in rows:
        by_game.setdefault(p.league_game.ledger, []).append(p)
    for ledger in sorted(by_game):
        group = by_game[ledger]
        totals_by_side = {p.side: p.points_for for p in group}
        totals = [totals_by_side.get(s, 0) for s in range(max(totals_by_side) + 1)]
        _rate_one(group, totals, state)
    _ratings_write(rows)
    counts = dict(
        Participation.objects.filter(league=league, mu_after__isnull=False)
        .values("player")
        .annotate(n=Count("id"))
        .values_list("player", "n")
    )
    for m in members:
        skill = state.get(m.player_id, ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA))
        m.mu, m.sigma, m.rated_games = skill.mu, skill.sigma, counts.get(m.player_id, 0)
    Membership.objects.bulk_update(members, ["mu", "sigma", "rated_games"], batch_size=2000)
    return len(by_game)


def _ratings_write(rows: Sequence[Participation]) -> None:
    # One prepared UPDATE per row, sent in a batch: bulk_update's CASE expressions grow with
    # the batch and made a 20,000-game replay take minutes.
    table = connection.ops.quote_name(Participation._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET mu_before = %s, sigma_before = %s, mu_after = %s, "
            "sigma_after = %s WHERE id = %s",
            [(p.mu_before, p.sigma_before, p.mu_after, p.sigma_after, p.pk) for p in rows],
        )


@transaction.atomic
def game_void(*, league_game: LeagueGame, reason: str, user: User) -> LeagueGame:
    """Void a league game: it stays on record but leaves the standings and the ratings."""
    league_game = LeagueGame.objects.select_for_update().get(pk=league_game.pk)
    reason = reason.strip()
    if not reason:
        raise _refuse("reason", "Say why the game is voided (up to 200 characters).")
    if league_game.voided:
        raise _refuse("reason", "This game is already voided.")
    league_game.voided, league_game.void_reason = True, reason
    _checked(league_game)
    league_game.save(update_fields=["voided", "void_reason"])
    _refresh_from_game(league_game)
    _event(
        league_game.league,
        LeagueEvent.Kind.GAME_VOIDED,
        user,
        f"Game {league_game.game} of {league_game.date} voided: {reason}",
        before={"voided": False},
        after={"voided": True, "reason": reason, "game": league_game.game.public_id},
    )
    return league_game


@transaction.atomic
def game_unvoid(*, league_game: LeagueGame, user: User) -> LeagueGame:
    """Lift a void: the game counts again and the ratings are replayed."""
    league_game = LeagueGame.objects.select_for_update().get(pk=league_game.pk)
    if not league_game.voided:
        raise _refuse("reason", "This game is not voided.")
    reason = league_game.void_reason
    league_game.voided, league_game.void_reason = False, ""
    league_game.save(update_fields=["voided", "void_reason"])
    _refresh_from_game(league_game)
    _event(
        league_game.league,
        LeagueEvent.Kind.GAME_RESTORED,
        user,
        f"Game {league_game.game} of {league_game.date} counts again",
        before={"voided": True, "reason": reason},
        after={"voided": False, "game": league_game.game.public_id},
    )
    return league_game


def _refresh_from_game(league_game: LeagueGame) -> None:
    game = league_game.game
    sides = list(game.sides.order_by("position"))
    rounds = list(game.rounds.order_by("number"))
    status = status_for(game, sides, rounds) if rounds else None
    _results_write(league_game, sides, status)
