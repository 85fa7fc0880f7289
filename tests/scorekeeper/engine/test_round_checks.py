"""Every check the contract lists for a round: the exact path and message, all reported together."""

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
                "canastas, melded_points, melded_cards, hand_points, hand_cards, red_threes, "
                "red_threes_in_hand, black_threes_in_hand, foot_picked_up, exact_cuts and "
                "open_books.",
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
        [("round", "The round number must be a whole number from 1 to 10,000, not 0.")],
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
    # -- the number of sides, names -----------------------------------------------------------
    "one player in Baskets": (
        "baskets",
        {"sides": [ANN]},
        [("sides", "Baskets is played by exactly 2 players; this round has 1.")],
    ),
    "three teams in Cutthroat": (
        "cutthroat",
        {"sides": [US, THEM, {"name": "Cy"}]},
        [("sides", "Cutthroat is played by exactly 2 teams; this round has 3.")],
    ),
    "one side in Sevens": (
        "sevens",
        {"ended_by": "stock_exhausted", "sides": [{"name": "Us"}]},
        [("sides", "Sevens is played by at least 2 sides; this round has 1.")],
    ),
    "the same name twice, whatever its case": (
        "baskets",
        baskets(side1={"name": "ann"}),
        [
            (
                "sides[1].name",
                "ann is already the name of player 1; every player needs its own name.",
            )
        ],
    ),
    "a side without a name": (
        "baskets",
        baskets(side1={"name": None}),
        [("sides[1].name", "Player 2 needs a name.")],
    ),
    "a blank name": (
        "baskets",
        baskets(side1={"name": "  "}),
        [("sides[1].name", "Player 2 needs a name.")],
    ),
    "a name that is not text": (
        "baskets",
        baskets(side1={"name": 7}),
        [("sides[1].name", "Player 2's name must be text, not 7.")],
    ),
    "a name too long to show": (
        "baskets",
        baskets(side1={"name": "x" * 101}),
        [("sides[1].name", "Player 2's name has 101 characters; a name has at most 100.")],
    ),
    # -- going out ----------------------------------------------------------------------------
    "two sides went out": (
        "ten-thousand",
        ten_thousand(side1={"went_out": True, "canastas": US["canastas"], "melded_points": 300}),
        [
            (
                "sides[1].went_out",
                "Them cannot have gone out too: Us already went out, and only one "
                "side goes out in a round.",
            )
        ],
    ),
    "a side went out when the stock ran out": (
        "baskets",
        baskets(ended_by="stock_exhausted"),
        [
            (
                "sides[0].went_out",
                "Ann cannot have gone out: the round ended when the stock ran out.",
            )
        ],
    ),
    "the round ended by going out but nobody went out": (
        "baskets",
        baskets(side0={"went_out": False}),
        [
            (
                "ended_by",
                "The round ended by going out, but no player went out: mark the player that "
                "went out, or say that the stock ran out.",
            )
        ],
    ),
    "Bob went out with 2 plastic baskets (the contract's own message)": (
        "baskets",
        {
            "sides": [
                dict(ANN, went_out=False),
                dict(BOB, went_out=True, canastas={"mixed": 2}, hand_points=0),
            ]
        },
        [
            (
                "sides[1].canastas.natural",
                "Bob went out but has 2 baskets; going out needs 3, at least 1 of them wicker.",
            )
        ],
    ),
    "going out one basket short, with a wicker one": (
        "baskets",
        baskets(side0={"canastas": {"natural": 1, "mixed": 1}}),
        [
            (
                "sides[0].canastas",
                "Ann went out but has 2 baskets; going out needs 3, at least 1 of them wicker.",
            )
        ],
    ),
    "going out with enough canastas but too few mixed": (
        "four-rounds",
        {
            "sides": [
                {
                    "name": "Us",
                    "went_out": True,
                    "canastas": {"natural": 4, "mixed": 1},
                    "melded_points": 900,
                },
                {"name": "Them"},
            ]
        },
        [
            (
                "sides[0].canastas.mixed",
                "Us went out with 5 canastas but 1 of them mixed; going out "
                "needs 5, at least 2 of them natural and 3 mixed.",
            )
        ],
    ),
    "going out short of two kinds": (
        "ten-thousand",
        ten_thousand(side0={"canastas": {"natural": 2, "mixed": 3}}),
        [
            (
                "sides[0].canastas.natural",
                "Us went out with 5 canastas but 2 of them red and 0 wild; "
                "going out needs 5, at least 3 of them red, 1 black and 1 "
                "wild.",
            )
        ],
    ),
    "the Baskets player who went out still holds cards and never reached the buns": (
        "baskets",
        baskets(side0={"hand_points": 20, "foot_picked_up": False}),
        [
            (
                "sides[0].foot_picked_up",
                "Ann went out, so Ann reached the buns; foot_picked_up must be true.",
            ),
            (
                "sides[0].hand_points",
                "Ann went out, so Ann holds no cards; points left in hand must be 0, not 20.",
            ),
        ],
    ),
    # -- canasta kinds, what the decks hold ----------------------------------------------------
    "a canasta kind the ruleset does not have": (
        "baskets",
        baskets(side1={"canastas": {"natural": 1, "wild": 1}}),
        [
            (
                "sides[1].canastas.wild",
                "Bob has 1 wild basket, but Baskets has no wild baskets; its "
                "baskets are wicker (natural) or plastic (mixed).",
            )
        ],
    ),
    "a canasta kind nobody has": (
        "baskets",
        baskets(side1={"canastas": {"gold": 1}}),
        [
            (
                "sides[1].canastas.gold",
                '"gold" is not a kind of basket; Baskets has wicker (natural) or plastic (mixed) '
                "baskets.",
            )
        ],
    ),
    "more sevens canastas than 6 decks make (24 sevens: 3)": (
        "sevens",
        {"sides": [SEVENS_OUT, {"name": "Them", "canastas": {"sevens": 2}, "melded_points": 100}]},
        [
            (
                "sides[1].canastas.sevens",
                "Us and Them have 4 sevens canastas between them; 6 decks "
                "hold 24 sevens, enough for at most 3.",
            )
        ],
    ),
    "more wild canastas than 18 wild cards make": (
        "ten-thousand",
        ten_thousand(side1={"canastas": {"wild": 2}, "melded_points": 300}),
        [
            (
                "sides[1].canastas.wild",
                "Us and Them have 3 wild canastas between them; 3 decks hold "
                "18 wild cards, enough for at most 2.",
            )
        ],
    ),
    "more wicker baskets than 3 decks make (one per rank)": (
        "baskets",
        baskets(side1={"canastas": {"natural": 12}, "melded_points": 500}),
        [
            (
                "sides[1].canastas.natural",
                "Ann and Bob have 13 wicker baskets between them; 3 decks can make at most 12.",
            )
        ],
    ),
    "more plastic baskets than 12 deuces make": (
        "baskets",
        baskets(side1={"canastas": {"mixed": 11}, "melded_points": 600}),
        [
            (
                "sides[1].canastas.mixed",
                "Ann and Bob have 13 plastic baskets between them; 3 decks can make at most 12.",
            )
        ],
    ),
    "more red threes than 2 per deck": (
        "ten-thousand",
        ten_thousand(side0={"red_threes": 4}, side1={"red_threes_in_hand": 3}),
        [
            (
                "sides[1].red_threes_in_hand",
                "Us and Them have 7 red threes laid down and in hand "
                "between them; 3 decks hold only 6.",
            )
        ],
    ),
    "more black threes than 2 per deck, melded ones included": (
        "ten-thousand",
        ten_thousand(
            side0={"melded_points": None, "melded_cards": {"black3": 2, "K": 12, "A": 12, "2": 1}},
            side1={"black_threes_in_hand": 5},
        ),
        [
            (
                "sides[1].black_threes_in_hand",
                "Us and Them have 7 black threes laid down and in hand "
                "between them; 3 decks hold only 6.",
            )
        ],
    ),
    "more kings than the decks hold": (
        "baskets",
        baskets(
            side0={"melded_points": None, "melded_cards": {"K": 8, "A": 7, "Q": 7, "J": 7, "2": 3}},
            side1={
                "melded_points": None,
                "hand_points": None,
                "melded_cards": {"K": 7},
                "hand_cards": {"K": 1},
            },
        ),
        [
            (
                "sides[1].hand_cards.K",
                "Ann and Bob have 16 kings laid down and in hand between them; "
                "3 decks hold only 12.",
            )
        ],
    ),
    "melded points below what the declared baskets hold": (
        "baskets",
        baskets(side1={"canastas": {"natural": 1, "mixed": 1}, "melded_points": 80}),
        [
            (
                "sides[1].melded_points",
                "Bob's melded points are 80, but it takes at least 85 points "
                "of cards to make Bob's 1 wicker basket and 1 plastic basket "
                "(seven cards or more each); melded points count every card "
                "laid down.",
            )
        ],
    ),
    "melded cards worth less than the declared canastas": (
        "ten-thousand",
        ten_thousand(
            side1={
                "canastas": {"wild": 1},
                "melded_points": None,
                "melded_cards": {"2": 6, "joker": 0},
            }
        ),
        [
            (
                "sides[1].melded_cards",
                "Them's melded cards are worth 120, but it takes at least 140 "
                "points of cards to make Them's 1 wild canasta (seven cards or "
                "more each); melded points count every card laid down.",
            )
        ],
    ),
    "more card points than the decks hold": (
        "baskets",
        baskets(side1={"melded_points": 900}),
        [
            (
                "sides[1].melded_points",
                "The players have 1,625 points of cards melded and in hand between them, but 3 "
                "decks hold only 1,500.",
            )
        ],
    ),
    # -- fields the ruleset does not use --------------------------------------------------------
    "red threes in Baskets (the contract's own message)": (
        "baskets",
        baskets(side1={"red_threes": 2}),
        [
            (
                "sides[1].red_threes",
                "Bob has 2 red threes laid down, but Baskets has no red-three "
                "bonus: threes are ordinary cards.",
            )
        ],
    ),
    "threes in hand in Baskets": (
        "baskets",
        baskets(side1={"red_threes_in_hand": 1, "black_threes_in_hand": 2}),
        [
            (
                "sides[1].red_threes_in_hand",
                "Bob has 1 red three in hand, but Baskets has no "
                "red-three penalty: threes are ordinary cards, so "
                "count them in points left in hand.",
            ),
            (
                "sides[1].black_threes_in_hand",
                "Bob has 2 black threes in hand, but Baskets has no "
                "black-three penalty: threes are ordinary cards, so "
                "count them in points left in hand.",
            ),
        ],
    ),
    "an exact cut where there is no cut bonus": (
        "sevens",
        {"ended_by": "stock_exhausted", "sides": [{"name": "A", "exact_cuts": 1}, {"name": "B"}]},
        [("sides[0].exact_cuts", "A has 1 exact cut, but Sevens has no exact-cut bonus.")],
    ),
    "two exact cuts by one dealer": (
        "four-rounds",
        {
            "ended_by": "stock_exhausted",
            "sides": [{"name": "Us", "exact_cuts": 2}, {"name": "Them"}],
        },
        [("sides[0].exact_cuts", "Us has 2 exact cuts, but a round has one deal, so at most 1.")],
    ),
    "an exact cut for both teams": (
        "four-rounds",
        {
            "ended_by": "stock_exhausted",
            "sides": [{"name": "Us", "exact_cuts": 1}, {"name": "Them", "exact_cuts": 1}],
        },
        [
            (
                "sides[1].exact_cuts",
                "Us and Them have 2 exact cuts between them, but a round has one "
                "deal, so at most 1.",
            )
        ],
    ),
    "open books outside Cutthroat": (
        "ten-thousand",
        ten_thousand(side1={"open_books": [{"kind": "natural", "points": 70}]}),
        [
            (
                "sides[1].open_books",
                "Them has 1 open book, but in Ten Thousand open books stay where "
                "they are: their cards count in melded points only.",
            )
        ],
    ),
    # -- cards by rank --------------------------------------------------------------------------
    "melded points and melded cards both given": (
        "baskets",
        baskets(side1={"melded_cards": {"K": 31}}),
        [
            (
                "sides[1].melded_cards",
                "Give Bob's melded cards either as points or card by card, not both.",
            )
        ],
    ),
    "cards the ruleset does not have": (
        "baskets",
        baskets(
            side1={
                "melded_points": None,
                "hand_points": None,
                "hand_cards": "lots",
                "melded_cards": {"joker": 1, "Z": 2, "red3": 1, "K": -1},
            }
        ),
        [
            ("sides[1].melded_cards.joker", "Baskets is played without jokers."),
            (
                "sides[1].melded_cards.Z",
                '"Z" is not a rank of card; the ranks are A, K, Q, J, 10, '
                "9, 8, 7, 6, 5, 4, 3 and 2.",
            ),
            (
                "sides[1].melded_cards.red3",
                "Threes are ordinary cards in Baskets: count them as 3.",
            ),
            (
                "sides[1].melded_cards.K",
                "The number of kings in Bob's melded cards must be a whole "
                "number of 0 or more, not −1.",
            ),
            (
                "sides[1].hand_cards",
                "Bob's cards in hand must be given as {rank: count}, e.g. "
                '{"K": 3, "2": 1}, not "lots".',
            ),
        ],
    ),
    "threes among the cards in hand where threes score on their own": (
        "ten-thousand",
        ten_thousand(side1={"hand_points": None, "hand_cards": {"red3": 1, "K": 1}}),
        [
            (
                "sides[1].hand_cards.red3",
                "Ten Thousand counts the threes left in hand on their own: "
                "give them as red_threes_in_hand and black_threes_in_hand, "
                "not as cards.",
            )
        ],
    ),
    "threes among melded cards where they cannot be melded": (
        "sevens",
        {
            "ended_by": "stock_exhausted",
            "sides": [{"name": "A", "melded_cards": {"3": 1, "black3": 1}}, {"name": "B"}],
        },
        [
            (
                "sides[0].melded_cards.3",
                "Sevens does not let threes be melded: give red threes laid down as red_threes.",
            ),
            ("sides[0].melded_cards.black3", "Sevens does not let black threes be melded."),
        ],
    ),
    "a melded three where only black threes can be melded": (
        "ten-thousand",
        ten_thousand(side1={"melded_points": None, "melded_cards": {"3": 1}}),
        [
            (
                "sides[1].melded_cards.3",
                "Ten Thousand counts threes on their own: a black three is black3.",
            )
        ],
    ),
    # -- open books (Cutthroat) ----------------------------------------------------------------
    "open books that are not a list": (
        "cutthroat",
        ten_thousand(side1={"open_books": {"kind": "natural"}}),
        [
            (
                "sides[1].open_books",
                'Them\'s open books must be a list of {"kind": ..., "points": ...}, not an object.',
            )
        ],
    ),
    "open books with a wrong kind, an unknown field or no points": (
        "cutthroat",
        ten_thousand(
            side1={
                "open_books": [
                    {"kind": "gold", "points": 70},
                    {"kind": "natural", "points": 70, "cards": 7},
                    {"kind": "mixed"},
                    "x",
                ]
            }
        ),
        [
            (
                "sides[1].open_books[0].kind",
                "Them's open book 1 needs a kind, red (natural), black "
                '(mixed) or wild, not "gold".',
            ),
            (
                "sides[1].open_books[1].cards",
                'Them\'s open book 2 has no field "cards"; give kind and points.',
            ),
            (
                "sides[1].open_books[2].points",
                "The points of Them's open book 3 must be a whole number of 0 or more, not null.",
            ),
            (
                "sides[1].open_books[3]",
                'Them\'s open book 4 must be an object with a kind and points, not "x".',
            ),
        ],
    ),
    "an open book worth less than seven cards": (
        "cutthroat",
        ten_thousand(
            side1={
                "melded_points": 200,
                "open_books": [{"kind": "natural", "points": 70}, {"kind": "mixed", "points": 45}],
            }
        ),
        [
            (
                "sides[1].open_books[1].points",
                "Them's open book 2 (black) has 45 points, but an open "
                "book has seven cards or more, so a black one holds at "
                "least 50.",
            )
        ],
    ),
    "open books worth more than the melded points they are part of": (
        "cutthroat",
        ten_thousand(
            side1={
                "melded_points": 100,
                "open_books": [
                    {"kind": "natural", "points": 70},
                    {"kind": "natural", "points": 40},
                ],
            }
        ),
        [
            (
                "sides[1].melded_points",
                "Them's melded points are 100, but it takes at least 110 "
                "points of cards to make Them's open books of 110 points "
                "(seven cards or more each); melded points count every card "
                "laid down.",
            )
        ],
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
                "sevens, ten-thousand, cutthroat and contract.",
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


def test_a_zero_count_of_a_kind_the_ruleset_does_not_have_is_accepted():
    result = score_round("baskets", baskets(side1={"canastas": {"natural": 1, "wild": 0}}))
    assert result.scores == {"Ann": 1990, "Bob": 725}


def test_the_decks_given_with_the_round_win_over_the_presets_default():
    # 7 decks hold 28 sevens: enough for the four sevens canastas 6 decks cannot make.
    round_input = {
        "decks": 7,
        "sides": [
            SEVENS_OUT,
            {"name": "Them", "canastas": {"sevens": 2}, "melded_points": 100},
        ],
    }
    result = score_round("sevens", round_input)
    assert result.scores == {"Us": 15000, "Them": 10100}
    assert result.decks == 7


def test_a_house_rule_range_of_sides_is_named_in_the_message():
    house = {"base": "sevens", "overrides": {"max_sides": 4}}
    round_input = {"ended_by": "stock_exhausted", "sides": [{"name": n} for n in "ABCDE"]}
    assert errors_of(house, round_input) == [
        ("sides", "Sevens is played by 2 to 4 sides; this round has 5."),
    ]


def test_going_out_with_no_kind_required_asks_only_for_the_number():
    house = {"base": "baskets", "overrides": {"going_out_minimum": {"natural": None}}}
    assert errors_of(house, baskets(side0={"canastas": {"mixed": 2}})) == [
        ("sides[0].canastas", "Ann went out but has 2 baskets; going out needs 3."),
    ]


def test_cards_in_hand_are_not_checked_against_the_decks_once_the_melded_cards_failed():
    round_input = baskets(
        side1={
            "melded_points": None,
            "hand_points": None,
            "melded_cards": {"K": "7"},
            "hand_cards": {"K": 13},
        },
    )
    assert errors_of("baskets", round_input) == [
        (
            "sides[1].melded_cards.K",
            "The number of kings in Bob's melded cards must be a whole "
            'number of 0 or more, not "7".',
        ),
    ]


def test_a_canasta_the_decks_cannot_make_is_reported_once_not_as_a_melded_shortfall():
    # One deck holds four of each rank: no wicker basket at all.
    round_input = baskets(
        decks=1,
        side0={"canastas": {"natural": 1, "mixed": 2}, "melded_points": 250},
        side1={"canastas": {}, "melded_points": 10, "hand_points": 5},
    )
    assert errors_of("baskets", round_input) == [
        ("sides[0].canastas.natural", "Ann has 1 wicker basket; 1 deck can make at most 0."),
        ("sides[0].canastas.mixed", "Ann has 2 plastic baskets; 1 deck can make at most 1."),
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


def test_a_round_of_30000_sides_is_scored():
    sides = [{"name": f"Player {n}"} for n in range(30_000)]
    sides[-1] = {
        "name": "Last",
        "went_out": True,
        "canastas": {"natural": 3, "mixed": 1, "wild": 1},
    }
    sides[-1]["melded_points"] = 35 * 3 + 50 + 140
    result = score_round("ten-thousand", {"sides": sides})
    assert (len(result.sides), result.scores["Player 0"], result.scores["Last"]) == (
        30_000,
        0,
        1500 + 300 + 1500 + 100 + 295,
    )


@pytest.mark.parametrize("rules", ["ten-thousand", "cutthroat"])
def test_black_threes_are_melded_only_by_the_side_that_goes_out(rules):
    them = {"melded_points": None, "melded_cards": {"black3": 2, "K": 3}}
    assert errors_of(rules, ten_thousand(side1=them)) == [
        (
            "sides[1].melded_cards.black3",
            "Black threes can be melded only when going out: Them did not go out.",
        )
    ]
    # Nobody goes out when the stock runs out, so nobody melds a black three.
    us = {"went_out": None, "canastas": None}
    assert errors_of(rules, ten_thousand(side0=us, side1=them, ended_by="stock_exhausted")) == [
        (
            "sides[1].melded_cards.black3",
            "Black threes can be melded only when going out: Them did not go out.",
        )
    ]
    going_out = {"melded_points": None, "melded_cards": {"black3": 6, "K": 12, "A": 7, "2": 7}}
    result = score_round(rules, ten_thousand(side0=going_out))
    assert result.sides[0].lines[-1].to_dict() == {
        "item": "melded_cards",
        "label": "Cards melded",
        "points": 6 * 5 + 12 * 10 + 7 * 20 + 7 * 20,
    }


def test_card_points_beyond_the_decks_are_reported_beside_the_pile_holding_the_most():
    # Ann melds 640 and Bob 310; the 720 points of cards in his hand, given by rank, are too many.
    bob = {"hand_points": None, "hand_cards": {"A": 12, "K": 12, "Q": 12, "J": 12, "10": 12}}
    assert errors_of("baskets", baskets(side1=bob)) == [
        (
            "sides[1].hand_cards",
            "The players have 1,670 points of cards melded and in hand between them, but 3 "
            "decks hold only 1,500.",
        )
    ]
    # Two piles of equal points: the later one.
    ann = {"melded_points": 800}
    assert errors_of("baskets", baskets(side0=ann, side1={"melded_points": 800})) == [
        (
            "sides[1].melded_points",
            "The players have 1,685 points of cards melded and in hand between them, but 3 "
            "decks hold only 1,500.",
        )
    ]
