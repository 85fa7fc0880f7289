"""What a league export must be before `league_import` writes anything of it.

A file is read with limits (no number longer than any the app stores, no nesting deeper than an
export has, no character a database column cannot hold); every field of every row is what its
kind holds (`schema`), no two rows are one (`unique_rows`); every game is scored again through
the engine, and what the file stores must be what the engine gives, or a page would show it
wrong. The league's own record (seasons, nights, league games, participations, ratings) is
checked against its games in `record`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from leagues.backup import schema
from leagues.backup.errors import MAX_ID, BackupError, as_in_file, outside
from scorekeeper import engine
from scorekeeper.engine.errors import listing
from scorekeeper.engine.formatting import number, owned
from scorekeeper.engine.seating import dealing_order
from scorekeeper.games.scoring import game_ruleset, status_for
from scorekeeper.models import Game, Round, RoundScore, Side

FORMAT = "scorekeeper-league"
VERSION = 1
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
    "adjustments": list,
}
# Sections a file made before they were added lacks: read as empty.
LATER_SECTIONS = {"adjustments"}
# The longest number an export holds is a 64-bit score or id (20 characters with its sign).
MAX_DIGITS = 30
# An export's deepest value is a game's rules (game, rules, overrides, opening_meld, level):
# a dozen levels at most.
MAX_DEPTH = 50
ROUND_PATH = re.compile(r"rounds\[(\d+)\]\.?")


def plain_fields(model: type[models.Model]) -> list[models.Field]:
    """Every stored value that is not a reference: a field added later is exported by itself."""
    return [field for field in model._meta.concrete_fields if not field.is_relation]


# Reading the file ---------------------------------------------------------------------------


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BackupError(
            f"a number has {digits} digits; the numbers of a league export have at most "
            f"{MAX_DIGITS}."
        )
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > 2 * MAX_DIGITS:
        raise BackupError(f"{text} is not a number a league export holds.")
    return value


def _constant(text: str) -> Any:
    raise BackupError(f"{text} is not a number a league export holds.")


def document_from(text: str) -> Any:
    """The file's JSON, or BackupError saying in one line why it is not an export's."""
    try:
        data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise BackupError(f"line {error.lineno}, column {error.colno}: {error.msg}.") from None
    except RecursionError:
        raise BackupError(_too_deep()) from None
    _check_depth(data)
    return data


def _too_deep() -> str:
    return f"its lists and objects nest more than {MAX_DEPTH} deep."


def _check_depth(data: Any) -> None:
    # Walked without recursion: the limit is what is being checked.
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise BackupError(_too_deep())
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)


def check_values(data: Any) -> None:
    """Refuse nesting past what an export has, a number past what a float holds, and text that
    no database column holds (NUL, a lone surrogate), naming where it is."""
    _check_depth(data)
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, float) and not math.isfinite(value):
            raise BackupError(f"{where}: {value} is not a number a league export holds.")
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(str(key), f"{where}: a key" if where else "a key")
                stack.append((item, f"{where}.{key}" if where else str(key)))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{index}]") for index, item in enumerate(value))


def _check_text(text: str, where: str) -> None:
    for char in text:
        if char == "\x00":
            what = "a NUL character (\\u0000)"
        elif "\ud800" <= char <= "\udfff":
            what = f"a lone surrogate (\\u{ord(char):04x})"
        else:
            continue
        raise BackupError(f"{where}: {what} cannot be stored; a league export never holds one.")


def check_id(value: Any, where: str) -> None:
    """A row's id is a whole number the sequences can follow."""
    if type(value) is not int or not 1 <= value <= MAX_ID:
        raise BackupError(
            f"{where}: {value!r} is not an id a league export has: ids are whole numbers from 1 "
            f"to {MAX_ID}."
        )


# Rows ------------------------------------------------------------------------------------------


def check_document(data: Any) -> None:
    """The document is a league export of this version with every section in place."""
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
        if key in LATER_SECTIONS and key not in data:
            continue
        if not isinstance(data.get(key), kind):
            expected = "an object" if kind is dict else "a list"
            raise BackupError(f"{key}: missing or not {expected}.")


class Reader:
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
        """An unsaved row from the document's plain fields, each checked by its kind
        (`schema.field_value`), then as `full_clean` checks them and as the database's check
        constraints do (`schema.row_rules`); uniqueness is checked over the whole section
        (`unique_rows`)."""
        fields = plain_fields(model)
        # A nullable field may be missing: a backup made before the field was added (a night's
        # closed_at, say) restores with it empty; so may a field added later with a default
        # (`schema.ADDED_LATER`), which takes it.
        self.require(
            row,
            where,
            [f.attname for f in fields if not f.null and not schema.added_later(model, f)]
            + list(extra),
        )
        check_id(row[model._meta.pk.attname], f"{where}.{model._meta.pk.attname}")
        obj = model(
            **{
                f.attname: (
                    schema.field_value(model, f, row.get(f.attname), f"{where}.{f.attname}")
                    if f.attname in row or not schema.added_later(model, f)
                    else f.get_default()
                )
                for f in fields
            },
            **(relations or {}),
        )
        try:
            obj.full_clean(
                exclude=[f.name for f in model._meta.concrete_fields if f.is_relation],
                validate_unique=False,
                validate_constraints=False,
            )
        except ValidationError as error:
            name, messages = next(iter(field_messages(error).items()))
            raise BackupError(f"{where}.{name}: {' '.join(messages)}") from None
        schema.row_rules(obj, where)
        return obj


def field_messages(error: ValidationError) -> dict[str, list[str]]:
    if hasattr(error, "error_dict"):
        return error.message_dict
    return {"value": error.messages}


def ref(ids: Collection[Any], value: Any, where: str, nullable: bool = False) -> Any:
    """The file's id of the row `value` names (`ids` maps a name to it, or is the ids), once it
    is known to be one of the file's rows."""
    if value is None and nullable:
        return None
    try:
        # true is no id, though Python finds it equal to 1.
        known = not isinstance(value, bool) and value in ids
    except TypeError:  # a list or an object is no id
        known = False
    if not known:
        raise BackupError(f"{where}: {value!r} is not in the backup.")
    return ids[value] if isinstance(ids, Mapping) else value


def unique_rows(
    model: type[models.Model],
    built: Sequence[models.Model],
    rows: Sequence[Any],
    name: str,
    within: str = "league",
) -> None:
    """No two rows of a section are one row for the model's unique constraints (a league's
    seasons by name, a night's players, a game's rounds by the phone's key, ...), each named
    by its values as in the file. `within` is the row all of them belong to (the league, their
    game), left unsaid."""
    sets = [
        constraint.fields
        for constraint in model._meta.constraints
        # A condition here is "where the value is not null", as null keys are skipped below.
        if isinstance(constraint, models.UniqueConstraint)
    ]
    sets += [(f.name,) for f in model._meta.concrete_fields if f.unique and not f.primary_key]
    for names in sets:
        names = [n for n in names if n != within]
        attnames = [model._meta.get_field(n).attname for n in names]
        seen: dict[tuple, int] = {}
        for index, obj in enumerate(built):
            key = tuple(getattr(obj, a) for a in attnames)
            if None in key:  # null is never equal to null in a unique constraint
                continue
            if key in seen:
                values = listing(f"{n} {as_in_file(rows[index].get(n))}" for n in names)
                raise BackupError(f"{name}[{index}]: {values} again, as in {name}[{seen[key]}].")
            seen[key] = index


def unique_id(built: list[models.Model], obj: models.Model, where: str, name: str) -> None:
    for index, other in enumerate(built):
        if other.pk == obj.pk:
            raise BackupError(f"{where}.id: {obj.pk} is the id of {name}[{index}] too.")


# Games through the engine -------------------------------------------------------------------


def check_game(
    game: Game,
    sides: Sequence[Side],
    rounds: Sequence[Round],
    scores: Mapping[int, Sequence[RoundScore]],
    winner: Side | None,
    path: str,
) -> engine.GameStatus:
    """The game as stored is what the engine gives for its rules and rounds: its rules resolve,
    its house rules are theirs, its sides sit in order and its first dealer at one of their
    seats, every round is a round of its sides, and every stored score, total and result is
    the engine's. `scores` are the stored scores by round id; `path` is the game's place in
    the file (`games[3]`). Returns the game's status, which its league figures follow."""
    where = f"Game {game.pk}"
    try:
        rules = game_ruleset(game)
    except engine.RoundError as error:
        raise BackupError(f"{where}: its rules are not a rule set: {_sentences(error)}") from None
    if game.preset != rules.id:
        raise BackupError(
            f"{where}: its rule set is stored as {game.preset!r}, but its rules are {rules.id!r}."
        )
    if game.house_rules != rules.overrides():
        raise BackupError(
            f"{path}.house_rules: {as_in_file(game.house_rules)} is not what its rules give: "
            f"{as_in_file(rules.overrides())}."
        )
    sides = sorted(sides, key=lambda side: side.position)
    positions = [side.position for side in sides]
    if positions != list(range(len(sides))):
        raise BackupError(
            f"{path}.sides: their positions are {listing(map(str, positions))}; they must be 0, "
            "1, 2 and so on."
        )
    seats = len(dealing_order([len(side.players) for side in sides]))
    if sides and not game.first_dealer < seats:
        raise outside(
            f"{path}.first_dealer", game.first_dealer, 0, seats - 1, ", the seats of its game"
        )
    rounds = sorted(rounds, key=lambda round_: round_.number)
    numbers = [round_.number for round_ in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        raise BackupError(
            f"{where}: its rounds are numbered {listing(map(str, numbers))}; they must be "
            "numbered 1, 2, 3 and so on."
        )
    for round_ in rounds:
        entry = round_.entry
        if not (
            isinstance(entry, list)
            and len(entry) == len(sides)
            and all(isinstance(item, dict) for item in entry)
        ):
            raise BackupError(
                f"{where}, round {round_.number}: the round is not one entry for each of the "
                f"{len(sides)} sides."
            )
    try:
        status = status_for(game, sides, rounds)
    except engine.RoundError as error:
        first = error.errors[0]
        found = ROUND_PATH.match(first.path)
        at = f", round {int(found[1]) + 1}" if found else ""
        raise BackupError(f"{where}{at}: {first.message}") from None

    for round_, scored in zip(rounds, status.rounds, strict=True):
        _check_scores(f"{where}, round {round_.number}", sides, scores.get(round_.pk, []), scored)
    for side in sides:
        _same(where, f"the stored total for {side.name}", side.total, status.totals[side.name])
    if game.finished != status.finished:
        stored, given = ("over", "still being played")
        if status.finished:
            stored, given = given, stored
        raise BackupError(f"{where}: it is stored as {stored}, but the rules say it is {given}.")
    stored_winner = winner.name if winner is not None else None
    if (stored_winner, game.tie) != (status.winner, status.tie):
        raise BackupError(
            f"{where}: the stored winner is {_winner(stored_winner, game.tie)}, but the rules "
            f"give {_winner(status.winner, status.tie)}."
        )
    return status


def _check_scores(
    where: str, sides: Sequence[Side], stored: Sequence[RoundScore], scored: engine.GameRound
) -> None:
    by_side: dict[int, RoundScore] = {}
    names = {side.pk: side.name for side in sides}
    for score in stored:
        if score.side_id in by_side:
            raise BackupError(f"{where}: {names[score.side_id]} has two stored scores.")
        by_side[score.side_id] = score
    lines = {side.name: side.lines for side in scored.result.sides}
    for side in sides:
        score = by_side.get(side.pk)
        if score is None:
            raise BackupError(f"{where}: there is no stored score for {side.name}.")
        _same(where, f"the stored score for {side.name}", score.points, scored.scores[side.name])
        _same(
            where,
            f"the stored running total for {side.name}",
            score.running_total,
            scored.totals[side.name],
        )
        if score.lines != [line.to_dict() for line in lines[side.name]]:
            raise BackupError(
                f"{where}: the stored breakdown of {owned(side.name, 'score')} is not the one "
                "the rules give."
            )


def _same(where: str, what: str, stored: int, given: int) -> None:
    if stored != given:
        raise BackupError(
            f"{where}: {what} is {_figure(stored)}, but the rules give {_figure(given)}."
        )


def _figure(value: Any) -> str:
    # As the pages write points (10,100); a stored value that is not a whole number as it is.
    return number(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _winner(name: str | None, tie: bool) -> str:
    if name is not None:
        return name
    return "nobody (a tie)" if tie else "nobody"


def _sentences(error: engine.RoundError) -> str:
    return " ".join(item.message for item in error.errors)
