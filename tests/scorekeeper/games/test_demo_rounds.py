"""The demo round generator makes rounds the engine accepts, for every preset and house rules."""

import functools
import random
import statistics

import pytest

from scorekeeper import engine
from scorekeeper.games.demo_rounds import random_game, random_round

SEEDS = range(200)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
SETUPS = [
    (preset, count)
    for preset, rules in engine.RULESETS.items()
    for count in (2, 3)
    if count >= rules.min_sides and (rules.max_sides is None or count <= rules.max_sides)
]
HOUSE_RULES = [
    {"base": "ten-thousand", "overrides": {"target_score": 5000}},
    {"base": "four-rounds", "overrides": {"rounds": 6, "cut_bonus": 300}},
    {"base": "contract", "overrides": {"decks": 2, "went_out_hand": "must_be_zero"}},
    {"base": "baskets", "overrides": {"foot_penalty": 0, "going_out_bonus": 300}},
    {"base": "four-rounds", "overrides": {"target_score": 6000}},  # ends early at the target
]


@functools.cache
def games(preset: str, count: int) -> tuple[tuple[int, list[dict]], ...]:
    """(first dealer, rounds) for every seed; generated once, checked by several tests."""
    rules, sides = engine.RULESETS[preset], list(NAMES[:count])
    return tuple(
        (
            seed % count,
            random_game(rules, sides, rng=random.Random(seed), first_dealer_side=seed % count),
        )
        for seed in SEEDS
    )


def assert_game_ends(rules: engine.RuleSet, sides: list[str], rounds: list[dict], max_rounds=12):
    """game_status checks every round (it raises RoundError on any invalid one) and the end."""
    status = engine.game_status(rules, sides, rounds)
    assert [round_["round"] for round_ in rounds] == list(range(1, len(rounds) + 1))
    if rules.rounds is not None:
        assert status.finished
        assert len(rounds) == rules.rounds or rules.target_score is not None
    else:
        assert status.finished or len(rounds) == max_rounds


@pytest.mark.parametrize(("preset", "count"), SETUPS)
def test_every_generated_round_of_every_preset_is_valid_and_every_game_ends(preset, count):
    rules, sides = engine.RULESETS[preset], list(NAMES[:count])
    for _dealer, rounds in games(preset, count):
        assert_game_ends(rules, sides, rounds)


@pytest.mark.parametrize(
    ("spec", "seeds"), [(HOUSE_RULES[0], SEEDS)] + [(spec, range(40)) for spec in HOUSE_RULES[1:]]
)
def test_house_rule_variants_get_valid_rounds_and_games_that_end(spec, seeds):
    rules = engine.resolve_rules(spec)
    sides = list(NAMES[:2])
    for seed in seeds:
        assert_game_ends(rules, sides, random_game(rules, sides, rng=random.Random(seed)))


def test_every_prefix_of_a_game_is_valid_so_the_rounds_can_be_entered_one_by_one():
    for preset, count in SETUPS:
        rules, sides = engine.RULESETS[preset], list(NAMES[:count])
        for _dealer, rounds in games(preset, count)[:3]:
            for played in range(1, len(rounds) + 1):
                status = engine.game_status(rules, sides, rounds[:played])
                assert not status.finished or played == len(rounds)


def test_many_sides_share_the_decks_without_breaking_the_deck_checks():
    rules = engine.RULESETS["ten-thousand"]
    for count in (4, 6):
        sides = list(NAMES[:count])
        for seed in range(20):
            assert_game_ends(rules, sides, random_game(rules, sides, rng=random.Random(seed)))


def test_when_the_decks_cannot_make_the_going_out_requirement_the_stock_always_runs_out():
    overrides = {"going_out_minimum": {"wild": 3}, "going_out_canastas": 7}
    rules = engine.resolve_rules({"base": "ten-thousand", "overrides": overrides})
    sides = ["Ann", "Bob"]
    for seed in range(20):
        rounds = random_game(rules, sides, rng=random.Random(seed), max_rounds=6)
        assert_game_ends(rules, sides, rounds, max_rounds=6)
        assert {round_["ended_by"] for round_ in rounds} == {"stock_exhausted"}


def test_the_same_seed_gives_the_same_rounds_and_another_seed_other_rounds():
    for preset, count in SETUPS:
        rules, sides = engine.RULESETS[preset], list(NAMES[:count])
        first = random_game(rules, sides, rng=random.Random(7))
        assert random_game(rules, sides, rng=random.Random(7)) == first
        assert random_game(rules, sides, rng=random.Random(8)) != first
    one = random_round(engine.RULESETS["sevens"], ["A", "B"], number=1, rng=random.Random(3))
    assert (
        random_round(engine.RULESETS["sevens"], ["A", "B"], number=1, rng=random.Random(3)) == one
    )


def test_a_single_round_needs_no_totals_and_carries_its_number():
    for rules in engine.RULESETS.values():
        round_ = random_round(rules, ["Us", "Them"], number=2, rng=random.Random(1), dealer_side=1)
        assert round_["round"] == 2 and [s["name"] for s in round_["sides"]] == ["Us", "Them"]
        engine.score_round(rules, round_)  # raises RoundError if invalid


def test_mostly_somebody_goes_out_and_sometimes_the_stock_runs_out():
    rounds = [r for _dealer, game in games("contract", 2) for r in game]
    went_out = sum(r["ended_by"] == "going_out" for r in rounds) / len(rounds)
    assert 0.8 < went_out < 0.9
    for round_ in rounds:
        out = [side for side in round_["sides"] if side.get("went_out")]
        assert len(out) == (1 if round_["ended_by"] == "going_out" else 0)


def test_fields_appear_only_where_the_rules_use_them():
    for preset, count in SETUPS:
        rules = engine.RULESETS[preset]
        for dealer, rounds in games(preset, count):
            for round_ in rounds:
                for index, side in enumerate(round_["sides"]):
                    if not rules.special_threes:
                        assert not {
                            "red_threes",
                            "red_threes_in_hand",
                            "black_threes_in_hand",
                        } & set(side)
                    if side.get("exact_cuts"):
                        assert rules.cut_bonus
                        assert index == (dealer + round_["round"] - 1) % count
                    if side.get("foot_picked_up") is False:
                        assert rules.foot_penalty and not side.get("went_out")
                    if side.get("open_books"):
                        assert rules.open_books_change_sides
                    if side.get("went_out") and rules.went_out_hand != "counts":
                        assert side["hand_points"] == 0
                        assert not side.get("red_threes_in_hand")
                        assert not side.get("black_threes_in_hand")


def test_the_optional_extras_all_turn_up_somewhere():
    seen = set()
    for preset in ("baskets", "four-rounds", "cutthroat", "ten-thousand"):
        for _dealer, rounds in games(preset, 2):
            for round_ in rounds:
                for side in round_["sides"]:
                    seen.update(key for key, value in side.items() if value not in (0, [], {}))
                    if side.get("foot_picked_up") is False:
                        seen.add("foot not picked up")
    assert {
        "exact_cuts",
        "open_books",
        "foot not picked up",
        "red_threes",
        "red_threes_in_hand",
        "black_threes_in_hand",
    } <= seen


def test_scores_look_like_real_games_and_target_games_take_several_rounds():
    for preset, lowest_winner in (("ten-thousand", 3000), ("baskets", 1000), ("sevens", 8000)):
        rules, sides = engine.RULESETS[preset], list(NAMES[:2])
        lengths, best = [], []
        for _dealer, rounds in games(preset, 2)[:100]:
            lengths.append(len(rounds))
            for game_round in engine.game_status(rules, sides, rounds).rounds:
                if game_round.result.went_out:
                    best.append(game_round.scores[game_round.result.went_out])
        assert 3.5 <= statistics.mean(lengths) <= 10, preset
        assert statistics.median(best) >= lowest_winner, preset
