"""The contract's three worked examples, exactly as the contract states them."""

from scorekeeper.engine import game_status, score_round

BASKETS_ROUND = {
    "rules": "baskets",
    "round": 1,
    "ended_by": "going_out",
    "sides": [
        {
            "name": "Ann",
            "went_out": True,
            "canastas": {"natural": 1, "mixed": 2},
            "melded_points": 640,
            "hand_points": 0,
        },
        {
            "name": "Bob",
            "canastas": {"natural": 1},
            "melded_points": 310,
            "hand_points": 85,
            "foot_picked_up": False,
        },
    ],
}


def test_example_1_baskets_ann_scores_1990_and_bob_625_line_by_line():
    result = score_round("baskets", BASKETS_ROUND)
    assert result.to_dict() == {
        "rules": "baskets",
        "round": 1,
        "sides": [
            {
                "name": "Ann",
                "total": 1990,
                "lines": [
                    {
                        "item": "natural_canastas",
                        "label": "Wicker baskets",
                        "count": 1,
                        "each": 500,
                        "points": 500,
                    },
                    {
                        "item": "mixed_canastas",
                        "label": "Plastic baskets",
                        "count": 2,
                        "each": 300,
                        "points": 600,
                    },
                    {"item": "going_out", "label": "Going out", "points": 250},
                    {"item": "melded_cards", "label": "Cards melded", "points": 640},
                ],
            },
            {
                "name": "Bob",
                "total": 625,
                "lines": [
                    {
                        "item": "natural_canastas",
                        "label": "Wicker baskets",
                        "count": 1,
                        "each": 500,
                        "points": 500,
                    },
                    {"item": "melded_cards", "label": "Cards melded", "points": 310},
                    {
                        "item": "hand_cards",
                        "label": "Cards left in biscuits and buns",
                        "points": -85,
                    },
                    {"item": "foot_not_picked_up", "label": "Buns never picked up", "points": -100},
                ],
            },
        ],
    }


def test_example_1_baskets_next_round_ann_needs_70_to_open_and_bob_50():
    round_ = {k: v for k, v in BASKETS_ROUND.items() if k != "rules"}
    status = game_status("baskets", ["Ann", "Bob"], [round_])
    assert status.to_dict() == {
        "totals": {"Ann": 1990, "Bob": 625},
        "rounds": [
            {"round": 1, "scores": {"Ann": 1990, "Bob": 625}, "totals": {"Ann": 1990, "Bob": 625}}
        ],
        "next_round": 2,
        "meld_requirement": {"Ann": 70, "Bob": 50},
        "finished": False,
        "winner": None,
        "tie": False,
    }


def test_example_2_sevens_going_out_with_one_canasta_of_each_kind_scores_9815():
    result = score_round(
        "sevens",
        {
            "sides": [
                {
                    "name": "Us",
                    "went_out": True,
                    "canastas": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
                    "red_threes": 2,
                    "melded_points": 1115,
                },
                {"name": "Them", "melded_points": 0},
            ]
        },
    )
    us = result.sides[0]
    assert us.total == 9815
    # "8500 for the four canastas and going out", then the threes and the cards.
    four_and_out = sum(
        line.points
        for line in us.lines
        if line.item.endswith("_canastas") or line.item == "going_out"
    )
    assert four_and_out == 8500
    assert [(line.item, line.points) for line in us.lines] == [
        ("sevens_canastas", 5000),
        ("wild_canastas", 2500),
        ("natural_canastas", 500),
        ("mixed_canastas", 300),
        ("red_threes", 200),
        ("going_out", 200),
        ("melded_cards", 1115),
    ]
    assert [line.label for line in us.lines[:4]] == [
        "Sevens canastas",
        "Wild canastas",
        "Natural canastas",
        "Dirty canastas",
    ]


EXAMPLE_3_ROUND_2 = {
    "round": 2,
    "sides": [
        {
            "name": "Dealers",
            "exact_cuts": 1,
            "went_out": True,
            "canastas": {"natural": 2, "mixed": 3},
            "red_threes": 3,
            "melded_points": 1240,
        },
        {
            "name": "Others",
            "canastas": {"natural": 1},
            "melded_points": 410,
            "hand_points": 195,
            "red_threes": 1,
        },
    ],
}


def test_example_3_four_rounds_round_2_scores_3640_and_815():
    result = score_round("four-rounds", EXAMPLE_3_ROUND_2)
    assert result.scores == {"Dealers": 3640, "Others": 815}
    assert [line.to_dict() for line in result.sides[1].lines] == [
        {
            "item": "natural_canastas",
            "label": "Natural canastas",
            "count": 1,
            "each": 500,
            "points": 500,
        },
        {"item": "red_threes", "label": "Red threes", "count": 1, "each": 100, "points": 100},
        {"item": "melded_cards", "label": "Cards melded", "points": 410},
        {"item": "hand_cards", "label": "Cards left in hand and foot", "points": -195},
    ]
    dealers = {line.item: line.points for line in result.sides[0].lines}
    assert dealers == {
        "natural_canastas": 1000,
        "mixed_canastas": 900,
        "red_threes": 300,
        "exact_cuts": 100,
        "going_out": 100,
        "melded_cards": 1240,
    }


def test_example_3_four_rounds_round_3_asks_both_teams_for_120_to_open():
    round_1 = {
        "sides": [
            {"name": "Dealers", "melded_points": 300, "hand_points": 100},
            {
                "name": "Others",
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 3},
                "melded_points": 900,
            },
        ]
    }
    status = game_status("four-rounds", ["Dealers", "Others"], [round_1, EXAMPLE_3_ROUND_2])
    assert status.next_round == 3
    assert dict(status.meld_requirement) == {"Dealers": 120, "Others": 120}
