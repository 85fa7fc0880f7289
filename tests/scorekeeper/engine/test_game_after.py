"""game_status_after: the game after more rounds, from the totals and the number of rounds it had
before them; the same answer as game_status over every round, scoring only the new ones."""

import pytest

from scorekeeper.engine import RoundError, game_status, game_status_after
from tests.helpers.engine_rounds import ANN_WINS, BOB_WINS

NAMES = ["Ann", "Bob"]
STOCK = {"ended_by": "stock_exhausted", "sides": [{"name": "Ann"}, {"name": "Bob"}]}


def before(status) -> dict:
    return {"totals": dict(status.totals), "rounds": len(status.rounds)}


@pytest.mark.parametrize("split", [0, 1, 2, 3])
def test_it_answers_as_game_status_over_every_round(split):
    rounds = [ANN_WINS, BOB_WINS, ANN_WINS]
    whole = game_status("baskets", NAMES, rounds)
    earlier = game_status("baskets", NAMES, rounds[:split])

    after = game_status_after("baskets", NAMES, before(earlier), rounds[split:])

    assert after.to_dict() == {**whole.to_dict(), "rounds": whole.to_dict()["rounds"][split:]}
    assert [r.round for r in after.rounds] == list(range(split + 1, 4))


def test_the_new_round_that_reaches_the_target_ends_the_game():
    # Two rounds of 2,050 make 4,100; a third takes Ann past Baskets' 5,000.
    after = game_status_after(
        "baskets", NAMES, {"totals": {"Ann": 4100, "Bob": 2050}, "rounds": 2}, [ANN_WINS]
    )

    assert (after.finished, after.winner, after.next_round) == (True, "Ann", None)
    assert after.totals == {"Ann": 6150, "Bob": 2050}


def test_a_round_after_a_game_already_over_is_refused_with_its_place_in_the_game():
    with pytest.raises(RoundError) as refused:
        game_status_after(
            "four-rounds",
            ["Us", "Them"],
            {"totals": {"Us": 0, "Them": 0}, "rounds": 4},
            [{"ended_by": "stock_exhausted", "sides": [{"name": "Us"}, {"name": "Them"}]}],
        )

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "rounds[4]",
            "The game was over after round 4 (Four Rounds is played over 4 rounds); "
            "no round can follow it.",
        )
    ]


def test_an_error_in_a_new_round_names_its_place_in_the_whole_game():
    bad = {"sides": [{"name": "Ann", "melded_points": 12}, {"name": "Bob"}]}

    with pytest.raises(RoundError) as refused:
        game_status_after("baskets", NAMES, {"totals": {"Ann": 0, "Bob": 0}, "rounds": 20}, [bad])

    assert [e.path for e in refused.value.errors][0].startswith("rounds[20].")


@pytest.mark.parametrize(
    ("given", "path", "message"),
    [
        (
            {"totals": {"Ann": 0, "Bob": 0}},
            "before",
            "Where the game stood must say its totals and how many rounds were played, "
            "not an object.",
        ),
        (
            {"totals": {"Ann": 0, "Bob": 0}, "rounds": -1},
            "before.rounds",
            "The rounds played must be a whole number from 0 to 60, not \N{MINUS SIGN}1.",
        ),
        (
            {"totals": {"Ann": 0}, "rounds": 1},
            "before.totals",
            "The totals must give each of Ann and Bob a whole number, not an object.",
        ),
        (
            {"totals": {"Ann": 0, "Bob": "5"}, "rounds": 1},
            "before.totals",
            "The totals must give each of Ann and Bob a whole number, not an object.",
        ),
    ],
)
def test_where_the_game_stood_is_checked(given, path, message):
    with pytest.raises(RoundError) as refused:
        game_status_after("baskets", NAMES, given, [STOCK])

    assert [(e.path, e.message) for e in refused.value.errors] == [(path, message)]
