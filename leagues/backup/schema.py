"""What each field of a league export holds, checked in one place per kind of field before
anything is stored: `field_value` reads every plain field of every row of the file.

- true or false is a JSON boolean, never 1 or "yes";
- a whole number is a JSON integer within the bounds the forms and the engine allow (`BOUNDS`),
  else within the column's range on PostgreSQL (so that a file is refused alike on SQLite);
- a number (a rating) is a JSON number, a sigma above 0;
- text is a JSON string; a game's address and scorer's key are what a link can carry;
- a date or a date and time (with its offset) falls in the years `YEARS`, whatever its offset:
  a year 9999 with a −12:00 offset is past what a database reads back;
- JSON: the players of a side are names; a game's history holds names and totals where the
  history page reads them. The other JSON fields are checked against what the engine gives
  (rules, rounds, scores: `checks.check_game`; a participation's canastas: `record`).

`row_rules` then checks what a row's fields say together (the database's check constraints).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from leagues.backup.errors import MAX_ID, BackupError, as_in_file, figure, outside
from leagues.models import (
    ADJUSTMENT_POINTS,
    Attendance,
    League,
    LeagueGame,
    Membership,
    Participation,
    PointsAdjustment,
    Season,
)
from leagues.services import RESERVED_SLUGS
from scorekeeper import engine
from scorekeeper.engine.errors import is_whole, listing
from scorekeeper.engine.rules import TABLE_DECKS_MAX, TABLE_SIDES_MAX
from scorekeeper.models import Game, GameEvent, Round, Side

# Every date and time of a league falls in these years.
YEARS = (2000, 2100)
# Points a result is worth in the standings: the league settings form's bounds.
POINTS_RANGE = (-100, 100)
# A club night's tables and sides as the seating form takes them ("a table from 1 to 99 and a
# side"), and a side of at most three players.
TABLES = (1, 99)
TABLE_SIDES = (0, 9)
TEAM_MAX = 3
PLACES = (0, TEAM_MAX - 1)
NAME_MAX = 100
# The largest value each integer column holds on PostgreSQL (SQLite's are 64-bit).
COLUMN_RANGES = {
    "SmallIntegerField": (-(2**15), 2**15 - 1),
    "PositiveSmallIntegerField": (0, 2**15 - 1),
    "IntegerField": (-(2**31), 2**31 - 1),
    "PositiveIntegerField": (0, 2**31 - 1),
    "BigIntegerField": (-(2**63), 2**63 - 1),
    "PositiveBigIntegerField": (0, 2**63 - 1),
}
# Whole numbers held to what the forms and the engine allow. The ledger is counted on from
# its largest place (`max + 1`), so it stays where the ids do.
BOUNDS: dict[tuple[type[models.Model], str], tuple[int, int]] = {
    (League, "win_points"): POINTS_RANGE,
    (League, "tie_points"): POINTS_RANGE,
    (League, "loss_points"): POINTS_RANGE,
    (Attendance, "table"): TABLES,
    (Attendance, "side"): TABLE_SIDES,
    (Attendance, "place"): PLACES,
    (LeagueGame, "table"): TABLES,
    (LeagueGame, "ledger"): (1, MAX_ID),
    (Participation, "side"): (0, TABLE_SIDES_MAX - 1),
    (Participation, "place"): PLACES,
    (Game, "decks"): (1, TABLE_DECKS_MAX),
    (Game, "first_dealer"): (0, TABLE_SIDES_MAX * TEAM_MAX - 1),
    (Side, "position"): (0, TABLE_SIDES_MAX - 1),
    (Round, "number"): (1, engine.ROUND_MAX),
    (GameEvent, "round_number"): (1, engine.ROUND_MAX),
    (PointsAdjustment, "points"): ADJUSTMENT_POINTS,
}
# Fields added after the first backups were made: a file without one restores it as its default
# (a league's club nights confirm their rounds, a game and its rounds ask for nothing).
ADDED_LATER = {
    (League, "confirm_rounds"),
    (Game, "confirm_rounds"),
    (Round, "entered_phone"),
    (Round, "confirmation"),
    (Round, "checked_by"),
    (Round, "dispute_reason"),
}
# Text that is one of a few words, each named when another is found (the others' choices are
# checked by `full_clean`).
CHOICES: dict[tuple[type[models.Model], str], str] = {
    (Round, "confirmation"): "a round's confirmation",
}
SIGMAS = {
    (Membership, "sigma"),
    (Participation, "sigma_before"),
    (Participation, "sigma_after"),
}
# A game's address and its scorer's key are in links (/g/<address>/join/<key>/).
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKENS = {(Game, "public_id"): "a game's address", (Game, "scorer_token"): "a scorer's key"}

EXPECTED = {
    "boolean": "true or false",
    "whole": "a whole number",
    "number": "a number",
    "moment": "a date and time with its offset, such as 2026-10-01T19:30:00+00:00",
    "day": "a date such as 2026-10-01",
    "text": "text",
}


def added_later(model: type[models.Model], field: models.Field) -> bool:
    """A field a file made before it was added may lack."""
    return (model, field.attname) in ADDED_LATER


def _expected(kind: str, raw: Any, where: str) -> BackupError:
    return BackupError(f"{where}: expected {EXPECTED[kind]}, found {as_in_file(raw)}.")


def _kind(field: models.Field) -> str:
    if isinstance(field, models.BooleanField):
        return "boolean"
    if isinstance(field, models.IntegerField):
        return "whole"
    if isinstance(field, models.FloatField):
        return "number"
    if isinstance(field, models.DateTimeField):
        return "moment"
    if isinstance(field, models.DateField):
        return "day"
    if isinstance(field, models.CharField | models.TextField):
        return "text"
    if isinstance(field, models.JSONField):
        return "json"
    raise TypeError(f"A league export has no field of the kind of {field!r}.")


def field_value(model: type[models.Model], field: models.Field, raw: Any, where: str) -> Any:
    """The value of a plain field of a row as the file gives it, checked by its kind; raises
    BackupError naming `where` (`players[3].created_at`) and what is allowed."""
    if field.primary_key:
        return raw  # checked as an id (`checks.check_id`)
    kind = _kind(field)
    if raw is None and (field.null or kind == "json"):
        # A JSON field the model requires is refused by the row's own check (full_clean).
        return None
    if kind == "json":
        shape = SHAPES.get((model, field.attname))
        if shape is not None:
            shape(raw, where)
        return raw
    return READERS[kind](model, field, raw, where)


def _boolean(model, field, raw: Any, where: str) -> bool:
    if not isinstance(raw, bool):
        raise _expected("boolean", raw, where)
    return raw


def _whole(model, field, raw: Any, where: str) -> int:
    if not is_whole(raw):
        raise _expected("whole", raw, where)
    lowest, highest = BOUNDS.get((model, field.attname)) or COLUMN_RANGES[field.get_internal_type()]
    if not lowest <= raw <= highest:
        raise outside(where, raw, lowest, highest)
    return raw


def _number(model, field, raw: Any, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise _expected("number", raw, where)
    if (model, field.attname) in SIGMAS and not raw > 0:
        raise BackupError(f"{where}: {figure(raw)} is not a rating's sigma, which is above 0.")
    return float(raw)


def _text(model, field, raw: Any, where: str) -> str:
    if not isinstance(raw, str):
        raise _expected("text", raw, where)
    what = TOKENS.get((model, field.attname))
    if what is not None and not TOKEN.fullmatch(raw):
        raise BackupError(
            f"{where}: {as_in_file(raw)} is not {what}: 1 to 32 letters, digits, hyphens and "
            "underscores."
        )
    choice = CHOICES.get((model, field.attname))
    if choice is not None and raw not in {value for value, _ in field.choices}:
        allowed = listing((json.dumps(value) for value, _ in field.choices), "or")
        raise BackupError(f"{where}: {as_in_file(raw)} is not {choice}; expected {allowed}.")
    if model is League and field.attname == "slug" and raw in RESERVED_SLUGS:
        raise BackupError(
            f"{where}: {as_in_file(raw)} is the address of a page of the site; a league has "
            "another."
        )
    return raw


def _parsed(field: models.Field, raw: Any, where: str, kind: str) -> Any:
    if not isinstance(raw, str):
        raise _expected(kind, raw, where)
    try:
        return field.to_python(raw)
    except ValidationError as error:
        raise BackupError(f"{where}: {' '.join(error.messages)}") from None


def _in_years(year: int | None, raw: str, where: str) -> None:
    if year is None or not YEARS[0] <= year <= YEARS[1]:
        raise BackupError(
            f"{where}: {raw} is outside the years {YEARS[0]} to {YEARS[1]}; a league's dates and "
            "times fall within them."
        )


def _moment(model, field, raw: Any, where: str) -> datetime.datetime:
    value = _parsed(field, raw, where, "moment")
    if value.utcoffset() is None:
        raise _expected("moment", raw, where)
    try:
        year = value.astimezone(datetime.UTC).year
    except OverflowError:  # past the year 9999 in UTC
        year = None
    _in_years(year, raw, where)
    return value


def _day(model, field, raw: Any, where: str) -> datetime.date:
    value = _parsed(field, raw, where, "day")
    _in_years(value.year, raw, where)
    return value


READERS: dict[str, Callable[..., Any]] = {
    "boolean": _boolean,
    "whole": _whole,
    "number": _number,
    "moment": _moment,
    "day": _day,
    "text": _text,
}


# JSON fields -----------------------------------------------------------------------------------


def is_name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= NAME_MAX


def _players(raw: Any, where: str) -> None:
    # A side's players by name, in seat order: none in individual play, at most three a team.
    if not (isinstance(raw, list) and len(raw) <= TEAM_MAX and all(map(is_name, raw))):
        raise BackupError(
            f"{where}: expected the names of at most {TEAM_MAX} players, found {as_in_file(raw)}."
        )


def _is_totals(value: Any) -> bool:
    return isinstance(value, Mapping) and all(is_whole(total) for total in value.values())


# What the game's history reads of an event's values before and after, and what it must be.
def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


HISTORY_VALUES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "sides": (_is_names, "the sides' names"),
    "totals": (_is_totals, "each side's total"),
    "winner": (lambda v: v is None or isinstance(v, str), "a side's name"),
}


def _history(raw: Any, where: str) -> None:
    if not isinstance(raw, Mapping):
        return  # the history reads an event's values only where they are an object
    for key, (fits, what) in HISTORY_VALUES.items():
        if key in raw and not fits(raw[key]):
            raise BackupError(f"{where}.{key}: expected {what}, found {as_in_file(raw[key])}.")


SHAPES: dict[tuple[type[models.Model], str], Callable[[Any, str], None]] = {
    (Side, "players"): _players,
    (GameEvent, "before"): _history,
    (GameEvent, "after"): _history,
}


# What a row's fields say together ------------------------------------------------------------


def _season(season: Season, where: str) -> None:
    if season.ends_on < season.starts_on:
        raise BackupError(
            f"{where}.ends_on: {season.ends_on} is before the season starts, {season.starts_on}."
        )


def _seat(attendance: Attendance, where: str) -> None:
    seat = (attendance.table, attendance.side, attendance.place)
    if None in seat and seat != (None, None, None):
        raise BackupError(
            f"{where}: a seat is a table, a side and a place, or none of them (sitting out); "
            f"found table {as_in_file(seat[0])}, side {as_in_file(seat[1])} and place "
            f"{as_in_file(seat[2])}."
        )


def _void(league_game: LeagueGame, where: str) -> None:
    if league_game.voided and not league_game.void_reason.strip():
        raise BackupError(f"{where}.void_reason: empty, but the game is voided; a void says why.")


def _dispute(round_: Round, where: str) -> None:
    if round_.confirmation == Round.Confirmation.DISPUTED and not round_.dispute_reason.strip():
        raise BackupError(
            f"{where}.dispute_reason: empty, but the round is disputed; a dispute says why."
        )


def _adjustment(adjustment: PointsAdjustment, where: str) -> None:
    if adjustment.points == 0:
        raise BackupError(
            f"{where}.points: 0 changes nothing; an adjustment is a penalty below 0 or a bonus "
            "above."
        )
    if not adjustment.reason.strip():
        raise BackupError(f"{where}.reason: empty; an adjustment says why.")


ROW_RULES: dict[type[models.Model], Callable[[Any, str], None]] = {
    Season: _season,
    Attendance: _seat,
    LeagueGame: _void,
    Round: _dispute,
    PointsAdjustment: _adjustment,
}


def row_rules(obj: models.Model, where: str) -> None:
    """What the row's fields say together, as the database's check constraints hold it."""
    rule = ROW_RULES.get(type(obj))
    if rule is not None:
        rule(obj, where)
