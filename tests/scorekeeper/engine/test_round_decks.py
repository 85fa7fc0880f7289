"""What the decks hold: canasta kinds, cards by rank, and no more than the decks can make."""

import pytest

from scorekeeper.engine import score_round
from tests.helpers.round_inputs import SEVENS_OUT, baskets, errors_of, ten_thousand

CASES = {
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
                "The melded cards of Them are worth 120, but it takes at least 140 "
                "points of cards to make the 1 wild canasta of Them (seven cards or "
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
}


@pytest.mark.parametrize("rules, round_input, expected", CASES.values(), ids=CASES.keys())
def test_an_invalid_round_is_refused_with_the_path_and_a_sentence(rules, round_input, expected):
    assert errors_of(rules, round_input) == expected


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
