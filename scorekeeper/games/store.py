"""The writes every change of a game ends with, shared by the game's and the rounds' services:
the game's row locked, its scores stored from the engine's status, its version moved and the
change logged in its history."""

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.signals import game_scored

User = AbstractBaseUser | AnonymousUser | None


def refusal(path: str, message: str) -> engine.RoundError:
    """The one-problem RoundError a service raises to refuse a write."""
    return engine.RoundError([engine.FieldError(path, message)])


class Conflict(engine.RoundError):
    """Refused because another phone changed the game first; `number` is the stored round to
    show instead, or None when there is none."""

    def __init__(self, message: str, *, number: int | None) -> None:
        super().__init__([engine.FieldError("round", message)])
        self.number = number


def already_saved(number: int, played: int) -> Conflict:
    """The conflict of a round number saved already (two phones, or a double tap)."""
    return Conflict(
        f"Round {number} was already saved, from this phone or another; "
        f"the game is at round {played + 1}.",
        number=number,
    )


def changed_since(stored: Round, version: str, doing: str) -> Conflict:
    """The conflict of a round changed on another phone since the form was opened."""
    try:
        seen = datetime.fromisoformat(version)
    except ValueError:
        seen = None
    what = (
        "deleted and entered again"
        if seen is not None and seen.tzinfo is not None and stored.created_at > seen
        else "corrected"
    )
    at = timezone.localtime(stored.updated_at).strftime("%H:%M")
    return Conflict(
        f"Round {stored.number} was {what} on another phone at {at} {doing}. "
        "This is the round as stored now.",
        number=stored.number,
    )


def event_log(game: Game, kind: str, user: User, **fields: Any) -> None:
    """Add an entry to the game's history, signed by the user or by 'a scorer's phone'."""
    signed_in = user is not None and user.is_authenticated
    event = GameEvent(
        game=game,
        kind=kind,
        user=user if signed_in else None,
        who=user.get_username() if signed_in else "a scorer's phone",
        **fields,
    )
    event.full_clean()
    event.save()


def game_locked(game: Game) -> Game:
    """The game's row again, locked until the transaction ends."""
    # The row lock serialises two phones scoring the same table (PostgreSQL; SQLite locks the
    # whole database for a write anyway).
    return Game.objects.select_for_update().get(pk=game.pk)


def game_rows(game: Game) -> tuple[list[Side], list[Round]]:
    """The locked game's sides in seating order and its rounds in order."""
    return list(game.sides.order_by("position")), list(game.rounds.order_by("number"))


def game_save(game: Game, update_fields: list[str] | None = None) -> None:
    """Save the locked game's row with an `updated_at` later than the one it had. That is the
    game's version (the live pages' ETag, the game page's cache key), so it must move with every
    write, even when this server's clock is behind the one of the server that wrote last."""
    before = game.updated_at
    game.save(update_fields=update_fields)
    if game.updated_at <= before:
        game.updated_at = before + timedelta(microseconds=1)
        Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at)


def scores_store(
    game: Game, sides: list[Side], rounds: Sequence[Round], status: engine.GameStatus
) -> None:
    """Store a status: the scores of the rounds it scored (the last `len(status.rounds)` of
    `rounds`, replacing theirs), every side's total and the game's result."""
    scored_rounds = list(rounds)[len(rounds) - len(status.rounds) :]
    RoundScore.objects.filter(round__in=[r for r in scored_rounds if r.pk is not None]).delete()
    scores = []
    for stored, scored in zip(scored_rounds, status.rounds, strict=True):
        lines = {side.name: side.lines for side in scored.result.sides}
        for side in sides:
            scores.append(
                RoundScore(
                    round=stored,
                    side=side,
                    points=scored.scores[side.name],
                    running_total=scored.totals[side.name],
                    lines=[line.to_dict() for line in lines[side.name]],
                )
            )
    RoundScore.objects.bulk_create(scores)
    by_name = {side.name: side for side in sides}
    for side in sides:
        side.total = status.totals[side.name]
    Side.objects.bulk_update(sides, ["total"])
    game.finished = status.finished
    game.winner = by_name[status.winner] if status.winner else None
    game.tie = status.tie
    game.full_clean()
    game_save(game)
    # A status scored from the totals before it holds only its new rounds: a listener that
    # needs every round's figures scores the game again.
    whole = not status.rounds or status.rounds[-1].round == len(status.rounds)
    game_scored.send(sender=Game, game=game, sides=sides, status=status, whole=whole)


def totals_of(sides: Sequence[Side]) -> dict[str, int]:
    """Each side's total as the history keeps it."""
    return {side.name: side.total for side in sides}


def result_of(game: Game) -> dict[str, Any]:
    """The game's result as the history keeps it."""
    return {
        "finished": game.finished,
        "winner": game.winner.name if game.winner else None,
        "tie": game.tie,
    }
