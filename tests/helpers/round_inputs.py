"""Rounds as the engine's check tests write them: a Baskets and a Ten Thousand round that
score, changed a field at a time, and the errors the engine refuses a round with."""

import pytest

from scorekeeper.engine import RoundError, score_round

ANN = {
    "name": "Ann",
    "went_out": True,
    "canastas": {"natural": 1, "mixed": 2},
    "melded_points": 640,
}
BOB = {"name": "Bob", "canastas": {"natural": 1}, "melded_points": 310, "hand_points": 85}
US = {
    "name": "Us",
    "went_out": True,
    "canastas": {"natural": 3, "mixed": 1, "wild": 1},
    "melded_points": 900,
}
THEM = {"name": "Them", "melded_points": 100, "hand_points": 50}
SEVENS_OUT = {
    "name": "Us",
    "went_out": True,
    "canastas": {"sevens": 2, "wild": 1, "natural": 1, "mixed": 1},
    "melded_points": 1500,
}


def baskets(**changes):
    """Ann went out, Bob did not; changes are {side index: {field: value or None to drop}}."""
    return _round([ANN, BOB], changes)


def ten_thousand(**changes):
    return _round([US, THEM], changes)


def _round(sides, changes):
    sides = [dict(side) for side in sides]
    top = {}
    for key, value in changes.items():
        if key.startswith("side"):
            side = sides[int(key[4:])]
            for field, field_value in value.items():
                if field_value is None:
                    side.pop(field, None)
                else:
                    side[field] = field_value
        else:
            top[key] = value
    return {**top, "sides": sides}


def errors_of(rules, round_input):
    with pytest.raises(RoundError) as caught:
        score_round(rules, round_input)
    return [(error.path, error.message) for error in caught.value.errors]
