"""Writes for rounds: a new round, a correction, a deletion (or the Undo of a save) and a round
brought back from the history. Every score comes from `scorekeeper.engine`; every write ends in
`_round_stored` or `_round_removed`, which store the scores and log the change."""

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.games.scoring import status_after, status_for
from scorekeeper.games.store import (
    Conflict,
    User,
    already_saved,
    changed_since,
    event_log,
    game_locked,
    game_rows,
    refusal,
    scores_store,
    totals_of,
)
from scorekeeper.models import Game, GameEvent, Round, Side
from scorekeeper.rounds.confirmation import confirmation_new


def game_over(played: int) -> str:
    """Why a finished game takes no new round, and what the players can do instead."""
    if played >= engine.ROUND_MAX:
        return (
            f"The game is over: a game holds at most {engine.ROUND_MAX} rounds, and the highest "
            "total won. Start a rematch to play on."
        )
    return "The game is over; reopen it or correct a round instead."


@transaction.atomic
def round_record(
    *,
    game: Game,
    number: int,
    ended_by: str,
    entry: list[dict],
    user: User = None,
    client_key: str | None = None,
    phone: str = "",
) -> Round:
    """Score and store round `number`; raises RoundError and stores nothing if it is invalid.
    `client_key` is the key of a round scored offline (see `scorekeeper.offline.sync`); `phone`
    the saving phone's id, whose side's word the round is (`rounds.confirmation`)."""
    game = game_locked(game)
    # The rounds before are not read: their totals are on the sides, so the cost of a save is
    # the same at round 2 and at round 20.
    sides = list(game.sides.order_by("position"))
    played = game.rounds.count()
    if number <= played:
        # Two phones, or a double tap: the first save wins and the other is told.
        raise already_saved(number, played)
    if game.finished:
        raise refusal("round", game_over(played))
    if number != played + 1:
        raise Conflict(
            f"Round {number} was not saved: a round was deleted on another phone meanwhile, "
            f"so the game is at round {played + 1}.",
            number=None,
        )
    _check_entry(sides, entry)
    before = {"totals": totals_of(sides)}
    stored = Round(game=game, number=number, ended_by=ended_by, entry=entry, client_key=client_key)
    confirmation_new(stored, game, phone)
    status = status_after(game, sides, played, stored)
    stored.full_clean()
    try:
        # The game's row lock makes this unreachable on PostgreSQL; the unique constraint is
        # the last word wherever that lock is not taken.
        with transaction.atomic():
            stored.save()
    except IntegrityError:
        raise already_saved(number, played) from None
    _round_stored(game, sides, [stored], status, GameEvent.Kind.ROUND_ADDED, user, before)
    return stored


@transaction.atomic
def round_update(
    *,
    game: Game,
    number: int,
    ended_by: str,
    entry: list[dict],
    user: User = None,
    version: str | None = None,
    client_key: str | None = None,
    phone: str = "",
) -> Round:
    """Correct a round; every later total, meld requirement and the end of the game follow.
    With `version` (the round's `Round.version` when the form was opened), a round changed
    since is refused rather than overwritten. With `client_key`, the round takes the key of the
    offline round that replaced it, so that sending that round again changes nothing."""
    game = game_locked(game)
    sides, rounds = game_rows(game)
    stored = next((r for r in rounds if r.number == number), None)
    if stored is None and version is not None:
        raise Conflict(
            f"Round {number} was deleted on another phone while you were editing; "
            "nothing you entered was saved.",
            number=None,
        )
    if stored is None:
        raise refusal("round", f"There is no round {number} in this game.")
    if version is not None and version != stored.version:
        raise changed_since(
            stored, version, "while you were editing; nothing you entered was saved"
        )
    before = _snapshot(stored, sides)
    _check_entry(sides, entry)
    stored.ended_by, stored.entry = ended_by, entry
    if client_key is not None:
        stored.client_key = client_key
    # A corrected round is the correcting phone's word, for the other side to confirm again.
    confirmation_new(stored, game, phone)
    # A correction may end or un-end the game, but one ended by hand stays ended by hand.
    status = status_for(game, sides, rounds)
    stored.full_clean()
    stored.save()
    _round_stored(game, sides, rounds, status, GameEvent.Kind.ROUND_CHANGED, user, before, stored)
    return stored


@transaction.atomic
def round_delete_last(
    *,
    game: Game,
    user: User = None,
    number: int | None = None,
    version: str | None = None,
    undo_within: timedelta | None = None,
) -> int:
    """Delete the last round; returns its number. With `number` (and `version`), the round the
    phone asked about, refused if it is no longer the last round or has changed since. With
    `undo_within`, an Undo of the save: refused once the round is older than that, and the
    round leaves no trace in the history, as if it had never been saved."""
    game = game_locked(game)
    sides, rounds = game_rows(game)
    if number is not None and number > len(rounds):
        raise Conflict(
            f"Round {number} was already deleted, from this phone or another, so nothing else "
            "was deleted.",
            number=None,
        )
    if not rounds:
        raise refusal("round", "There is no round to delete.")
    if number is not None and number < len(rounds):
        raise Conflict(
            f"Round {number} is no longer the last round: the game is at round {len(rounds)}, "
            "entered on another phone meanwhile, so nothing was deleted.",
            number=None,
        )
    if version is not None and version != rounds[-1].version:
        doing = (
            "after it was saved, so it can no longer be undone; nothing was removed"
            if undo_within is not None
            else "after you asked to delete it; nothing was deleted"
        )
        raise changed_since(rounds[-1], version, doing)
    if undo_within is not None and timezone.now() - rounds[-1].created_at > undo_within:
        raise refusal(
            "round",
            f"Round {rounds[-1].number} was saved more than {_seconds(undo_within)} ago, so it "
            "can no longer be undone and nothing was removed. If it is wrong, correct or delete "
            "it from the game page.",
        )
    last = rounds.pop()
    before = _snapshot(last, sides)
    last.delete()
    if game.ended_by_hand and not rounds:
        game.ended_by_hand = False
    scores_store(game, sides, rounds, status_for(game, sides, rounds))
    if undo_within is None:
        event_log(
            game,
            GameEvent.Kind.ROUND_DELETED,
            user,
            round_number=last.number,
            before=before,
            after={"totals": totals_of(sides)},
        )
    else:
        added = game.events.filter(kind=GameEvent.Kind.ROUND_ADDED, round_number=last.number)
        added.filter(pk=added.order_by("-at", "-id").values("pk")[:1]).delete()
    return last.number


@transaction.atomic
def round_restore(*, game: Game, event_id: int, user: User = None, phone: str = "") -> Round:
    """Bring back a deleted round from the game's history as the next round."""
    game = game_locked(game)
    sides, rounds = game_rows(game)
    event = game.events.filter(pk=event_id, kind=GameEvent.Kind.ROUND_DELETED).first()
    if event is None or not isinstance(event.before, dict):
        raise refusal("event", "There is no deleted round with that id in this game's history.")
    number, next_number = event.round_number, len(rounds) + 1
    if number < next_number:
        raise refusal(
            "round",
            f"Round {number} cannot come back: round {number} has been entered again since it "
            "was deleted.",
        )
    if number > next_number:
        raise refusal(
            "round",
            f"Round {number} cannot come back before round {next_number}: restore or enter "
            f"round {next_number} first.",
        )
    if game.finished and not game.ended_by_hand:
        raise refusal(
            "round",
            f"Round {number} cannot come back: the game ended by its rules after round "
            f"{len(rounds)}; correct or delete that round first.",
        )
    stored = Round(
        game=game,
        number=number,
        ended_by=event.before.get("ended_by", ""),
        entry=event.before.get("entry"),
    )
    confirmation_new(stored, game, phone)
    _check_entry(sides, stored.entry)
    before = {"totals": totals_of(sides)}
    status = status_for(game, sides, [*rounds, stored])
    stored.full_clean()
    stored.save()
    _round_stored(
        game, sides, [*rounds, stored], status, GameEvent.Kind.ROUND_RESTORED, user, before
    )
    return stored


def _round_stored(
    game: Game,
    sides: list[Side],
    rounds: Sequence[Round],
    status: engine.GameStatus,
    kind: str,
    user: User,
    before: dict[str, Any],
    changed: Round | None = None,
) -> None:
    """The one tail of every round written: its scores stored from `status` (the rounds it
    scored, the last of `rounds`) and the change logged with the totals after it."""
    scores_store(game, sides, rounds, status)
    changed = changed if changed is not None else rounds[-1]
    event_log(
        game,
        kind,
        user,
        round_number=changed.number,
        before=before,
        after=_snapshot(changed, sides),
    )


def _check_entry(sides: Sequence[Side], entry: list[dict]) -> None:
    if not isinstance(entry, list) or len(entry) != len(sides):
        raise refusal("sides", f"A round needs an entry for each of the {len(sides)} sides.")


def _seconds(span: timedelta) -> str:
    seconds = int(span.total_seconds())
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _snapshot(stored: Round, sides: Sequence[Side]) -> dict[str, Any]:
    # The totals beside the round, so the history can say what the change did to them.
    snapshot = {"ended_by": stored.ended_by, "entry": stored.entry, "totals": totals_of(sides)}
    if stored.client_key is not None:
        # A round sent from a phone that scored offline is known by its key even once deleted
        # or replaced, so that sending it again does not bring it back (scorekeeper.offline.sync).
        snapshot["key"] = stored.client_key
    return snapshot
