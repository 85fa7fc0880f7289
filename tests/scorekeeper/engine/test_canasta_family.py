"""Classic Canasta, Samba and Buraco (../shared/rules/canasta-family.md): their parameters, the
worked examples of their rules, and every check in their own words."""

import json
import subprocess
import sys

import pytest

from scorekeeper.engine import RULESETS, RoundError, card_points, game_status, score_round
from scorekeeper.engine.cards import canasta_capacity, canasta_minimums, deck_points
from tests.helpers.paths import REPO

FIVES = {"7": 5, "6": 5, "5": 5, "4": 5}
TENS = {"K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}
CANASTA_VALUES = {"A": 20, **TENS, **FIVES, "2": 20, "joker": 50, "black3": 5}

TABLE = {
    "canasta": {
        "min_sides": 2,
        "max_sides": 3,
        "decks": 2,
        "jokers_per_deck": 2,
        "canasta_bonus": {"natural": 500, "mixed": 300},
        "going_out_canastas": 1,
        "going_out_minimum": {},
        "going_out_bonus": 100,
        "concealed_bonus": 100,
        "special_threes": True,
        "red_three_bonus": 100,
        "red_threes_all_bonus": 800,
        "red_threes_against": "without_meld",
        "threes_in_hand": "in_hand_points",
        "red_three_in_hand_penalty": 0,
        "black_three_in_hand_penalty": 0,
        "black_threes_meld": True,
        "foot_penalty": 0,
        "went_out_hand": "counts",
        "opening_meld_by": "score",
        "opening_meld": [[None, 15], [0, 50], [1500, 90], [3000, 120]],
        "target_score": 5000,
        "rounds": None,
        "card_values": CANASTA_VALUES,
        "mixed_max_wild": 3,
    },
    "samba": {
        "min_sides": 2,
        "max_sides": 3,
        "decks": 3,
        "jokers_per_deck": 2,
        "canasta_bonus": {"samba": 1500, "natural": 500, "mixed": 300},
        "going_out_canastas": 2,
        "going_out_minimum": {},
        "going_out_bonus": 200,
        "concealed_bonus": 0,
        "red_three_bonus": 100,
        "red_threes_all_bonus": 1000,
        "red_threes_against": "without_canastas",
        "red_threes_canastas_needed": 2,
        "threes_in_hand": "in_hand_points",
        "opening_meld": [[None, 15], [0, 50], [1500, 90], [3000, 120], [7000, 160]],
        "target_score": 10000,
        "card_values": CANASTA_VALUES,
        "mixed_max_wild": 2,
    },
    "buraco": {
        "min_sides": 2,
        "max_sides": 2,
        "decks": 2,
        "jokers_per_deck": 2,
        "canasta_bonus": {"clean": 200, "dirty": 100},
        "going_out_canastas": 1,
        "going_out_minimum": {"clean": 1},
        "going_out_bonus": 100,
        "concealed_bonus": 0,
        "special_threes": False,
        "red_three_bonus": 0,
        "red_threes_all_bonus": 0,
        "red_threes_against": "never",
        "foot_penalty": 100,
        "went_out_hand": "counts",
        "opening_meld": [[None, 0]],
        "target_score": 3000,
        "card_values": {"A": 15, **TENS, **FIVES, "3": 5, "2": 10, "joker": 20},
        "mixed_max_wild": 1,
    },
}


# The worked examples below, as whole rounds (the phone's engine answers them alike too).
CANASTA_CONCEALED = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "went_out_concealed": True,
            "canastas": {"natural": 1, "mixed": 1},
            "melded_points": 470,
            "red_threes": 2,
        },
        {"name": "Them", "red_threes": 1, "hand_points": 85},
    ]
}
SAMBA_ROUND = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"samba": 1, "natural": 1},
            "melded_points": 620,
            "red_threes": 4,
        },
        {
            "name": "Them",
            "canastas": {"mixed": 1},
            "melded_points": 150,
            "red_threes": 2,
            "hand_points": 40,
        },
    ]
}
BURACO_ROUND = {
    "sides": [
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"clean": 1, "dirty": 1},
            "melded_points": 415,
            "hand_points": 25,
        },
        {
            "name": "Them",
            "canastas": {"dirty": 1},
            "melded_points": 160,
            "hand_points": 95,
            "foot_picked_up": False,
        },
    ]
}


@pytest.mark.parametrize(
    "preset, round_input, expected",
    [
        ("canasta", CANASTA_CONCEALED, {"Us": 1670, "Them": -185}),
        ("samba", SAMBA_ROUND, {"Us": 3220, "Them": 210}),
        ("buraco", BURACO_ROUND, {"Us": 790, "Them": 65}),
    ],
)
def test_the_worked_example_of_each_family_preset(preset, round_input, expected):
    assert score_round(preset, round_input).scores == expected


def totals(preset, *sides, **round_fields):
    return score_round(preset, {"sides": list(sides), **round_fields}).scores


def lines(preset, *sides):
    result = score_round(preset, {"sides": list(sides)})
    return {
        side.name: [(line.label, line.note, line.points) for line in side.lines]
        for side in result.sides
    }


def refusals(preset, *sides):
    with pytest.raises(RoundError) as caught:
        score_round(preset, {"sides": list(sides)})
    return [(error.path, error.message) for error in caught.value.errors]


@pytest.mark.parametrize("preset", TABLE)
def test_each_family_preset_has_the_parameters_of_its_rules(preset):
    parameters = RULESETS[preset].parameters()
    for name, value in TABLE[preset].items():
        assert parameters[name] == value, name


@pytest.mark.parametrize(
    "preset, packs_hold", [("canasta", 1180), ("samba", 1770), ("buraco", 960)]
)
def test_the_card_points_of_a_round_never_pass_what_the_packs_hold(preset, packs_hold):
    rules = RULESETS[preset]
    assert deck_points(rules, rules.decks) == packs_hold


# -- Classic Canasta -------------------------------------------------------------------------


def test_canasta_going_out_concealed_scores_200_and_red_threes_count_against_a_side_with_no_meld():
    # Us go out concealed with a natural and a mixed canasta, 2 red threes and 470 melded:
    # 500 + 300 + 200 + 100 + 100 + 470. Them melded nothing: their red three and 85 in hand
    # both count against them.
    assert lines("canasta", *CANASTA_CONCEALED["sides"]) == {
        "Us": [
            ("Natural canastas", "", 500),
            ("Mixed canastas", "", 300),
            ("Red threes", "", 200),
            ("Going out", "", 100),
            ("Going out concealed", "", 100),
            ("Cards melded", "", 470),
        ],
        "Them": [
            ("Red threes", "counted against: nothing melded", -100),
            ("Cards left in hand", "", -85),
        ],
    }


def test_canasta_all_four_red_threes_score_800_or_cost_800_without_a_meld():
    melded = {"name": "Us", "went_out": True, "canastas": {"natural": 1}, "melded_points": 400}
    assert totals("canasta", {**melded, "red_threes": 4}, {"name": "Them"}) == {
        "Us": 500 + 800 + 100 + 400,
        "Them": 0,
    }
    assert lines("canasta", melded, {"name": "Them", "red_threes": 4})["Them"] == [
        ("Red threes", "all 4; counted against: nothing melded", -800)
    ]


def test_canasta_a_black_three_left_in_hand_is_an_ordinary_five_point_card():
    them = {"name": "Them", "canastas": {}, "hand_cards": {"black3": 2, "K": 1}}
    us = {"name": "Us", "went_out": True, "canastas": {"mixed": 1}, "melded_points": 200}
    assert totals("canasta", us, them)["Them"] == -20
    assert card_points("canasta", {"black3": 2, "K": 1}) == 20


def test_canasta_opening_meld_rises_with_the_sides_total():
    rules = RULESETS["canasta"]
    assert [rules.opening_meld_for(1, total) for total in (-5, 0, 1495, 1500, 2995, 3000)] == [
        15,
        50,
        50,
        90,
        90,
        120,
    ]


def test_canasta_refuses_threes_held_a_foot_and_going_out_without_a_canasta_in_its_words():
    assert refusals(
        "canasta",
        {"name": "Us", "went_out": True, "melded_points": 470},
        {
            "name": "Them",
            "red_threes_in_hand": 1,
            "black_threes_in_hand": 2,
            "foot_picked_up": False,
        },
    ) == [
        (
            "sides[1].red_threes_in_hand",
            "Them have 1 red three in hand, but in Canasta a red three is laid down as soon as "
            "it comes, so none stays in hand.",
        ),
        (
            "sides[1].black_threes_in_hand",
            "Them have 2 black threes in hand, but Canasta counts a black three left in hand as "
            "an ordinary card: add its 5 points to the points left in hand.",
        ),
        (
            "sides[1].foot_picked_up",
            "Canasta has no foot to pick up, so Them cannot have missed it: leave "
            "foot_picked_up out, or true.",
        ),
        ("sides[0].canastas", "Us went out but have 0 canastas; going out needs 1."),
    ]


def test_going_out_concealed_needs_going_out_and_a_rule_set_that_scores_it():
    assert refusals(
        "canasta",
        {"name": "Us", "went_out": True, "canastas": {"natural": 1}, "melded_points": 400},
        {"name": "Them", "went_out_concealed": True},
    ) == [
        (
            "sides[1].went_out_concealed",
            "Them cannot have gone out concealed without going out: mark Them as the side that "
            "went out, or clear “went out concealed”.",
        )
    ]
    assert refusals(
        "samba",
        {
            "name": "Us",
            "went_out": True,
            "went_out_concealed": True,
            "canastas": {"natural": 2},
            "melded_points": 400,
        },
        {"name": "Them"},
    ) == [
        (
            "sides[0].went_out_concealed",
            "Us went out concealed, but Samba has no bonus for going out concealed.",
        )
    ]


def test_canasta_for_two_players_needs_two_canastas_to_go_out_as_a_house_rule():
    two = RULESETS["canasta"].with_overrides({"going_out_canastas": 2})
    with pytest.raises(RoundError) as caught:
        score_round(
            two,
            {
                "sides": [
                    {
                        "name": "Ann",
                        "went_out": True,
                        "canastas": {"natural": 1},
                        "melded_points": 400,
                    },
                    {"name": "Bob"},
                ]
            },
        )
    assert str(caught.value) == (
        "sides[0].canastas: Ann went out but has 1 canasta; going out needs 2."
    )


def test_canasta_for_three_players_each_for_themselves_scores_three_sides():
    assert totals(
        "canasta",
        {"name": "Ann", "went_out": True, "canastas": {"mixed": 1}, "melded_points": 250},
        {"name": "Bob", "melded_points": 90, "hand_points": 30},
        {"name": "Cy", "hand_points": 45, "red_threes": 1},
    ) == {"Ann": 300 + 100 + 250, "Bob": 60, "Cy": -145}


def test_a_canasta_game_ends_when_a_side_reaches_5000():
    big = {"name": "Us", "went_out": True, "canastas": {"natural": 4, "mixed": 3}}
    rounds = [
        {"sides": [{**big, "melded_points": 700}, {"name": "Them", "melded_points": 100}]}
    ] * 2
    status = game_status("canasta", ["Us", "Them"], rounds)
    assert (status.totals["Us"], status.finished, status.winner) == (2 * 3700, True, "Us")
    assert status.rounds[0].totals["Us"] == 3700


# -- Samba -----------------------------------------------------------------------------------


def test_samba_scores_1500_for_a_samba_and_200_for_going_out():
    # A samba, a natural canasta, all six red threes and 620 melded; Them, one mixed canasta
    # (fewer than two), so their 2 red threes count against them.
    assert lines("samba", *SAMBA_ROUND["sides"]) == {
        "Us": [
            ("Samba canastas", "", 1500),
            ("Natural canastas", "", 500),
            ("Red threes", "", 400),
            ("Going out", "", 200),
            ("Cards melded", "", 620),
        ],
        "Them": [
            ("Mixed canastas", "", 300),
            ("Red threes", "counted against: fewer than 2 canastas", -200),
            ("Cards melded", "", 150),
            ("Cards left in hand", "", -40),
        ],
    }


def test_samba_all_six_red_threes_score_1000():
    us = {"name": "Us", "went_out": True, "canastas": {"natural": 2}, "melded_points": 400}
    assert totals("samba", {**us, "red_threes": 6}, {"name": "Them"})["Us"] == (
        1000 + 200 + 400 + 1000
    )


def test_samba_going_out_needs_two_canastas_and_its_opening_meld_reaches_160():
    assert refusals(
        "samba",
        {"name": "Us", "went_out": True, "canastas": {"samba": 1}, "melded_points": 600},
        {"name": "Them"},
    ) == [("sides[0].canastas", "Us went out but have 1 canasta; going out needs 2.")]
    rules = RULESETS["samba"]
    assert [rules.opening_meld_for(1, total) for total in (3000, 6995, 7000)] == [120, 120, 160]


def test_samba_three_packs_make_at_most_16_sambas_each_at_least_50_points():
    rules = RULESETS["samba"]
    assert canasta_capacity(rules, 3)["samba"] == 16
    assert canasta_minimums(rules, 3)["samba"] == 50
    assert refusals(
        "samba",
        {"name": "Us", "went_out": True, "canastas": {"samba": 2}, "melded_points": 95},
        {"name": "Them"},
    ) == [
        (
            "sides[0].melded_points",
            "The melded points of Us are 95, but it takes at least 100 points of cards to make "
            "the 2 samba canastas of Us (seven cards or more each); melded points count every "
            "card laid down.",
        )
    ]


# -- Buraco ----------------------------------------------------------------------------------


def test_buraco_scores_clean_and_dirty_canastas_the_batida_and_100_off_for_a_morto_never_taken():
    assert lines("buraco", *BURACO_ROUND["sides"]) == {
        "Us": [
            ("Clean canastas", "", 200),
            ("Dirty canastas", "", 100),
            ("Going out", "", 100),
            ("Cards melded", "", 415),
            ("Cards left in hand", "", -25),
        ],
        "Them": [
            ("Dirty canastas", "", 100),
            ("Cards melded", "", 160),
            ("Cards left in hand", "", -95),
            ("Morto never picked up", "", -100),
        ],
    }


def test_buraco_going_out_needs_the_morto_taken_and_a_clean_canasta_and_has_no_red_threes():
    assert refusals(
        "buraco",
        {
            "name": "Us",
            "went_out": True,
            "canastas": {"dirty": 2},
            "melded_points": 415,
            "foot_picked_up": False,
        },
        {"name": "Them", "red_threes": 1},
    ) == [
        (
            "sides[1].red_threes",
            "Them have 1 red three laid down, but Buraco has no red-three bonus: threes are "
            "ordinary cards.",
        ),
        (
            "sides[0].foot_picked_up",
            "Us went out, so Us reached the morto; foot_picked_up must be true.",
        ),
        (
            "sides[0].canastas.clean",
            "Us went out with 2 canastas but 0 of them clean; going out needs 1, at least 1 of "
            "them clean.",
        ),
    ]


def test_buraco_card_values_and_the_least_clean_and_dirty_canastas():
    rules = RULESETS["buraco"]
    assert card_points(rules, {"joker": 1, "2": 1, "A": 1, "K": 1, "3": 1}) == 20 + 10 + 15 + 10 + 5
    assert canasta_minimums(rules, 2) == {"clean": 35, "dirty": 40}
    assert RULESETS["buraco"].opening_meld_for(3, 2500) == 0


# -- house rules -----------------------------------------------------------------------------


def test_the_new_rules_are_checked_like_every_house_rule():
    with pytest.raises(RoundError) as caught:
        RULESETS["canasta"].with_overrides(
            {
                "red_threes_against": "without_canastas",
                "foot_penalty": 100,
                "red_three_in_hand_penalty": 500,
                "threes_in_hand": "sometimes",
            }
        )
    assert [(e.path, e.message) for e in caught.value.errors] == [
        (
            "rules.overrides.threes_in_hand",
            "How threes left in hand count must be counted_apart or in_hand_points, not "
            '"sometimes".',
        ),
        (
            "rules.overrides.red_threes_canastas_needed",
            "Red threes count against a side with too few canastas, so the number of canastas "
            "needed must be 1 or more, not 0.",
        ),
        (
            "rules.overrides.foot_penalty",
            "Canasta has no second pile to pick up, so its penalty for never picking one up "
            "must be 0, not 100.",
        ),
    ]
    with pytest.raises(RoundError) as caught:
        RULESETS["canasta"].with_overrides({"red_three_in_hand_penalty": 500})
    assert str(caught.value) == (
        "rules.overrides.red_three_in_hand_penalty: In Canasta threes left in hand are counted "
        "in the points left in hand, so its penalty for a red three in hand must be 0, not 500."
    )


def test_samba_with_the_older_opening_meld_of_150_is_a_house_rule():
    older = RULESETS["samba"].with_overrides(
        {"opening_meld": [[None, 15], [0, 50], [1500, 90], [3000, 120], [7000, 150]]}
    )
    assert older.opening_meld_for(2, 8000) == 150
    assert older.overrides() == {
        "opening_meld": [[None, 15], [0, 50], [1500, 90], [3000, 120], [7000, 150]]
    }


def test_the_command_line_lists_the_three_with_every_parameter():
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.engine", "rulesets"],
        capture_output=True,
        cwd=REPO,
        timeout=60,
        check=True,
    )
    listed = {ruleset["id"]: ruleset for ruleset in json.loads(done.stdout)["rulesets"]}
    for preset, parameters in TABLE.items():
        assert {name: listed[preset][name] for name in parameters} == parameters
        assert set(RULESETS[preset].parameters()) <= set(listed[preset])
