"""League points adjustments (`services.adjustment_add`, `adjustment_remove`): a penalty or bonus
counts in the season's and the all-time league points, in match and in total-points scoring,
ranks the standings, is audited with the figures before and after, and every bad input is
refused with its message beside its field, nothing written."""

import datetime

import pytest

from leagues import selectors, services
from leagues.models import League, LeagueEvent, PointsAdjustment, Season, Standing
from tests.helpers.leagues import league_with, members, play, table_game

pytestmark = pytest.mark.django_db

OCT = datetime.date(2026, 10, 1)


def points_of(league: League, season: Season | None = None) -> dict[str, tuple[int, int]]:
    """Each player's (league points, adjustment) in the standings' order."""
    return {
        row.name: (row.league_points, row.adjustment) for row in selectors.standings(league, season)
    }


@pytest.fixture
def played(league):
    """Ann beat Bob 500 to 300 (win 2, loss 0); Cy is a member without a game."""
    p = members(league, "Ann", "Bob", "Cy")
    play(table_game(league, [[p["Ann"]], [p["Bob"]]], date=OCT), [500, 300])
    return p


def test_a_penalty_and_a_bonus_change_the_seasons_and_the_all_time_league_points(
    league, organiser, played
):
    season = league.seasons.get()
    assert points_of(league, season) == {"Ann": (2, 0), "Bob": (0, 0)}

    services.adjustment_add(
        league=league,
        season=season,
        player=played["Ann"],
        points=-3,
        reason="Late twice",
        user=organiser,
    )
    services.adjustment_add(
        league=league, season=season, player=played["Bob"], points=5, reason="Hosted", user=None
    )

    # Bob goes top: the adjustment ranks the table.
    assert points_of(league, season) == {"Bob": (5, 5), "Ann": (-1, -3)}
    assert points_of(league) == {"Bob": (5, 5), "Ann": (-1, -3)}
    assert [row.rank for row in selectors.standings(league, season)] == ["1", "2"]


def test_in_total_points_scoring_the_adjustment_adds_to_the_points_scored(organiser):
    league = league_with(organiser, scoring=League.Scoring.TOTAL)
    p = members(league, "Ann", "Bob")
    play(table_game(league, [[p["Ann"]], [p["Bob"]]], date=OCT), [500, 300])
    season = league.seasons.get()

    services.adjustment_add(
        league=league, season=season, player=p["Ann"], points=-250, reason="Misdeal", user=None
    )

    assert points_of(league, season) == {"Bob": (300, 0), "Ann": (250, -250)}
    # Points for stay what was scored: only the league points move.
    ann = next(row for row in selectors.standings(league, season) if row.name == "Ann")
    assert (ann.points_for, ann.avg_score) == (500, 500.0)


def test_a_member_without_a_game_gets_rows_and_shows_in_the_standings(league, organiser, played):
    season = league.seasons.get()

    services.adjustment_add(
        league=league, season=season, player=played["Cy"], points=4, reason="Helped", user=None
    )

    assert points_of(league, season) == {"Cy": (4, 4), "Ann": (2, 0), "Bob": (0, 0)}
    rows = Standing.objects.filter(player=played["Cy"])
    assert {(row.season, row.games) for row in rows} == {(season, 0), (None, 0)}


def test_the_all_time_row_adds_up_every_season(league, organiser, played):
    autumn = league.seasons.get()
    winter = services.season_create(
        league=league,
        name="Winter 2026",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=organiser,
    )
    for season, points in ((autumn, -1), (winter, -2)):
        services.adjustment_add(
            league=league,
            season=season,
            player=played["Ann"],
            points=points,
            reason="Late",
            user=None,
        )

    assert points_of(league, autumn)["Ann"] == (1, -1)
    assert points_of(league, winter) == {"Ann": (-2, -2)}
    assert points_of(league)["Ann"] == (-1, -3)


def test_adding_and_removing_are_audited_with_the_figures_before_and_after(
    league, organiser, played
):
    season = league.seasons.get()
    adjustment = services.adjustment_add(
        league=league,
        season=season,
        player=played["Ann"],
        points=-10,
        reason="Late twice",
        user=organiser,
    )
    services.adjustment_remove(adjustment=adjustment, user=organiser)

    added, removed = LeagueEvent.objects.filter(
        kind__in=[LeagueEvent.Kind.POINTS_ADJUSTED, LeagueEvent.Kind.ADJUSTMENT_REMOVED]
    ).order_by("id")
    ann = {"player": played["Ann"].pk, "name": "Ann", "season": "Autumn 2026"}
    assert (added.kind, added.who, added.summary) == (
        LeagueEvent.Kind.POINTS_ADJUSTED,
        "olive",
        "−10 league points for Ann in Autumn 2026: Late twice",
    )
    assert added.before == ann | {"league_points": 2, "league_points_all_time": 2}
    assert added.after == ann | {
        "league_points": -8,
        "league_points_all_time": -8,
        "points": -10,
        "reason": "Late twice",
        "adjustment": adjustment.pk,
    }
    assert removed.summary == "−10 league points for Ann in Autumn 2026 taken back (Late twice)"
    assert removed.before == ann | {
        "league_points": -8,
        "league_points_all_time": -8,
        "points": -10,
        "reason": "Late twice",
        "adjustment": adjustment.pk,
    }
    assert removed.after == ann | {"league_points": 2, "league_points_all_time": 2}
    assert points_of(league, season) == {"Ann": (2, 0), "Bob": (0, 0)}
    assert not PointsAdjustment.objects.exists()


def test_removing_twice_is_refused_the_second_time(league, played):
    season = league.seasons.get()
    adjustment = services.adjustment_add(
        league=league, season=season, player=played["Ann"], points=1, reason="Hosted", user=None
    )
    services.adjustment_remove(adjustment=adjustment, user=None)

    with pytest.raises(services.LeagueError) as refused:
        services.adjustment_remove(adjustment=adjustment, user=None)

    assert refused.value.errors == [
        ("adjustment", "This adjustment was removed already; nothing was changed.")
    ]
    assert league.events.filter(kind=LeagueEvent.Kind.ADJUSTMENT_REMOVED).count() == 1


def test_the_same_form_key_saves_once(league, played):
    season = league.seasons.get()
    kept = {"league": league, "season": season, "player": played["Ann"], "user": None}
    services.adjustment_add(**kept, points=-2, reason="Late", form_key="a" * 32)

    with pytest.raises(services.LeagueError) as refused:
        services.adjustment_add(**kept, points=-2, reason="Late", form_key="a" * 32)

    assert refused.value.errors == [
        ("points", "This adjustment was saved a moment ago; it is listed below, once.")
    ]
    assert PointsAdjustment.objects.count() == 1


POINTS = (
    "Give the points as a whole number from −1,000 to 1,000: below 0 for a penalty (−10), "
    "above for a bonus (5)."
)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"points": 0},
            "points",
            "An adjustment of 0 changes nothing: give a penalty below 0 or a bonus above.",
        ),
        ({"points": 1001}, "points", f"+1,001 is too many. {POINTS}"),
        ({"points": -5000}, "points", f"−5,000 is too many. {POINTS}"),
        ({"points": "5"}, "points", POINTS),
        ({"points": True}, "points", POINTS),
        ({"reason": "   "}, "reason", "Say why the points are adjusted (up to 200 characters)."),
        (
            {"reason": "x" * 201},
            "reason",
            "Say why the points are adjusted in at most 200 characters (this has 201).",
        ),
        ("stranger", "player", "Zed is not a member of Thursday Club; choose one of its members."),
        (
            "other season",
            "season",
            "Spring 2027 is a season of another league; choose one of Thursday Club's.",
        ),
    ],
)
def test_bad_input_is_refused_beside_its_field_and_nothing_is_written(
    league, organiser, played, change, field, message
):
    given = {
        "league": league,
        "season": league.seasons.get(),
        "player": played["Ann"],
        "points": -10,
        "reason": "Late twice",
        "user": organiser,
    }
    if change == "stranger":
        other = services.league_create(
            name="Friday", slug="friday", preset="sevens", user=organiser
        )
        given["player"] = services.member_add(league=other, name="Zed", user=None).player
    elif change == "other season":
        other = services.league_create(
            name="Friday", slug="friday", preset="sevens", user=organiser
        )
        given["season"] = services.season_create(
            league=other,
            name="Spring 2027",
            starts_on=datetime.date(2027, 3, 1),
            ends_on=datetime.date(2027, 5, 31),
            user=None,
        )
    else:
        given |= change
    events = LeagueEvent.objects.count()

    with pytest.raises(services.LeagueError) as refused:
        services.adjustment_add(**given)

    assert refused.value.errors == [(field, message)]
    assert not PointsAdjustment.objects.exists()
    assert LeagueEvent.objects.count() == events


def test_a_merge_moves_the_adjustments_to_the_player_kept(league, organiser, played):
    season = league.seasons.get()
    services.adjustment_add(
        league=league, season=season, player=played["Cy"], points=-4, reason="Late", user=None
    )

    services.player_merge(league=league, keep=played["Bob"], absorb=played["Cy"], user=organiser)

    assert points_of(league, season) == {"Ann": (2, 0), "Bob": (-4, -4)}
    assert PointsAdjustment.objects.get().player == played["Bob"]
