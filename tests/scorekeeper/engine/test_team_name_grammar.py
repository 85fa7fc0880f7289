"""Words agree with a side's name: a team named by its players or by a plural pronoun takes the
plural ("Ann & Carl need", "the melded points of Them"); a single name keeps the singular."""

import pytest

from scorekeeper.engine.formatting import owned, plural, says, verb
from tests.helpers.round_inputs import errors_of


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Ann", False),
        ("Chris", False),
        ("The Smiths", False),
        ("Side 1", False),
        ("Sandy", False),
        ("Ann & Carl", True),
        ("Ann and Carl", True),
        ("Ann, Bob and Cy", True),
        ("Us", True),
        ("Them", True),
        ("them", True),
        ("We", True),
        ("They", True),
    ],
)
def test_a_name_joining_players_or_a_plural_pronoun_takes_the_plural(name, expected):
    assert plural(name) is expected


def test_a_word_inside_a_name_does_not_make_it_plural():
    assert plural("Anderson") is False
    assert plural("Brandy Andrews") is False
    assert plural("Usher") is False
    assert plural("Them Again") is False


@pytest.mark.parametrize(
    "name, singular, expected",
    [
        ("Ann", "needs", "needs"),
        ("Ann & Carl", "needs", "need"),
        ("Chris", "has", "has"),
        ("Them", "has", "have"),
        ("Us", "is", "are"),
        ("Ann and Carl", "was", "were"),
        ("Ann & Carl", "holds", "hold"),
        ("Us", "leads", "lead"),
        ("Them", "has reached", "have reached"),
        ("Ann & Carl", "went out", "went out"),
        ("Ann", "went out", "went out"),
    ],
)
def test_the_verb_agrees_with_the_name(name, singular, expected):
    assert verb(name, singular) == expected


def test_a_plural_can_be_named_when_it_is_not_the_singular_without_its_s():
    assert verb("Us", "passes", "pass") == "pass"
    assert verb("Ann", "passes", "pass") == "passes"
    assert says("Ann & Carl", "needs") == "Ann & Carl need"
    assert says("Ann", "needs") == "Ann needs"


@pytest.mark.parametrize(
    "name, start, expected",
    [
        ("Ann", False, "Ann's melded points"),
        ("Ann", True, "Ann's melded points"),
        ("Chris", False, "the melded points of Chris"),
        ("Chris", True, "The melded points of Chris"),
        ("Them", True, "The melded points of Them"),
        ("Ann & Carl", False, "the melded points of Ann & Carl"),
        ("Ann and Carl", True, "The melded points of Ann and Carl"),
        ("We", False, "the melded points of We"),
    ],
)
def test_what_a_side_owns_is_said_without_an_apostrophe_s_after_a_plural_name(
    name, start, expected
):
    assert owned(name, "melded points", start=start) == expected


def test_a_team_that_went_out_without_enough_canastas_is_told_in_the_plural():
    round_input = {
        "sides": [
            {
                "name": "Ann & Carl",
                "went_out": True,
                "canastas": {"natural": 1},
                "melded_points": 500,
            },
            {"name": "Bob", "melded_points": 100},
        ]
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[0].canastas",
            "Ann & Carl went out but have 1 basket; going out needs 3, at least 1 of them wicker.",
        )
    ]


def test_a_single_player_that_went_out_without_enough_canastas_is_told_as_before():
    round_input = {
        "sides": [
            {"name": "Chris", "went_out": True, "canastas": {"mixed": 2}, "melded_points": 500},
            {"name": "Bob", "melded_points": 100},
        ]
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[0].canastas.natural",
            "Chris went out but has 2 baskets; going out needs 3, at least 1 of them wicker.",
        )
    ]


def test_a_team_that_went_out_holding_cards_is_told_it_holds_none():
    round_input = {
        "sides": [
            {
                "name": "Ann and Carl",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_points": 640,
                "hand_points": 20,
            },
            {"name": "Bob", "melded_points": 100},
        ]
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[0].hand_points",
            "Ann and Carl went out, so Ann and Carl hold no cards; points left in hand must be "
            "0, not 20.",
        )
    ]


def test_the_melded_points_of_them_are_named_without_them_s():
    round_input = {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "melded_points": 900,
            },
            {"name": "Them", "melded_points": 12},
        ]
    }
    assert errors_of("ten-thousand", round_input) == [
        (
            "sides[1].melded_points",
            "The melded points of Them must be a multiple of 5, since every card is, not 12.",
        )
    ]


def test_a_single_players_melded_points_keep_the_apostrophe_s():
    round_input = {
        "sides": [
            {
                "name": "Ann",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_points": 640,
            },
            {"name": "Bob", "melded_points": 12},
        ]
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[1].melded_points",
            "Bob's melded points must be a multiple of 5, since every card is, not 12.",
        )
    ]


def test_a_team_holding_more_cards_of_a_rank_than_the_decks_is_told_in_the_plural():
    round_input = {
        "decks": 2,
        "sides": [
            {
                "name": "Ann & Carl",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_cards": {"K": 9, "A": 5, "Q": 8},
            },
            {"name": "Bob", "melded_points": 100},
        ],
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[0].melded_cards.K",
            "Ann & Carl have 9 kings laid down and in hand; 2 decks hold only 8.",
        )
    ]


def test_a_teams_cards_are_named_without_an_apostrophe_s():
    round_input = {
        "sides": [
            {
                "name": "Ann & Carl",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_cards": {"K": "x"},
            },
            {"name": "Bob", "melded_points": 100},
        ]
    }
    assert errors_of("baskets", round_input) == [
        (
            "sides[0].melded_cards.K",
            "The number of kings in the melded cards of Ann & Carl must be a whole number of 0 "
            'or more, not "x".',
        )
    ]
