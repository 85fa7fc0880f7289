"""card_points and what the decks hold: the least a canasta is worth, how many the decks make."""

import pytest

from scorekeeper.engine import RULESETS, RoundError, card_points
from scorekeeper.engine.cards import (
    canasta_capacity,
    canasta_minimums,
    deck_points,
    rank_name,
    rank_supply,
    wild_count,
)


def test_card_points_counts_the_contracts_example_with_baskets_values():
    # 3 kings x 10 + 4 sevens x 5 + 1 deuce x 20.
    assert card_points("baskets", {"K": 3, "7": 4, "2": 1}) == 70


@pytest.mark.parametrize(
    "preset, cards, points",
    [
        # Four rounds: aces 15, black threes 0, jokers 50.
        ("four-rounds", {"A": 2, "black3": 3, "joker": 1}, 80),
        # Baskets: threes are 5 like fours.
        ("baskets", {"3": 2, "4": 1, "A": 1}, 35),
        # Ten thousand: aces and deuces 20, black threes 5.
        ("ten-thousand", {"A": 1, "2": 1, "black3": 1, "10": 1}, 55),
        ("sevens", {}, 0),
    ],
)
def test_card_points_uses_each_presets_published_values(preset, cards, points):
    assert card_points(preset, cards) == points


def test_card_points_accepts_house_rules():
    assert card_points({"base": "baskets", "overrides": {"card_values": {"A": 25}}}, {"A": 2}) == 50


@pytest.mark.parametrize(
    "preset, cards, expected",
    [
        (
            "baskets",
            ["K"],
            [
                (
                    "cards",
                    'The cards must be given as {rank: count}, e.g. {"K": 3, "2": 1}, not a list.',
                )
            ],
        ),
        (
            "baskets",
            {"K": 1.0},
            [
                (
                    "cards.K",
                    "The number of kings in the cards must be a whole "
                    "number of 0 or more, not 1.0.",
                )
            ],
        ),
        (
            "sevens",
            {"red3": 1},
            [
                (
                    "cards.red3",
                    "A red three is never counted as a card in "
                    "Sevens: give red threes laid down as red_threes "
                    "and those left in hand as red_threes_in_hand.",
                )
            ],
        ),
        (
            "sevens",
            {"black3": 1},
            [("cards.black3", "Sevens does not let black threes be melded.")],
        ),
        (
            "four-rounds",
            {"3": 1},
            [("cards.3", "Four Rounds counts threes on their own: a black three is black3.")],
        ),
        (
            "sevens",
            {"ace": 1},
            [
                (
                    "cards.ace",
                    '"ace" is not a rank of card; the ranks are A, K, '
                    "Q, J, 10, 9, 8, 7, 6, 5, 4, 2 and joker.",
                )
            ],
        ),
    ],
)
def test_card_points_refuses_what_is_not_a_card_of_the_ruleset(preset, cards, expected):
    with pytest.raises(RoundError) as caught:
        card_points(preset, cards)
    assert [(e.path, e.message) for e in caught.value.errors] == expected


def test_rank_names_read_as_words():
    assert [rank_name(r) for r in ("A", "K", "7", "joker", "black3")] == [
        "aces",
        "kings",
        "7s",
        "jokers",
        "black threes",
    ]
    assert rank_name("Q", 1) == "queen"


@pytest.mark.parametrize(
    "preset, minimums",
    [
        # Seven 5-point cards for a natural one; one deuce and six 5-point cards for a mixed one
        # (cheaper than three deuces and four naturals: 80); seven deuces for a wild one.
        ("baskets", {"natural": 35, "mixed": 50}),
        # Four rounds' black three is worth 0 but cannot be melded, so it is not a 0-point book.
        ("four-rounds", {"natural": 35, "mixed": 50}),
        ("sevens", {"sevens": 35, "wild": 140, "natural": 35, "mixed": 50}),
        ("ten-thousand", {"natural": 35, "mixed": 50, "wild": 140}),
        ("contract", {"natural": 35, "mixed": 50, "wild": 140}),
    ],
)
def test_the_least_a_seven_card_canasta_holds_in_each_preset(preset, minimums):
    rules = RULESETS[preset]
    assert canasta_minimums(rules, rules.decks) == minimums


def test_the_least_mixed_canasta_takes_as_many_wild_cards_as_allowed_when_they_are_cheap():
    house = RULESETS["baskets"].with_overrides({"card_values": {"2": 0}})
    # Three free deuces and four 5-point cards.
    assert canasta_minimums(house, 3)["mixed"] == 20


def test_one_deck_cannot_make_a_natural_canasta_and_needs_three_deuces_for_a_mixed_one():
    rules = RULESETS["baskets"]
    # A deck holds 4 of a rank: no seven alike; a mixed one needs 4 naturals and 3 deuces.
    assert canasta_minimums(rules, 1) == {"natural": None, "mixed": 4 * 5 + 3 * 20}
    assert canasta_capacity(rules, 1) == {"natural": 0, "mixed": 1}


def test_a_wild_canasta_uses_jokers_only_when_the_deuces_run_out():
    rules = RULESETS["ten-thousand"]
    # One deck: 4 deuces and 2 jokers, 6 wild cards: no wild canasta at all.
    assert canasta_minimums(rules, 1)["wild"] is None
    # Two decks: 8 deuces: seven deuces.
    assert canasta_minimums(rules, 2)["wild"] == 140
    house = rules.with_overrides({"card_values": {"joker": 10}})
    # With jokers cheaper than deuces, the six jokers of three decks go first.
    assert canasta_minimums(house, 3)["wild"] == 6 * 10 + 20


@pytest.mark.parametrize(
    "preset, capacity",
    [
        # Twelve meldable ranks (3 to K and A), 12 of each: one wicker basket per rank. Plastic:
        # 12 deuces, one per basket.
        ("baskets", {"natural": 12, "mixed": 12}),
        # 24 sevens: 3. 36 wild cards: 5. Ten ranks other than sevens, 24 each: 3 per rank.
        ("sevens", {"sevens": 3, "wild": 5, "natural": 30, "mixed": 36}),
        # Eleven ranks, 12 each (the 6 black threes make none); 18 wild cards: 2 wild, and at
        # most 18 mixed, one wild card each.
        ("ten-thousand", {"natural": 11, "mixed": 18, "wild": 2}),
    ],
)
def test_the_most_canastas_the_decks_make_over_all_sides(preset, capacity):
    rules = RULESETS[preset]
    assert canasta_capacity(rules, rules.decks) == capacity


@pytest.mark.parametrize(
    "preset, points",
    [
        # Per deck: 4 aces x 20 + 24 eights to kings x 10 + 20 threes to sevens x 5 + 4 deuces
        # x 20 = 500.
        ("baskets", 3 * 500),
        # Per deck: 60 aces + 240 + 80 fours to sevens + 80 deuces + 100 jokers (black threes,
        # never melded, count nothing) = 560.
        ("four-rounds", 6 * 560),
        # Per deck: 80 + 240 + 80 + 80 + 100 + 2 meldable black threes x 5 = 590.
        ("ten-thousand", 3 * 590),
    ],
)
def test_the_card_points_the_decks_hold(preset, points):
    rules = RULESETS[preset]
    assert deck_points(rules, rules.decks) == points


def test_what_a_deck_holds_rank_by_rank():
    supply = rank_supply(RULESETS["ten-thousand"], 2)
    assert (supply["K"], supply["black3"], supply["joker"], "3" in supply) == (8, 4, 4, False)
    assert wild_count(RULESETS["ten-thousand"], 2) == 12
    assert wild_count(RULESETS["baskets"], 3) == 12


def test_a_mixed_canasta_cannot_take_more_wild_cards_than_the_decks_hold():
    house = RULESETS["baskets"].with_overrides({"mixed_max_wild": 6})
    # One deck: four deuces, so five or six wild cards are out of reach; four naturals and three
    # deuces remain the cheapest.
    assert canasta_minimums(house, 1)["mixed"] == 80


def test_with_wild_cards_to_spare_every_rank_makes_as_many_mixed_canastas_as_it_can():
    house = RULESETS["baskets"].with_overrides(
        {"jokers_per_deck": 4, "card_values": {"joker": 50}, "mixed_max_wild": 1}
    )
    # Six naturals each: 12 of a rank make two; 12 ranks make 24, using 24 of 24 wild cards.
    assert canasta_capacity(house, 3)["mixed"] == 24
