"""Writes for games and rounds. Every score comes from `scorekeeper.engine`."""

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.engine.seating import dealing_order
from scorekeeper.games.scoring import frozen_rules, status_for
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.signals import game_scored

User = AbstractBaseUser | AnonymousUser | None


def _refuse(path: str, message: str) -> engine.RoundError:
    return engine.RoundError([engine.FieldError(path, message)])


class Conflict(engine.RoundError):
    """Refused because another phone changed the game first; `number` is the stored round to
    show instead, or None when there is none."""

    def __init__(self, message: str, *, number: int | None) -> None:
        super().__init__([engine.FieldError("round", message)])
        self.number = number


def _already_saved(number: int, rounds: list[Round]) -> Conflict:
    return Conflict(
        f"Round {number} was already saved, from this phone or another; "
        f"the game is at round {len(rounds) + 1}.",
        number=number,
    )


def _changed_since(stored: Round, version: str, doing: str) -> Conflict:
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


def _event(game: Game, kind: str, user: User, **fields: Any) -> None:
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


def _locked(game: Game) -> tuple[Game, list[Side], list[Round]]:
    # The row lock serialises two phones scoring the same table (PostgreSQL; SQLite locks the
    # whole database for a write anyway).
    game = Game.objects.select_for_update().get(pk=game.pk)
    return game, list(game.sides.order_by("position")), list(game.rounds.order_by("number"))


def _save_game(game: Game, update_fields: list[str] | None = None) -> None:
    """Save the locked game's row with an `updated_at` later than the one it had. That is the
    game's version (the live pages' ETag, the game page's cache key), so it must move with every
    write, even when this server's clock is behind the one of the server that wrote last."""
    before = game.updated_at
    game.save(update_fields=update_fields)
    if game.updated_at <= before:
        game.updated_at = before + timedelta(microseconds=1)
        Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at)


def _store(game: Game, sides: list[Side], rounds: list[Round], status: engine.GameStatus) -> None:
    """Write every round's scores and running totals and the game's result from a status."""
    RoundScore.objects.filter(round__game=game).delete()
    scores = []
    for stored, scored in zip(rounds, status.rounds, strict=True):
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
    _save_game(game)
    game_scored.send(sender=Game, game=game, sides=sides, status=status)


@transaction.atomic
def game_start(
    *,
    preset: str,
    sides: Sequence[SideSpec],
    first_dealer: int = 0,
    house_rules: dict[str, Any] | None = None,
    decks: int | None = None,
    owner: User = None,
    rematch_of: Game | None = None,
    public_id: str | None = None,
) -> Game:
    """Start a game with its rule set frozen and its sides in seating order; `public_id` is the
    address a phone made for a game it started offline (a new one otherwise)."""
    house_rules = dict(house_rules or {})
    rules = engine.resolve_rules({"base": preset, "overrides": house_rules})
    names = [spec.name.strip() for spec in sides]
    # The engine checks the number of sides, their names and the decks as it does in a game.
    engine.game_status(rules, names, [], decks=decks)
    seats = len(dealing_order([len(spec.players) for spec in sides]))
    if not 0 <= first_dealer < seats:
        raise _refuse("first_dealer", f"The first dealer must be one of the {seats} players.")
    game = Game(
        preset=rules.id,
        rules=frozen_rules(rules),
        house_rules=rules.overrides(),
        decks=decks,
        first_dealer=first_dealer,
        owner=owner if owner is not None and owner.is_authenticated else None,
        rematch_of=rematch_of,
    )
    if public_id is not None:
        game.public_id = public_id
    game.full_clean()
    game.save()
    for position, (name, spec) in enumerate(zip(names, sides, strict=True)):
        side = Side(game=game, position=position, name=name, players=list(spec.players))
        side.full_clean()
        side.save()
    started: dict[str, Any] = {"rules": rules.spec(), "sides": names}
    if rematch_of is not None:
        started["rematch_of"] = rematch_of.public_id
    _event(game, GameEvent.Kind.STARTED, owner, after=started)
    return game


@transaction.atomic
def round_record(
    *,
    game: Game,
    number: int,
    ended_by: str,
    entry: list[dict],
    user: User = None,
    client_key: str | None = None,
) -> Round:
    """Score and store round `number`; raises RoundError and stores nothing if it is invalid.
    `client_key` is the key of a round scored offline (see `scorekeeper.offline.sync`)."""
    game, sides, rounds = _locked(game)
    if number <= len(rounds):
        # Two phones, or a double tap: the first save wins and the other is told.
        raise _already_saved(number, rounds)
    if game.finished:
        raise _refuse("round", "The game is over; reopen it or correct a round instead.")
    if number != len(rounds) + 1:
        raise Conflict(
            f"Round {number} was not saved: a round was deleted on another phone meanwhile, "
            f"so the game is at round {len(rounds) + 1}.",
            number=None,
        )
    _check_entry(sides, entry)
    before = {"totals": _totals(sides)}
    stored = Round(game=game, number=number, ended_by=ended_by, entry=entry, client_key=client_key)
    status = status_for(game, sides, [*rounds, stored])
    stored.full_clean()
    try:
        # The game's row lock makes this unreachable on PostgreSQL; the unique constraint is
        # the last word wherever that lock is not taken.
        with transaction.atomic():
            stored.save()
    except IntegrityError:
        raise _already_saved(number, rounds) from None
    _store(game, sides, [*rounds, stored], status)
    _event(
        game,
        GameEvent.Kind.ROUND_ADDED,
        user,
        round_number=number,
        before=before,
        after=_snapshot(stored, sides),
    )
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
) -> Round:
    """Correct a round; every later total, meld requirement and the end of the game follow.
    With `version` (the round's `Round.version` when the form was opened), a round changed
    since is refused rather than overwritten. With `client_key`, the round takes the key of the
    offline round that replaced it, so that sending that round again changes nothing."""
    game, sides, rounds = _locked(game)
    stored = next((r for r in rounds if r.number == number), None)
    if stored is None and version is not None:
        raise Conflict(
            f"Round {number} was deleted on another phone while you were editing; "
            "nothing you entered was saved.",
            number=None,
        )
    if stored is None:
        raise _refuse("round", f"There is no round {number} in this game.")
    if version is not None and version != stored.version:
        raise _changed_since(
            stored, version, "while you were editing; nothing you entered was saved"
        )
    before = _snapshot(stored, sides)
    _check_entry(sides, entry)
    stored.ended_by, stored.entry = ended_by, entry
    if client_key is not None:
        stored.client_key = client_key
    # A correction may end or un-end the game, but one ended by hand stays ended by hand.
    status = status_for(game, sides, rounds)
    stored.full_clean()
    stored.save()
    _store(game, sides, rounds, status)
    _event(
        game,
        GameEvent.Kind.ROUND_CHANGED,
        user,
        round_number=number,
        before=before,
        after=_snapshot(stored, sides),
    )
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
    game, sides, rounds = _locked(game)
    if number is not None and number > len(rounds):
        raise Conflict(
            f"Round {number} was already deleted, from this phone or another, so nothing else "
            "was deleted.",
            number=None,
        )
    if not rounds:
        raise _refuse("round", "There is no round to delete.")
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
        raise _changed_since(rounds[-1], version, doing)
    if undo_within is not None and timezone.now() - rounds[-1].created_at > undo_within:
        raise _refuse(
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
    _store(game, sides, rounds, status_for(game, sides, rounds))
    if undo_within is None:
        _event(
            game,
            GameEvent.Kind.ROUND_DELETED,
            user,
            round_number=last.number,
            before=before,
            after={"totals": _totals(sides)},
        )
    else:
        added = game.events.filter(kind=GameEvent.Kind.ROUND_ADDED, round_number=last.number)
        added.filter(pk=added.order_by("-at", "-id").values("pk")[:1]).delete()
    return last.number


def _seconds(span: timedelta) -> str:
    seconds = int(span.total_seconds())
    return f"{seconds} second{'s' if seconds != 1 else ''}"


@transaction.atomic
def round_restore(*, game: Game, event_id: int, user: User = None) -> Round:
    """Bring back a deleted round from the game's history as the next round."""
    game, sides, rounds = _locked(game)
    event = game.events.filter(pk=event_id, kind=GameEvent.Kind.ROUND_DELETED).first()
    if event is None or not isinstance(event.before, dict):
        raise _refuse("event", "There is no deleted round with that id in this game's history.")
    number, next_number = event.round_number, len(rounds) + 1
    if number < next_number:
        raise _refuse(
            "round",
            f"Round {number} cannot come back: round {number} has been entered again since it "
            "was deleted.",
        )
    if number > next_number:
        raise _refuse(
            "round",
            f"Round {number} cannot come back before round {next_number}: restore or enter "
            f"round {next_number} first.",
        )
    if game.finished and not game.ended_by_hand:
        raise _refuse(
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
    _check_entry(sides, stored.entry)
    before = {"totals": _totals(sides)}
    status = status_for(game, sides, [*rounds, stored])
    stored.full_clean()
    stored.save()
    _store(game, sides, [*rounds, stored], status)
    _event(
        game,
        GameEvent.Kind.ROUND_RESTORED,
        user,
        round_number=number,
        before=before,
        after=_snapshot(stored, sides),
    )
    return stored


@transaction.atomic
def game_end(*, game: Game, user: User = None) -> Game:
    """End a game by hand (a game stopped at a set time): the highest total wins."""
    game, sides, rounds = _locked(game)
    if game.finished:
        raise _refuse("finished", "The game is already over.")
    if not rounds:
        raise _refuse("finished", "No round has been played yet, so the game cannot be ended.")
    before = _result(game)
    game.ended_by_hand = True
    _store(game, sides, rounds, status_for(game, sides, rounds))
    _event(game, GameEvent.Kind.ENDED, user, before=before, after=_result(game))
    return game


@transaction.atomic
def game_reopen(*, game: Game, user: User = None) -> Game:
    """Reopen a game that was ended by hand by mistake."""
    game, sides, rounds = _locked(game)
    if not game.finished:
        raise _refuse("finished", "The game is not over, so there is nothing to reopen.")
    if not game.ended_by_hand:
        raise _refuse(
            "finished",
            f"The game ended by its rules after round {len(rounds)}; correct or delete that "
            "round to carry on.",
        )
    before = _result(game)
    game.ended_by_hand = False
    _store(game, sides, rounds, status_for(game, sides, rounds))
    _event(game, GameEvent.Kind.REOPENED, user, before=before, after=_result(game))
    return game


@transaction.atomic
def game_rematch(*, game: Game, user: User = None) -> Game:
    """A new game with the same rules and sides; the deal moves on one seat."""
    sides = list(game.sides.order_by("position"))
    seats = len(dealing_order([len(side.players) for side in sides]))
    rematch = game_start(
        preset=game.preset,
        sides=[SideSpec(side.name, tuple(side.players)) for side in sides],
        first_dealer=(game.first_dealer + 1) % seats,
        house_rules=game.rules["overrides"],
        decks=game.decks,
        owner=user if user is not None and user.is_authenticated else game.owner,
        rematch_of=game,
    )
    # The rules are copied whole, so the rematch keeps what the old game froze.
    rematch.rules = game.rules
    rematch.house_rules = game.house_rules
    rematch.save(update_fields=["rules", "house_rules"])
    return rematch


@transaction.atomic
def game_claim(*, game: Game, user: AbstractBaseUser) -> Game:
    """Attach a game started before signing in to the signed-in user."""
    game = Game.objects.select_related("owner").select_for_update(of=("self",)).get(pk=game.pk)
    if game.owner_id is not None and game.owner_id != user.pk:
        raise _refuse("owner", "This game already belongs to another account.")
    before = {"owner": game.owner.get_username() if game.owner else None}
    game.owner = user
    _save_game(game, update_fields=["owner", "updated_at"])
    _event(game, GameEvent.Kind.CLAIMED, user, before=before, after={"owner": user.get_username()})
    return game


def _check_entry(sides: Sequence[Side], entry: list[dict]) -> None:
    if not isinstance(entry, list) or len(entry) != len(sides):
        raise _refuse("sides", f"A round needs an entry for each of the {len(sides)} sides.")


def _totals(sides: Sequence[Side]) -> dict[str, int]:
    return {side.name: side.total for side in sides}


def _snapshot(stored: Round, sides: Sequence[Side]) -> dict[str, Any]:
    # The totals beside the round, so the history can say what the change did to them.
    snapshot = {"ended_by": stored.ended_by, "entry": stored.entry, "totals": _totals(sides)}
    if stored.client_key is not None:
        # A round sent from a phone that scored offline is known by its key even once deleted
        # or replaced, so that sending it again does not bring it back (scorekeeper.offline.sync).
        snapshot["key"] = stored.client_key
    return snapshot


def _result(game: Game) -> dict[str, Any]:
    return {
        "finished": game.finished,
        "winner": game.winner.name if game.winner else None,
        "tie": game.tie,
    }
