"""Standings worked out by hand for a small season: team and individual games, a tie, a voided
game and a game corrected after it finished."""

import datetime
import re

import pytest

from leagues import services
from leagues.models import League, Participation
from leagues.selectors import head_to_head, opponents, partners, standings
from scorekeeper.rounds.services import round_update
from tests.helpers.leagues import members, play, table_game

OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15, 22, 29)]


def row_text(row) -> tuple:
    return (
        row.name,
        row.games,
        row.wins,
        row.ties,
        row.losses,
        row.win_pct,
        row.points_for,
        row.points_against,
        row.avg_score,
        row.avg_margin,
        row.league_points,
        row.last_five,
    )


@pytest.fixture
def season(league):
    """Five players over five club nights:

    1 Oct  Ann & Bob 500 - Cy & Di 300
    8 Oct  Ann & Cy 400 - Bob & Di 400 (a tie)
    15 Oct Eve 900, Ann 200, Bob 100 (three players, each for themselves); Cy 250 - Di 600
    22 Oct Ann & Di 700 - Bob & Cy 100, voided afterwards
    29 Oct Ann & Bob 300 - Cy & Eve 600, corrected after it finished to 800 - 600
    """
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve")
    ann, bob, cy, di, eve = (p[n] for n in ("Ann", "Bob", "Cy", "Di", "Eve"))
    play(table_game(league, [[ann, bob], [cy, di]], date=OCT[0]), [500, 300])
    play(table_game(league, [[ann, cy], [bob, di]], date=OCT[1]), [400, 400])
    play(table_game(league, [[eve], [ann], [bob]], date=OCT[2]), [900, 200, 100])
    play(table_game(league, [[cy], [di]], date=OCT[2]), [250, 600])
    voided = table_game(league, [[ann, di], [bob, cy]], date=OCT[3])
    play(voided, [700, 100])
    services.game_void(league_game=voided, reason="Played with a short deck", user=None)
    corrected = table_game(league, [[ann, bob], [cy, eve]], date=OCT[4])
    play(corrected, [300, 600])
    round_update(
        game=corrected.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 800}, {"melded_points": 600}],
    )
    return {"players": p, "voided": voided, "corrected": corrected}


def test_season_standings_match_the_hand_computed_table(league, season):
    rows = standings(league, league.seasons.get())

    assert [row_text(row) for row in rows] == [
        ("Ann", 4, 2, 1, 1, 62.5, 1900, 2200, 475.0, -75.0, 5, "WLTW"),
        ("Bob", 4, 2, 1, 1, 62.5, 1800, 2200, 450.0, -100.0, 5, "WLTW"),
        ("Di", 3, 1, 1, 1, 50.0, 1300, 1150, 1300 / 3, 150 / 3, 3, "WTL"),
        ("Eve", 2, 1, 0, 1, 50.0, 1500, 1000, 750.0, 250.0, 2, "LW"),
        ("Cy", 4, 0, 1, 3, 12.5, 1550, 2300, 387.5, -187.5, 1, "LLTL"),
    ]


def test_the_voided_game_is_kept_but_not_counted(league, season):
    voided = season["voided"]

    rows = Participation.objects.filter(league_game=voided).order_by("side", "place")

    assert [(p.player.name, p.counted, p.outcome, p.points_for) for p in rows] == [
        ("Ann", False, "", 700),
        ("Di", False, "", 700),
        ("Bob", False, "", 100),
        ("Cy", False, "", 100),
    ]
    voided.game.refresh_from_db()
    assert voided.game.finished is True


def test_lifting_the_void_brings_the_game_back_into_the_standings(league, season):
    before = {row.name: row.league_points for row in standings(league)}

    services.game_unvoid(league_game=season["voided"], user=None)

    after = {row.name: row.league_points for row in standings(league)}
    assert before == {"Ann": 5, "Bob": 5, "Di": 3, "Eve": 2, "Cy": 1}
    assert after == {"Ann": 7, "Bob": 5, "Di": 5, "Eve": 2, "Cy": 1}


def test_total_points_scoring_ranks_by_points_scored(league, season):
    league = services.league_update(league=league, user=None, scoring=League.Scoring.TOTAL)

    rows = standings(league)

    assert [(row.name, row.league_points) for row in rows] == [
        ("Ann", 1900),
        ("Bob", 1800),
        ("Cy", 1550),
        ("Eve", 1500),
        ("Di", 1300),
    ]


def test_all_time_standings_include_earlier_seasons_and_the_season_table_does_not(
    league, season, organiser
):
    services.season_create(
        league=league,
        name="Summer 2026",
        starts_on=datetime.date(2026, 7, 1),
        ends_on=datetime.date(2026, 8, 31),
        user=organiser,
    )
    p = season["players"]
    summer = table_game(
        league, [[p["Ann"], p["Cy"]], [p["Bob"], p["Di"]]], date=datetime.date(2026, 7, 15)
    )
    play(summer, [1000, 0])

    autumn = {
        row.name: row.games for row in standings(league, league.seasons.get(name="Autumn 2026"))
    }
    all_time = {row.name: (row.games, row.wins) for row in standings(league)}

    assert autumn == {"Ann": 4, "Bob": 4, "Cy": 4, "Di": 3, "Eve": 2}
    assert all_time == {
        "Ann": (5, 3),
        "Bob": (5, 2),
        "Cy": (5, 1),
        "Di": (4, 1),
        "Eve": (2, 1),
    }
    assert summer.season.name == "Summer 2026"


@pytest.mark.parametrize(
    ("sort", "descending", "names"),
    [
        ("points_against", False, ["Eve", "Di", "Ann", "Bob", "Cy"]),
        ("name", False, ["Ann", "Bob", "Cy", "Di", "Eve"]),
        ("games", True, ["Ann", "Bob", "Cy", "Di", "Eve"]),
        ("avg_score", True, ["Eve", "Ann", "Bob", "Di", "Cy"]),
        ("win_pct", True, ["Ann", "Bob", "Di", "Eve", "Cy"]),
    ],
)
def test_a_column_sort_keeps_the_tie_break_order_among_equals(
    league, season, sort, descending, names
):
    rows = standings(league, sort=sort, descending=descending)

    assert [row.name for row in rows] == names


def test_an_unknown_sort_falls_back_to_league_points(league, season):
    rows = standings(league, sort="drop table", descending=True)

    assert [row.name for row in rows] == ["Ann", "Bob", "Di", "Eve", "Cy"]


def test_each_player_of_a_team_gets_the_teams_result(league, season):
    rows = Participation.objects.filter(league_game=season["corrected"]).order_by("side", "place")

    assert [(p.player.name, p.outcome, p.points_for, p.points_against) for p in rows] == [
        ("Ann", "W", 800, 600),
        ("Bob", "W", 800, 600),
        ("Cy", "L", 600, 800),
        ("Eve", "L", 600, 800),
    ]


def test_partners_and_opponents_count_only_games_that_count(league, season):
    ann = season["players"]["Ann"]

    together = [(m.other, m.games, m.wins, m.ties, m.losses) for m in partners(league, ann.pk)]
    against = [(m.other, m.games, m.wins, m.ties, m.losses) for m in opponents(league, ann.pk)]

    assert together == [("Bob", 2, 2, 0, 0), ("Cy", 1, 0, 1, 0)]
    # Against Bob: a tie on 8 Oct and a win at the three-player table (200 beats 100).
    assert against == [
        ("Bob", 2, 1, 1, 0),
        ("Cy", 2, 2, 0, 0),
        ("Di", 2, 1, 1, 0),
        ("Eve", 2, 1, 0, 1),
    ]


def test_head_to_head_matrix_reads_row_against_column(league, season):
    matrix = head_to_head(league, league.seasons.get())
    ids = {name: pid for pid, name in matrix.players}

    def cell(row, column):
        found = matrix.cells.get((ids[row], ids[column]))
        return (found.wins, found.ties, found.losses) if found else None

    assert [name for _, name in matrix.players] == ["Ann", "Bob", "Di", "Eve", "Cy"]
    assert cell("Ann", "Bob") == (1, 1, 0)
    assert cell("Bob", "Ann") == (0, 1, 1)
    assert cell("Eve", "Ann") == (1, 0, 1)
    assert cell("Di", "Cy") == (1, 1, 0)
    assert cell("Cy", "Di") == (0, 1, 1)
    # Partners only, never opponents.
    assert cell("Eve", "Cy") is None
    assert cell("Ann", "Ann") is None


def test_a_total_points_table_is_marked_for_its_wider_figures(client, league, season):
    """The standings table of a league ranked on total points carries `total-points` (the
    phone's layout gives the names less room beside seven-digit league points)."""
    slug, season_id = league.slug, league.seasons.get().pk
    pages = [f"/leagues/{slug}/standings/", f"/leagues/{slug}/seasons/{season_id}/standings/"]

    def tables() -> list[str]:
        found = []
        for url in pages:
            html = client.get(url).content.decode()
            found += re.findall(r'<table class="scoreboard standings[^"]*">', html)
        return found

    assert tables() == ['<table class="scoreboard standings">'] * 2
    services.league_update(league=league, user=None, scoring=League.Scoring.TOTAL)
    assert tables() == ['<table class="scoreboard standings total-points">'] * 2
