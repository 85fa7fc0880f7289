"""Reads for the organiser's pages: a league's settings, its members and merges, a club night's
seating, a game to void and the audit. Each returns None where a row may be missing; the view
answers 404 then."""

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet

from leagues.models import (
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
from leagues.roster import name_key
from scorekeeper.models import GameEvent, Side

# The corrections of a league's games that its audit shows beside the league's own events.
GAME_CORRECTIONS = (
    GameEvent.Kind.ROUND_CHANGED,
    GameEvent.Kind.ROUND_DELETED,
    GameEvent.Kind.ROUND_RESTORED,
    GameEvent.Kind.ENDED,
    GameEvent.Kind.REOPENED,
)


@dataclass(frozen=True)
class LeagueSetup:
    """What the settings page lists beside the form."""

    organisers: list[AbstractBaseUser]
    seasons: list[Season]
    nights: list[ClubNight]


def league_setup(league: League) -> LeagueSetup:
    """The league's organisers by username, its seasons and its ten latest club nights."""
    return LeagueSetup(
        organisers=list(league.organisers.order_by("username")),
        seasons=list(league.seasons.all()),
        nights=list(league.nights.all()[:10]),
    )


def season_get(league: League, season_id: int) -> Season | None:
    """The league's season of this id, or None."""
    return Season.objects.filter(pk=season_id, league=league).first()


def memberships(league: League) -> list[Membership]:
    """The league's memberships with their players and accounts, by the player's name."""
    return list(
        Membership.objects.filter(league=league)
        .select_related("player", "user")
        .order_by("player__name", "player_id")
    )


MEMBER_SEARCH_FROM = 10  # members before the members' page offers a search


def members_matching(rows: Sequence[Membership], query: str) -> list[Membership]:
    """The memberships whose player's name or account holds `query` as a person types it:
    case, accents, spaces and punctuation aside, as the roster compares names."""
    key = name_key(query)
    typed = query.strip().casefold()
    if not typed:
        return list(rows)
    return [
        m
        for m in rows
        if (key and key in name_key(m.player.name))
        or (m.user is not None and typed in m.user.get_username().casefold())
    ]


def players_to_add(league: League, user) -> QuerySet[Player]:
    """The players of the user's other leagues who are not in this one."""
    return (
        Player.objects.filter(memberships__league__organisers=user)
        .exclude(memberships__league=league)
        .distinct()
    )


def has_players_to_add(league: League, user) -> bool:
    """Whether the user's other leagues have a player this one has not."""
    return players_to_add(league, user).exists()


def member_ids(league: League) -> list[int]:
    """The ids of the league's players."""
    return list(league.members.values_list("pk", flat=True))


def retired_on(league: League, player: Player) -> datetime.date | None:
    """The day the member retired from the league, or None for a member who plays."""
    return (
        Membership.objects.filter(league=league, player=player)
        .values_list("retired_on", flat=True)
        .first()
    )


def member_get(league: League, player_id: int) -> Player | None:
    """The league's player of this id, or None."""
    return Player.objects.filter(pk=player_id, memberships__league=league).first()


def linked_account(league: League, player: Player) -> AbstractBaseUser | None:
    """The account linked to the player in this league (another league's link is its own)."""
    # None too when the player went a moment ago (merged away): the edit then says so.
    membership = Membership.objects.select_related("user").filter(league=league, player=player)
    found = membership.first()
    return found.user if found is not None else None


def other_leagues(league: League, player: Player) -> list[League]:
    """The player's other leagues, by name."""
    return list(
        League.objects.filter(memberships__player=player).exclude(pk=league.pk).order_by("name")
    )


@dataclass(frozen=True)
class MergeFacts:
    """What merging `absorb` into `keep` moves."""

    games: int
    nights: int
    other_leagues: list[str]
    kept_link: AbstractBaseUser | None
    absorbed_link: AbstractBaseUser | None


def merge_facts(league: League, keep: Player, absorb: Player) -> MergeFacts:
    """The games, club nights, other leagues and account links a merge moves."""
    games = Participation.objects.filter(player=absorb).count()
    nights = Attendance.objects.filter(player=absorb).count()
    other = list(
        League.objects.filter(memberships__player=absorb)
        .exclude(pk=league.pk)
        .order_by("name")
        .values_list("name", flat=True)
    )
    links = {
        m.player_id: m.user
        for m in Membership.objects.filter(league=league, player__in=[keep, absorb]).select_related(
            "user"
        )
    }
    return MergeFacts(games, nights, other, links.get(keep.pk), links.get(absorb.pk))


def seating_attendances(night: ClubNight) -> list[Attendance]:
    """Everyone at the night with their player, in seat order."""
    # Late arrivals share a null seat; their name orders them the same on every database.
    return list(
        night.attendances.select_related("player").order_by(
            "table", "side", "place", "player__name"
        )
    )


def night_games(night: ClubNight) -> dict[int, LeagueGame]:
    """The night's games with their scorekeeper games, by table."""
    return {
        g.table: g
        for g in LeagueGame.objects.filter(night=night).select_related("game").order_by("table")
    }


@dataclass(frozen=True)
class WaitingTable:
    """A seated table waiting for its game: its number and each side's names."""

    number: int
    sides: list[list[str]]


def tables_to_start(night: ClubNight) -> list[WaitingTable]:
    """The seated tables without a game yet, each side's names in seat order."""
    playing = set(night.games.values_list("table", flat=True))
    tables: dict[int, dict[int, list[str]]] = {}
    for a in (
        night.attendances.filter(table__isnull=False)
        .exclude(table__in=playing)
        .select_related("player")
        .order_by("table", "side", "place")
    ):
        tables.setdefault(a.table, {}).setdefault(a.side, []).append(a.player.name)
    return [
        WaitingTable(number, [sides[s] for s in sorted(sides)])
        for number, sides in sorted(tables.items())
    ]


def refresh_closed_at(night: ClubNight) -> None:
    """Read the night's closing time again, to see a close that another request made since."""
    night.refresh_from_db(fields=["closed_at"])


def league_game_get(league: League, league_game_id: int) -> LeagueGame | None:
    """The league's game of this id with its night and its game's sides in order, or None."""
    return (
        LeagueGame.objects.select_related("game", "night")
        .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
        .filter(pk=league_game_id, league=league)
        .first()
    )


@dataclass(frozen=True)
class Readable:
    """A stored before/after value: a mapping as (key, text, is_block) rows, anything else as
    one text."""

    rows: list[tuple[str, str, bool]] | None
    text: str = ""


@dataclass(frozen=True)
class AuditEntry:
    at: Any
    who: str
    what: str
    game: LeagueGame | None
    round_number: int | None
    before: Readable | None
    after: Readable | None


def _readable(value: Any) -> Readable | None:
    if value is None:
        return None
    if isinstance(value, dict):
        rows = []
        for key, item in value.items():
            text = item if isinstance(item, str) else _json(item)
            # Stored keys are the models' field names: read as words (closed_at: Closed at).
            rows.append((str(key).replace("_", " ").capitalize(), text, "\n" in text))
        return Readable(rows)
    return Readable(None, _json(value))


def _json(value: Any) -> str:
    # Short values stay on one line; nested ones are indented to be read.
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= 60:
        return flat
    return json.dumps(value, indent=1, ensure_ascii=False)


class AuditLog:
    """The league's events and its games' corrections, newest first, as a sequence the
    paginator can count and slice: a page reads the first `stop` rows of each list and merges
    them, so a page costs the same few queries however long the history is."""

    def __init__(self, league: League):
        self.league_events = LeagueEvent.objects.filter(league=league).order_by("-at", "-id")
        self.game_events = (
            GameEvent.objects.filter(game__league_game__league=league, kind__in=GAME_CORRECTIONS)
            .select_related("game__league_game")
            .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
            .order_by("-at", "-id")
        )

    def count(self) -> int:
        return self.league_events.count() + self.game_events.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[AuditEntry]:
        start, stop = index.start or 0, index.stop
        entries = [self._league_entry(e) for e in self.league_events[:stop]]
        entries += [self._game_entry(e) for e in self.game_events[:stop]]
        entries.sort(key=lambda e: e.at, reverse=True)
        return entries[start:stop]

    @staticmethod
    def _league_entry(event: LeagueEvent) -> AuditEntry:
        return AuditEntry(
            event.at,
            event.who,
            event.summary,
            None,
            None,
            _readable(event.before),
            _readable(event.after),
        )

    @staticmethod
    def _game_entry(event: GameEvent) -> AuditEntry:
        return AuditEntry(
            event.at,
            event.who,
            event.get_kind_display(),
            event.game.league_game,
            event.round_number,
            _readable(event.before),
            _readable(event.after),
        )


def audit_log(league: League) -> AuditLog:
    """The league's audit, newest first, for a paginator to count and slice."""
    return AuditLog(league)
