"""Going out: one side at most, with the canastas the rules ask for, and what it alone may meld."""

import pytest

from scorekeeper.engine import score_round
from tests.helpers.round_inputs import ANN, BOB, US, baskets, errors_of, ten_thousand

CASES = {
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
}


@pytest.mark.parametrize("rules, round_input, expected", CASES.values(), ids=CASES.keys())
def test_an_invalid_round_is_refused_with_the_path_and_a_sentence(rules, round_input, expected):
    assert errors_of(rules, round_input) == expected


def test_going_out_with_no_kind_required_asks_only_for_the_number():
    house = {"base": "baskets", "overrides": {"going_out_minimum": {"natural": None}}}
    assert errors_of(house, baskets(side0={"canastas": {"mixed": 2}})) == [
        ("sides[0].canastas", "Ann went out but has 2 baskets; going out needs 3."),
    ]


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
