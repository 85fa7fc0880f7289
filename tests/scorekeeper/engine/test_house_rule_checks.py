"""Every house rule checked: each bad override refused with its path, however deeply nested."""

import pytest

from scorekeeper.engine import RULESETS, RoundError
from scorekeeper.engine.rules import resolve_rules

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
                "mixed_max_wild, open_books_change_sides, concealed_bonus, "
                "red_threes_all_bonus, red_threes_against, red_threes_canastas_needed and "
                "threes_in_hand.",
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
                '"gold" is not a kind of canasta; the kinds are sevens, wild, samba, natural, '
                "mixed, clean or dirty.",
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


def test_an_opening_meld_that_is_not_json_is_named_by_its_type():
    with pytest.raises(RoundError) as caught:
        RULESETS["four-rounds"].with_overrides({"opening_meld": {60, 90}})
    assert caught.value.errors[0].message.endswith("; got a set.")


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
