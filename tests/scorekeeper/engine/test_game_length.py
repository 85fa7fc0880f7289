"""A game holds at most 60 rounds, whatever its rules: the 60th ends it (the highest total
wins) and no round can follow, so no game grows without bound."""

import pytest

from scorekeeper.engine import ROUND_MAX, RoundError, game_status, game_status_after

NAMES = ["Ann", "Bob"]
# 50 to Ann and 25 to Bob: Baskets' 5,000 is still far off after 60 rounds (3,000).
SMALL = {
    "ended_by": "stock_exhausted",
    "sides": [{"name": "Ann", "melded_points": 50}, {"name": "Bob", "melded_points": 25}],
}


def test_a_game_holds_at_most_60_rounds():
    assert ROUND_MAX == 60


def test_round_59_of_a_target_game_leaves_it_open():
    status = game_status("baskets", NAMES, [SMALL] * 59)

    assert (status.finished, status.next_round) == (False, 60)


def test_round_60_ends_a_target_game_short_of_its_target_and_the_highest_total_wins():
    status = game_status("baskets", NAMES, [SMALL] * 60)

    assert (status.finished, status.winner, status.tie, status.next_round) == (
        True,
        "Ann",
        False,
        None,
    )
    assert status.totals == {"Ann": 3000, "Bob": 1500}


def test_round_61_is_refused_saying_why_the_game_ended():
    with pytest.raises(RoundError) as refused:
        game_status("baskets", NAMES, [SMALL] * 61)

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "rounds[60]",
            "The game was over after round 60 (a game holds at most 60 rounds; the highest "
            "total wins); no round can follow it.",
        )
    ]


def test_a_round_after_60_played_is_refused_from_the_totals_alone():
    with pytest.raises(RoundError) as refused:
        game_status_after(
            "baskets", NAMES, {"totals": {"Ann": 3000, "Bob": 1500}, "rounds": 60}, [SMALL]
        )

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "rounds[60]",
            "The game was over after round 60 (a game holds at most 60 rounds; the highest "
            "total wins); no round can follow it.",
        )
    ]


def test_a_game_with_no_end_but_its_players_ends_at_round_60_too():
    rules = {"base": "ten-thousand", "overrides": {"target_score": None}}

    assert game_status(rules, NAMES, [SMALL] * 59).finished is False
    assert game_status(rules, NAMES, [SMALL] * 60).finished is True


def test_rules_of_more_than_60_rounds_are_refused():
    with pytest.raises(RoundError) as refused:
        game_status({"base": "four-rounds", "overrides": {"rounds": 61}}, NAMES, [])

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "rules.overrides.rounds",
            "The number of rounds must be a whole number from 1 to 60 or left empty, not 61.",
        )
    ]


def test_a_tie_at_round_60_ends_the_game_as_a_tie():
    even = {
        "ended_by": "stock_exhausted",
        "sides": [{"name": "Ann", "melded_points": 50}, {"name": "Bob", "melded_points": 50}],
    }
    status = game_status("baskets", NAMES, [even] * 60)

    assert (status.finished, status.winner, status.tie) == (True, None, True)
