"""The boundary between the ORM and the engine: games and rounds in, engine values out."""

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from scorekeeper import engine
from scorekeeper.models import Game, Round, Side
from scorekeeper.portable.round_fields import round_errors


def game_ruleset(game: Game) -> engine.RuleSet:
    """The game's rules as frozen at its start."""
    return _ruleset(json.dumps(game.rules, sort_keys=True))


# Resolving a full rule set checks every parameter; a RuleSet is immutable, so the same frozen
# rules (every game of a league night shares them) are checked once per process, not at every
# request. Keyed by the rules themselves, so nothing here can go stale.
@lru_cache(maxsize=256)
def _ruleset(spec: str) -> engine.RuleSet:
    return engine.resolve_rules(json.loads(spec))


def frozen_rules(rules: engine.RuleSet) -> dict[str, Any]:
    # Every parameter, not only the house rules, so that a later change to the preset never
    # reaches a game already started.
    return {"base": rules.id, "overrides": rules.parameters()}


def round_input(sides: Sequence[Side], ended_by: str, entry: Sequence[dict]) -> dict[str, Any]:
    """The engine's input for one round of a game (numbered by its place): each side's entry
    under its name."""
    return {
        "ended_by": ended_by,
        "sides": [
            {"name": side.name, **dict(data)} for side, data in zip(sides, entry, strict=True)
        ],
    }


def status_for(
    game: Game,
    sides: Sequence[Side],
    rounds: Sequence[Round],
    *,
    finished: bool | None = None,
) -> engine.GameStatus:
    """Score the game's rounds (saved or being entered) with its frozen rules."""
    inputs = [round_input(sides, r.ended_by, r.entry) for r in rounds]
    return engine.game_status(
        game_ruleset(game),
        [side.name for side in sides],
        inputs,
        finished=game.ended_by_hand if finished is None else finished,
        decks=game.decks,
    )


def status_after(
    game: Game, sides: Sequence[Side], played: int, new_round: Round
) -> engine.GameStatus:
    """The game with one more round, scoring that round alone: its `rounds` holds just it."""
    # The stored rounds were scored when they were saved, and the totals after them kept on
    # the sides: only the new round is scored, however long the game.
    return engine.game_status_after(
        game_ruleset(game),
        [side.name for side in sides],
        {"totals": {side.name: side.total for side in sides}, "rounds": played},
        [round_input(sides, new_round.ended_by, new_round.entry)],
        decks=game.decks,
    )


def preview_round(
    game: Game,
    sides: Sequence[Side],
    rounds: Sequence[Round],
    number: int,
    ended_by: str,
    entry: list[dict[str, Any]],
    *,
    played: int | None = None,
) -> tuple[engine.GameStatus | None, list[engine.FieldError]]:
    """Score the game with round `number` as entered (new or corrected), saving nothing; a new
    round's status holds that round alone in its `rounds`. `played` counts the stored rounds
    when `rounds` was not read (a new round needs only their number)."""
    played = len(rounds) if played is None else played
    candidate = Round(game=game, number=number, ended_by=ended_by, entry=entry)
    try:
        if number > played:
            status = status_after(game, sides, played, candidate)
        else:
            # A correction moves every later total, and may end the game or un-end it.
            replaced = [*rounds]
            replaced[number - 1] = candidate
            status = status_for(game, sides, replaced, finished=game.ended_by_hand)
    except engine.RoundError as error:
        return None, round_errors(error, number)
    return status, []
