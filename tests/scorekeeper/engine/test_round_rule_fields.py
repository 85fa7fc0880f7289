"""Fields only some rule sets use: threes on their own, exact cuts and Cutthroat's open books."""

import pytest

from tests.helpers.round_inputs import baskets, errors_of, ten_thousand

CASES = {
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
        [("sides[0].exact_cuts", "Us have 2 exact cuts, but a round has one deal, so at most 1.")],
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
                "Them have 1 open book, but in Ten Thousand open books stay where "
                "they are: their cards count in melded points only.",
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
                'The open books of Them must be a list of {"kind": ..., "points": ...}, '
                "not an object.",
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
                "The open book 1 of Them needs a kind, red (natural), black "
                '(mixed) or wild, not "gold".',
            ),
            (
                "sides[1].open_books[1].cards",
                'The open book 2 of Them has no field "cards"; give kind and points.',
            ),
            (
                "sides[1].open_books[2].points",
                "The points of the open book 3 of Them must be a whole number of 0 or more, "
                "not null.",
            ),
            (
                "sides[1].open_books[3]",
                'The open book 4 of Them must be an object with a kind and points, not "x".',
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
                "The open book 2 of Them (black) has 45 points, but an open "
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
                "The melded points of Them are 100, but it takes at least 110 "
                "points of cards to make the open books of 110 points of Them "
                "(seven cards or more each); melded points count every card "
                "laid down.",
            )
        ],
    ),
}


@pytest.mark.parametrize("rules, round_input, expected", CASES.values(), ids=CASES.keys())
def test_an_invalid_round_is_refused_with_the_path_and_a_sentence(rules, round_input, expected):
    assert errors_of(rules, round_input) == expected
