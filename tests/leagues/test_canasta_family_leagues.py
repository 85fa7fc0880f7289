"""A league of Classic Canasta, Samba or Buraco: teams play a club night to the rule set's end and
the standings count it, in the rule set's own words and numbers."""

import datetime

import pytest

from leagues import services
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_record
from tests.helpers.leagues import confirm_rounds, members, table_game
from tests.helpers.pages import section, text

# One round each that ends the game: the first side goes out with what its rules ask, past the
# rule set's target; the other melds a little and holds cards.
ROUNDS = {
    "canasta": [
        {
            "went_out": True,
            "went_out_concealed": True,
            "canastas": {"natural": 6, "mixed": 3},
            "melded_points": 900,
            "red_threes": 4,
        },
        {"melded_points": 0, "hand_points": 95},
    ],
    "samba": [
        {
            "went_out": True,
            "canastas": {"samba": 5, "natural": 3, "mixed": 1},
            "melded_points": 1200,
            "red_threes": 2,
        },
        {"canastas": {"mixed": 1}, "melded_points": 150, "hand_points": 60, "red_threes": 1},
    ],
    "buraco": [
        {
            "went_out": True,
            "canastas": {"clean": 8, "dirty": 6},
            "melded_points": 740,
            "hand_points": 15,
        },
        {
            "canastas": {"dirty": 1},
            "melded_points": 120,
            "hand_points": 70,
            "foot_picked_up": False,
        },
    ],
}
# Each side's total after that round, added up by hand from the rules, and the margin.
TOTALS = {
    # 3,000 + 900 + 800 for all four red threes + 100 + 100 concealed + 900 for Ann & Cy; Bob & Di
    # melded nothing and hold 95.
    "canasta": ("5,800", "−95", "5,895"),
    # 7,500 + 1,500 + 300 + 200 + 200 + 1,200; 300 + 150 − 60 − 100 (one canasta, not two).
    "samba": ("10,900", "290", "10,610"),
    # 1,600 + 600 + 100 + 740 − 15; 100 + 120 − 70 − 100 for the morto never taken.
    "buraco": ("3,025", "50", "2,975"),
}


@pytest.mark.parametrize("preset", ["canasta", "samba", "buraco"])
def test_a_league_of_each_family_preset_shows_its_standings(client, organiser, preset):
    league = services.league_create(
        name="Family Club", slug="family", preset=preset, play="teams", user=organiser
    )
    services.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
        user=organiser,
    )
    p = members(league, "Ann", "Bob", "Cy", "Di")
    game = table_game(league, [[p["Ann"], p["Cy"]], [p["Bob"], p["Di"]]])
    round_record(
        game=game.game, number=1, ended_by="going_out", entry=ROUNDS[preset], phone="phone"
    )
    confirm_rounds(game)

    assert Game.objects.get(pk=game.game.pk).finished
    ours, theirs, margin = TOTALS[preset]
    standings = section(text(client.get("/leagues/family/")), "Standings", "All columns, sortable")
    won = f"2 1 1 0 0 100 {ours} {theirs} {ours}.0 {margin}.0 3.4 W"
    lost = f"0 1 0 0 1 0 {theirs} {ours} {theirs}.0 −{margin}.0 −1.8 L"
    assert standings == (
        "of Autumn # Player League points Games Wins Ties Losses Win % Points for Points against "
        "Average score Average margin Rating Last five "
        f"=1 Ann {won} =1 Cy {won} =3 Bob {lost} =3 Di {lost}"
    )
