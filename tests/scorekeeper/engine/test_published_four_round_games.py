"""Four Rounds and Contract: a round and a four-round game each, by the published rule."""

# The arithmetic in every comment follows the rule text in /work/shared/rules (see its README).

import pytest

from scorekeeper.engine import RoundError, game_status, score_round

# -- Hand and Foot in four rounds -----------------------------------------------------------------

FOUR_ROUNDS = [
    {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 3},
                "melded_points": 900,
            },
            {"name": "Them", "canastas": {"natural": 1}, "melded_points": 300, "hand_points": 150},
        ]
    },
    {
        "sides": [  # the contract's third worked example
            {
                "name": "Us",
                "exact_cuts": 1,
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 3},
                "red_threes": 3,
                "melded_points": 1240,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1},
                "melded_points": 410,
                "hand_points": 195,
                "red_threes": 1,
            },
        ]
    },
    {
        "sides": [
            {
                "name": "Us",
                "canastas": {"mixed": 2},
                "melded_points": 500,
                "hand_points": 300,
                "red_threes_in_hand": 1,
            },
            {
                "name": "Them",
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 3},
                "red_threes": 2,
                "melded_points": 1000,
            },
        ]
    },
    {
        "sides": [
            {"name": "Us", "canastas": {"natural": 1}, "melded_points": 350, "hand_points": 400},
            {
                "name": "Them",
                "went_out": True,
                "exact_cuts": 1,
                "canastas": {"natural": 2, "mixed": 3},
                "melded_points": 1200,
            },
        ]
    },
]


def test_four_rounds_round_from_published_rule_partners_cards_are_dismissed():
    result = score_round(
        "four-rounds",
        {
            "sides": [
                # The partner still holds 150 and a red three: "dismissed", so they cost nothing.
                {
                    "name": "Us",
                    "went_out": True,
                    "canastas": {"natural": 2, "mixed": 3},
                    "melded_points": 1100,
                    "hand_points": 150,
                    "red_threes_in_hand": 1,
                },
                {
                    "name": "Them",
                    "exact_cuts": 1,
                    "canastas": {"natural": 1, "mixed": 1},
                    "red_threes": 1,
                    "melded_points": 600,
                    "hand_points": 230,
                    "red_threes_in_hand": 2,
                    "black_threes_in_hand": 3,
                },
            ]
        },
    )
    # Us: 1000 + 900 + 100 going out + 1100 = 3100.
    # Them: 500 + 300 + 100 red three + 100 cut + 600 - 230 - 2 x 100 red threes in hand
    # - 3 x 0 black threes = 1170.
    assert result.scores == {"Us": 3100, "Them": 1170}
    them = {line.item: line.to_dict() for line in result.sides[1].lines}
    assert them["black_threes_in_hand"] == {
        "item": "black_threes_in_hand",
        "label": "Black threes in hand",
        "count": 3,
        "each": 0,
        "points": 0,
    }
    assert them["red_threes_in_hand"]["points"] == -200


def test_four_rounds_game_from_published_rule_melds_60_90_120_150_and_ends_after_round_4():
    requirements = []
    for played in range(0, 4):
        status = game_status("four-rounds", ["Us", "Them"], FOUR_ROUNDS[:played])
        requirements.append(dict(status.meld_requirement))
    assert requirements == [
        {"Us": 60, "Them": 60},
        {"Us": 90, "Them": 90},
        {"Us": 120, "Them": 120},
        {"Us": 150, "Them": 150},
    ]
    status = game_status("four-rounds", ["Us", "Them"], FOUR_ROUNDS)
    # Us: 2900 + 3640 + (600 + 500 - 300 - 100 = 700) + (500 + 350 - 400 = 450) = 7690.
    # Them: 650 + 815 + (1000 + 900 + 100 + 200 + 1000 = 3200) + (1000 + 900 + 100 + 100 + 1200
    # = 3300) = 7965.
    assert [dict(r.totals) for r in status.rounds] == [
        {"Us": 2900, "Them": 650},
        {"Us": 6540, "Them": 1465},
        {"Us": 7240, "Them": 4665},
        {"Us": 7690, "Them": 7965},
    ]
    assert (status.finished, status.winner, status.tie, status.next_round) == (
        True,
        "Them",
        False,
        None,
    )


def test_four_rounds_game_from_published_rule_has_no_fifth_round():
    with pytest.raises(RoundError) as caught:
        game_status("four-rounds", ["Us", "Them"], [*FOUR_ROUNDS, FOUR_ROUNDS[0]])
    assert [e.to_dict() for e in caught.value.errors] == [
        {
            "path": "rounds[4]",
            "message": "The game was over after round 4 (Four Rounds is played over 4 rounds); "
            "no round can follow it.",
        }
    ]


# -- Contract Hand and Foot ----------------------------------------------------------------------


def test_contract_round_from_published_rule_stock_exhausted_nobody_gets_the_bonus():
    result = score_round(
        "contract",
        {
            "ended_by": "stock_exhausted",
            "sides": [
                {
                    "name": "Ann",
                    "canastas": {"natural": 2, "wild": 1},
                    "red_threes": 1,
                    "melded_points": 700,
                    "hand_points": 120,
                    "black_threes_in_hand": 1,
                },
                {
                    "name": "Bob",
                    "canastas": {"mixed": 2},
                    "melded_points": 400,
                    "hand_points": 200,
                    "red_threes_in_hand": 1,
                },
                {"name": "Cy", "melded_points": 85, "hand_points": 310},
            ],
        },
    )
    # Ann: 2 x 500 clean + 1500 wild + 100 red three + 700 - 120 - 5 black three = 3175.
    # Bob: 2 x 300 dirty + 400 - 200 - 100 red three in hand = 700. Cy: 85 - 310 = -225.
    assert result.scores == {"Ann": 3175, "Bob": 700, "Cy": -225}
    assert [line.label for line in result.sides[0].lines[:2]] == ["Clean books", "Wild books"]


CONTRACT_ROUND = {
    "sides": [
        {
            "name": "Ann",
            "went_out": True,
            "canastas": {"natural": 2, "mixed": 2, "wild": 1},
            "melded_points": 900,
            "hand_points": 0,
        },
        {"name": "Bob", "canastas": {"natural": 1}, "melded_points": 300, "hand_points": 80},
    ]
}
CONTRACT_ROUND_SWAPPED = {
    "sides": [
        {**CONTRACT_ROUND["sides"][0], "name": "Bob"},
        {**CONTRACT_ROUND["sides"][1], "name": "Ann"},
    ]
}


def test_contract_game_from_published_rule_four_rounds_can_end_in_a_tie():
    rounds = [CONTRACT_ROUND, CONTRACT_ROUND_SWAPPED] * 2
    # Going out: 1000 + 600 + 1500 + 100 + 900 = 4100; the other: 500 + 300 - 80 = 720.
    melds = [
        dict(game_status("contract", ["Ann", "Bob"], rounds[:n]).meld_requirement) for n in range(4)
    ]
    assert melds == [{"Ann": m, "Bob": m} for m in (50, 90, 120, 150)]
    status = game_status("contract", ["Ann", "Bob"], rounds)
    assert dict(status.totals) == {"Ann": 9640, "Bob": 9640}
    assert (status.finished, status.winner, status.tie) == (True, None, True)
