"""A round's shape: unknown fields, wrong types, bad numbers and rules, all reported together."""

import pytest

from tests.helpers.round_inputs import ANN, BOB, baskets, errors_of

CASES = {
    # -- unknown fields, wrong types, negative numbers, points not multiples of 5 -----------------
    "an unknown round field": (
        "baskets",
        baskets(colour="red"),
        [
            (
                "colour",
                'A round has no field "colour"; its fields are rules, round, decks, ended_by '
                "and sides.",
            )
        ],
    ),
    "an unknown side field": (
        "baskets",
        baskets(side1={"colour": "red"}),
        [
            (
                "sides[1].colour",
                'Bob\'s entry has no field "colour"; its fields are name, went_out, '
                "went_out_concealed, canastas, melded_points, melded_cards, hand_points, "
                "hand_cards, red_threes, red_threes_in_hand, black_threes_in_hand, "
                "foot_picked_up, exact_cuts and open_books.",
            )
        ],
    ),
    "a number given as text": (
        "baskets",
        baskets(side1={"melded_points": "310"}),
        [
            (
                "sides[1].melded_points",
                'Bob\'s melded points must be a whole number of 0 or more, not "310".',
            )
        ],
    ),
    "a bool where a number belongs": (
        "baskets",
        baskets(side1={"hand_points": True}),
        [
            (
                "sides[1].hand_points",
                "Bob's points left in hand must be a whole number of 0 or more, not true.",
            )
        ],
    ),
    "a float, even a whole one": (
        "baskets",
        baskets(side1={"hand_points": 85.0}),
        [
            (
                "sides[1].hand_points",
                "Bob's points left in hand must be a whole number of 0 or more, not 85.0.",
            )
        ],
    ),
    "null for a number": (
        "baskets",
        {"sides": [ANN, dict(BOB, hand_points=None)]},
        [
            (
                "sides[1].hand_points",
                "Bob's points left in hand must be a whole number of 0 or more, not null.",
            )
        ],
    ),
    "a list for a number": (
        "baskets",
        baskets(side1={"melded_points": [310]}),
        [
            (
                "sides[1].melded_points",
                "Bob's melded points must be a whole number of 0 or more, not a list.",
            )
        ],
    ),
    "a negative number": (
        "baskets",
        baskets(side1={"hand_points": -85}),
        [
            (
                "sides[1].hand_points",
                "Bob's points left in hand must be a whole number of 0 or more, not −85.",
            )
        ],
    ),
    "points that are not a multiple of 5": (
        "baskets",
        baskets(side1={"melded_points": 312}),
        [
            (
                "sides[1].melded_points",
                "Bob's melded points must be a multiple of 5, since every card is, not 312.",
            )
        ],
    ),
    "canastas given as a list": (
        "baskets",
        baskets(side1={"canastas": [1]}),
        [
            (
                "sides[1].canastas",
                'Bob\'s baskets must be given as {kind: count}, e.g. {"natural": 1}, not a list.',
            )
        ],
    ),
    "a canasta count given as text": (
        "baskets",
        baskets(side1={"canastas": {"natural": "1"}}),
        [
            (
                "sides[1].canastas.natural",
                "The number of wicker baskets Bob completed must be a whole number of 0 or more, "
                'not "1".',
            )
        ],
    ),
    "went_out that is not true or false": (
        "baskets",
        baskets(side1={"went_out": 1}),
        [("sides[1].went_out", "Whether Bob went out must be true or false, not 1.")],
    ),
    "foot_picked_up that is not true or false": (
        "baskets",
        baskets(side1={"foot_picked_up": "no"}),
        [
            (
                "sides[1].foot_picked_up",
                'Whether Bob picked up the buns must be true or false, not "no".',
            )
        ],
    ),
    "a round number of 0": (
        "baskets",
        baskets(round=0),
        [("round", "The round number must be a whole number from 1 to 60, not 0.")],
    ),
    "a round past the last round of a fixed-length game": (
        "four-rounds",
        {"round": 5, "ended_by": "stock_exhausted", "sides": [{"name": "Us"}, {"name": "Them"}]},
        [("round", "Four Rounds is played over 4 rounds; there is no round 5.")],
    ),
    "no decks": (
        "baskets",
        baskets(decks=0),
        [("decks", "The number of decks must be a whole number from 1 to 100, not 0.")],
    ),
    "an unknown way to end the round": (
        "baskets",
        baskets(ended_by="timeout"),
        [("ended_by", 'A round ends by going_out or stock_exhausted, not "timeout".')],
    ),
    "a round that is not an object": (
        "baskets",
        ["Ann"],
        [("", "A round must be an object with its sides, not a list.")],
    ),
    "a round without sides": (
        "baskets",
        {},
        [("sides", "A round needs its players as a list, one entry each.")],
    ),
    "sides given as an object": (
        "baskets",
        {"sides": {"Ann": 1}},
        [("sides", "A round needs its players as a list, one entry each, not an object.")],
    ),
    "a side that is not an object": (
        "baskets",
        {"sides": [ANN, "Bob"]},
        [("sides[1]", 'Player 2 must be an object with a name and its scores, not "Bob".')],
    ),
    # -- rules named inside the round ----------------------------------------------------------
    "a round that names other rules than it is scored with": (
        "baskets",
        baskets(rules="sevens"),
        [
            (
                "rules",
                'This round names other rules ("sevens") than the Baskets rules it is being '
                "scored with.",
            )
        ],
    ),
    "a round that names unknown rules": (
        "baskets",
        baskets(rules="poker"),
        [
            (
                "rules",
                'There are no rules called "poker"; the rulesets are baskets, four-rounds, '
                "sevens, ten-thousand, cutthroat, contract, canasta, samba and buraco.",
            )
        ],
    ),
}


@pytest.mark.parametrize("rules, round_input, expected", CASES.values(), ids=CASES.keys())
def test_an_invalid_round_is_refused_with_the_path_and_a_sentence(rules, round_input, expected):
    assert errors_of(rules, round_input) == expected


def test_every_failing_check_is_reported_together_and_dependent_checks_are_skipped():
    round_input = baskets(
        colour="red",
        side0={"canastas": {"natural": "one"}, "hand_points": 7},
        side1={"melded_points": -5, "red_threes": 1},
    )
    assert errors_of("baskets", round_input) == [
        (
            "colour",
            'A round has no field "colour"; its fields are rules, round, decks, ended_by '
            "and sides.",
        ),
        (
            "sides[0].canastas.natural",
            "The number of wicker baskets Ann completed must be a "
            'whole number of 0 or more, not "one".',
        ),
        (
            "sides[0].hand_points",
            "Ann's points left in hand must be a multiple of 5, since every card is, not 7.",
        ),
        (
            "sides[1].melded_points",
            "Bob's melded points must be a whole number of 0 or more, not −5.",
        ),
        (
            "sides[1].red_threes",
            "Bob has 1 red three laid down, but Baskets has no red-three "
            "bonus: threes are ordinary cards.",
        ),
    ]


def test_an_enormous_number_is_refused_without_failing_to_print_it():
    assert errors_of("baskets", baskets(side1={"hand_points": -(10**5000)})) == [
        (
            "sides[1].hand_points",
            "Bob's points left in hand must be a whole number of 0 or more, not about −10^5,000.",
        ),
    ]
    assert errors_of("baskets", baskets(side1={"hand_points": 10**5000})) == [
        (
            "sides[1].hand_points",
            "The players have about 10^5,000 points of cards melded and in hand "
            "between them, but 3 decks hold only 1,500.",
        ),
    ]


def test_a_python_value_that_is_not_json_is_named_by_its_type():
    assert errors_of("baskets", baskets(side1={"melded_points": {310}})) == [
        (
            "sides[1].melded_points",
            "Bob's melded points must be a whole number of 0 or more, not a set.",
        ),
    ]
