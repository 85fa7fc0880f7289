"""CPU time of the costliest PDFs the site still builds, beside a hello-world view.

Usage: .venv/bin/python bench/pdf_worst_case.py [--repeat 3] [--smoke]

Each figure is the median process CPU time (time.process_time) of one build, and its ratio to a
hello-world Django view called the same way. No database: the blank sheets go through the real
view with RequestFactory, the rest through the builders on plain data.

- the issue's request: a blank Baskets sheet with rule-rounds=1000 and 6 columns (refused now);
- the widest blank sheet allowed: 20 rounds (the house-rule bound) and 6 columns;
- the longest score card allowed: 60 rounds played (ROUNDS_PRINTED_MAX) by 6 sides;
- a 50-table club-night pack, each sheet a Ten Thousand game with its QR code;
- a 50-table pack of 20-round sheets, refused from one table's sheet as it would run past
  PAGES_MAX pages.

--smoke builds each once with 5 tables, to check that the script runs.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DATABASE_URL", "sqlite:///:memory:")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from django.http import HttpResponse  # noqa: E402
from django.test import RequestFactory  # noqa: E402

from scorekeeper import engine  # noqa: E402
from scorekeeper.documents import views  # noqa: E402
from scorekeeper.documents.pdf.base import TooManyPages  # noqa: E402
from scorekeeper.documents.pdf.night_pack import NightPack, PackTable, build_night_pack  # noqa: E402
from scorekeeper.documents.pdf.score_card import (  # noqa: E402
    ROUNDS_PRINTED_MAX,
    CardSide,
    ScoreCard,
    build_score_card,
)
from scorekeeper.games import demo_rounds  # noqa: E402


def cpu(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def hello(request):
    return HttpResponse("Hello, world")


def sheet_request(url: str):
    factory = RequestFactory()

    def work():
        request = factory.get(url)
        path, _, _ = url.partition("?")
        response = views.score_sheet(request, path.split("/")[3])
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        return response

    return work


def long_card() -> ScoreCard:
    rules = engine.get_ruleset("ten-thousand").with_overrides({"target_score": None})
    names = [f"Player {n}" for n in range(1, 7)]
    rng = random.Random(1)
    rounds = [
        demo_rounds.random_round(rules, names, number=n, rng=rng, dealer_side=n % 6)
        for n in range(1, ROUNDS_PRINTED_MAX - 1)
    ]
    status = engine.game_status(rules, names, rounds)
    return ScoreCard(rules=rules, sides=tuple(CardSide(n) for n in names), status=status)


def pack(tables: int, rules: engine.RuleSet) -> NightPack:
    seats = ("José", "Łukasz", "Zoë", "Søren")
    sides = (
        CardSide("José & Zoë", ("José", "Zoë")),
        CardSide("Łukasz & Søren", ("Łukasz", "Søren")),
    )
    rows = []
    for number in range(1, tables + 1):
        link = f"https://scores.example.org/g/{number:022d}/join/{'t' * 43}/"
        card = ScoreCard(rules=rules, sides=sides, dealers=seats * 5, link=link)
        rows.append(PackTable(number, sides, seats, card))
    return NightPack(
        "Bench Card Club", "Autumn", datetime.date(2026, 11, 21), rules.name, tuple(rows)
    )


def refused(build):
    def work():
        try:
            build()
        except TooManyPages:
            return
        raise AssertionError("expected TooManyPages")

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    repeat = 1 if args.smoke else args.repeat
    tables = 5 if args.smoke else 50
    factory = RequestFactory()
    base = cpu(lambda: hello(factory.get("/")), 200 if not args.smoke else 20)
    twenty = engine.get_ruleset("ten-thousand").with_overrides({"rounds": 20, "target_score": None})
    card = long_card()
    cases = [
        (
            "blank Baskets sheet, rule-rounds=1000, 6 columns (400)",
            sheet_request(
                "/games/new/baskets/score-sheet.pdf?rule-rounds=1000&rule-target_score="
                "&rule-max_sides=6&sides=6"
            ),
        ),
        (
            "blank sheet, 20 rounds, 6 columns",
            sheet_request(
                "/games/new/sevens/score-sheet.pdf?rule-rounds=20&rule-target_score=&sides=6"
            ),
        ),
        (f"score card, {ROUNDS_PRINTED_MAX} rounds, 6 sides", lambda: build_score_card(card)),
        (
            f"club-night pack, {tables} tables of Ten Thousand",
            lambda: build_night_pack(pack(tables, engine.get_ruleset("ten-thousand"))),
        ),
    ]
    if not args.smoke:
        cases.append(
            (
                f"club-night pack, {tables} tables of 20 rounds (refused from one sheet)",
                refused(lambda: build_night_pack(pack(tables, twenty))),
            )
        )
    print(f"hello-world view: {base * 1e3:.3f} ms CPU")
    for label, work in cases:
        seconds = cpu(work, repeat)
        print(f"{label}: {seconds:.3f} s CPU, {seconds / base:,.0f}x hello-world")


if __name__ == "__main__":
    main()
