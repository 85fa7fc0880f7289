"""RuleSet: the six presets as the contract's table gives them, house rules and their checks."""

import dataclasses
import json

import pytest

from scorekeeper.engine import RULESETS, RoundError, RuleSet, get_ruleset, score_round, table_rules
from scorekeeper.engine.rules import PARAMETERS, resolve_rules

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


def test_the_six_presets_are_there_in_the_contracts_order():
    assert list(RULESETS) == [
        "baskets",
        "four-rounds",
        "sevens",
        "ten-thousand",
        "cutthroat",
        "contract",
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


def test_house_rules_change_the_score_and_name_themselves_by_their_overrides():
    house = get_ruleset("baskets").with_overrides({"going_out_bonus": 300, "target_score": 7500})
    assert (house.going_out_bonus, house.target_score, house.id) == (300, 7500, "baskets")
    assert house.spec() == {
        "base": "baskets",
        "overrides": {"going_out_bonus": 300, "target_score": 7500},
    }
    assert resolve_rules(house.spec()) == house
    round_input = {
        "sides": [
            {
                "name": "Ann",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_points": 640,
            },
            {"name": "Bob", "canastas": {"natural": 1}, "melded_points": 310},
        ]
    }
    result = score_round(house.spec(), round_input)
    assert result.scores["Ann"] == 2040
    assert result.to_dict()["rules"] == house.spec()


def test_a_mapping_override_changes_only_the_keys_it_names_and_null_removes_one():
    house = RULESETS["ten-thousand"].with_overrides(
        {"canasta_bonus": {"natural": 600, "wild": None}, "going_out_minimum": {"wild": None}}
    )
    assert dict(house.canasta_bonus) == {"natural": 600, "mixed": 300}
    assert dict(house.going_out_minimum) == {"natural": 3, "mixed": 1}
    assert house.overrides() == {
        "canasta_bonus": {"natural": 600, "wild": None},
        "going_out_minimum": {"wild": None},
    }
    assert resolve_rules(house.spec()) == house


def test_house_rules_can_make_threes_special_in_baskets():
    house = RULESETS["baskets"].with_overrides(
        {"special_threes": True, "red_three_bonus": 100, "card_values": {"black3": 5}}
    )
    # The preset's plain "3" gives way to black3 once threes score on their own.
    assert "3" not in house.card_values and house.card_values["black3"] == 5
    assert resolve_rules(house.spec()) == house
    result = score_round(
        house,
        {
            "sides": [
                {
                    "name": "Ann",
                    "went_out": True,
                    "canastas": {"natural": 3},
                    "melded_points": 300,
                    "red_threes": 2,
                },
                {"name": "Bob"},
            ]
        },
    )
    assert result.scores == {"Ann": 2250, "Bob": 0}


def test_house_rules_can_add_a_kind_of_canasta_and_jokers():
    house = RULESETS["baskets"].with_overrides(
        {"jokers_per_deck": 2, "card_values": {"joker": 50}, "canasta_bonus": {"wild": 1000}}
    )
    assert house.label("wild") == "Wild baskets"
    result = score_round(
        house,
        {
            "sides": [
                {
                    "name": "Ann",
                    "went_out": True,
                    "canastas": {"natural": 2, "wild": 1},
                    "melded_points": 350,
                },
                {"name": "Bob"},
            ]
        },
    )
    assert result.scores["Ann"] == 500 * 2 + 1000 + 250 + 350


OVERRIDE_ERRORS = {
    "an unknown rule": (
        "baskets",
        {"going_out_points": 300},
        [
            (
                "rules.overrides.going_out_points",
                '"going_out_points" is not a rule you can change; '
                "the rules are min_sides, max_sides, decks, jokers_per_deck, canasta_bonus, "
                "going_out_canastas, going_out_minimum, going_out_bonus, cut_bonus, "
                "special_threes, red_three_bonus, red_three_in_hand_penalty, "
                "black_three_in_hand_penalty, black_threes_meld, foot_penalty, went_out_hand, "
                "opening_meld_by, opening_meld, target_score, rounds, card_values, "
                "mixed_max_wild and open_books_change_sides.",
            )
        ],
    ),
    "a negative bonus": (
        "baskets",
        {"going_out_bonus": -1},
        [
            (
                "rules.overrides.going_out_bonus",
                "The going-out bonus must be a whole number from 0 to 1,000,000, not −1.",
            )
        ],
    ),
    "a bool target": (
        "baskets",
        {"target_score": True},
        [
            (
                "rules.overrides.target_score",
                "The target score must be a whole number from 1 to 100,000,000 or left empty, "
                "not true.",
            )
        ],
    ),
    "too many decks": (
        "baskets",
        {"decks": 101},
        [
            (
                "rules.overrides.decks",
                "The number of decks must be a whole number from 1 to 100, not 101.",
            )
        ],
    ),
    "a limit on wild cards in the ruleset's own words": (
        "baskets",
        {"mixed_max_wild": 7},
        [
            (
                "rules.overrides.mixed_max_wild",
                "The most wild cards in a plastic basket must be a "
                "whole number from 1 to 6 or left empty, not 7.",
            )
        ],
    ),
    "a flag that is not true or false": (
        "baskets",
        {"special_threes": "yes"},
        [
            (
                "rules.overrides.special_threes",
                'Whether threes score on their own must be true or false, not "yes".',
            )
        ],
    ),
    "an unknown choice": (
        "baskets",
        {"went_out_hand": "keep"},
        [
            (
                "rules.overrides.went_out_hand",
                "What happens to the cards of the side that went out "
                "must be must_be_zero, dismissed or counts, not "
                '"keep".',
            )
        ],
    ),
    "fewer most sides than least": (
        "sevens",
        {"min_sides": 4, "max_sides": 3},
        [("rules.overrides.max_sides", "The most sides, 3, cannot be fewer than the least, 4.")],
    ),
    "open books for more than two sides": (
        "ten-thousand",
        {"open_books_change_sides": True},
        [
            (
                "rules.overrides.open_books_change_sides",
                "Open books can go to the other team only in "
                "a game of exactly 2 sides; set both the fewest "
                "and the most sides to 2.",
            )
        ],
    ),
    "a red-three bonus where threes are ordinary": (
        "baskets",
        {"red_three_bonus": 100, "black_threes_meld": True},
        [
            (
                "rules.overrides.red_three_bonus",
                "Baskets treats threes as ordinary cards, so its "
                "red-three bonus must be 0, not 100; turn on "
                "“Threes score on their own” first.",
            ),
            (
                "rules.overrides.black_threes_meld",
                "Baskets treats threes as ordinary cards, so "
                "black threes are melded like any card; turn on "
                "“Threes score on their own” first.",
            ),
        ],
    ),
    "a canasta bonus of an unknown kind or wrong type": (
        "baskets",
        {"canasta_bonus": {"gold": 1000, "natural": "500"}},
        [
            (
                "rules.overrides.canasta_bonus.natural",
                "The bonus for a natural canasta must be a "
                "whole number from 0 to 1,000,000, not "
                '"500".',
            ),
            (
                "rules.overrides.canasta_bonus.gold",
                '"gold" is not a kind of canasta; the kinds are sevens, wild, natural or mixed.',
            ),
        ],
    ),
    "a canasta bonus that is not a mapping": (
        "baskets",
        {"canasta_bonus": [500]},
        [
            (
                "rules.overrides.canasta_bonus",
                "The canasta bonus must be given as {kind: points} "
                "with at least one kind, not a list.",
            )
        ],
    ),
    "a going-out minimum of a kind without a bonus": (
        "baskets",
        {"going_out_minimum": {"wild": 1, "natural": -1}},
        [
            (
                "rules.overrides.going_out_minimum.natural",
                "The number of natural canastas needed "
                "to go out must be a whole number from "
                "0 to 100, not −1.",
            ),
            (
                "rules.overrides.going_out_minimum.wild",
                'Going out cannot need "wild" canastas: '
                "the canasta bonus has no such kind; its "
                "kinds are natural and mixed.",
            ),
        ],
    ),
    "a going-out minimum that is not a mapping": (
        "baskets",
        {"going_out_minimum": 1},
        [
            (
                "rules.overrides.going_out_minimum",
                "The canastas needed to go out must be given as {kind: count}, not 1.",
            )
        ],
    ),
    "fewer canastas in all than the minimums by kind": (
        "four-rounds",
        {"going_out_canastas": 4},
        [
            (
                "rules.overrides.going_out_canastas",
                "Going out needs at least 5 canastas by kind, so "
                "the number needed in all cannot be 4.",
            )
        ],
    ),
    "an opening meld by round with a word in it": (
        "four-rounds",
        {"opening_meld": [60, "90"]},
        [
            (
                "rules.overrides.opening_meld",
                "An opening meld set by round must be a list of points, "
                "one per round (e.g. [60, 90, 120, 150]), each a whole "
                'number from 0 to 1,000,000; got [60, "90"].',
            )
        ],
    ),
    "an opening meld by score without its floor": (
        "ten-thousand",
        {"opening_meld": [[0, 50], [1500, 90]]},
        [
            (
                "rules.overrides.opening_meld",
                "An opening meld set by score must be a list of [lowest "
                "score, points] levels in rising order, the first with "
                "null for its lowest score (e.g. [[null, 50], [1500, "
                "90]]); got [[0, 50], [1500, 90]].",
            )
        ],
    ),
    "an opening meld by score out of order": (
        "ten-thousand",
        {"opening_meld": [[None, 50], [1500, 90], [1500, 120]]},
        [
            (
                "rules.overrides.opening_meld",
                "An opening meld set by score must be a list of [lowest "
                "score, points] levels in rising order, the first with "
                "null for its lowest score (e.g. [[null, 50], [1500, "
                "90]]); got [[null, 50], [1500, 90], [1500, 120]].",
            )
        ],
    ),
    "card values that are not a mapping": (
        "baskets",
        {"card_values": 5},
        [("rules.overrides.card_values", "Card values must be given as {rank: points}, not 5.")],
    ),
    "card values with a bad value, a joker without jokers and an unknown rank": (
        "baskets",
        {"card_values": {"A": 7, "joker": 50, "Z": 5}},
        [
            (
                "rules.overrides.card_values.A",
                "The value of rank A must be a whole number from 0 "
                "to 1,000 and a multiple of 5, not 7.",
            ),
            (
                "rules.overrides.card_values.joker",
                "There are no jokers in the decks (jokers_per_deck is 0), so a joker has no value.",
            ),
            (
                "rules.overrides.card_values.Z",
                '"Z" is not a rank; the ranks are A, K, Q, J, 10, 9, '
                "8, 7, 6, 5, 4, 3, 2 and joker.",
            ),
        ],
    ),
    "jokers without a value": (
        "baskets",
        {"jokers_per_deck": 2},
        [("rules.overrides.card_values", "Card values need a value for joker.")],
    ),
    "a plain three where threes are special": (
        "baskets",
        {"special_threes": True, "card_values": {"3": 5}},
        [
            (
                "rules.overrides.card_values.3",
                "Threes score on their own in these rules: give black threes a value as black3.",
            )
        ],
    ),
    "melding black threes without a value for them": (
        "sevens",
        {"black_threes_meld": True},
        [
            (
                "rules.overrides.card_values",
                "Black threes can be melded, so the card values need a value for the black 3.",
            )
        ],
    ),
    "a card value for red threes": (
        "sevens",
        {"card_values": {"red3": 100}},
        [
            (
                "rules.overrides.card_values.red3",
                "A red three is never counted as a card: it scores "
                "the red-three bonus when laid down and the "
                "red-three penalty when held.",
            )
        ],
    ),
    "a black three where threes are ordinary": (
        "baskets",
        {"card_values": {"black3": 5}},
        [
            (
                "rules.overrides.card_values.black3",
                "Threes are ordinary cards in these rules: give them a value as 3.",
            )
        ],
    ),
    "house rules that are not a mapping": (
        "baskets",
        ["x"],
        [("rules.overrides", "House rules must be given as {rule: value}, not a list.")],
    ),
}


@pytest.mark.parametrize(
    "preset, overrides, expected", OVERRIDE_ERRORS.values(), ids=OVERRIDE_ERRORS.keys()
)
def test_every_override_is_validated(preset, overrides, expected):
    with pytest.raises(RoundError) as caught:
        RULESETS[preset].with_overrides(overrides)
    assert [(e.path, e.message) for e in caught.value.errors] == expected


RULES_ERRORS = {
    "an unknown preset": (
        "poker",
        [
            (
                "rules",
                'There are no rules called "poker"; the rulesets are baskets, four-rounds, '
                "sevens, ten-thousand, cutthroat and contract.",
            )
        ],
    ),
    "a number": (
        5,
        [
            (
                "rules",
                'The rules must be a ruleset id such as "baskets", or {"base": id, '
                '"overrides": {...}} for house rules; got 5.',
            )
        ],
    ),
    "an unknown base": (
        {"base": "x"},
        [
            (
                "rules.base",
                'There are no rules called "x"; the rulesets are baskets, four-rounds, '
                "sevens, ten-thousand, cutthroat and contract.",
            )
        ],
    ),
    "no base": (
        {"overrides": {}},
        [("rules.base", "House rules need a base: the id of a preset.")],
    ),
    "an extra key": (
        {"base": "baskets", "extra": 1},
        [("rules.extra", 'House rules have a base and overrides, not "extra".')],
    ),
    "a bad override": (
        {"base": "baskets", "overrides": {"cut_bonus": "lots"}},
        [
            (
                "rules.overrides.cut_bonus",
                'The exact-cut bonus must be a whole number from 0 to 1,000,000, not "lots".',
            )
        ],
    ),
}


@pytest.mark.parametrize("spec, expected", RULES_ERRORS.values(), ids=RULES_ERRORS.keys())
def test_rules_are_named_by_a_preset_id_or_a_base_with_overrides(spec, expected):
    with pytest.raises(RoundError) as caught:
        resolve_rules(spec)
    assert [(e.path, e.message) for e in caught.value.errors] == expected


def test_get_ruleset_refuses_an_unknown_id_with_the_engines_error():
    with pytest.raises(RoundError) as caught:
        get_ruleset("poker")
    assert str(caught.value) == (
        'rules: There are no rules called "poker"; the rulesets are baskets, four-rounds, '
        "sevens, ten-thousand, cutthroat and contract."
    )


def test_resolve_rules_passes_a_ruleset_through():
    rules = RULESETS["contract"]
    assert resolve_rules(rules) is rules
    assert isinstance(resolve_rules({"base": "contract"}), RuleSet)


def test_an_opening_meld_that_is_not_json_is_named_by_its_type():
    with pytest.raises(RoundError) as caught:
        RULESETS["four-rounds"].with_overrides({"opening_meld": {60, 90}})
    assert caught.value.errors[0].message.endswith("; got a set.")


def test_a_frozen_mapping_shows_what_it_holds():
    assert repr(RULESETS["baskets"].going_out_minimum) == "FrozenMap({'natural': 1})"


def nested(depth, kind):
    """A value `depth` lists (or objects) deep, built without recursion."""
    value = 60
    for _ in range(depth):
        value = [value] if kind == "list" else {"natural": value}
    return value


@pytest.mark.parametrize("kind", ["list", "object"])
@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize("rule", ["opening_meld", "canasta_bonus", "going_out_bonus"])
def test_a_house_rule_nested_at_any_depth_is_refused_with_its_path(rule, depth, kind):
    with pytest.raises(RoundError) as caught:
        resolve_rules({"base": "four-rounds", "overrides": {rule: nested(depth, kind)}})
    assert [(e.path, e.message) for e in caught.value.errors] == [
        (
            f"rules.overrides.{rule}",
            f"The house rule {rule} is nested too deeply; its value is a number, true or false, "
            "text, or lists and objects at most 2 levels deep.",
        )
    ]


def test_a_house_rule_two_levels_deep_is_still_checked_for_its_shape():
    house = RULESETS["ten-thousand"].with_overrides({"opening_meld": [[None, 60], [10, 90]]})
    assert house.opening_meld == ((None, 60), (10, 90))
    with pytest.raises(RoundError) as caught:
        RULESETS["ten-thousand"].with_overrides({"opening_meld": [[None, 60], [[10], 90]]})
    assert [e.path for e in caught.value.errors] == ["rules.overrides.opening_meld"]


def test_every_preset_is_within_what_a_table_plays():
    for preset in RULESETS:
        assert table_rules(preset) is RULESETS[preset]


TABLE_ERRORS = {
    "a thousand rounds": (
        "four-rounds",
        {"rounds": 1000, "opening_meld": [60] * 21},
        [
            ("rules.overrides.rounds", "The number of rounds must be between 1 and 20."),
            (
                "rules.overrides.opening_meld",
                "An opening meld set by round has one level a round, so at most 20 levels, not 21.",
            ),
        ],
    ),
    "sides, decks and points beyond a table": (
        "ten-thousand",
        {
            "min_sides": 7,
            "decks": 13,
            "going_out_bonus": 10_005,
            "canasta_bonus": {"wild": 20_000},
            "going_out_minimum": {"natural": 21},
            "going_out_canastas": 25,
            "card_values": {"joker": 105},
            "opening_meld": [[None, 50], [200_000, 20_000]],
        },
        [
            ("rules.overrides.min_sides", "The least number of sides must be between 2 and 6."),
            ("rules.overrides.decks", "The number of decks must be between 1 and 12."),
            (
                "rules.overrides.going_out_canastas",
                "The number of canastas needed to go out must be between 0 and 20.",
            ),
            (
                "rules.overrides.going_out_bonus",
                "The going-out bonus must be between 0 and 10,000.",
            ),
            (
                "rules.overrides.canasta_bonus.wild",
                "The bonus for a wild canasta must be between 0 and 10,000.",
            ),
            (
                "rules.overrides.going_out_minimum.natural",
                "The number of natural canastas needed to go out must be between 0 and 20.",
            ),
            (
                "rules.overrides.card_values.joker",
                "The value of rank joker must be between 0 and 100.",
            ),
            (
                "rules.overrides.opening_meld",
                "Each lowest score of an opening meld level must be between −100,000 and 100,000.",
            ),
            (
                "rules.overrides.opening_meld",
                "Each opening meld must be between 0 and 10,000 points.",
            ),
        ],
    ),
    "eleven opening meld levels": (
        "ten-thousand",
        {"opening_meld": [[None, 50], *[[n * 100, 50] for n in range(1, 11)]]},
        [
            (
                "rules.overrides.opening_meld",
                "An opening meld set by score has at most 10 levels, not 11.",
            )
        ],
    ),
}


@pytest.mark.parametrize(
    "preset, overrides, expected", TABLE_ERRORS.values(), ids=TABLE_ERRORS.keys()
)
def test_house_rules_a_player_sets_are_held_to_what_a_table_plays(preset, overrides, expected):
    spec = {"base": preset, "overrides": overrides}
    # The engine still takes them (a game saved before the bounds loads as it was)...
    assert resolve_rules(spec).overrides()
    # ...but a new game, league or blank sheet does not.
    with pytest.raises(RoundError) as caught:
        table_rules(spec)
    assert [(e.path, e.message) for e in caught.value.errors] == expected
