"""House rules in words: each value changed against the preset, with the preset's beside it."""

import pytest

from scorekeeper.engine import RULESETS, RoundError, get_ruleset
from scorekeeper.engine.house_rules import house_rule_changes, house_rules_text
from scorekeeper.engine.rules import PARAMETERS


@pytest.mark.parametrize("preset", list(RULESETS))
def test_a_preset_has_no_house_rules(preset):
    assert house_rule_changes(RULESETS[preset]) == ()
    assert house_rules_text(RULESETS[preset]) == ""


def test_decks_and_the_going_out_bonus():
    rules = get_ruleset("ten-thousand").with_overrides({"decks": 4, "going_out_bonus": 200})

    assert house_rules_text(rules) == (
        "House rules: 4 decks (the rule set's: 3); going-out bonus 200 (the rule set's: 100)"
    )


def test_numbers_have_separators_and_an_ended_target_reads_as_words():
    rules = get_ruleset("ten-thousand").with_overrides(
        {"target_score": None, "rounds": 4, "red_three_in_hand_penalty": 1500}
    )

    assert house_rule_changes(rules) == (
        "penalty for a red three in hand 1,500 (the rule set's: 300)",
        "no target score (the rule set's: 10,000)",
        "4 rounds (the rule set's: none)",
    )


def test_kinds_of_canasta_in_the_rule_sets_own_words():
    rules = get_ruleset("baskets").with_overrides(
        {
            "canasta_bonus": {"natural": 600, "wild": 1000},
            "going_out_minimum": {"natural": 2},
            "going_out_canastas": 4,
            "foot_penalty": 200,
        }
    )

    assert house_rule_changes(rules) == (
        "wicker basket bonus 600 (the rule set's: 500)",
        "wild basket bonus 1,000 (the rule set's: none)",
        "4 baskets to go out (the rule set's: 3)",
        "2 wicker baskets needed to go out (the rule set's: 1)",
        "penalty for never picking up the buns 200 (the rule set's: 100)",
    )


def test_card_values_choices_and_the_opening_meld():
    rules = get_ruleset("contract").with_overrides(
        {
            "card_values": {"A": 15, "8": 5},
            "went_out_hand": "dismissed",
            "opening_meld": [50, 90, 120],
            "mixed_max_wild": None,
            "special_threes": True,
        }
    )

    assert house_rule_changes(rules) == (
        "cards held by the side that went out are dismissed (the rule set's: count)",
        "opening meld 50 in round 1, 90 in round 2, 120 from round 3 "
        "(the rule set's: 50 in round 1, 90 in round 2, 120 in round 3, 150 from round 4)",
        "an ace counts 15 (the rule set's: 20)",
        "an 8 counts 5 (the rule set's: 10)",
        "fewer wild cards than naturals in a dirty book (the rule set's: 3)",
    )


def test_opening_meld_by_score_and_sides():
    rules = get_ruleset("sevens").with_overrides(
        {"opening_meld": [[None, 50], [20000, 100]], "max_sides": 4, "min_sides": 3}
    )

    assert house_rule_changes(rules) == (
        "at least 3 sides (the rule set's: 2)",
        "at most 4 sides (the rule set's: no limit)",
        "opening meld 50 below 20,000, 100 from 20,000 "
        "(the rule set's: 50 below 15,000, 90 from 15,000, 120 from 30,000)",
    )


@pytest.mark.parametrize("preset", list(RULESETS))
def test_every_parameter_has_words(preset):
    """No change is ever written by its parameter's name."""
    base = RULESETS[preset]
    described = 0
    for name in PARAMETERS:
        value = base.parameters()[name]
        if isinstance(value, bool) or not isinstance(value, int) or name == "min_sides":
            continue
        try:
            rules = base.with_overrides({name: value + 1})
        except RoundError:
            continue  # one more joker needs a joker's value; Cutthroat is for two teams only
        changes = house_rule_changes(rules)
        assert len(changes) == 1
        assert "_" not in changes[0], changes
        described += 1
    assert described >= 8
