"""Rounds as the engine takes them (plain dicts, no Django), shared by the engine's tests, and
the lines of a side it scored."""

# Ann goes out with three wicker baskets: 1500 + 250 + 300 = 2050; Bob scores nothing.
ANN_WINS = {
    "sides": [
        {"name": "Ann", "went_out": True, "canastas": {"natural": 3}, "melded_points": 300},
        {"name": "Bob"},
    ]
}
# Bob goes out the same way.
BOB_WINS = {
    "sides": [
        {"name": "Ann"},
        {"name": "Bob", "went_out": True, "canastas": {"natural": 3}, "melded_points": 300},
    ]
}


def lines(side):
    return {line.item: line.points for line in side.lines}
