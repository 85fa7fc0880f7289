"""`python -m scorekeeper.engine bench`: rounds and whole games scored per second, measured."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from .game import game_status
from .scoring import score_round

# One realistic round per preset, as the web app would send it (two sides, one went out).
ROUNDS: dict[str, dict[str, Any]] = {
    "baskets": {
        "sides": [
            {
                "name": "Ann",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 2},
                "melded_points": 640,
            },
            {
                "name": "Bob",
                "canastas": {"natural": 1},
                "melded_points": 310,
                "hand_points": 85,
                "foot_picked_up": False,
            },
        ]
    },
    "four-rounds": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "exact_cuts": 1,
                "canastas": {"natural": 2, "mixed": 3},
                "red_threes": 3,
                "melded_points": 1240,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1},
                "melded_points": 410,
                "hand_points": 195,
                "red_threes": 1,
            },
        ]
    },
    "sevens": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
                "red_threes": 2,
                "melded_points": 1115,
            },
            {
                "name": "Them",
                "canastas": {"natural": 2, "mixed": 1},
                "melded_cards": {"A": 8, "K": 7, "9": 6, "2": 2, "joker": 1},
                "hand_points": 120,
                "black_threes_in_hand": 1,
            },
        ]
    },
    "ten-thousand": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "red_threes": 1,
                "melded_points": 900,
                "hand_points": 0,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1, "mixed": 1},
                "melded_points": 450,
                "hand_cards": {"K": 2, "5": 3, "joker": 1},
                "red_threes_in_hand": 1,
            },
        ]
    },
    "cutthroat": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "melded_points": 905,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1},
                "melded_points": 400,
                "hand_points": 60,
                "open_books": [{"kind": "natural", "points": 70}],
            },
        ]
    },
    "contract": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 2, "mixed": 2, "wild": 1},
                "melded_points": 980,
                "hand_points": 15,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1, "wild": 1},
                "melded_points": 520,
                "hand_points": 240,
                "black_threes_in_hand": 2,
            },
        ]
    },
    "canasta": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 1},
                "melded_points": 470,
                "red_threes": 1,
            },
            {
                "name": "Them",
                "canastas": {"mixed": 1},
                "melded_points": 210,
                "hand_points": 85,
                "red_threes": 2,
            },
        ]
    },
    "samba": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"samba": 1, "natural": 1, "mixed": 1},
                "melded_points": 690,
                "red_threes": 2,
            },
            {
                "name": "Them",
                "canastas": {"natural": 1},
                "melded_points": 320,
                "hand_points": 140,
                "red_threes": 1,
            },
        ]
    },
    "buraco": {
        "sides": [
            {
                "name": "Us",
                "went_out": True,
                "canastas": {"clean": 1, "dirty": 2},
                "melded_points": 415,
                "hand_points": 25,
            },
            {
                "name": "Them",
                "canastas": {"dirty": 1},
                "melded_points": 160,
                "hand_points": 95,
                "foot_picked_up": False,
            },
        ]
    },
}


def _rate(work: Callable[[], Any], seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        work()
        done += 1
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def run(stdout: TextIO | None = None, seconds: float = 1.0) -> dict[str, float]:
    """Measure and print rounds scored per second and full 4-round games per second."""
    stdout = sys.stdout if stdout is None else stdout
    presets = list(ROUNDS)
    position = 0

    def one_round() -> None:
        nonlocal position
        preset = presets[position % len(presets)]
        position += 1
        score_round(preset, ROUNDS[preset])

    def one_game() -> None:
        nonlocal position
        preset = ("four-rounds", "contract")[position % 2]
        position += 1
        round_ = ROUNDS[preset]
        game_status(preset, ["Us", "Them"], [round_] * 4)

    rates = {"rounds": _rate(one_round, seconds), "games": _rate(one_game, seconds)}
    stdout.write(f"rounds scored per second: {rates['rounds']:.0f}\n")
    stdout.write(f"4-round games per second: {rates['games']:.0f}\n")
    return rates
