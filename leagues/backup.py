"""A league's backup: everything of one league as one JSON document, and its restore.

`league_export` gathers the league, its players, members' ratings, seasons, club nights, seats,
every game (rules, sides, rounds as entered, their scores and history), the league's record of
each game, the participations the standings add up and the audit. The document holds only JSON
values (timestamps as ISO 8601 with their microseconds), so a restore gives back the same rows.

`league_import` recreates them in one transaction. A row keeps its id when the database has no
row of that id (a restore into an empty database is identical, links and all); otherwise it gets
a new id and every reference to it follows. A player whose id, name and creation time all match
an existing player is that player (two leagues of one database sharing members, restored one
after the other). Accounts are matched by username; a missing one is created inactive with no
usable password. Passwords are never exported.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

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
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side

FORMAT = "scorekeeper-league"
VERSION = 1
BATCH = 500
USER_FIELDS = ("username", "first_name", "last_name", "email")
# The sections of the document and what each must be.
SECTIONS: dict[str, type] = {
    "league": dict,
    "users": list,
    "organisers": list,
    "players": list,
    "memberships": list,
    "seasons": list,
    "nights": list,
    "attendances": list,
    "games": list,
    "league_games": list,
    "participations": list,
    "league_events": list,
}


class BackupError(ValueError):
    """The document is not a league backup this version can restore, or the database already
    holds what it would create."""


# Export --------------------------------------------------------------------------------------


def _plain_fields(model: type[models.Model]) -> list[models.Field]:
    # Every stored value that is not a reference: a field added later is exported by itself.
    return [field for field in model._meta.concrete_fields if not field.is_relation]


def _value(value: Any) -> Any:
    # Full ISO 8601, microseconds included (DjangoJSONEncoder would cut them to milliseconds).
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def _fields(obj: models.Model) -> dict[str, Any]:
    return {field.attname: _value(field.value_from_object(obj)) for field in _plain_fields(obj)}


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
    return ", ".join(_count(number, noun) for number, noun in counts)


# Import --------------------------------------------------------------------------------------


class _Reader:
    """Reads the document's rows, each error naming where it is: `games[3].sides[0].name`."""

    def require(self, row: Any, where: str, keys: Iterable[str]) -> Mapping[str, Any]:
        if not isinstance(row, dict):
            raise BackupError(f"{where}: expected an object, found {type(row).__name__}.")
        for key in keys:
            if key not in row:
                raise BackupError(f"{where}.{key}: missing.")
        return row

    def items(self, row: Mapping[str, Any], key: str, where: str) -> list:
        value = row.get(key)
        if not isinstance(value, list):
            raise BackupError(f"{where}.{key}: expected a list.")
        return value

    def build(
        self,
        model: type[models.Model],
        row: Any,
        where: str,
        relations: Mapping[str, Any] | None = None,
        extra: Iterable[str] = (),
    ) -> models.Model:
        """An unsaved row from the document's plain fields, checked as `full_clean` checks them
        (the database checks uniqueness and the constraints when the rows go in)."""
        fields = _plain_fields(model)
        self.require(row, where, [f.attname for f in fields] + list(extra))
        obj = model(**{f.attname: row[f.attname] for f in fields}, **(relations or {}))
        for field in fields:
            try:
                setattr(obj, field.attname, field.to_python(getattr(obj, field.attname)))
            except ValidationError as error:
                raise BackupError(f"{where}.{field.attname}: {' '.join(error.messages)}") from None
        try:
            obj.full_clean(
                exclude=[f.name for f in model._meta.concrete_fields if f.is_relation],
                validate_unique=False,
                validate_constraints=False,
            )
        except ValidationError as error:
            name, messages = next(iter(_messages(error).items()))
            raise BackupError(f"{where}.{name}: {' '.join(messages)}") from None
        return obj


def _messages(error: ValidationError) -> dict[str, list[str]]:
    if hasattr(error, "error_dict"):
        return error.message_dict
    return {"value": error.messages}


def _ref(ids: Mapping[Any, Any], value: Any, where: str, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if value not in ids:
        raise BackupError(f"{where}: {value!r} is not in the backup.")
    return ids[value]


def _insert(model: type[models.Model], objs: list[models.Model]) -> dict[Any, int]:
    """Insert the rows, each keeping its id when that id is free; the old id to the new one.
    Timestamps the model stamps itself (auto_now, auto_now_add) are put back as exported."""
    old_ids = [obj.pk for obj in objs]
    taken = set()
    for start in range(0, len(old_ids), BATCH):
        chunk = old_ids[start : start + BATCH]
        taken |= set(model._base_manager.filter(pk__in=chunk).values_list("pk", flat=True))
    stamps = [
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    saved = [{name: getattr(obj, name) for name in stamps} for obj in objs]
    kept = [obj for obj in objs if obj.pk not in taken]
    fresh = [obj for obj in objs if obj.pk in taken]
    for obj in fresh:
        obj.pk = None
    model._base_manager.bulk_create(kept, batch_size=BATCH)
    # Explicit ids leave PostgreSQL's sequence behind; a fresh row must not meet a kept one.
    _reset_sequences([model])
    model._base_manager.bulk_create(fresh, batch_size=BATCH)
    if stamps:
        for obj, values in zip(objs, saved, strict=True):
            for name, value in values.items():
                setattr(obj, name, value)
        model._base_manager.bulk_update(objs, stamps, batch_size=BATCH)
    return dict(zip(old_ids, (obj.pk for obj in objs), strict=True))


def _reset_sequences(models_: list[type[models.Model]]) -> None:
    statements = connection.ops.sequence_reset_sql(no_style(), models_)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def _users(reader: _Reader, data: Mapping[str, Any]) -> dict[str, Any]:
    """Each username of the backup to an account: the existing one, or a new inactive one."""
    User = get_user_model()
    by_name = {}
    for index, row in enumerate(data["users"]):
        row = reader.require(row, f"users[{index}]", USER_FIELDS)
        username = row["username"]
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User(**{name: row[name] for name in USER_FIELDS}, is_active=False)
            user.set_unusable_password()
            try:
                user.full_clean(validate_unique=False, validate_constraints=False)
            except ValidationError as error:
                name, messages = next(iter(_messages(error).items()))
                raise BackupError(f"users[{index}].{name}: {' '.join(messages)}") from None
            user.save()
        by_name[username] = user
    return by_name


def _check(data: Any) -> None:
    if not isinstance(data, dict):
        raise BackupError("The file is not a league backup: expected a JSON object.")
    if data.get("format") != FORMAT:
        raise BackupError(
            f"format: {data.get('format')!r} is not a league backup; expected {FORMAT!r}."
        )
    if data.get("version") != VERSION:
        raise BackupError(
            f"version: {data.get('version')!r} is not a version this app restores; "
            f"expected {VERSION}."
        )
    for key, kind in SECTIONS.items():
        if not isinstance(data.get(key), kind):
            expected = "an object" if kind is dict else "a list"
            raise BackupError(f"{key}: missing or not {expected}.")


@transaction.atomic
def league_import(data: Any) -> League:
    """Restore a league from `league_export`'s document; refused when the database already
    has its league or any of its games."""
    _check(data)
    slug = data["league"].get("slug")
    if League.objects.filter(slug=slug).exists():
        raise BackupError(
            f"The database already has a league {slug!r}; import into an empty database or "
            "delete it first."
        )
    public_ids = [g.get("public_id") for g in data["games"] if isinstance(g, dict)]
    existing = Game.objects.filter(public_id__in=public_ids).values_list("public_id", flat=True)
    if clash := sorted(existing):
        raise BackupError(
            f"The database already has a game {clash[0]!r}; import into an empty database or "
            "delete it first."
        )
    try:
        with transaction.atomic():
            return _restore(data)
    except IntegrityError as error:
        raise BackupError(f"The backup breaks a rule of the database: {error}") from None


def _restore(data: Mapping[str, Any]) -> League:
    reader = _Reader()
    users = _users(reader, data)

    def user(name: Any, where: str) -> Any:
        return _ref(users, name, where, nullable=True)

    league = reader.build(League, data["league"], "league")
    league_id = _insert(League, [league])
    league = League.objects.get(pk=league_id[data["league"]["id"]])
    league.organisers.set(
        [_ref(users, name, f"organisers[{i}]") for i, name in enumerate(data["organisers"])]
    )

    # Players: the same player when id, name and creation time match; else a new row.
    player_ids: dict[Any, int] = {}
    new_players = []
    for index, row in enumerate(data["players"]):
        where = f"players[{index}]"
        player = reader.build(Player, row, where)
        same = Player.objects.filter(
            pk=player.pk, name=player.name, created_at=player.created_at
        ).exists()
        if same:
            player_ids[player.pk] = player.pk
        else:
            new_players.append(player)
    player_ids.update(_insert(Player, new_players))
    # A backup made while the account link was the player's has it there.
    player_links = {
        row["id"]: (row["user"], f"players[{index}].user")
        for index, row in enumerate(data["players"])
        if "user" in row
    }

    def rows(section: str, model, relations, extra=()) -> list[models.Model]:
        return [
            reader.build(model, row, f"{section}[{i}]", relations(row, f"{section}[{i}]"), extra)
            for i, row in enumerate(data[section])
        ]

    _insert(
        Membership,
        rows(
            "memberships",
            Membership,
            lambda row, where: {
                "league": league,
                "player_id": _ref(player_ids, row.get("player"), f"{where}.player"),
                "user": _membership_user(row, where, player_links, user),
            },
            ["player"],
        ),
    )
    season_ids = _insert(Season, rows("seasons", Season, lambda row, where: {"league": league}))
    night_ids = _insert(
        ClubNight,
        rows(
            "nights",
            ClubNight,
            lambda row, where: {
                "league": league,
                "season_id": _ref(season_ids, row.get("season"), f"{where}.season"),
            },
            ["season"],
        ),
    )
    _insert(
        Attendance,
        rows(
            "attendances",
            Attendance,
            lambda row, where: {
                "night_id": _ref(night_ids, row.get("night"), f"{where}.night"),
                "player_id": _ref(player_ids, row.get("player"), f"{where}.player"),
            },
            ["night", "player"],
        ),
    )
    game_ids = _restore_games(reader, data["games"], user)
    league_game_ids = _insert(
        LeagueGame,
        rows(
            "league_games",
            LeagueGame,
            lambda row, where: {
                "league": league,
                "game_id": _ref(game_ids, row.get("game"), f"{where}.game"),
                "season_id": _ref(season_ids, row.get("season"), f"{where}.season"),
                "night_id": _ref(night_ids, row.get("night"), f"{where}.night", nullable=True),
            },
            ["game", "season", "night"],
        ),
    )
    _insert(
        Participation,
        rows(
            "participations",
            Participation,
            lambda row, where: {
                "league": league,
                "league_game_id": _ref(
                    league_game_ids, row.get("league_game"), f"{where}.league_game"
                ),
                "player_id": _ref(player_ids, row.get("player"), f"{where}.player"),
                "season_id": _ref(season_ids, row.get("season"), f"{where}.season"),
            },
            ["league_game", "player", "season"],
        ),
    )
    _insert(
        LeagueEvent,
        rows(
            "league_events",
            LeagueEvent,
            lambda row, where: {"league": league, "user": user(row.get("user"), f"{where}.user")},
            ["user"],
        ),
    )
    return league


def _membership_user(row: Mapping[str, Any], where: str, player_links: Mapping, user) -> Any:
    """The account linked to the membership; a backup made while the link was the player's
    has it on the player instead, and it then links this league's membership only."""
    if "user" in row:
        return user(row["user"], f"{where}.user")
    if row.get("player") in player_links:
        return user(*player_links[row["player"]])
    return None


def _restore_games(reader: _Reader, rows: list, user) -> dict[str, int]:
    """The games with their sides, rounds, scores and history; public id to new game id."""
    games, sides, rounds, scores, events = [], [], [], [], []
    # Per game: its winner's seat and the game it is a rematch of, set once both exist.
    later: list[tuple[Game, Any, Any, str]] = []
    for index, row in enumerate(rows):
        where = f"games[{index}]"
        game = reader.build(
            Game,
            row,
            where,
            {"owner": user(row.get("owner"), f"{where}.owner")},
            ["owner", "rematch_of", "winner", "sides", "rounds", "events"],
        )
        games.append(game)
        later.append((game, row["winner"], row["rematch_of"], where))
        for s, side in enumerate(reader.items(row, "sides", where)):
            sides.append((game, reader.build(Side, side, f"{where}.sides[{s}]")))
        for r, round_row in enumerate(reader.items(row, "rounds", where)):
            here = f"{where}.rounds[{r}]"
            round_ = reader.build(Round, round_row, here, extra=["scores"])
            rounds.append((game, round_))
            for n, score in enumerate(reader.items(round_row, "scores", here)):
                built = reader.build(RoundScore, score, f"{here}.scores[{n}]", extra=["side"])
                scores.append((round_, built, score["side"], f"{here}.scores[{n}].side"))
        for e, event in enumerate(reader.items(row, "events", where)):
            here = f"{where}.events[{e}]"
            built = reader.build(
                GameEvent, event, here, {"user": user(event.get("user"), f"{here}.user")}, ["user"]
            )
            events.append((game, built))

    # The winner is a side of the game: the games go in without one and get it at the end.
    _insert(Game, games)
    for game, side in sides:
        side.game_id = game.pk
    side_ids = _insert(Side, [side for _, side in sides])
    for game, round_ in rounds:
        round_.game_id = game.pk
    _insert(Round, [round_ for _, round_ in rounds])
    for round_, score, side, where in scores:
        score.round_id = round_.pk
        score.side_id = _ref(side_ids, side, where)
    _insert(RoundScore, [score for _, score, _, _ in scores])
    for game, event in events:
        event.game_id = game.pk
    _insert(GameEvent, [event for _, event in events])

    by_public_id = {game.public_id: game.pk for game in games}
    seat = {(side.game_id, side.position): side.pk for _, side in sides}
    for game, winner, rematch_of, where in later:
        if winner is not None and (game.pk, winner) not in seat:
            raise BackupError(f"{where}.winner: {winner!r} is not the position of a side.")
        game.winner_id = seat[game.pk, winner] if winner is not None else None
        # A rematch of a game outside the league is kept as a plain game.
        game.rematch_of_id = by_public_id.get(rematch_of)
    Game._base_manager.bulk_update(games, ["winner", "rematch_of"], batch_size=BATCH)
    return by_public_id
