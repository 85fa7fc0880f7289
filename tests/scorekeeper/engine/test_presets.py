"""The six presets as the contract's table gives them: parameters, words, opening melds, JSON."""

import dataclasses
import json

import pytest

from scorekeeper.engine import RULESETS, get_ruleset
from scorekeeper.engine.rules import PARAMETERS

TENS = dict.fromkeys(("K", "Q", "J", "10", "9", "8"), 10)
FIVES = dict.fromkeys(("7", "6", "5", "4"), 5)

# The contract's preset table, row by row.
TABLE = {
    "baskets": {
        "min_sides": 2,
        "max_sides": 2,
        "decks": 3,
        "jokers_per_deck": 0,
        "canasta_bonus": {"natural": 500, "mixed": 300},
        "going_out_canastas": 3,
        "going_out_minimum": {"natural": 1},
        "going_out_bonus": 250,
        "cut_bonus": 0,
        "special_threes": False,
        "red_three_bonus": 0,
        "red_three_in_hand_penalty": 0,
        "black_three_in_hand_penalty": 0,
        "foot_penalty": 100,
        "went_out_hand": "must_be_zero",
        "opening_meld_by": "score",
        "opening_meld": [[None, 15], [0, 50], [1500, 70], [3000, 90]],
        "target_score": 5000,
        "rounds": None,
        "card_values": {"A": 20, **TENS, **FIVES, "3": 5, "2": 20},
        "mixed_max_wild": 3,
        "open_books_change_sides": False,
    },
    "four-rounds": {
        "min_sides": 2,
        "max_sides": 2,
        "decks": 6,
        "jokers_per_deck": 2,
        "canasta_bonus": {"natural": 500, "mixed": 300},
        "going_out_canastas": 5,
        "going_out_minimum": {"natural": 2, "mixed": 3},
        "going_out_bonus": 100,
        "cut_bonus": 100,
        "special_threes": True,
        "red_three_bonus": 100,
        "red_three_in_hand_penalty": 100,
        "black_three_in_hand_penalty": 0,
        "foot_penalty": 0,
        "went_out_hand": "dismissed",
        "opening_meld_by": "round",
        "opening_meld": [60, 90, 120, 150],
        "target_score": None,
        "rounds": 4,
        "card_values": {"A": 15, **TENS, **FIVES, "2": 20, "joker": 50, "black3": 0},
        "mixed_max_wild": None,
        "open_books_change_sides": False,
    },
    "sevens": {
        "min_sides": 2,
        "max_sides": None,
        "decks": 6,
        "jokers_per_deck": 2,
        "canasta_bonus": {"sevens": 5000, "wild": 2500, "natural": 500, "mixed": 300},
        "going_out_canastas": 4,
        "going_out_minimum": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
        "going_out_bonus": 200,
        "cut_bonus": 0,
        "special_threes": True,
        "red_three_bonus": 100,
        "red_three_in_hand_penalty": 100,
        "black_three_in_hand_penalty": 100,
        "foot_penalty": 0,
        "went_out_hand": "counts",
        "opening_meld_by": "score",
        "opening_meld": [[None, 50], [15000, 90], [30000, 120]],
        "target_score": 50000,
        "rounds": None,
        "card_values": {"A": 20, **TENS, **FIVES, "2": 20, "joker": 50},
        "mixed_max_wild": 3,
        "open_books_change_sides": False,
    },
    "ten-thousand": {
        "min_sides": 2,
        "max_sides": None,
        "decks": 3,
        "jokers_per_deck": 2,
        "canasta_bonus": {"natural": 500, "mixed": 300, "wild": 1500},
        "going_out_canastas": 5,
        "going_out_minimum": {"natural": 3, "mixed": 1, "wild": 1},
        "going_out_bonus": 100,
        "cut_bonus": 0,
        "special_threes": True,
        "red_three_bonus": 100,
        "red_three_in_hand_penalty": 300,
        "black_three_in_hand_penalty": 5,
        "foot_penalty": 0,
        "went_out_hand": "counts",
        "opening_meld_by": "score",
        "opening_meld": [[None, 50], [1500, 90], [3000, 120], [5000, 150]],
        "target_score": 10000,
        "rounds": None,
        "card_values": {"A": 20, **TENS, **FIVES, "2": 20, "joker": 50, "black3": 5},
        "mixed_max_wild": None,
        "open_books_change_sides": False,
    },
    "contract": {
        "min_sides": 2,
        "max_sides": None,
        "decks": 5,
        "jokers_per_deck": 2,
        "canasta_bonus": {"natural": 500, "mixed": 300, "wild": 1500},
        "going_out_canastas": 5,
        "going_out_minimum": {"natural": 2, "mixed": 2, "wild": 1},
        "going_out_bonus": 100,
        "cut_bonus": 0,
        "special_threes": True,
        "red_three_bonus": 100,
        "red_three_in_hand_penalty": 100,
        "black_three_in_hand_penalty": 5,
        "foot_penalty": 0,
        "went_out_hand": "counts",
        "opening_meld_by": "round",
        "opening_meld": [50, 90, 120, 150],
        "target_score": None,
        "rounds": 4,
        "card_values": {"A": 20, **TENS, **FIVES, "2": 20, "joker": 50, "black3": 5},
        "mixed_max_wild": 3,
        "open_books_change_sides": False,
    },
}
TABLE["cutthroat"] = {**TABLE["ten-thousand"], "max_sides": 2, "open_books_change_sides": True}


@pytest.mark.parametrize("preset", TABLE)
def test_each_preset_has_the_parameters_of_the_contracts_table(preset):
    parameters = RULESETS[preset].parameters()
    for name, value in TABLE[preset].items():
        assert parameters[name] == value, name


def test_the_nine_presets_are_there_in_the_contracts_order_then_the_familys():
    assert list(RULESETS) == [
        "baskets",
        "four-rounds",
        "sevens",
        "ten-thousand",
        "cutthroat",
        "contract",
        "canasta",
        "samba",
        "buraco",
    ]
    assert all(get_ruleset(preset) is RULESETS[preset] for preset in RULESETS)


@pytest.mark.parametrize(
    "preset, name, natural, mixed, canastas, side",
    [
        ("baskets", "Baskets", "Wicker baskets", "Plastic baskets", "baskets", "player"),
        ("four-rounds", "Four Rounds", "Natural canastas", "Mixed canastas", "canastas", "team"),
        ("sevens", "Sevens", "Natural canastas", "Dirty canastas", "canastas", "side"),
        ("ten-thousand", "Ten Thousand", "Red canastas", "Black canastas", "canastas", "side"),
        ("cutthroat", "Cutthroat", "Red canastas", "Black canastas", "canastas", "team"),
        ("contract", "Contract", "Clean books", "Dirty books", "books", "side"),
    ],
)
def test_each_preset_speaks_its_own_words(preset, name, natural, mixed, canastas, side):
    rules = RULESETS[preset]
    assert (rules.name, rules.label("natural"), rules.label("mixed")) == (name, natural, mixed)
    assert (rules.words["canastas"], rules.words["side"]) == (canastas, side)
    assert rules.description and "\n" not in rules.description
    assert rules.source


def test_baskets_calls_its_hand_and_foot_biscuits_and_buns():
    assert (RULESETS["baskets"].words["hand"], RULESETS["baskets"].words["foot"]) == (
        "biscuits",
        "buns",
    )


@pytest.mark.parametrize(
    "preset, score, meld",
    [
        ("baskets", -5, 15),
        ("baskets", 0, 50),
        ("baskets", 1499, 50),
        ("baskets", 1500, 70),
        ("baskets", 2999, 70),
        ("baskets", 3000, 90),
        ("ten-thousand", -100, 50),
        ("ten-thousand", 1495, 50),
        ("ten-thousand", 1500, 90),
        ("ten-thousand", 2995, 90),
        ("ten-thousand", 3000, 120),
        ("ten-thousand", 4995, 120),
        ("ten-thousand", 5000, 150),
        ("sevens", 14995, 50),
        ("sevens", 15000, 90),
        ("sevens", 29995, 90),
        ("sevens", 30000, 120),
    ],
)
def test_the_opening_meld_follows_the_sides_own_score(preset, score, meld):
    assert RULESETS[preset].opening_meld_for(1, score) == meld


@pytest.mark.parametrize(
    "preset, melds", [("four-rounds", [60, 90, 120, 150]), ("contract", [50, 90, 120, 150])]
)
def test_the_opening_meld_follows_the_round(preset, melds):
    assert [RULESETS[preset].opening_meld_for(n, 9999) for n in (1, 2, 3, 4)] == melds


def test_a_ruleset_is_a_frozen_value():
    rules = RULESETS["baskets"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.going_out_bonus = 300
    with pytest.raises(TypeError):
        rules.canasta_bonus["natural"] = 600
    with pytest.raises(AttributeError):
        rules.card_values._data = {}
    assert hash(rules) == hash(RULESETS["baskets"].with_overrides({}))


def test_every_preset_serialises_to_json_with_all_its_parameters():
    for preset, rules in RULESETS.items():
        data = json.loads(json.dumps(rules.to_dict()))
        assert data["id"] == preset and data["overrides"] == {}
        assert set(PARAMETERS) <= set(data)
        assert rules.spec() == preset


def test_a_frozen_mapping_shows_what_it_holds():
    assert repr(RULESETS["baskets"].going_out_minimum) == "FrozenMap({'natural': 1})"
