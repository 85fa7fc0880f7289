"""Writes of club nights: who is present, where they sit, late arrivals and the tables' games."""

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from leagues import seating
from leagues.models import (
    Attendance,
    ClubNight,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
    Player,
)
from leagues.services.core import (
    HISTORY_NIGHTS,
    LeagueError,
    User,
    full_check,
    player_locked,
    record_event,
    refusal,
    save_unique,
)
from leagues.services.seasons import day_text, season_for
from scorekeeper import engine
from scorekeeper.engine.formatting import listing, number
from scorekeeper.games import services as games
from scorekeeper.portable.start_fields import SideSpec


def _members(league: League, player_ids: Sequence[int]) -> list[Player]:
    players = list(
        Player.objects.filter(memberships__league=league, pk__in=player_ids).annotate(
            retired=F("memberships__retired_on")
        )
    )
    if len(players) != len(set(player_ids)):
        raise refusal("players", "Every player present must be a member of the league.")
    retired = sorted(p.name for p in players if p.retired is not None)
    if retired:
        raise refusal("players", _retired_text(league, retired))
    return players


def _retired_text(league: League, names: Sequence[str]) -> str:
    """`Ann has retired from Thursday Club: bring them back on the members' page first.`"""
    who = listing(names)
    has = "has" if len(names) == 1 else "have"
    return (
        f"{who} {has} retired from {league.name}: bring "
        f"{'them' if len(names) > 1 else 'the member'} back on the members' page first."
    )


@transaction.atomic
def night_create(
    *, league: League, date: datetime.date, player_ids: Sequence[int], user: User, notes: str = ""
) -> ClubNight:
    """Open a club night on `date` with the players present."""
    season = season_for(league, date)
    clash = ClubNight.objects.filter(league=league, date=date)
    taken = f"{league.name} already has a club night on {day_text(date)}."
    if clash.exists():
        raise refusal("date", taken)
    players = _members(league, player_ids)
    night = ClubNight(league=league, season=season, date=date, notes=notes)
    save_unique(night, clash=clash, field="date", message=taken)
    Attendance.objects.bulk_create(Attendance(night=night, player=p) for p in players)
    record_event(
        league,
        LeagueEvent.Kind.NIGHT_ADDED,
        user,
        f"Club night of {day_text(date)} added with {number(len(players))} players",
        after={"date": str(date), "players": sorted(p.name for p in players)},
    )
    return night


def _open_night(night: ClubNight, doing: str) -> ClubNight:
    """The night locked, refused when it is closed: a closed night's record stays as it was
    left until the organiser reopens it."""
    night = (
        ClubNight.objects.select_for_update(of=("self",))
        .select_related("league", "season")
        .get(pk=night.pk)
    )
    if night.closed_at is not None:
        raise refusal(
            "night", f"The club night of {day_text(night.date)} is closed: reopen it to {doing}."
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
    night = _open_night(night, "change the seating")
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
    record_event(
        league,
        LeagueEvent.Kind.SEATING_SET,
        user,
        f"Seating proposed for the club night of {day_text(night.date)}",
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
    night = _open_night(night, "change the seating")
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
    record_event(
        night.league,
        LeagueEvent.Kind.SEATING_SET,
        user,
        f"Seating set by hand for the club night of {day_text(night.date)}",
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
    # The player first, as a merge locks them: an arrival that waited for a merge of this
    # player is refused with the merge, not a server error.
    player = player_locked(night.league, player, "player")
    night = _open_night(night, "record a late arrival")
    membership = Membership.objects.filter(league=night.league_id, player=player).first()
    if membership is None:
        raise refusal("player", f"{player.name} is not a member of the league.")
    if membership.retired_on is not None:
        raise refusal("player", _retired_text(night.league, [player.name]))
    attendance = Attendance(night=night, player=player, arrived_late=True)
    save_unique(
        attendance,
        clash=Attendance.objects.filter(night=night, player=player),
        field="player",
        message=f"{player.name} is already here tonight.",
    )
    record_event(
        night.league,
        LeagueEvent.Kind.LATE_ARRIVAL,
        user,
        f"{player.name} arrived late at the club night of {day_text(night.date)}",
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
    night = _open_night(night, "start games")
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
        raise refusal("tables", "Every seated table is already playing; seat players first.")
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
                SideSpec(name, tuple(p.name for p in side) if team_play else ())
                for name, side in zip(names, ordered, strict=True)
            ],
            house_rules=rules["overrides"],
            owner=None,
        )
        game.rules = rules
        # A club night's rounds wait for another side's word, unless the league said no.
        game.confirm_rounds = night.league.confirm_rounds
        game.save(update_fields=["rules", "confirm_rounds"])
        league_game = LeagueGame(
            game=game,
            league=night.league,
            season=night.season,
            night=night,
            table=table,
            date=night.date,
        )
        full_check(league_game)
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
    record_event(
        night.league,
        LeagueEvent.Kind.GAMES_STARTED,
        user,
        f"Games started at table{'s' if len(created) > 1 else ''} "
        f"{', '.join(str(g.table) for g in created)} on {day_text(night.date)}",
        after={"tables": [g.table for g in created]},
    )
    return created
