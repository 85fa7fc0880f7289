"""What a long game costs: the time of saving its next round against saving round 2, of a
correction of its first round (every later total moves), of its game page, history and a round's
breakdown, and the game page's size; then whether one more round is taken. A game holds at most
60 rounds (engine.ROUND_MAX), so 60 is the longest game there can be; `--rounds` builds a longer
one on a build without the bound, to measure what it cost before.

Usage: .venv/bin/python bench/game_length.py [--rounds N] [--requests R] [--smoke]
Runs against a throwaway SQLite database unless DATABASE_URL names another one, DEBUG off
(tests/settings.py); prints each median beside a hello-world request measured in the same run.
--smoke: 5 requests (CI's size).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
tmp = tempfile.mkdtemp()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
os.environ.setdefault("DEBUG", "0")
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from scorekeeper import engine  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.portable.start_fields import SideSpec  # noqa: E402
from scorekeeper.rounds.services import round_delete_last, round_record, round_update  # noqa: E402

# Near-empty rounds that end with the stock run out (as a phone left sending would make): Ann
# stays at 0 and ahead, Baskets' 5,000 is never reached, so the game runs to its last round (the
# 60th ends it by the bound).
SMALL = [{}, {"hand_points": 5}]
OTHER = [{"melded_points": 5}, {"hand_points": 5}]


def ms(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def median_line(what: str, times: list[float], hello: float) -> str:
    median = statistics.median(times)
    return f"{what}: median {median:.1f} ms, max {max(times):.1f} ms {ratio(median, hello)}"


def game_of(rounds: int):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for number in range(1, rounds + 1):
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=SMALL)
    return game


def save_times(game, number: int, requests: int) -> list[float]:
    """Saving round `number`, undone after each save."""
    times = []
    for _ in range(requests):
        times.append(
            ms(
                lambda: round_record(
                    game=game, number=number, ended_by="stock_exhausted", entry=SMALL
                )
            )
        )
        round_delete_last(game=game)
    return times


def main(rounds: int, requests: int) -> None:
    call_command("migrate", verbosity=0)
    hello = hello_world_ms()
    print(f"A Baskets game of {rounds} rounds (the bound is {engine.ROUND_MAX}), {requests} each:")
    short, long = game_of(1), game_of(rounds - 1)
    at_2, at_last = save_times(short, 2, requests), save_times(long, rounds, requests)
    print(median_line("  saving round 2", at_2, hello))
    print(median_line(f"  saving round {rounds}", at_last, hello))
    round_record(game=long, number=rounds, ended_by="stock_exhausted", entry=SMALL)
    corrections = [
        ms(
            lambda entry=entry: round_update(
                game=long, number=1, ended_by="stock_exhausted", entry=entry
            )
        )
        for entry in [OTHER, SMALL] * ((requests + 1) // 2)
    ]
    print(median_line("  correcting round 1 (every later total moves)", corrections, hello))

    client = Client(HTTP_HOST="localhost")
    at = f"/g/{long.public_id}"
    sizes = {}
    for what, url in [
        ("the game page", f"{at}/"),
        ("its history", f"{at}/history/"),
        (f"round {rounds}'s breakdown", f"{at}/rounds/{rounds}/"),
    ]:
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            sizes[what] = len(response.content)
        print(median_line(f"  {what} ({sizes[what] / 1024:.0f} KB)", times, hello))

    long.refresh_from_db()
    try:
        round_record(game=long, number=rounds + 1, ended_by="stock_exhausted", entry=SMALL)
    except engine.RoundError as refused:
        print(f"  round {rounds + 1}: refused: {refused.errors[0].message}")
        taken = False
    else:
        print(f"  round {rounds + 1}: stored")
        taken = True
    if rounds >= engine.ROUND_MAX:
        assert not taken, "a game took more rounds than engine.ROUND_MAX"
        assert long.finished, "round 60 did not end the game"
        # Saving the last round costs what saving round 2 does, whatever the game's length;
        # a loose bound (3 x) so that a busy machine does not fail it.
        assert statistics.median(at_last) < 3 * statistics.median(at_2) + 5, (at_2, at_last)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=engine.ROUND_MAX)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    main(args.rounds, 5 if args.smoke else args.requests)
