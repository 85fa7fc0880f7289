"""Baskets, Sevens, Ten Thousand and Cutthroat: a round and a game each, by the published rule."""

# The arithmetic in every comment follows the rule text in /work/shared/rules (see its README).

from scorekeeper.engine import game_status, score_round
from tests.helpers.engine_rounds import lines

# -- Baskets (M. E. Allen, 2019) ----------------------------------------------------------------

BASKETS_ROUND_1 = {  # the contract's first worked example
    "sides": [
        {
            "name": "Ann",
            "went_out": True,
            "canastas": {"natural": 1, "mixed": 2},
            "melded_points": 640,
        },
        {
            "name": "Bob",
            "canastas": {"natural": 1},
            "melded_points": 310,
            "hand_points": 85,
            "foot_picked_up": False,
        },
    ]
}
BASKETS_ROUND_2 = {
    "sides": [
        {
            "name": "Ann",
            "canastas": {"mixed": 1},
            "melded_points": 240,
            "hand_cards": {"K": 2, "3": 1, "2": 1},
        },
        {
            "name": "Bob",
            "went_out": True,
            "canastas": {"natural": 2, "mixed": 1},
            "melded_points": 720,
        },
    ]
}
BASKETS_ROUND_3 = {
    "sides": [
        {
            "name": "Ann",
            "went_out": True,
            "canastas": {"natural": 2, "mixed": 2},
            "melded_points": 900,
        },
        {
            "name": "Bob",
            "canastas": {"natural": 1},
            "melded_points": 200,
            "hand_points": 120,
            "foot_picked_up": False,
        },
    ]
}


def test_baskets_round_from_published_rule_threes_in_hand_count_five_like_fours():
    result = score_round("baskets", BASKETS_ROUND_2)
    # Bob: wicker 2 x 500 + plastic 300 + going out 250 + cards 720 = 2270.
    # Ann: plastic 300 + cards 240 - (two kings 20 + a three 5 + a deuce 20 = 45) = 495.
    assert result.scores == {"Ann": 495, "Bob": 2270}
    assert lines(result.sides[0]) == {"mixed_canastas": 300, "melded_cards": 240, "hand_cards": -45}


def test_baskets_game_from_published_rule_ends_when_a_player_reaches_5000():
    status = game_status("baskets", ["Ann", "Bob"], [BASKETS_ROUND_1, BASKETS_ROUND_2])
    # 1990 + 495 = 2485 and 625 + 2270 = 2895: both in 1500-2999, so both need 70.
    assert dict(status.totals) == {"Ann": 2485, "Bob": 2895}
    assert dict(status.meld_requirement) == {"Ann": 70, "Bob": 70}
    assert not status.finished

    status = game_status(
        "baskets", ["Ann", "Bob"], [BASKETS_ROUND_1, BASKETS_ROUND_2, BASKETS_ROUND_3]
    )
    # Round 3: Ann 1000 + 600 + 250 + 900 = 2750 -> 5235; Bob 500 + 200 - 120 - 100 = 480 -> 3375.
    assert [dict(r.scores) for r in status.rounds] == [
        {"Ann": 1990, "Bob": 625},
        {"Ann": 495, "Bob": 2270},
        {"Ann": 2750, "Bob": 480},
    ]
    assert dict(status.totals) == {"Ann": 5235, "Bob": 3375}
    assert (status.finished, status.winner, status.tie) == (True, "Ann", False)
    assert status.next_round is None and status.meld_requirement is None


def test_baskets_game_from_published_rule_a_score_below_zero_opens_with_15():
    round_1 = {
        "sides": [
            {"name": "Ann", "went_out": True, "canastas": {"natural": 3}, "melded_points": 300},
            # 40 melded - 235 in hand - 100 for the buns = -295.
            {"name": "Bob", "melded_points": 40, "hand_points": 235, "foot_picked_up": False},
        ]
    }
    status = game_status("baskets", ["Ann", "Bob"], [round_1])
    assert dict(status.totals) == {"Ann": 2050, "Bob": -295}
    assert dict(status.meld_requirement) == {"Ann": 70, "Bob": 15}


# -- Hand and Foot Canasta with sevens and wild canastas -----------------------------------------

SEVENS_ROUND = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
            "red_threes": 2,
            "melded_points": 1115,
        },
        {
            "name": "Them",
            "canastas": {"natural": 2, "mixed": 1},
            "melded_points": 380,
            "hand_points": 120,
            "black_threes_in_hand": 1,
        },
    ]
}


def test_sevens_round_from_published_rule_each_black_three_in_hand_costs_100():
    result = score_round(
        "sevens",
        {
            "ended_by": "stock_exhausted",
            "sides": [
                {
                    "name": "Us",
                    "canastas": {"sevens": 1, "natural": 1},
                    "melded_points": 800,
                    "hand_points": 95,
                    "black_threes_in_hand": 2,
                },
                {
                    "name": "Them",
                    "canastas": {"wild": 1, "mixed": 2},
                    "red_threes": 3,
                    "melded_cards": {"joker": 2, "2": 7, "A": 8, "K": 5},
                    "hand_cards": {"Q": 1, "4": 2},
                },
            ],
        },
    )
    # Nobody went out. Us: 5000 + 500 + 800 - 95 - 2 x 100 = 6005.
    # Them: 2500 + 2 x 300 + 3 x 100 + (2 x 50 + 7 x 20 + 8 x 20 + 5 x 10 = 450)
    # - (10 + 2 x 5 = 20) = 3830.
    assert result.scores == {"Us": 6005, "Them": 3830}
    assert result.went_out is None
    assert lines(result.sides[1])["melded_cards"] == 450


def test_sevens_game_from_published_rule_melds_rise_at_15000_and_30000_and_end_at_50000():
    # Every round: Us 9815 (the contract's second worked example); Them 1000 + 300 + 380 - 120
    # - 100 = 1460.
    assert score_round("sevens", SEVENS_ROUND).scores == {"Us": 9815, "Them": 1460}
    seen = []
    for played in range(1, 6):
        status = game_status("sevens", ["Us", "Them"], [SEVENS_ROUND] * played)
        seen.append((status.totals["Us"], status.meld_requirement["Us"], status.finished))
    assert seen == [
        (9815, 50, False),
        (19630, 90, False),
        (29445, 90, False),
        (39260, 120, False),
        (49075, 120, False),
    ]
    status = game_status("sevens", ["Us", "Them"], [SEVENS_ROUND] * 6)
    assert (status.totals["Us"], status.finished, status.winner) == (58890, True, "Us")


def test_sevens_game_from_published_rule_stopped_at_a_set_time_goes_to_the_highest_score():
    status = game_status("sevens", ["Us", "Them"], [SEVENS_ROUND] * 2, finished=True)
    assert (status.finished, status.winner, status.tie) == (True, "Us", False)
    assert status.next_round is None


# -- Hand and Foot to 10,000, and Cutthroat ------------------------------------------------------

TEN_THOUSAND_ROUND = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"natural": 3, "mixed": 1, "wild": 1},
            "red_threes": 2,
            "melded_points": 1210,
        },
        {
            "name": "Them",
            "canastas": {"natural": 2},
            "melded_points": 420,
            "hand_points": 65,
            "red_threes_in_hand": 1,
            "black_threes_in_hand": 1,
        },
    ]
}


def test_ten_thousand_round_from_published_rule_red_three_in_hand_costs_300():
    result = score_round("ten-thousand", TEN_THOUSAND_ROUND)
    # Us: 3 x 500 + 300 + 1500 + 2 x 100 + 100 going out + 1210 = 4810.
    # Them: 2 x 500 + 420 - 65 - 300 (red three) - 5 (black three) = 1050.
    assert result.scores == {"Us": 4810, "Them": 1050}
    assert [line.label for line in result.sides[0].lines[:3]] == [
        "Red canastas",
        "Black canastas",
        "Wild canastas",
    ]


def test_ten_thousand_game_from_published_rule_melds_follow_the_score_and_10000_wins():
    status = game_status("ten-thousand", ["Us", "Them"], [TEN_THOUSAND_ROUND])
    # 4810 is in 3000-4995 (120); 1050 is below 1500 (50).
    assert dict(status.meld_requirement) == {"Us": 120, "Them": 50}
    status = game_status("ten-thousand", ["Us", "Them"], [TEN_THOUSAND_ROUND] * 2)
    # 9620 is 5000 or more (150); 2100 is in 1500-2995 (90).
    assert dict(status.meld_requirement) == {"Us": 150, "Them": 90}
    assert not status.finished
    status = game_status("ten-thousand", ["Us", "Them"], [TEN_THOUSAND_ROUND] * 3)
    assert dict(status.totals) == {"Us": 14430, "Them": 3150}
    assert (status.finished, status.winner) == (True, "Us")


CUTTHROAT_ROUND = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"natural": 3, "mixed": 1, "wild": 1},
            "melded_points": 1000,
            "open_books": [{"kind": "natural", "points": 70}],
        },
        {
            "name": "Them",
            "canastas": {"natural": 1},
            "melded_points": 500,
            "hand_points": 45,
            "open_books": [{"kind": "natural", "points": 80}, {"kind": "mixed", "points": 90}],
        },
    ]
}


def test_cutthroat_round_from_published_rule_open_books_go_to_the_other_team():
    result = score_round("cutthroat", CUTTHROAT_ROUND)
    # Us: 1500 + 300 + 1500 + their two open books as canastas (500 + 300) + 100 going out
    # + 1000 melded + their books' cards (80 + 90) - our open book's cards (70) = 5300.
    # Them: 500 + our open book as a canasta (500) + 500 + 70 - 170 - 45 = 1355.
    assert result.scores == {"Us": 5300, "Them": 1355}
    assert [line.to_dict() for line in result.sides[1].lines] == [
        {
            "item": "natural_canastas",
            "label": "Red canastas",
            "count": 1,
            "each": 500,
            "points": 500,
        },
        {
            "item": "taken_natural_canastas",
            "label": "Red canastas taken from open books",
            "count": 1,
            "each": 500,
            "points": 500,
        },
        {"item": "melded_cards", "label": "Cards melded", "points": 500},
        {"item": "taken_cards", "label": "Cards in open books taken", "points": 70},
        {"item": "open_books_given", "label": "Open books given away", "points": -170},
        {"item": "hand_cards", "label": "Cards left in hand and foot", "points": -45},
    ]


def test_cutthroat_game_from_published_rule_ends_at_10000():
    status = game_status("cutthroat", ["Us", "Them"], [CUTTHROAT_ROUND])
    assert dict(status.meld_requirement) == {"Us": 150, "Them": 50}
    status = game_status("cutthroat", ["Us", "Them"], [CUTTHROAT_ROUND] * 2)
    assert dict(status.totals) == {"Us": 10600, "Them": 2710}
    assert (status.finished, status.winner, status.tie) == (True, "Us", False)
