"""The demo leagues of `manage.py load_demo`: loaded through the services, once."""

import datetime
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from leagues import demo, selectors
from leagues.models import ClubNight, League, LeagueEvent, LeagueGame, Participation
from scorekeeper.models import GameEvent


def load(**options) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for app in ("auth", "scorekeeper", "leagues")
        for model in apps.get_app_config(app).get_models()
    }


@pytest.mark.django_db
def test_demo_loads_once_with_standings_in_every_season():
    # One night a season keeps the test quick: Riverside's summer night and its autumn night
    # (the last) have 16 players at four tables; the ladder plays one night of three tables.
    output = load(nights=1)

    assert "Demo data loaded" in output
    assert "3 club nights (3 closed), 11 games (11 finished, 1 voided, 1 corrected)" in output
    assert "demo-organiser" in output and "Demo account" in output
    organiser = get_user_model().objects.get(username=demo.ORGANISER)
    assert organiser.check_password(demo.ORGANISER_PASSWORD)

    riverside = League.objects.get(slug="riverside")
    ladder = League.objects.get(slug="baskets-ladder")
    assert list(riverside.organisers.all()) == [organiser] == list(ladder.organisers.all())
    assert (riverside.play, riverside.scoring, riverside.visibility) == ("teams", "match", "public")
    assert (riverside.win_points, riverside.tie_points, riverside.loss_points) == (2, 1, 0)
    assert (ladder.play, ladder.scoring, ladder.preset) == ("singles", "total", "baskets")
    assert riverside.memberships.count() == 16 and ladder.memberships.count() == 6
    names = set(riverside.members.values_list("name", flat=True))
    assert {"José Martínez", "Zoë Clarke", "Łukasz Nowak", "Søren Nielsen"} <= names

    summer = riverside.seasons.get(name="Summer 2026")
    autumn = riverside.seasons.get(name="Autumn 2026")
    assert summer.rules["base"] == "ten-thousand" and autumn.rules["base"] == "four-rounds"
    assert riverside.preset == "four-rounds"

    # Summer: four tables, one voided. Autumn: four tables finished, the first corrected.
    # Ladder: three tables of two players, all finished.
    expected = {(riverside, summer): (4, 3), (riverside, autumn): (4, 4)}
    expected[(ladder, ladder.seasons.get())] = (3, 3)
    for (league, season), (played, counted) in expected.items():
        assert LeagueGame.objects.filter(season=season).count() == played
        assert LeagueGame.objects.filter(season=season).counted().count() == counted
        rows = selectors.standings(league, season)
        assert rows, f"{league.slug} {season.name} has no standings"
        participations = Participation.objects.filter(season=season, counted=True)
        assert sum(row.games for row in rows) == participations.count()
        assert sum(row.wins + row.ties + row.losses for row in rows) == participations.count()
    assert selectors.standings(riverside)  # all time

    voided = LeagueGame.objects.get(voided=True)
    assert voided.season == summer and voided.void_reason == demo.VOID_REASON
    assert not voided.participations.filter(counted=True).exists()
    assert not LeagueGame.objects.filter(game__finished=False).exists()
    # Every night closed by itself when its last table finished, the last autumn night too, so
    # no night of the demo looks abandoned.
    last = riverside.nights.get(season=autumn)
    assert last.date == datetime.date(2026, 9, 3)
    # Closed that evening, as a club would, not on the day the demo was loaded.
    assert timezone.localtime(last.closed_at).replace(tzinfo=None) == datetime.datetime(
        2026, 9, 3, 22, 30
    )
    assert ClubNight.objects.filter(closed_at__isnull=True).count() == 0
    closings = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.NIGHT_CLOSED)
    assert sorted(closings.values_list("league__slug", "who", "summary")) == [
        (
            "baskets-ladder",
            "the system",
            "Club night of 3 September 2026 closed: every table has finished",
        ),
        (
            "riverside",
            "the system",
            "Club night of 2 July 2026 closed: every table has finished",
        ),
        (
            "riverside",
            "the system",
            "Club night of 3 September 2026 closed: every table has finished",
        ),
    ]
    assert not LeagueEvent.objects.filter(kind=LeagueEvent.Kind.NIGHT_REOPENED).exists()
    corrected = GameEvent.objects.get(kind=GameEvent.Kind.ROUND_CHANGED)
    assert corrected.game.league_game.season == autumn and corrected.game.finished
    assert corrected.who == demo.ORGANISER

    # A second load writes nothing and says so.
    before = row_counts()
    assert load(nights=1).strip() == "Demo data already loaded."
    assert row_counts() == before


def test_the_full_demo_plans_four_nights_a_season_inside_the_seasons():
    summer = demo.thursdays(datetime.date(2026, 7, 1), datetime.date(2026, 8, 31), 4)
    autumn = demo.thursdays(datetime.date(2026, 9, 1), datetime.date(2026, 11, 30), 4)
    assert [d.isoformat() for d in summer] == [
        "2026-07-02",
        "2026-07-16",
        "2026-07-30",
        "2026-08-13",
    ]
    assert [d.isoformat() for d in autumn] == [
        "2026-09-03",
        "2026-09-24",
        "2026-10-15",
        "2026-11-05",
    ]
    assert all(d.weekday() == 3 for d in summer + autumn)
    assert all(12 <= n <= 16 for n in demo.SUMMER_PRESENT + demo.AUTUMN_PRESENT)
    with pytest.raises(ValueError):
        demo.thursdays(datetime.date(2026, 7, 1), datetime.date(2026, 7, 31), 6)


def test_round_entry_drops_the_round_number_and_the_side_names():
    round_ = {
        "round": 3,
        "ended_by": "going_out",
        "sides": [
            {"name": "A & B", "went_out": True, "melded_points": 900, "canastas": {"natural": 3}},
            {"name": "C & D", "melded_points": 400, "hand_points": 120},
        ],
    }
    assert demo.round_entry(round_) == (
        "going_out",
        [
            {"went_out": True, "melded_points": 900, "canastas": {"natural": 3}},
            {"melded_points": 400, "hand_points": 120},
        ],
    )
