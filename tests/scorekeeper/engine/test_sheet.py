import random

import pytest

from scorekeeper.engine import RULESETS, get_ruleset, score_round, sheet_items
from scorekeeper.games.demo_rounds import random_game


def headings(ruleset_id):
    return [item.heading for item in sheet_items(get_ruleset(ruleset_id))]


def test_the_four_round_sheet_lists_cut_going_out_hand_threes_canastas_and_melds_in_paper_order():
    assert headings("four-rounds") == [
        "Exact cut × 100",
        "Going out",
        "Cards left in hand and foot",
        "Red threes in hand × −100",
        "Red threes × 100",
        "Natural canastas × 500",
        "Mixed canastas × 300",
        "Cards melded",
    ]


def test_the_baskets_sheet_has_no_threes_and_takes_100_for_buns_never_picked_up():
    assert headings("baskets") == [
        "Going out",
        "Cards left in biscuits and buns",
        "Buns never picked up",
        "Wicker baskets × 500",
        "Plastic baskets × 300",
        "Cards melded",
    ]


def test_the_cutthroat_sheet_adds_the_open_books_that_change_sides():
    assert headings("cutthroat") == [
        "Going out",
        "Cards left in hand and foot",
        "Red threes in hand × −300",
        "Black threes in hand × −5",
        "Red threes × 100",
        "Red canastas × 500",
        "Black canastas × 300",
        "Wild canastas × 1,500",
        "Red canastas taken from open books × 500",
        "Black canastas taken from open books × 300",
        "Wild canastas taken from open books × 1,500",
        "Cards melded",
        "Cards in open books taken",
        "Open books given away",
    ]


def test_house_rules_that_drop_a_bonus_drop_its_row_and_change_the_multipliers():
    house = get_ruleset("four-rounds").with_overrides(
        {"cut_bonus": 0, "canasta_bonus": {"natural": 600}}
    )
    items = [item.heading for item in sheet_items(house)]
    assert "Exact cut × 100" not in items
    assert items[:2] == ["Going out", "Cards left in hand and foot"]
    assert "Natural canastas × 600" in items


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_line_the_engine_scores_has_its_row_with_the_same_label(ruleset_id):
    rules = get_ruleset(ruleset_id)
    labels = {item.item: item.label for item in sheet_items(rules)}
    sides = ["Ann", "Bob"] if rules.max_sides == 2 else ["Ann", "Bob", "Cy"]
    seen = set()
    for seed in range(12):
        for round_input in random_game(rules, sides, rng=random.Random(seed)):
            for side in score_round(rules, round_input).sides:
                for line in side.lines:
                    assert labels[line.item] == line.label
                    seen.add(line.item)
    assert {"going_out", "melded_cards", "hand_cards"} <= seen
