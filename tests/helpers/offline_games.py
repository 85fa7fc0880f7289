"""Games for the offline tests: played on the server with demo rounds, and as a phone keeps
them (the snapshot of `/g/<id>/offline.json`, built here from the stored rows)."""

import random
from typing import Any

from leagues.demo import round_entry as demo_entry
from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.demo_rounds import random_game
from scorekeeper.models import Game
from scorekeeper.portable import round_fields
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs

PRESETS = sorted(engine.RULESETS)
# Enough rounds to move the opening melds and the dealer on; short of every preset's end.
ROUNDS = 3


def planned_rounds(preset: str) -> list[tuple[str, list[dict]]]:
    """Demo rounds for a two-sided game of this preset, long enough for ROUNDS and one more."""
    rules = engine.RULESETS[preset]
    names = [spec.name for spec in side_specs(preset)]
    for seed in range(100):
        rounds = random_game(rules, names, rng=random.Random(f"{preset}-{seed}"))
        if len(rounds) > ROUNDS:
            return [demo_entry(r) for r in rounds]
    raise AssertionError(f"no demo game of {preset} lasts {ROUNDS + 1} rounds")


def planned_to_the_end(preset: str) -> list[tuple[str, list[dict]]]:
    """Demo rounds for a two-sided game of this preset that end it by its rules."""
    rules = engine.RULESETS[preset]
    names = [spec.name for spec in side_specs(preset)]
    for seed in range(100):
        rounds = random_game(rules, names, rng=random.Random(f"{preset}-end-{seed}"), max_rounds=40)
        if engine.game_status(rules, names, rounds).finished:
            return [demo_entry(r) for r in rounds]
    raise AssertionError(f"no demo game of {preset} ends within 40 rounds")


def played_game(preset: str) -> tuple[Game, list[tuple[str, list[dict]]]]:
    """A game with ROUNDS rounds stored, and the rounds planned after them."""
    game = services.game_start(preset=preset, sides=side_specs(preset))
    planned = planned_rounds(preset)
    for number, (ended_by, entry) in enumerate(planned[:ROUNDS], start=1):
        round_record(game=game, number=number, ended_by=ended_by, entry=entry)
    return Game.objects.get(pk=game.pk), planned[ROUNDS:]


def snapshot(game: Game) -> dict[str, Any]:
    """The game as the phone keeps it."""
    sides = list(game.sides.order_by("position"))
    rounds = list(game.rounds.order_by("number"))
    return {
        "id": game.public_id,
        "preset": game.preset,
        "rules": game.rules,
        "sides": [side.name for side in sides],
        "players": [list(side.players) for side in sides],
        "decks": game.decks,
        "first_dealer": game.first_dealer,
        "ended_by_hand": game.ended_by_hand,
        "finished": game.finished,
        "rounds": [
            {"number": r.number, "ended_by": r.ended_by, "entry": r.entry, "key": None}
            for r in rounds
        ],
        "version": game.updated_at.isoformat(),
        "title": " vs ".join(side.name for side in sides),
    }


def next_round_form(game: Game, planned: tuple[str, list[dict]]) -> dict[str, str]:
    """The next round's form as a phone posts it, filled with a planned round."""
    rules = engine.resolve_rules(game.rules)
    data = round_fields.values_from_entry(rules, *planned)
    data["round_number"] = str(game.rounds.count() + 1)
    return data
