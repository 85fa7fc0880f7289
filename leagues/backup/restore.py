"""Restoring a league from its export, in one transaction: the whole file is read and checked
first, writing nothing; then every row goes in, the ratings are replayed from the games (and the
file refused where its own differ) and the standings rebuilt.

A row keeps its id when the database has no row of that id (a restore into an empty database is
identical, links and all); otherwise it gets a new id and every reference to it follows. New ids
are counted past the table's rows and its sequence, never drawn from the sequence, and the
sequences are moved up to the restored ids only once every row is in and every constraint has
been checked: on PostgreSQL a sequence does not roll back, so a refused file leaves them as they
were. Other writers wait for the restore (its tables are locked) rather than meet its ids.

A player whose id, name and creation time match an existing player is that player only where the
operator says the league shares its players with every league that player is in: otherwise a
copy of another league's export would take over that league's players. Accounts are matched by
username; a missing one is created inactive with no usable password.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Max

from leagues.backup import record
from leagues.backup.checks import (
    USER_FIELDS,
    BackupError,
    Reader,
    check_document,
    check_game,
    check_values,
    field_messages,
    ref,
    unique_id,
    unique_rows,
)
from leagues.backup.errors import as_in_file
from leagues.models import (
    Attendance,
    ClubNight,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
    Player,
    PointsAdjustment,
    Season,
)
from leagues.services.standings import standings_refresh
from scorekeeper.engine.errors import listing
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side

BATCH = 500


@dataclass
class _Plan:
    """The file's rows, built and checked, unsaved: each keeps the ids the file gives it and its
    references point at the file's ids, translated when the rows go in."""

    new_users: list[Any] = field(default_factory=list)
    organisers: list[str] = field(default_factory=list)
    rows: dict[type[models.Model], list[models.Model]] = field(default_factory=dict)
    # (row, attname, username): references to accounts, which are matched by username.
    accounts: list[tuple[models.Model, str, str | None]] = field(default_factory=list)
    # (game, id of its winner's side, id of the game it is a rematch of), set once both exist.
    links: list[tuple[Game, int | None, int | None]] = field(default_factory=list)
    # Where each player is in the file, for a refusal to name.
    player_where: dict[int, str] = field(default_factory=dict)


def _read(data: Mapping[str, Any]) -> _Plan:
    """Every row of the document built and checked, every game scored again, the league's
    record checked against itself and its games; nothing written."""
    reader, plan = Reader(), _Plan()
    usernames = _read_users(reader, data, plan)

    def account(row: models.Model, attname: str, name: Any, where: str) -> None:
        plan.accounts.append((row, attname, ref(usernames, name, where, nullable=True)))

    def section(model, name: str, relations, extra=(), check=None) -> dict[Any, models.Model]:
        built = []
        for index, row in enumerate(data.get(name, [])):
            where = f"{name}[{index}]"
            obj = reader.build(model, row, where, relations(row, where), extra)
            unique_id(built, obj, where, name)
            if check is not None:
                check(obj, where)
            built.append(obj)
            if model in (LeagueEvent, PointsAdjustment):
                account(obj, "user_id", row.get("user"), f"{where}.user")
            elif model is Membership:
                link = (
                    (row["user"], f"{where}.user")
                    if "user" in row
                    else player_links.get(obj.player_id, (None, f"{where}.user"))
                )
                account(obj, "user_id", *link)
        unique_rows(model, built, data.get(name, []), name)
        plan.rows[model] = built
        return {obj.pk: obj for obj in built}

    league = reader.build(League, data["league"], "league")
    record.check_league_rules(league)
    plan.rows[League] = [league]
    for index, name in enumerate(data["organisers"]):
        ref(usernames, name, f"organisers[{index}]")
        if name in plan.organisers:
            raise BackupError(
                f"organisers[{index}]: {as_in_file(name)} again, as in "
                f"organisers[{plan.organisers.index(name)}]."
            )
        plan.organisers.append(name)
    players = []
    player_links: dict[Any, tuple[Any, str]] = {}
    for index, row in enumerate(data["players"]):
        where = f"players[{index}]"
        player = reader.build(Player, row, where)
        unique_id(players, player, where, "players")
        if isinstance(row, dict) and "user" in row:
            # A backup made while the account link was the player's has it there; it then
            # links this league's membership only.
            player_links[player.pk] = (row["user"], f"{where}.user")
        players.append(player)
        plan.player_where[player.pk] = where
    plan.rows[Player] = players
    player_ids = {player.pk for player in players}
    in_league = {"league_id": league.pk}

    section(
        Membership,
        "memberships",
        lambda row, where: {
            **in_league,
            "player_id": ref(player_ids, row.get("player"), f"{where}.player"),
        },
        ["player"],
    )
    seasons = section(Season, "seasons", lambda row, where: in_league, check=record.check_season)
    record.check_seasons(plan.rows[Season])
    nights = section(
        ClubNight,
        "nights",
        lambda row, where: {
            **in_league,
            "season_id": ref(seasons.keys(), row.get("season"), f"{where}.season"),
        },
        ["season"],
    )
    record.check_nights(plan.rows[ClubNight], seasons)
    section(
        Attendance,
        "attendances",
        lambda row, where: {
            "night_id": ref(nights.keys(), row.get("night"), f"{where}.night"),
            "player_id": ref(player_ids, row.get("player"), f"{where}.player"),
        },
        ["night", "player"],
    )
    game_ids, scored = _read_games(reader, data["games"], plan, account)
    league_games = section(
        LeagueGame,
        "league_games",
        lambda row, where: {
            **in_league,
            "game_id": ref(game_ids, row.get("game"), f"{where}.game"),
            "season_id": ref(seasons.keys(), row.get("season"), f"{where}.season"),
            "night_id": ref(nights.keys(), row.get("night"), f"{where}.night", nullable=True),
        },
        ["game", "season", "night"],
    )
    record.check_league_games(plan.rows[LeagueGame], plan.rows[Season], nights, scored)
    section(
        Participation,
        "participations",
        lambda row, where: {
            **in_league,
            "league_game_id": ref(
                league_games.keys(), row.get("league_game"), f"{where}.league_game"
            ),
            "player_id": ref(player_ids, row.get("player"), f"{where}.player"),
            "season_id": ref(seasons.keys(), row.get("season"), f"{where}.season"),
        },
        ["league_game", "player", "season"],
    )
    record.check_participations(plan.rows[Participation], plan.rows[LeagueGame], scored)
    member_ids = {membership.player_id for membership in plan.rows[Membership]}
    section(
        PointsAdjustment,
        "adjustments",
        lambda row, where: {
            **in_league,
            "season_id": ref(seasons.keys(), row.get("season"), f"{where}.season"),
            "player_id": ref(player_ids, row.get("player"), f"{where}.player"),
        },
        ["season", "player", "user"],
        check=lambda adjustment, where: record.check_adjustment(adjustment, where, member_ids),
    )
    section(LeagueEvent, "league_events", lambda row, where: in_league, ["user"])
    return plan


def _read_users(reader: Reader, data: Mapping[str, Any], plan: _Plan) -> set[str]:
    """The backup's usernames; an account the database lacks is made ready, inactive."""
    User = get_user_model()
    rows = [
        reader.require(row, f"users[{index}]", USER_FIELDS)
        for index, row in enumerate(data["users"])
    ]
    existing = set(
        User.objects.filter(
            username__in=[row["username"] for row in rows if isinstance(row["username"], str)]
        ).values_list("username", flat=True)
    )
    usernames = set()
    for index, row in enumerate(rows):
        for name in USER_FIELDS:
            if not isinstance(row[name], str):
                raise BackupError(
                    f"users[{index}].{name}: expected text, found {as_in_file(row[name])}."
                )
        username = row["username"]
        if username not in existing and username not in usernames:
            user = User(**{name: row[name] for name in USER_FIELDS}, is_active=False)
            user.set_unusable_password()
            try:
                user.full_clean(validate_unique=False, validate_constraints=False)
            except ValidationError as error:
                name, messages = next(iter(field_messages(error).items()))
                raise BackupError(f"users[{index}].{name}: {' '.join(messages)}") from None
            plan.new_users.append(user)
        usernames.add(username)
    return usernames


def _read_games(
    reader: Reader, rows: list, plan: _Plan, account
) -> tuple[dict[str, int], dict[int, record.ScoredGame]]:
    """The games with their sides, rounds, scores and history, each scored again through the
    engine; public id to the file's game id, and each game as scored by the file's game id."""
    games, all_sides, all_rounds, all_scores, events = [], [], [], [], []
    scored: dict[int, record.ScoredGame] = {}
    later = []
    for index, row in enumerate(rows):
        where = f"games[{index}]"
        game = reader.build(
            Game, row, where, extra=["owner", "rematch_of", "winner", "sides", "rounds", "events"]
        )
        unique_id(games, game, where, "games")
        account(game, "owner_id", row.get("owner"), f"{where}.owner")
        games.append(game)
        sides = []
        for s, side_row in enumerate(reader.items(row, "sides", where)):
            side = reader.build(Side, side_row, f"{where}.sides[{s}]", {"game_id": game.pk})
            unique_id(all_sides, side, f"{where}.sides[{s}]", "the sides")
            sides.append(side)
            all_sides.append(side)
        side_ids = {side.pk for side in sides}
        rounds, scores = [], {}
        for r, round_row in enumerate(reader.items(row, "rounds", where)):
            here = f"{where}.rounds[{r}]"
            round_ = reader.build(Round, round_row, here, {"game_id": game.pk}, ["scores"])
            unique_id(all_rounds, round_, here, "the rounds")
            rounds.append(round_)
            all_rounds.append(round_)
            scores[round_.pk] = []
            for n, score_row in enumerate(reader.items(round_row, "scores", here)):
                score = reader.build(
                    RoundScore, score_row, f"{here}.scores[{n}]", {"round_id": round_.pk}, ["side"]
                )
                unique_id(all_scores, score, f"{here}.scores[{n}]", "the scores")
                side = score_row["side"]
                if type(side) is not int or side not in side_ids:
                    raise BackupError(
                        f"Game {game.pk}, round {round_.number}: a stored score belongs to side "
                        f"{side!r}, which is not a side of this game."
                    )
                score.side_id = side
                scores[round_.pk].append(score)
                all_scores.append(score)
        unique_rows(Round, rounds, row["rounds"], f"{where}.rounds", within="game")
        for e, event_row in enumerate(reader.items(row, "events", where)):
            here = f"{where}.events[{e}]"
            event = reader.build(GameEvent, event_row, here, {"game_id": game.pk}, ["user"])
            unique_id(events, event, here, "the game events")
            account(event, "user_id", event_row.get("user"), f"{here}.user")
            events.append(event)
        seat = {side.position: side for side in sides}
        winner = row["winner"]
        try:
            if isinstance(winner, bool):  # true is no position, though Python finds it 1
                raise KeyError(winner)
            winning = seat[winner] if winner is not None else None
        except (KeyError, TypeError):
            raise BackupError(
                f"{where}.winner: {winner!r} is not the position of a side."
            ) from None
        status = check_game(game, sides, rounds, scores, winning, where)
        in_seats = sorted(sides, key=lambda side: side.position)
        confirmed = not game.confirm_rounds or all(
            round_.confirmation == Round.Confirmation.CONFIRMED for round_ in rounds
        )
        scored[game.pk] = record.ScoredGame(index, game, in_seats, status, confirmed)
        later.append((game, winning.pk if winning else None, row["rematch_of"]))

    by_public_id = {game.public_id: game.pk for game in games}
    if len(by_public_id) < len(games):
        raise BackupError("games: two games have the same public_id.")
    # A rematch of a game outside the league is kept as a plain game.
    plan.links = [
        (game, winner, by_public_id.get(rematch) if isinstance(rematch, str) else None)
        for game, winner, rematch in later
    ]
    plan.rows.update(
        {Game: games, Side: all_sides, Round: all_rounds, RoundScore: all_scores, GameEvent: events}
    )
    return by_public_id, scored


# Checks against the database ----------------------------------------------------------------


def _refuse_clashes(plan: _Plan) -> None:
    (league,) = plan.rows[League]
    if League.objects.filter(slug=league.slug).exists():
        raise BackupError(
            f"The database already has a league {league.slug!r}; import into an empty database "
            "or delete it first."
        )
    public_ids = [game.public_id for game in plan.rows[Game]]
    existing = Game.objects.filter(public_id__in=public_ids).values_list("public_id", flat=True)
    if clash := sorted(existing):
        raise BackupError(
            f"The database already has a game {clash[0]!r}; import into an empty database or "
            "delete it first."
        )


def _same_players(plan: _Plan, shared: Collection[str]) -> set[int]:
    """The file's players that are existing players (same id, name and creation time), refused
    where such a player is in a league the operator did not name as sharing its players."""
    by_id = {player.pk: player for player in plan.rows[Player]}
    same = {
        pk
        for pk, name, created_at in Player.objects.filter(pk__in=list(by_id)).values_list(
            "pk", "name", "created_at"
        )
        if (name, created_at) == (by_id[pk].name, by_id[pk].created_at)
    }
    leagues: dict[int, set[str]] = {pk: set() for pk in same}
    for pk, slug in (
        *Membership.objects.filter(player__in=same).values_list("player", "league__slug"),
        *Participation.objects.filter(player__in=same).values_list("player", "league__slug"),
        *Attendance.objects.filter(player__in=same).values_list("player", "night__league__slug"),
    ):
        leagues[pk].add(slug)
    taken = sorted(pk for pk in same if leagues[pk] - set(shared))
    if taken:
        others = sorted(set().union(*(leagues[pk] - set(shared) for pk in taken)))
        names = listing(by_id[pk].name for pk in taken)
        where = ", ".join(plan.player_where[pk] for pk in taken)
        verb = "is already a player" if len(taken) == 1 else "are already players"
        options = " ".join(f"--share-players-with {slug}" for slug in others)
        raise BackupError(
            f"{names} ({where}) {verb} of {listing(others)}. A file may not take over another "
            "league's players: only if this league really shares them with "
            f"{listing(others)}, import it with {options}."
        )
    return same


# Writing ------------------------------------------------------------------------------------


def _lock(models_: Iterable[type[models.Model]]) -> None:
    # Other writers wait until the restore commits, so that none draws from a sequence an id
    # the restore has just counted out (reads go on).
    if connection.vendor == "postgresql":
        tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models_)
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {tables} IN SHARE ROW EXCLUSIVE MODE")


def _sequence_sql(model: type[models.Model]) -> tuple[str, list[str]]:
    table = connection.ops.quote_name(model._meta.db_table)
    return "pg_get_serial_sequence(%s, %s)", [table, model._meta.pk.column]


def _next_free(model: type[models.Model], ids: Iterable[int]) -> int:
    """The first id past the table's rows, the file's ids and (PostgreSQL) the sequence."""
    top = max([*ids, model._base_manager.aggregate(top=Max("pk"))["top"] or 0])
    if connection.vendor == "postgresql":
        sequence, params = _sequence_sql(model)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT pg_sequence_last_value({sequence}::regclass)", params)
            top = max(top, cursor.fetchone()[0] or 0)
    return top + 1


def _insert(model: type[models.Model], objs: list[models.Model]) -> dict[Any, int]:
    """Insert the rows, each keeping its id when that id is free (a row without one, or whose id
    is taken, is given the next free one); the old id to the new one. Timestamps the model
    stamps itself (auto_now, auto_now_add) are put back as exported."""
    old_ids = [obj.pk for obj in objs]
    wanted = [pk for pk in old_ids if pk is not None]
    taken = set()
    for start in range(0, len(wanted), BATCH):
        chunk = wanted[start : start + BATCH]
        taken |= set(model._base_manager.filter(pk__in=chunk).values_list("pk", flat=True))
    fresh = [obj for obj in objs if obj.pk is None or obj.pk in taken]
    if fresh:
        first = _next_free(model, wanted)
        for offset, obj in enumerate(fresh):
            obj.pk = first + offset
    stamps = [
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    saved = [{name: getattr(obj, name) for name in stamps} for obj in objs]
    model._base_manager.bulk_create(objs, batch_size=BATCH)
    if stamps:
        for obj, values in zip(objs, saved, strict=True):
            for name, value in values.items():
                setattr(obj, name, value)
        model._base_manager.bulk_update(objs, stamps, batch_size=BATCH)
    return dict(zip(old_ids, (obj.pk for obj in objs), strict=True))


def _raise_sequences(models_: Iterable[type[models.Model]]) -> None:
    """Each sequence up to its table's largest id, never down (SQLite's follow by themselves)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models_:
            sequence, params = _sequence_sql(model)
            column = connection.ops.quote_name(model._meta.pk.column)
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(
                f"SELECT setval({sequence}, top) FROM (SELECT MAX({column}) AS top FROM {table}) "
                f"AS t WHERE top > COALESCE(pg_sequence_last_value({sequence}::regclass), 0)",
                params * 2,
            )


def _write(plan: _Plan, same_players: set[int]) -> League:
    User = get_user_model()
    Organiser = League.organisers.through
    order = [
        User,
        League,
        Organiser,
        Player,
        Membership,
        Season,
        ClubNight,
        Attendance,
        Game,
        Side,
        Round,
        RoundScore,
        GameEvent,
        LeagueGame,
        Participation,
        PointsAdjustment,
        LeagueEvent,
    ]
    _lock(order)
    _insert(User, plan.new_users)
    users = dict(User.objects.filter(username__in=_usernames(plan)).values_list("username", "pk"))
    for row, attname, username in plan.accounts:
        setattr(row, attname, users[username] if username is not None else None)

    ids: dict[type[models.Model], dict[Any, int]] = {}
    for model in order[order.index(League) :]:
        if model is Organiser:
            (league,) = plan.rows[League]
            rows = [Organiser(league_id=league.pk, user_id=users[name]) for name in plan.organisers]
            _insert(Organiser, rows)
            continue
        rows = plan.rows[model]
        if model is Player:
            ids[Player] = {pk: pk for pk in same_players}
            rows = [row for row in rows if row.pk not in same_players]
        for row in rows:
            for field_ in model._meta.concrete_fields:
                target = field_.related_model
                if field_.is_relation and target in ids:
                    value = getattr(row, field_.attname)
                    if value is not None:
                        setattr(row, field_.attname, ids[target][value])
        ids.setdefault(model, {}).update(_insert(model, rows))

    # The winner is a side of the game: the games go in without one and get it at the end.
    for game, winner, rematch_of in plan.links:
        game.winner_id = ids[Side][winner] if winner is not None else None
        game.rematch_of_id = ids[Game][rematch_of] if rematch_of is not None else None
    Game._base_manager.bulk_update(
        [game for game, _, _ in plan.links], ["winner", "rematch_of"], batch_size=BATCH
    )
    # The ratings are the games': replayed, and the file refused where its own differ. Before
    # the standings, whose rows are the first to draw ids from a sequence.
    (league,) = plan.rows[League]
    record.check_ratings(league, plan.rows[Participation], plan.rows[Membership])
    # The standings are not in the file (they follow from the participations and the
    # adjustments): rebuilt here.
    standings_refresh(league=league.pk)
    # Every deferred constraint is checked before the one step a rollback does not undo.
    if connection.vendor == "postgresql":
        connection.check_constraints()
    _raise_sequences(order)
    return League.objects.get(pk=plan.rows[League][0].pk)


def _usernames(plan: _Plan) -> set[str]:
    return {name for _, _, name in plan.accounts if name is not None} | set(plan.organisers)


def league_import(data: Any, *, share_players_with: Collection[str] = ()) -> League:
    """Restore a league from `league_export`'s document, or refuse it changing nothing: not
    a row, not a sequence. Every field of the file is checked (`schema`, `checks`, `record`)
    within the import's transaction before anything is stored, the ratings once the rows are
    in. Refused when the database already has its league or any of its games, and when its
    players are another league's that `share_players_with` does not name."""
    check_document(data)
    check_values(data)
    try:
        with transaction.atomic():
            plan = _read(data)
            _refuse_clashes(plan)
            same_players = _same_players(plan, share_players_with)
            return _write(plan, same_players)
    except (IntegrityError, DataError) as error:
        # The database's own words, on one line (PostgreSQL adds a DETAIL line).
        reason = str(error).strip().splitlines()[0]
        raise BackupError(f"The backup breaks a rule of the database: {reason}") from None
