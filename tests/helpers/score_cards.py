"""A Four Rounds card of two teams with hostile-looking names, for the PDF tests."""

import datetime

from scorekeeper import engine
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard

NAMES = ["José & Zoë", "Łukasz & Søren"]
SIDES = (CardSide(NAMES[0], ("José", "Zoë")), CardSide(NAMES[1], ("Łukasz", "Søren")))
ROUNDS = [
    {
        "sides": [
            {
                "name": NAMES[0],
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 3},
                "melded_points": 1000,
                "red_threes": 1,
                "exact_cuts": 1,
            },
            {
                "name": NAMES[1],
                "canastas": {"natural": 1},
                "melded_points": 310,
                "hand_points": 85,
                "red_threes_in_hand": 1,
            },
        ]
    },
    {
        "ended_by": "stock_exhausted",
        "sides": [
            {
                "name": NAMES[0],
                "canastas": {"natural": 1},
                "melded_points": 400,
                "hand_points": 120,
            },
            {
                "name": NAMES[1],
                "canastas": {"natural": 2, "mixed": 1},
                "melded_points": 800,
                "hand_points": 30,
            },
        ],
    },
]


def four_round_card(rounds, *, finished=False):
    """The card of these two teams after `rounds`."""
    rules = engine.get_ruleset("four-rounds")
    status = engine.game_status(rules, NAMES, rounds, finished=finished)
    return ScoreCard(
        rules,
        SIDES,
        status,
        date=datetime.date(2026, 11, 21),
        details=(("League", "Riverside Card Club"),),
        dealers=("José", "Łukasz", "Zoë", "Søren"),
    )
