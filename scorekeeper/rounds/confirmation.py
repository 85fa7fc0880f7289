"""Rounds confirmed at the table: in a game that asks for it (a league's club night), a saved
round waits until a player of another side agrees to it, on their own phone in one tap or on the
phone that saved it once it has been handed over ("Them: confirm"), or an organiser confirms it.
The other side may dispute a round instead, saying why; it then waits for a correction (which
sets it waiting again) or the organiser. Every change moves the game's version, so the live
pages show it, and is sent as `game_scored`, so that a league counts the game once every round
is confirmed."""

from django.db import transaction
from django.utils import timezone

from scorekeeper.games.store import (
    Conflict,
    User,
    changed_since,
    event_log,
    game_locked,
    game_rows,
    game_save,
    refusal,
)
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.signals import game_scored

Confirmation = Round.Confirmation
REASON_MAX = 200


def confirmation_new(stored: Round, game: Game, phone: str) -> None:
    """Mark a round just saved (new, corrected or restored) as the saving phone's word, waiting
    for another side's in a game that asks for it."""
    stored.entered_phone = phone[:32]
    stored.confirmation = Confirmation.WAITING if game.confirm_rounds else Confirmation.NONE
    stored.checked_by, stored.checked_at, stored.dispute_reason = "", None, ""


def _round_to_check(game: Game, number: int, version: str | None) -> tuple[list, list, Round]:
    if not game.confirm_rounds:
        raise refusal("round", "This game's rounds need no confirmation.")
    sides, rounds = game_rows(game)
    stored = next((r for r in rounds if r.number == number), None)
    if stored is None:
        raise Conflict(
            f"Round {number} was deleted on another phone meanwhile, so there is nothing to "
            "confirm.",
            number=None,
        )
    if version is not None and version != stored.version:
        raise changed_since(stored, version, "since you opened it, so nothing was recorded")
    return sides, rounds, stored


def _who(user: User, organiser: str, handed_over: bool) -> str:
    if organiser:
        return f"{organiser} (organiser)"
    signed_in = user is not None and user.is_authenticated
    where = "on the phone that saved it" if handed_over else "on another phone"
    return f"{user.get_username()}, {where}" if signed_in else f"the other side, {where}"


def _checked(
    game: Game, sides: list, rounds: list, stored: Round, before: str, kind: str, user: User
) -> None:
    before = {"confirmation": before}
    stored.checked_at = timezone.now()
    stored.full_clean()
    # Not `save()`: the round's version (its updated_at) is the round as entered, which a
    # confirmation leaves as it was, so a form opened on it still corrects it.
    Round.objects.filter(pk=stored.pk).update(
        confirmation=stored.confirmation,
        checked_by=stored.checked_by,
        checked_at=stored.checked_at,
        dispute_reason=stored.dispute_reason,
    )
    game_save(game)
    after = {"confirmation": stored.confirmation, "by": stored.checked_by}
    if stored.dispute_reason:
        after["reason"] = stored.dispute_reason
    event_log(game, kind, user, round_number=stored.number, before=before, after=after)
    # Nothing was scored again: a listener that needs the game's figures scores it itself.
    game_scored.send(sender=Game, game=game, sides=sides, status=None, whole=False)


@transaction.atomic
def round_confirm(
    *,
    game: Game,
    number: int,
    version: str | None,
    phone: str,
    handed_over: bool = False,
    organiser: str = "",
    user: User = None,
) -> Round:
    """Record the other side's (or an organiser's) word that round `number`, as it stands at
    `version`, is right. The phone that saved the round confirms it only as the explicit
    "Them: confirm" step (`handed_over`)."""
    game = game_locked(game)
    sides, rounds, stored = _round_to_check(game, number, version)
    if stored.confirmation == Confirmation.CONFIRMED:
        raise refusal("round", f"Round {number} is already confirmed ({stored.checked_by}).")
    if not organiser and phone and stored.entered_phone == phone and not handed_over:
        raise refusal(
            "round",
            f"Round {number} was saved on this phone, so the other side confirms it: hand them "
            "the phone and let them tap “Them: confirm”.",
        )
    before = stored.confirmation
    stored.confirmation = Confirmation.CONFIRMED
    stored.checked_by = _who(user, organiser, handed_over and stored.entered_phone == phone)
    stored.dispute_reason = ""
    _checked(game, sides, rounds, stored, before, GameEvent.Kind.ROUND_CONFIRMED, user)
    return stored


@transaction.atomic
def round_dispute(
    *,
    game: Game,
    number: int,
    version: str | None,
    phone: str,
    reason: str,
    handed_over: bool = False,
    user: User = None,
) -> Round:
    """Record the other side's word that round `number` is wrong, and why: the round waits for
    a correction or the organiser."""
    reason = " ".join(str(reason).split())
    if not reason:
        raise refusal("reason", "Say what is wrong with the round, in up to 200 characters.")
    if len(reason) > REASON_MAX:
        raise refusal(
            "reason",
            f"Say what is wrong in up to 200 characters; this is {len(reason)}.",
        )
    game = game_locked(game)
    sides, rounds, stored = _round_to_check(game, number, version)
    if stored.confirmation == Confirmation.CONFIRMED:
        raise refusal(
            "round",
            f"Round {number} is already confirmed ({stored.checked_by}); ask the organiser if "
            "it is wrong.",
        )
    if phone and stored.entered_phone == phone and not handed_over:
        raise refusal(
            "round",
            f"Round {number} was saved on this phone: correct it, or hand the phone to the "
            "other side to dispute it.",
        )
    before = stored.confirmation
    stored.confirmation = Confirmation.DISPUTED
    stored.checked_by = _who(user, "", handed_over and stored.entered_phone == phone)
    stored.dispute_reason = reason
    _checked(game, sides, rounds, stored, before, GameEvent.Kind.ROUND_DISPUTED, user)
    return stored


@transaction.atomic
def rounds_confirm_all(*, game: Game, organiser: str, user: User = None) -> list[int]:
    """An organiser's word on every round not confirmed yet (waiting or disputed): the numbers
    confirmed, none when there was nothing to confirm."""
    game = game_locked(game)
    if not game.confirm_rounds:
        raise refusal("round", "This game's rounds need no confirmation.")
    sides, rounds = game_rows(game)
    asked = [r for r in rounds if r.confirmation != Confirmation.CONFIRMED]
    if not asked:
        return []
    at = timezone.now()
    for stored in asked:
        before = {"confirmation": stored.confirmation}
        stored.confirmation, stored.checked_by = Confirmation.CONFIRMED, f"{organiser} (organiser)"
        stored.checked_at, stored.dispute_reason = at, ""
        stored.full_clean()
        event_log(
            game,
            GameEvent.Kind.ROUND_CONFIRMED,
            user,
            round_number=stored.number,
            before=before,
            after={"confirmation": stored.confirmation, "by": stored.checked_by},
        )
    Round.objects.bulk_update(asked, ["confirmation", "checked_by", "checked_at", "dispute_reason"])
    game_save(game)
    # Nothing was scored again: a listener that needs the game's figures scores it itself.
    game_scored.send(sender=Game, game=game, sides=sides, status=None, whole=False)
    return [r.number for r in asked]


def all_confirmed(game: Game) -> bool:
    """Whether the game's rounds are all confirmed (always, in a game that asks for none)."""
    if not game.confirm_rounds:
        return True
    return not game.rounds.exclude(confirmation=Confirmation.CONFIRMED).exists()
