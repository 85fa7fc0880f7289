"""Writes for games: start one (from the start page's fields too), end it by hand, reopen it,
start a rematch, claim it for an account. Rounds are written by `scorekeeper.rounds.services`."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from scorekeeper import engine
from scorekeeper.engine.seating import dealing_order
from scorekeeper.games.scoring import frozen_rules, status_for
from scorekeeper.games.store import (
    User,
    event_log,
    game_locked,
    game_rows,
    game_save,
    refusal,
    result_of,
    scores_store,
)
from scorekeeper.models import Game, GameEvent, Side
from scorekeeper.portable import start_fields
from scorekeeper.portable.start_fields import SideSpec


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
        raise refusal("first_dealer", f"The first dealer must be one of the {seats} players.")
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
    event_log(game, GameEvent.Kind.STARTED, owner, after=started)
    return game


def game_start_from_form(
    *,
    preset: str,
    form: Mapping[str, str],
    user: User = None,
    public_id: str | None = None,
) -> Game:
    """Start a game from the start page's fields (posted there, or sent by a phone that started
    it offline); raises RoundError with every problem, each at its field of the form."""
    rules = engine.RULESETS[preset]
    specs, dealer, overrides, problems, slots = start_fields.read_start(rules, form)
    if problems:
        raise engine.RoundError(problems)
    try:
        return game_start(
            preset=preset,
            sides=specs,
            first_dealer=dealer,
            house_rules=overrides,
            owner=user,
            public_id=public_id,
        )
    except engine.RoundError as error:
        raise engine.RoundError(start_fields.at_slots(error.errors, slots)) from None


@transaction.atomic
def game_end(*, game: Game, user: User = None) -> Game:
    """End a game by hand (a game stopped at a set time): the highest total wins."""
    game = game_locked(game)
    sides, rounds = game_rows(game)
    if game.finished:
        raise refusal("finished", "The game is already over.")
    if not rounds:
        raise refusal("finished", "No round has been played yet, so the game cannot be ended.")
    before = result_of(game)
    game.ended_by_hand = True
    scores_store(game, sides, rounds, status_for(game, sides, rounds))
    event_log(game, GameEvent.Kind.ENDED, user, before=before, after=result_of(game))
    return game


@transaction.atomic
def game_reopen(*, game: Game, user: User = None) -> Game:
    """Reopen a game that was ended by hand by mistake."""
    game = game_locked(game)
    sides, rounds = game_rows(game)
    if not game.finished:
        raise refusal("finished", "The game is not over, so there is nothing to reopen.")
    if not game.ended_by_hand:
        raise refusal(
            "finished",
            f"The game ended by its rules after round {len(rounds)}; correct or delete that "
            "round to carry on.",
        )
    before = result_of(game)
    game.ended_by_hand = False
    scores_store(game, sides, rounds, status_for(game, sides, rounds))
    event_log(game, GameEvent.Kind.REOPENED, user, before=before, after=result_of(game))
    return game


class AlreadyRematched(engine.RoundError):
    """Refused because the game has its rematch already (a double tap, or another phone at the
    table); `rematch` is that game, to show instead."""

    def __init__(self, rematch: Game) -> None:
        super().__init__(
            [
                engine.FieldError(
                    "rematch",
                    "The rematch was already started, from this phone or another, so no other "
                    "game was started. This is the rematch.",
                )
            ]
        )
        self.rematch = rematch


@transaction.atomic
def game_rematch(*, game: Game, user: User = None) -> Game:
    """A new game with the same rules and sides; the deal moves on one seat. A game has one
    rematch: asked for again, it is refused with `AlreadyRematched`, naming the one started."""
    # Locked, so that two taps at once start one game: the second reads after the first's
    # commit, and finds its rematch.
    game = game_locked(game)
    started = game.rematches.order_by("pk").first()
    if started is not None:
        raise AlreadyRematched(started)
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
        raise refusal("owner", "This game already belongs to another account.")
    if game.owner_id == user.pk:
        # Claimed already (a double tap, or two tabs at once): nothing changes, nothing logged.
        return game
    before = {"owner": game.owner.get_username() if game.owner else None}
    game.owner = user
    game_save(game, update_fields=["owner", "updated_at"])
    event_log(
        game, GameEvent.Kind.CLAIMED, user, before=before, after={"owner": user.get_username()}
    )
    return game
