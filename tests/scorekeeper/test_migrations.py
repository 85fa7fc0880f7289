"""Data migrations of the scorekeeper app, run on real rows."""

import pytest

from tests.helpers.migrations import back_to_the_latest_migrations, migrated  # noqa: F401

BEFORE = [("scorekeeper", "0005_scoringright")]
AFTER = [("scorekeeper", "0007_round_number_in_range")]


pytestmark = pytest.mark.usefixtures("back_to_the_latest_migrations")


@pytest.mark.django_db(transaction=True)
def test_a_game_of_62_rounds_keeps_its_first_60_ends_there_and_logs_the_other_two():
    apps = migrated(BEFORE)
    Game, Side = apps.get_model("scorekeeper", "Game"), apps.get_model("scorekeeper", "Side")
    Round = apps.get_model("scorekeeper", "Round")
    RoundScore = apps.get_model("scorekeeper", "RoundScore")
    game = Game.objects.create(
        preset="baskets", rules={"base": "baskets", "overrides": {"rounds": None}}
    )
    ann = Side.objects.create(game=game, position=0, name="Ann", total=0)
    bob = Side.objects.create(game=game, position=1, name="Bob", total=0)
    # Ann leads by 5 a round until round 60; Bob takes 500 in each of rounds 61 and 62.
    for number in range(1, 63):
        stored = Round.objects.create(
            game=game, number=number, ended_by="stock_exhausted", entry=[{}, {}]
        )
        ann_total = 5 * min(number, 60)
        bob_total = 500 * max(number - 60, 0)
        RoundScore.objects.create(
            round=stored, side=ann, points=5 if number <= 60 else 0, running_total=ann_total
        )
        RoundScore.objects.create(
            round=stored, side=bob, points=500 if number > 60 else 0, running_total=bob_total
        )
    Side.objects.filter(pk=bob.pk).update(total=1000)
    Side.objects.filter(pk=ann.pk).update(total=300)
    long_rules = Game.objects.create(
        preset="four-rounds",
        rules={"base": "four-rounds", "overrides": {"rounds": 1000}},
        house_rules={"rounds": 1000},
    )

    apps = migrated(AFTER)

    Game = apps.get_model("scorekeeper", "Game")
    GameEvent = apps.get_model("scorekeeper", "GameEvent")
    after = Game.objects.get(pk=game.pk)
    assert list(after.rounds.values_list("number", flat=True)) == list(range(1, 61))
    assert list(after.sides.order_by("position").values_list("name", "total")) == [
        ("Ann", 300),
        ("Bob", 0),
    ]
    assert (after.finished, after.winner.name, after.tie) == (True, "Ann", False)
    logged = GameEvent.objects.filter(game=after).order_by("round_number")
    assert [(e.kind, e.who, e.round_number, e.before) for e in logged] == [
        (
            "round_deleted",
            "the 60-round bound",
            61,
            {"ended_by": "stock_exhausted", "entry": [{}, {}], "totals": {"Ann": 300, "Bob": 500}},
        ),
        (
            "round_deleted",
            "the 60-round bound",
            62,
            {
                "ended_by": "stock_exhausted",
                "entry": [{}, {}],
                "totals": {"Ann": 300, "Bob": 1000},
            },
        ),
    ]
    rules = Game.objects.get(pk=long_rules.pk)
    assert (rules.rules, rules.house_rules) == (
        {"base": "four-rounds", "overrides": {"rounds": 60}},
        {"rounds": 60},
    )
