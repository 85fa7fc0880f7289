"""The games list: each game's rule set by name, its round, the totals and who leads."""

import re

from django.test import Client

from scorekeeper.games import services
from scorekeeper.games.presenters import game_line
from scorekeeper.models import Game, Side
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.leagues import UserFactory

ANN_OUT = {"went_out": True, "canastas": {"natural": 1, "mixed": 2}, "melded_points": 640}
BOB = {"canastas": {"natural": 1}, "melded_points": 310, "hand_points": 85}


def rows(html: str) -> list[str]:
    items = re.findall(r"<li>\s*<a [^>]*>(.*?)</a>\s*</li>", html, re.S)
    text = [re.sub(r"<[^>]+>", " ", item) for item in items]
    # The date and time a game was last changed vary from run to run.
    return [re.sub(r"\d+ \w+ \d{4} \d\d:\d\d UTC", "DATE", " ".join(t.split())) for t in text]


def start(user, preset="baskets", names=("Ann", "Bob"), **kwargs) -> Game:
    return services.game_start(
        preset=preset, sides=[SideSpec(n) for n in names], owner=user, **kwargs
    )


def test_the_games_list_names_the_rules_the_round_the_totals_and_who_leads(
    db, django_assert_num_queries
):
    olive = UserFactory(username="olive")
    finished = start(olive)
    round_record(game=finished, number=1, ended_by="going_out", entry=[ANN_OUT, BOB])
    services.game_end(game=finished, user=olive)
    playing = services.game_rematch(game=finished, user=olive)
    round_record(game=playing, number=1, ended_by="going_out", entry=[BOB, ANN_OUT])
    start(olive, "four-rounds", ("Us", "Them"), house_rules={"going_out_bonus": 150})
    client = Client()
    client.force_login(olive)

    with django_assert_num_queries(4):
        html = client.get("/games/").content.decode()

    assert rows(html) == [
        "Us vs Them Four Rounds · House rules: going-out bonus 150 (the rule set&#x27;s: 100) "
        "· Round 1 · DATE Us 0 · Them 0 · No rounds yet",
        "Ann vs Bob Baskets · Round 2 · DATE Ann 725 · Bob 1,990 · Bob leads by 1,265",
        "Ann vs Bob Baskets · Finished · DATE Ann 1,990 · Bob 725 · Ann won",
    ]
    assert "four-rounds" not in html


def test_the_games_list_takes_the_same_queries_for_many_games(db, django_assert_num_queries):
    olive = UserFactory(username="olive")
    for _ in range(6):
        game = start(olive)
        round_record(game=game, number=1, ended_by="going_out", entry=[ANN_OUT, BOB])
    client = Client()
    client.force_login(olive)

    with django_assert_num_queries(4):
        html = client.get("/games/").content.decode()

    assert html.count("Ann 1,990 · Bob 725 · <strong>Ann leads by 1,265</strong>") == 6


def test_level_leaders_and_a_tie_are_said_as_such():
    sides = [Side(name="Ann", total=-100), Side(name="Bob", total=500), Side(name="Cy", total=500)]
    playing = game_line(Game(preset="sevens"), sides, 2)
    tied = game_line(Game(preset="sevens", finished=True, tie=True), sides, 2)

    assert (playing.stage, playing.totals, playing.standing) == (
        "Round 3",
        "Ann \u2212100 · Bob 500 · Cy 500",
        "Bob and Cy level",
    )
    assert (tied.rules, tied.stage, tied.standing) == ("Sevens", "Finished", "A tie")
