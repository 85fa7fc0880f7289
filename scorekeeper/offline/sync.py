"""Offline play, the server's side: a game as a phone keeps it (the snapshot), the requests a
phone sends when its connection returns, and the writes they make.

A phone scores offline and keeps each round with a key it made (a uuid4). When it is online
again it sends the rounds in order; `round_sync` stores each once, however often it is sent,
and says when another phone saved the same round number first. The writes are the ones the
round form makes (`rounds.services.round_record` and `round_update`), so the history, the
totals and the live version of the game follow as they do for a round typed online.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scorekeeper import engine
from scorekeeper.access import scoring_rights_grant
from scorekeeper.engine.formatting import listing, number, rule_set_name, signed
from scorekeeper.games import services as games
from scorekeeper.games.live import game_etag
from scorekeeper.games.scoring import round_errors
from scorekeeper.games.store import Conflict, User, game_locked
from scorekeeper.models import Game, Round, RoundScore
from scorekeeper.portable import start_fields
from scorekeeper.rounds.confirmation import round_confirm
from scorekeeper.rounds.services import round_record, round_update

# Where a round sent from a phone goes.
EXACT = "exact"  # at its own number; if another phone saved that number first, say so
END = "end"  # after the last round: both phones' rounds are kept, one after the other
REPLACE = "replace"  # in place of the stored round of that number: the phone's round is kept
PLACES = (EXACT, END, REPLACE)

STORED = "stored"
ALREADY = "already"
CONFLICT = "conflict"

KEY_MAX = 36
# 16 random bytes in base64url: what `secrets.token_urlsafe(16)` makes for a game started online.
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{22}")
_KEY = re.compile(rf"[A-Za-z0-9_-]{{1,{KEY_MAX}}}")

UNREADABLE = (
    "Nothing was saved: what this phone sent could not be read. Reload the page and send it again."
)
NOT_A_SCORER = (
    "Only the phones scoring this game can change it, so nothing was saved. "
    "Ask a scorer for the scorer link."
)
BAD_ID = (
    "The game's address made on this phone must be 22 letters, digits, dashes or underscores; "
    "start the game again on this phone."
)
ID_TAKEN = (
    "This phone's address for the new game is already used by another game, so it was not "
    "created. Start the game again on this phone to give it a new address."
)


def _refuse(key: str, message: str) -> engine.RoundError:
    return engine.RoundError([engine.FieldError(key, message)])


# Snapshots: a game as the phone keeps it.


def round_scores(stored: Round) -> list[dict[str, Any]]:
    """Each side's points in a stored round and its total after it, with the text shown."""
    scores = RoundScore.objects.filter(round=stored).select_related("side")
    return [
        {
            "side": score.side.name,
            "points": score.points,
            "points_text": signed(score.points),
            "total": score.running_total,
            "total_text": number(score.running_total),
        }
        for score in scores.order_by("side__position")
    ]


def round_snapshot(stored: Round) -> dict[str, Any]:
    """A stored round as the phone keeps it; `version` says which save of it this is."""
    return {
        "number": stored.number,
        "ended_by": stored.ended_by,
        "entry": stored.entry,
        "key": stored.client_key,
        "version": stored.version,
    }


def game_snapshot(game: Game) -> dict[str, Any]:
    """The game as the phone keeps it to score offline, read fresh from the database."""
    game = Game.objects.get(pk=game.pk)
    sides = list(game.sides.order_by("position"))
    names = [side.name for side in sides]
    return {
        "id": game.public_id,
        "preset": game.preset,
        "rules": game.rules,
        "sides": names,
        "players": [list(side.players) for side in sides],
        "decks": game.decks,
        "first_dealer": game.first_dealer,
        "ended_by_hand": game.ended_by_hand,
        "finished": game.finished,
        "rounds": [round_snapshot(r) for r in game.rounds.order_by("number")],
        "version": game_etag(game.updated_at),
        "title": " vs ".join(names),
    }


# What a phone sends.


@dataclass(frozen=True)
class RoundSent:
    """A round a phone scored offline, as it sent it."""

    key: str
    number: int
    ended_by: str
    entry: list[dict[str, Any]]
    place: str
    version: str | None


@dataclass(frozen=True)
class GameSent:
    """A game a phone started offline: its address and the start page's fields."""

    public_id: str
    preset: str
    form: dict[str, str]


def _object(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise _refuse("__all__", UNREADABLE) from None
    if not isinstance(data, dict):
        raise _refuse("__all__", UNREADABLE)
    return data


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked(checks: list[tuple[bool, str, str]]) -> None:
    """Raise RoundError with the message of every check (passed, key, message) that failed."""
    problems = [engine.FieldError(key, message) for passed, key, message in checks if not passed]
    if problems:
        raise engine.RoundError(problems)


def _entry_ok(entry: Any) -> bool:
    # In seating order, never by name: a name inside would score one side's cards for another.
    return (
        isinstance(entry, list)
        and bool(entry)
        and all(isinstance(side, dict) and "name" not in side for side in entry)
    )


def round_sent(body: bytes) -> RoundSent:
    """Read a round sent by a phone; raises RoundError naming every part that is wrong."""
    data = _object(body)
    key, sent, ended_by, entry = (data.get(k) for k in ("key", "number", "ended_by", "entry"))
    place, version = data.get("place", EXACT), data.get("version")
    endings = listing([f"“{label}”" for label in Round.EndedBy.labels], "or")
    _checked(
        [
            (
                isinstance(key, str) and bool(_KEY.fullmatch(key)),
                "key",
                f"The round's mark on this phone must be 1 to {KEY_MAX} letters, digits or dashes.",
            ),
            (
                _whole(sent) and 1 <= sent <= engine.ROUND_MAX,
                "number",
                f"The round number must be a whole number from 1 to {number(engine.ROUND_MAX)}.",
            ),
            (
                ended_by in Round.EndedBy.values,
                "ended_by",
                f"How the round ended must be {endings}.",
            ),
            (
                _entry_ok(entry),
                "entry",
                "The round needs the scores of each side, one per side in seating order.",
            ),
            (
                place in PLACES,
                "place",
                "The round must go at its own number, after the last round, or in place of the "
                "stored round (exact, end or replace).",
            ),
            (
                place != REPLACE or (isinstance(version, str) and bool(version)),
                "version",
                "To replace a stored round the phone must say which save of it the player saw; "
                "open the game again and choose once more.",
            ),
        ]
    )
    return RoundSent(
        key=key,
        number=sent,
        ended_by=ended_by,
        entry=entry,
        place=place,
        version=version if place == REPLACE else None,
    )


@dataclass(frozen=True)
class ConfirmSent:
    """The other side's word on a round, given on a phone while it was offline."""

    number: int
    version: str | None
    handed_over: bool


def confirm_sent(body: bytes) -> ConfirmSent:
    """Read a confirmation sent by a phone; raises RoundError naming every part that is wrong."""
    data = _object(body)
    sent, version, handed = (data.get(k) for k in ("number", "version", "handed_over"))
    _checked(
        [
            (
                _whole(sent) and 1 <= sent <= engine.ROUND_MAX,
                "number",
                f"The round number must be a whole number from 1 to {number(engine.ROUND_MAX)}.",
            ),
            (
                version is None or (isinstance(version, str) and 0 < len(version) <= 64),
                "version",
                "Which save of the round the player confirmed must be the one the page showed; "
                "open the game again and confirm once more.",
            ),
            (
                handed is None or isinstance(handed, bool),
                "handed_over",
                "Whether the phone was handed to the other side must be true or false.",
            ),
        ]
    )
    return ConfirmSent(number=sent, version=version, handed_over=bool(handed))


@transaction.atomic
def confirm_sync(*, game: Game, sent: ConfirmSent, phone: str, user: User = None) -> bool:
    """Record the other side's word on a round, given while the phone was offline: True when
    the round was confirmed already (sent again after an answer lost on the way, or confirmed
    on another phone meanwhile), and nothing changes. Raises Conflict when the round changed
    or went since the phone showed it, RoundError when it is refused."""
    # First the game's row: the same confirmation sent twice at once waits here, then finds it.
    game = game_locked(game)
    stored = game.rounds.filter(number=sent.number).first()
    if stored is not None and stored.confirmation == Round.Confirmation.CONFIRMED:
        return True
    round_confirm(
        game=game,
        number=sent.number,
        version=sent.version,
        phone=phone,
        handed_over=sent.handed_over,
        user=user,
    )
    return False


def game_sent(body: bytes) -> GameSent:
    """Read a game started offline; raises RoundError naming every part that is wrong."""
    data = _object(body)
    public_id, preset, form = data.get("id"), data.get("preset"), data.get("form")
    presets = listing([rule_set_name(preset) for preset in engine.RULESETS], "or")
    _checked(
        [
            (isinstance(public_id, str) and bool(PUBLIC_ID.fullmatch(public_id)), "id", BAD_ID),
            (preset in engine.RULESETS, "preset", f"The rule set must be one of {presets}."),
            (
                isinstance(form, dict) and all(isinstance(v, str) for v in form.values()),
                "form",
                "The start page's fields must each be text, as typed.",
            ),
        ]
    )
    return GameSent(public_id=public_id, preset=preset, form=form)


# The writes.


@dataclass(frozen=True)
class Synced:
    """What became of a round sent by a phone: `round` is the phone's round as stored (None when
    it was stored once and has since been deleted or replaced), or on a conflict the other
    phone's round in its place (None when a deleted round left a gap)."""

    status: str
    number: int
    round: Round | None
    message: str = ""


@transaction.atomic
def round_sync(
    *,
    game: Game,
    key: str,
    number: int,
    ended_by: str,
    entry: list[dict[str, Any]],
    place: str,
    version: str | None = None,
    user: User = None,
    phone: str = "",
) -> Synced:
    """Store a round scored offline, once: a key already received (even if its round has since
    been deleted or replaced) answers ALREADY and changes nothing. `place` EXACT stores it at
    `number` or answers CONFLICT with the round stored there; END appends it; REPLACE corrects
    round `number` to it if that round is still the save `version`. Raises RoundError (paths
    relative to the round) when the engine refuses it."""
    # First the game's row: a second phone sending the same key waits here, then finds it.
    game = Game.objects.select_for_update().get(pk=game.pk)
    done = game.rounds.filter(client_key=key).first()
    if done is not None:
        return Synced(ALREADY, done.number, done)
    # Stored once, then deleted or replaced on another phone: that was the players' choice.
    received = game.events.filter(after__key=key).order_by("at", "id").first()
    if received is not None:
        return Synced(ALREADY, received.round_number, None)
    if place == END:
        number = game.rounds.count() + 1
    write = dict(game=game, number=number, ended_by=ended_by, entry=entry, user=user, phone=phone)
    try:
        if place == REPLACE:
            stored = round_update(**write, version=version, client_key=key)
        else:
            stored = round_record(**write, client_key=key)
    except Conflict as conflict:
        theirs = game.rounds.filter(number=conflict.number).first() if conflict.number else None
        return Synced(CONFLICT, number, theirs, conflict.errors[0].message)
    except engine.RoundError as error:
        raise engine.RoundError(round_errors(error, number)) from None
    return Synced(STORED, stored.number, stored)


def round_answer(synced: Synced, game: Game) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body that tell the phone what became of its round."""
    answer: dict[str, Any] = {"status": synced.status, "number": synced.number}
    if synced.status == CONFLICT:
        theirs = synced.round
        answer["message"] = synced.message
        answer["theirs"] = (
            {**round_snapshot(theirs), "scores": round_scores(theirs)}
            if theirs is not None
            else None
        )
    answer["snapshot"] = game_snapshot(game)
    return {STORED: 201, ALREADY: 200, CONFLICT: 409}[synced.status], answer


@dataclass(frozen=True)
class GameCreated:
    game: Game
    created: bool


@transaction.atomic
def game_sync_create(
    *,
    public_id: str,
    preset: str,
    form: Mapping[str, str],
    user: User = None,
    phone: str | None = None,
) -> GameCreated:
    """Create a game started offline at the address the phone made for it, with that phone's
    right to score it (`phone`, its `access.phone_id`) in the same transaction, so that a
    repeat finds the right as soon as it finds the game. When a game is already there (this
    request sent again, or by chance another phone's game) it is returned with `created` False
    and nothing changes. Raises RoundError as the start page refuses, each error under the key
    of its field, as `phone.start_game` gives it on the phone."""
    if not PUBLIC_ID.fullmatch(public_id):
        raise _refuse("id", BAD_ID)
    existing = Game.objects.filter(public_id=public_id).first()
    if existing is not None:
        return GameCreated(existing, False)
    try:
        with transaction.atomic():
            game = games.game_start_from_form(
                preset=preset, form=form, user=user, public_id=public_id
            )
    except engine.RoundError as error:
        keys = set(start_fields.rule_values(engine.RULESETS[preset]))
        raise engine.RoundError(
            [
                engine.FieldError(start_fields.error_key(keys, e.path), e.message)
                for e in error.errors
            ]
        ) from None
    except (IntegrityError, ValidationError):
        # The same request sent twice at once: the other one created it a moment ago.
        existing = Game.objects.filter(public_id=public_id).first()
        if existing is None:
            raise
        return GameCreated(existing, False)
    if phone is not None:
        scoring_rights_grant(phone=phone, games=[game])
    return GameCreated(game, True)
