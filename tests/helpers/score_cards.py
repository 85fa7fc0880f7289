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


# Ordinary long names, 27 to 30 characters, as a club's roster has them: hyphenated surnames
# and long first names, in no column of a card wide enough for them on one line.
LONG_NAMES = (
    "Abigail Fairweather-Montgomery",
    "Oluwaseun Oyelaran-Williams",
    "Bartholomew Castellanos-Whitby",
    "Guinevere Okonkwo-Hargreaves",
    "Maximiliano Rodríguez-Ferreira",
    "Henrietta Lindqvist-Blackwood",
)
# Six players on their own (the most sides a table seats), and teams of two.
LONG_PLAYERS = tuple(CardSide(name, (name,)) for name in LONG_NAMES)
LONG_TEAMS = tuple(
    CardSide(f"{first} & {second}", (first, second))
    for first, second in zip(LONG_NAMES[::2], LONG_NAMES[1::2], strict=True)
)
DAY = datetime.date(2026, 11, 21)


def long_rounds(rules, names, count):
    """`count` rounds in which each side goes out in turn, the others melding a little."""
    going_out = {
        "four-rounds": {"natural": 2, "mixed": 3},
        "ten-thousand": {"natural": 3, "mixed": 1, "wild": 1},
    }[rules.id]
    rounds = []
    for number in range(count):
        sides = [
            {"name": name, "melded_points": 60 + 10 * index, "hand_points": 20}
            for index, name in enumerate(names)
        ]
        out = number % len(names)
        sides[out] = {
            "name": names[out],
            "went_out": True,
            "canastas": going_out,
            "melded_points": 600,
        }
        rounds.append({"sides": sides})
    return rounds


def long_card(rules, sides, played=0, *, finished=False, **extra):
    """A card of `sides` after `played` rounds, each round dealt by the next player."""
    names = [side.name for side in sides]
    status = (
        engine.game_status(rules, names, long_rounds(rules, names, played), finished=finished)
        if played
        else None
    )
    seats = [player for side in sides for player in side.players or (side.name,)]
    values = {
        "date": DAY,
        "details": (("League", "Riverside Card Club"),),
        "dealers": tuple(seats[n % len(seats)] for n in range(max(played, 8))),
    }
    values.update(extra)
    return ScoreCard(rules, sides, status, **values)
