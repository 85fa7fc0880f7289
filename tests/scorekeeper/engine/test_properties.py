"""Properties that hold for every round, checked on generated input (hypothesis)."""

import contextlib
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import RULESETS, RoundError, card_points, game_status, score_round
from scorekeeper.engine.cards import deck_points
from scorekeeper.engine.rules import PARAMETERS

# The least card value of a seven-card canasta of each kind, the same in every preset.
LEAST = {
    "natural": 35,
    "mixed": 50,
    "wild": 140,
    "sevens": 35,
    "samba": 50,
    "clean": 35,
    "dirty": 40,
}

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def valid_rounds(draw, preset=None):
    """A round the engine must accept: counts within the decks, melded points above the least."""
    rules = RULESETS[preset or draw(st.sampled_from(sorted(RULESETS)))]
    extra_sides = 0 if rules.max_sides == 2 else draw(st.integers(0, 1))
    count = 2 + extra_sides
    ends_by_going_out = draw(st.booleans())
    out = draw(st.integers(0, count - 1)) if ends_by_going_out else None
    cutter = draw(st.integers(0, count - 1)) if rules.cut_bonus else None
    sides = []
    for index in range(count):
        went_out = index == out
        if went_out:
            canastas = dict(rules.going_out_minimum)
            short = rules.going_out_canastas - sum(canastas.values())
            kind = rules.kinds[0] if rules.kinds[0] in ("natural", "clean") else "natural"
            canastas[kind] = canastas.get(kind, 0) + max(short, 0)
        else:
            canastas = {kind: draw(st.integers(0, 1)) for kind in rules.canasta_bonus}
            if count > 2 and "wild" in canastas and index:
                # Three decks make only two wild canastas over all sides.
                canastas["wild"] = 0
        books = []
        if rules.open_books_change_sides and draw(st.booleans()):
            books = [{"kind": "natural", "points": 5 * draw(st.integers(7, 20))}]
        least = sum(LEAST[k] * n for k, n in canastas.items()) + sum(b["points"] for b in books)
        # Each side's share of what the decks hold (Buraco's two packs hold 960), in fives,
        # split between melded cards and the hand.
        spare = max(0, (deck_points(rules, rules.decks) // count - least) // 10)
        side = {
            "name": draw(st.sampled_from(["Ann", "Bob", "Cy"])) + str(index),
            "went_out": went_out,
            "canastas": canastas,
            "melded_points": least + 5 * draw(st.integers(0, min(60, spare))),
            "hand_points": 0
            if went_out and rules.went_out_hand == "must_be_zero"
            else 5 * draw(st.integers(0, min(40, spare))),
        }
        if books:
            side["open_books"] = books
        if not went_out and rules.has_foot:
            side["foot_picked_up"] = draw(st.booleans())
        if went_out and rules.concealed_bonus:
            side["went_out_concealed"] = draw(st.booleans())
        if rules.special_threes:
            side["red_threes"] = draw(st.integers(0, 1))
        if rules.threes_apart:
            side["red_threes_in_hand"] = draw(st.integers(0, 1))
            side["black_threes_in_hand"] = draw(st.integers(0, 2))
        if index == cutter:
            side["exact_cuts"] = 1
        sides.append(side)
    round_input = {
        "round": draw(st.integers(1, rules.rounds or 20)),
        "ended_by": "going_out" if ends_by_going_out else "stock_exhausted",
        "sides": sides,
    }
    return rules.id, round_input


@FAST
@given(valid_rounds())
def test_every_sides_total_is_the_sum_of_its_lines(case):
    preset, round_input = case
    result = score_round(preset, round_input)
    for side in result.to_dict()["sides"]:
        assert side["total"] == sum(line["points"] for line in side["lines"])
        for line in side["lines"]:
            if "count" in line:
                assert line["points"] == line["count"] * line["each"]


@FAST
@given(valid_rounds(), st.randoms(use_true_random=False))
def test_the_order_of_the_sides_does_not_change_any_sides_score(case, random):
    preset, round_input = case
    shuffled = dict(
        round_input, sides=random.sample(round_input["sides"], len(round_input["sides"]))
    )
    before = {side.name: side for side in score_round(preset, round_input).sides}
    after = {side.name: side for side in score_round(preset, shuffled).sides}
    assert before == after


@FAST
@given(
    valid_rounds(),
    st.integers(-1, 2),
    st.sampled_from(
        [
            "round",
            "decks",
            "ended_by",
            "sides",
            "name",
            "went_out",
            "went_out_concealed",
            "canastas",
            "melded_points",
            "melded_cards",
            "hand_points",
            "hand_cards",
            "red_threes",
            "red_threes_in_hand",
            "black_threes_in_hand",
            "foot_picked_up",
            "exact_cuts",
            "open_books",
            "extra",
        ]
    ),
    json_values,
)
def test_scoring_a_round_with_any_field_replaced_raises_only_the_engines_error(
    case, where, key, value
):
    preset, round_input = case
    mutated = dict(round_input, sides=[dict(side) for side in round_input["sides"]])
    target = mutated if where < 0 else mutated["sides"][where % len(mutated["sides"])]
    target[key] = value
    try:
        result = score_round(preset, mutated)
    except RoundError as error:
        assert error.errors
        assert all(e.path is not None and e.message.endswith(".") for e in error.errors)
    else:
        assert all(side.total == sum(line.points for line in side.lines) for side in result.sides)


@FAST
@given(st.sampled_from(sorted(RULESETS)), json_values)
def test_scoring_arbitrary_json_raises_only_the_engines_error(preset, value):
    with contextlib.suppress(RoundError):
        score_round(preset, value)


@FAST
@given(
    st.dictionaries(st.sampled_from([*PARAMETERS, "other"]), json_values, max_size=3),
    st.sampled_from(sorted(RULESETS)),
)
def test_house_rules_from_arbitrary_json_raise_only_the_engines_error(overrides, preset):
    try:
        house = RULESETS[preset].with_overrides(overrides)
    except RoundError as error:
        assert error.errors
    else:
        assert house.with_overrides({}) == house


@FAST
@given(json_values, json_values, json_values, json_values)
def test_a_game_from_arbitrary_json_raises_only_the_engines_error(sides, rounds, finished, decks):
    with contextlib.suppress(RoundError):
        game_status("ten-thousand", sides, rounds, finished, decks)


@FAST
@given(st.sampled_from(sorted(RULESETS)), st.data())
def test_card_points_of_a_union_of_piles_is_the_sum_of_their_points(preset, data):
    rules = RULESETS[preset]
    piles = st.dictionaries(st.sampled_from(sorted(rules.card_values)), st.integers(0, 50))
    first, second = data.draw(piles), data.draw(piles)
    union = Counter(first) + Counter(second)
    assert card_points(rules, dict(union)) == card_points(rules, first) + card_points(rules, second)
