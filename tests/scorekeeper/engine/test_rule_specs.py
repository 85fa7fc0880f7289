"""Rules as a game names them: house rules, a preset or a base with overrides, a table's bounds."""

import pytest

from scorekeeper.engine import RULESETS, RoundError, RuleSet, get_ruleset, score_round, table_rules
from scorekeeper.engine.rules import resolve_rules


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


RULES_ERRORS = {
    "an unknown preset": (
        "poker",
        [
            (
                "rules",
                'There are no rules called "poker"; the rulesets are baskets, four-rounds, '
                "sevens, ten-thousand, cutthroat, contract, canasta, samba and buraco.",
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
                "sevens, ten-thousand, cutthroat, contract, canasta, samba and buraco.",
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
        "sevens, ten-thousand, cutthroat, contract, canasta, samba and buraco."
    )


def test_resolve_rules_passes_a_ruleset_through():
    rules = RULESETS["contract"]
    assert resolve_rules(rules) is rules
    assert isinstance(resolve_rules({"base": "contract"}), RuleSet)


def test_every_preset_is_within_what_a_table_plays():
    for preset in RULESETS:
        assert table_rules(preset) is RULESETS[preset]


TABLE_ERRORS = {
    "fifty rounds": (
        "four-rounds",
        {"rounds": 50, "opening_meld": [60] * 21},
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
