"""A league's backup: everything of one league as one JSON document, and its restore.

`league_export` gathers the league, its players, members' ratings, seasons, club nights, seats,
every game (rules, sides, rounds as entered, their scores and history), the league's record of
each game, the participations the standings add up, the organiser's league points adjustments
and the audit. The document holds only JSON
values (timestamps as ISO 8601 with their microseconds), so a restore gives back the same rows.

`league_import` (in `backup_restore`) checks the whole document, every game through the engine
(`backup_checks`), then recreates it in one transaction, or refuses it changing nothing.
Passwords are never exported.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from leagues.backup.checks import FORMAT, USER_FIELDS, VERSION, BackupError, plain_fields
from leagues.backup.restore import league_import
from leagues.models import (
    Attendance,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
    Player,
    PointsAdjustment,
)
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side

__all__ = ["BackupError", "export_counts", "league_export", "league_import"]


# Export --------------------------------------------------------------------------------------


def _value(value: Any) -> Any:
    # Full ISO 8601, microseconds included (DjangoJSONEncoder would cut them to milliseconds).
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def _fields(obj: models.Model) -> dict[str, Any]:
    return {field.attname: _value(field.value_from_object(obj)) for field in plain_fields(obj)}


def _username(user_id: int | None, usernames: Mapping[int, str]) -> str | None:
    return usernames.get(user_id) if user_id is not None else None


def league_export(league: League) -> dict[str, Any]:
    """Everything of the league as a JSON-ready document (format scorekeeper-league, v1)."""
    players = list(Player.objects.filter(memberships__league=league).order_by("pk"))
    participants = Player.objects.filter(participations__league=league).exclude(
        pk__in=[p.pk for p in players]
    )
    # A player merged away may still hold participations; keep them with the league.
    players += list(participants.distinct().order_by("pk"))
    player_ids = {p.pk for p in players}
    attendances = list(Attendance.objects.filter(night__league=league).order_by("pk"))
    for attendance in attendances:
        player_ids.add(attendance.player_id)
    adjustments = list(PointsAdjustment.objects.filter(league=league).order_by("pk"))
    player_ids |= {adjustment.player_id for adjustment in adjustments}
    missing = player_ids - {p.pk for p in players}
    players += list(Player.objects.filter(pk__in=missing).order_by("pk"))

    league_games = list(LeagueGame.objects.filter(league=league).order_by("pk"))
    games = list(Game.objects.filter(league_game__league=league).order_by("pk"))
    game_ids = [g.pk for g in games]
    public_ids = {g.pk: g.public_id for g in games}
    sides = _group(Side.objects.filter(game_id__in=game_ids).order_by("pk"), "game_id")
    rounds = list(Round.objects.filter(game_id__in=game_ids).order_by("pk"))
    scores = _group(
        RoundScore.objects.filter(round__game_id__in=game_ids).order_by("pk"), "round_id"
    )
    rounds_by_game = _group(rounds, "game_id")
    events = _group(GameEvent.objects.filter(game_id__in=game_ids).order_by("pk"), "game_id")
    participations = list(Participation.objects.filter(league=league).order_by("pk"))
    league_events = list(LeagueEvent.objects.filter(league=league).order_by("pk"))
    organisers = list(league.organisers.order_by("username"))
    memberships = list(Membership.objects.filter(league=league).order_by("pk"))

    user_ids = {u.pk for u in organisers}
    user_ids |= {m.user_id for m in memberships if m.user_id}
    user_ids |= {g.owner_id for g in games if g.owner_id}
    user_ids |= {e.user_id for group in events.values() for e in group if e.user_id}
    user_ids |= {e.user_id for e in league_events if e.user_id}
    user_ids |= {a.user_id for a in adjustments if a.user_id}
    users = list(get_user_model().objects.filter(pk__in=user_ids).order_by("username"))
    usernames = {u.pk: u.username for u in users}
    side_positions = {s.pk: s.position for group in sides.values() for s in group}

    def game_row(game: Game) -> dict[str, Any]:
        return {
            **_fields(game),
            "owner": _username(game.owner_id, usernames),
            "rematch_of": public_ids.get(game.rematch_of_id),
            "winner": side_positions.get(game.winner_id),
            "sides": [_fields(side) for side in sides.get(game.pk, [])],
            "rounds": [
                {
                    **_fields(round_),
                    "scores": [
                        {**_fields(score), "side": score.side_id}
                        for score in scores.get(round_.pk, [])
                    ],
                }
                for round_ in rounds_by_game.get(game.pk, [])
            ],
            "events": [
                {**_fields(event), "user": _username(event.user_id, usernames)}
                for event in events.get(game.pk, [])
            ],
        }

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": _fields(league),
        "users": [{name: getattr(user, name) for name in USER_FIELDS} for user in users],
        "organisers": [user.username for user in organisers],
        "players": [_fields(player) for player in players],
        "memberships": [
            {**_fields(m), "player": m.player_id, "user": _username(m.user_id, usernames)}
            for m in memberships
        ],
        "seasons": [_fields(s) for s in league.seasons.order_by("pk")],
        "nights": [{**_fields(n), "season": n.season_id} for n in league.nights.order_by("pk")],
        "attendances": [
            {**_fields(a), "night": a.night_id, "player": a.player_id} for a in attendances
        ],
        "games": [game_row(game) for game in games],
        "league_games": [
            {
                **_fields(lg),
                "game": public_ids[lg.game_id],
                "season": lg.season_id,
                "night": lg.night_id,
            }
            for lg in league_games
        ],
        "participations": [
            {
                **_fields(p),
                "league_game": p.league_game_id,
                "player": p.player_id,
                "season": p.season_id,
            }
            for p in participations
        ],
        "adjustments": [
            {
                **_fields(a),
                "season": a.season_id,
                "player": a.player_id,
                "user": _username(a.user_id, usernames),
            }
            for a in adjustments
        ],
        "league_events": [
            {**_fields(e), "user": _username(e.user_id, usernames)} for e in league_events
        ],
    }


def _group(rows: Iterable[models.Model], key: str) -> dict[int, list]:
    grouped: dict[int, list] = {}
    for row in rows:
        grouped.setdefault(getattr(row, key), []).append(row)
    return grouped


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def export_counts(data: Mapping[str, Any]) -> str:
    """`1 league, 16 players, ...`: what a document holds, for the commands' summary line."""
    games = data["games"]
    counts = (
        (1, "league"),
        (len(data["players"]), "player"),
        (len(data["memberships"]), "membership"),
        (len(data["seasons"]), "season"),
        (len(data["nights"]), "club night"),
        (len(games), "game"),
        (sum(len(game["rounds"]) for game in games), "round"),
        (len(data["participations"]), "participation"),
        (len(data["league_events"]), "league event"),
    )
    # Said when there are any: a file made before adjustments has none.
    if data.get("adjustments"):
        counts += ((len(data["adjustments"]), "points adjustment"),)
    return ", ".join(_count(number, noun) for number, noun in counts)
