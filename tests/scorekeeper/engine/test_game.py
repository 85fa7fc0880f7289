"""game_status: totals round by round, the next opening meld, the end of the game, its checks."""

import pytest

from scorekeeper.engine import RoundError, game_status
from tests.helpers.engine_rounds import ANN_WINS, BOB_WINS


def test_the_rounds_carry_their_scores_and_the_running_totals():
    status = game_status("baskets", ["Ann", "Bob"], [ANN_WINS, BOB_WINS, ANN_WINS])
    assert [r.to_dict() for r in status.rounds] == [
        {"round": 1, "scores": {"Ann": 2050, "Bob": 0}, "totals": {"Ann": 2050, "Bob": 0}},
        {"round": 2, "scores": {"Ann": 0, "Bob": 2050}, "totals": {"Ann": 2050, "Bob": 2050}},
        {"round": 3, "scores": {"Ann": 2050, "Bob": 0}, "totals": {"Ann": 4100, "Bob": 2050}},
    ]
    assert status.rounds[0].result.scores == {"Ann": 2050, "Bob": 0}
    assert status.next_round == 4


def test_a_game_with_no_rounds_yet_asks_for_the_first_opening_meld():
    status = game_status("ten-thousand", ["Ann", "Bob", "Cy"], [])
    assert status.to_dict() == {
        "totals": {"Ann": 0, "Bob": 0, "Cy": 0},
        "rounds": [],
        "next_round": 1,
        "meld_requirement": {"Ann": 50, "Bob": 50, "Cy": 50},
        "finished": False,
        "winner": None,
        "tie": False,
    }


def test_the_sides_of_a_round_may_come_in_any_order():
    reordered = {"sides": list(reversed(ANN_WINS["sides"]))}
    status = game_status("baskets", ["Ann", "Bob"], [reordered])
    assert list(status.totals.items()) == [("Ann", 2050), ("Bob", 0)]


def test_reaching_the_target_means_at_or_above_it():
    house = {"base": "baskets", "overrides": {"target_score": 4100}}
    status = game_status(house, ["Ann", "Bob"], [ANN_WINS, ANN_WINS])
    assert (status.finished, status.winner, status.next_round) == (True, "Ann", None)


def test_leaders_tied_at_or_above_the_target_play_on():
    house = {"base": "baskets", "overrides": {"target_score": 2000}}
    # Bob does not go out but matches Ann: 3 x 500 + 550 melded = 2050.
    level = {
        "sides": [
            ANN_WINS["sides"][0],
            {"name": "Bob", "canastas": {"natural": 3}, "melded_points": 550},
        ]
    }
    status = game_status(house, ["Ann", "Bob"], [level])
    # 2050 each, both past 2000: not finished until one of them is ahead.
    assert (status.finished, status.winner, status.tie) == (False, None, False)
    assert status.next_round == 2
    status = game_status(house, ["Ann", "Bob"], [level, ANN_WINS])
    assert (status.finished, status.winner) == (True, "Ann")


def test_a_game_stopped_at_a_set_time_with_equal_totals_is_a_tie():
    status = game_status("sevens", ["Ann", "Bob"], [_sevens(0), _sevens(1)], finished=True)
    assert (status.finished, status.winner, status.tie) == (True, None, True)
    assert status.meld_requirement is None


def _sevens(winner):
    sides = [{"name": "Ann"}, {"name": "Bob"}]
    sides[winner] = {
        "name": sides[winner]["name"],
        "went_out": True,
        "canastas": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
        "melded_points": 400,
    }
    return {"sides": sides}


def test_a_game_with_no_end_but_a_set_time_goes_on_until_stopped():
    house = {"base": "ten-thousand", "overrides": {"target_score": None}}
    status = game_status(house, ["Ann", "Bob"], [_ten_thousand()] * 5)
    assert not status.finished and status.next_round == 6


def _ten_thousand():
    return {
        "sides": [
            {
                "name": "Ann",
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "melded_points": 400,
            },
            {"name": "Bob"},
        ]
    }


def test_a_game_may_carry_its_number_of_decks_for_every_round():
    three_sevens = {
        "ended_by": "stock_exhausted",
        "sides": [
            {"name": "Ann", "canastas": {"sevens": 4}, "melded_points": 140},
            {"name": "Bob"},
        ],
    }
    with pytest.raises(RoundError):
        game_status("sevens", ["Ann", "Bob"], [three_sevens])
    status = game_status("sevens", ["Ann", "Bob"], [three_sevens], decks=7)
    assert status.totals["Ann"] == 20140


GAME_ERRORS = {
    "sides that are not a list": (
        ("baskets", "Ann,Bob", []),
        {},
        [("sides", 'A game needs its players as a list of names, not "Ann,Bob".')],
    ),
    "a side that is not a name": (
        ("baskets", ["Ann", 5], []),
        {},
        [("sides[1]", "The name of player 2 must be text, not 5.")],
    ),
    "the same name twice": (
        ("baskets", ["Ann", "ANN"], []),
        {},
        [
            (
                "sides[1]",
                "ANN is already the name of another player; every player needs its own name.",
            )
        ],
    ),
    "a name too long": (
        ("baskets", ["Ann", "x" * 101], []),
        {},
        [("sides[1]", "The name of player 2 has 101 characters; a name has at most 100.")],
    ),
    "three teams in Cutthroat": (
        ("cutthroat", ["A", "B", "C"], []),
        {},
        [("sides", "Cutthroat is played by exactly 2 teams; this game has 3.")],
    ),
    "finished that is not true or false": (
        ("baskets", ["Ann", "Bob"], [ANN_WINS]),
        {"finished": "yes"},
        [("finished", 'Whether the game is finished must be true or false, not "yes".')],
    ),
    "no decks": (
        ("baskets", ["Ann", "Bob"], [ANN_WINS]),
        {"decks": 0},
        [("decks", "The number of decks must be a whole number from 1 to 100, not 0.")],
    ),
    "rounds that are not a list": (
        ("baskets", ["Ann", "Bob"], {"round": 1}),
        {},
        [("rounds", "The rounds must be a list, one entry per round played, not an object.")],
    ),
    "a round out of place": (
        ("baskets", ["Ann", "Bob"], [dict(ANN_WINS, round=2)]),
        {},
        [("rounds[0].round", "This is round 1 of the game, so its round number must be 1, not 2.")],
    ),
    "a round number given as true": (
        ("baskets", ["Ann", "Bob"], [dict(ANN_WINS, round=True)]),
        {},
        [
            (
                "rounds[0].round",
                "This is round 1 of the game, so its round number must be 1, not true.",
            )
        ],
    ),
    "a round that names its own rules": (
        ("baskets", ["Ann", "Bob"], [dict(ANN_WINS, rules="baskets")]),
        {},
        [
            (
                "rounds[0].rules",
                'A round has no field "rules"; its fields are round, decks, ended_by and sides.',
            )
        ],
    ),
    "a round that is not an object": (
        ("baskets", ["Ann", "Bob"], ["x"]),
        {},
        [("rounds[0]", 'A round must be an object with its sides, not "x".')],
    ),
    "a player who is not in the game": (
        ("baskets", ["Ann", "Cy"], [ANN_WINS]),
        {},
        [
            (
                "rounds[0].sides[1].name",
                "Bob is not a player of this game; its players are Ann and Cy.",
            ),
            (
                "rounds[0].sides",
                "Round 1 has no score for Cy; every player of the game plays every round.",
            ),
        ],
    ),
    "a side missing from a round": (
        (
            "ten-thousand",
            ["Ann", "Bob", "Cy"],
            [{"ended_by": "stock_exhausted", "sides": [{"name": "Ann"}, {"name": "Bob"}]}],
        ),
        {},
        [
            (
                "rounds[0].sides",
                "Round 1 has no score for Cy; every side of the game plays every round.",
            )
        ],
    ),
    "a game finished before its first round": (
        ("baskets", ["Ann", "Bob"], []),
        {"finished": True},
        [("finished", "No round has been played yet, so the game cannot be finished.")],
    ),
    "a round after a player reached the target": (
        ("baskets", ["Ann", "Bob"], [ANN_WINS] * 4),
        {},
        [
            (
                "rounds[3]",
                "The game was over after round 3, when Ann reached 6,150 (the target is "
                "5,000); no round can follow it.",
            )
        ],
    ),
    "an invalid round deep inside the game": (
        (
            "baskets",
            ["Ann", "Bob"],
            [ANN_WINS, {"sides": [ANN_WINS["sides"][0], {"name": "Bob", "hand_points": 3}]}],
        ),
        {},
        [
            (
                "rounds[1].sides[1].hand_points",
                "Bob's points left in hand must be a multiple of 5, since every card is, not 3.",
            )
        ],
    ),
}


@pytest.mark.parametrize("args, kwargs, expected", GAME_ERRORS.values(), ids=GAME_ERRORS.keys())
def test_an_invalid_game_is_refused_with_the_path_and_a_sentence(args, kwargs, expected):
    with pytest.raises(RoundError) as caught:
        game_status(*args, **kwargs)
    assert [(e.path, e.message) for e in caught.value.errors] == expected


def test_a_game_with_house_rules_that_fail_reports_them():
    with pytest.raises(RoundError) as caught:
        game_status({"base": "baskets", "overrides": {"rounds": 0}}, ["Ann", "Bob"], [])
    assert [(e.path, e.message) for e in caught.value.errors] == [
        (
            "rules.overrides.rounds",
            "The number of rounds must be a whole number from 1 to 60 or left empty, not 0.",
        ),
    ]


def test_a_round_side_without_a_name_is_not_also_reported_missing():
    round_input = {"sides": [ANN_WINS["sides"][0], {"melded_points": 0}]}
    with pytest.raises(RoundError) as caught:
        game_status("baskets", ["Ann", "Bob"], [round_input])
    assert [(e.path, e.message) for e in caught.value.errors] == [
        ("rounds[0].sides[1].name", "Player 2 needs a name."),
    ]


def test_a_round_after_the_last_round_is_refused_even_below_the_target():
    house = {"base": "contract", "overrides": {"target_score": 100000}}
    round_input = {"ended_by": "stock_exhausted", "sides": [{"name": "Ann"}, {"name": "Bob"}]}
    with pytest.raises(RoundError) as caught:
        game_status(house, ["Ann", "Bob"], [round_input] * 5)
    assert [(e.path, e.message) for e in caught.value.errors] == [
        (
            "rounds[4]",
            "The game was over after round 4 (Contract is played over 4 rounds); no "
            "round can follow it.",
        ),
    ]


class CountedName(str):
    """A side's name that counts how often it is compared with another name."""

    comparisons = 0

    def __eq__(self, other):
        CountedName.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_the_names_of_many_sides_are_matched_without_comparing_every_pair(monkeypatch):
    count = 2_000
    names = [CountedName(f"Side {n}") for n in range(count)]
    # The rounds name the sides with copies, as JSON read twice would.
    rounds = [{"sides": [{"name": CountedName(f"Side {n}")} for n in range(count)]}] * 2
    rounds = [dict(r, ended_by="stock_exhausted") for r in rounds]
    monkeypatch.setattr(CountedName, "comparisons", 0)
    status = game_status("ten-thousand", names, rounds)
    assert status.next_round == 3
    # A few comparisons a side and round, where a list lookup made about count**2 / 2 a round.
    assert CountedName.comparisons < 10 * count


def test_a_game_of_30000_sides_is_scored():
    names = [f"Player {n}" for n in range(30_000)]
    sides = [{"name": name, "melded_cards": {"K": 0}, "red_threes": 0} for name in names]
    sides[0] = {"name": names[0], "melded_cards": {"A": 1}, "hand_cards": {"K": 1}}
    sides[-1] = {"name": names[-1], "melded_points": 15, "red_threes_in_hand": 1}
    rounds = [{"ended_by": "stock_exhausted", "sides": sides}] * 2
    status = game_status("ten-thousand", names, rounds)
    assert (status.totals[names[0]], status.totals[names[-1]], len(status.totals)) == (
        20,
        -570,
        30_000,
    )


def test_a_wrong_name_in_a_game_of_many_sides_names_ten_of_them_and_counts_the_rest():
    names = [f"P{n}" for n in range(30)]
    round_ = {"ended_by": "stock_exhausted", "sides": [{"name": n} for n in names]}
    round_["sides"][29] = {"name": "Zed"}
    with pytest.raises(RoundError) as caught:
        game_status("ten-thousand", names, [round_])
    assert [(e.path, e.message) for e in caught.value.errors] == [
        (
            "rounds[0].sides[29].name",
            "Zed is not a side of this game; its sides are P0, P1, P2, P3, P4, P5, P6, P7, P8, "
            "P9 and 20 more.",
        ),
        (
            "rounds[0].sides",
            "Round 1 has no score for P29; every side of the game plays every round.",
        ),
    ]
