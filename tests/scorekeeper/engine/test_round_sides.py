"""A round's sides: as many as the rules allow, each with a name of its own."""

import pytest

from scorekeeper.engine import score_round
from tests.helpers.round_inputs import ANN, THEM, US, baskets, errors_of

CASES = {
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
}


@pytest.mark.parametrize("rules, round_input, expected", CASES.values(), ids=CASES.keys())
def test_an_invalid_round_is_refused_with_the_path_and_a_sentence(rules, round_input, expected):
    assert errors_of(rules, round_input) == expected


def test_a_house_rule_range_of_sides_is_named_in_the_message():
    house = {"base": "sevens", "overrides": {"max_sides": 4}}
    round_input = {"ended_by": "stock_exhausted", "sides": [{"name": n} for n in "ABCDE"]}
    assert errors_of(house, round_input) == [
        ("sides", "Sevens is played by 2 to 4 sides; this round has 5."),
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
