"""Organiser forms sent twice, or by two organisers at once: the second is told beside the
field, as a single submit would be, and never gets a server error.

The race is played out on one database: the conflicting row is written by "the other request"
just after the service checked its input (`full_clean`) and before it saves, the moment a
concurrent commit would land (tests/leagues/test_concurrency.py plays it for real on
PostgreSQL). Written inside the refused request's transaction, it goes with it; what shows
that nothing was saved is the refused request's own rows and audit event."""

import datetime

import pytest

from leagues import services
from leagues.models import Attendance, ClubNight, League, LeagueEvent, Membership, Season
from tests.helpers.leagues import NIGHT, league_form, members
from tests.helpers.pages import assert_beside
from tests.helpers.races import arrives_first

pytestmark = pytest.mark.django_db

WINTER = {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"}


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def pat(league, organiser):
    """A player of another league the organiser runs, so that Thursday may add them."""
    friday = services.league_create(name="Friday", slug="friday", preset="sevens", user=organiser)
    return services.member_add(league=friday, name="Pat", user=None).player


@pytest.fixture
def night(league):
    p = members(league, "Ann", "Bob", "Cy")
    services.night_create(
        league=league, date=NIGHT, player_ids=[p["Ann"].pk, p["Bob"].pk], user=None
    )
    return ClubNight.objects.get(), p


def other_season(league: League, name: str) -> Season:
    return Season.objects.create(
        league=league,
        name=name,
        starts_on=datetime.date(2027, 6, 1),
        ends_on=datetime.date(2027, 6, 30),
        rules=league.seasons.get().rules,
    )


def test_a_league_address_taken_while_the_form_was_sent_is_refused_beside_it(
    as_organiser, monkeypatch
):
    arrives_first(
        monkeypatch,
        League,
        lambda: League.objects.create(name="Other", slug="friday", preset="sevens"),
    )

    response = as_organiser.post("/leagues/new/", league_form())

    assert response.status_code == 200
    assert_beside(
        response.text, "slug", "Another league already uses the address “friday”; choose another."
    )
    assert not League.objects.filter(name="Friday Club").exists()


def test_a_season_name_taken_while_the_form_was_sent_is_refused_beside_it(
    as_organiser, league, monkeypatch
):
    arrives_first(monkeypatch, Season, lambda: other_season(league, "Winter"))

    response = as_organiser.post("/leagues/thursday/seasons/new/", WINTER)

    assert response.status_code == 200
    assert_beside(response.text, "name", "Thursday Club already has a season called Winter.")
    assert not league.seasons.filter(starts_on=datetime.date(2026, 12, 1)).exists()
    assert not league.events.filter(kind=LeagueEvent.Kind.SEASON_ADDED, after__name="Winter")


def test_a_season_renamed_to_a_name_taken_meanwhile_is_refused_beside_it(
    as_organiser, league, monkeypatch
):
    autumn = league.seasons.get()
    arrives_first(monkeypatch, Season, lambda: other_season(league, "Fall"))

    response = as_organiser.post(
        f"/leagues/thursday/seasons/{autumn.pk}/edit/",
        {"name": "Fall", "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
    )

    assert response.status_code == 200
    assert_beside(response.text, "name", "Thursday Club already has a season called Fall.")
    autumn.refresh_from_db()
    assert autumn.name == "Autumn 2026"


def test_a_member_added_meanwhile_is_refused_beside_the_player(
    as_organiser, league, pat, monkeypatch
):
    arrives_first(
        monkeypatch, Membership, lambda: Membership.objects.create(league=league, player=pat)
    )

    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_existing", "player": str(pat.pk)}
    )

    assert response.status_code == 200
    assert_beside(response.text, "player", "Pat is already a member of Thursday Club.")
    assert not league.events.filter(kind=LeagueEvent.Kind.MEMBER_ADDED, summary="Pat joined")


def test_a_club_night_opened_meanwhile_is_refused_beside_its_date(
    as_organiser, league, monkeypatch
):
    ann = members(league, "Ann")["Ann"]
    arrives_first(
        monkeypatch,
        ClubNight,
        lambda: ClubNight.objects.create(league=league, season=league.seasons.get(), date=NIGHT),
    )

    response = as_organiser.post(
        "/leagues/thursday/nights/new/", {"date": NIGHT.isoformat(), "players": [str(ann.pk)]}
    )

    assert response.status_code == 200
    assert_beside(
        response.text, "date", "Thursday Club already has a club night on 1 October 2026."
    )
    assert not Attendance.objects.filter(player=ann).exists()
    assert not league.events.filter(kind=LeagueEvent.Kind.NIGHT_ADDED)


def test_an_arrival_recorded_meanwhile_is_refused_beside_the_player(
    as_organiser, night, monkeypatch
):
    night, p = night
    cy = p["Cy"]
    arrives_first(
        monkeypatch, Attendance, lambda: Attendance.objects.create(night=night, player=cy)
    )

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(cy.pk), "name": ""}
    )

    assert response.status_code == 200
    assert_beside(response.text, "player", "Cy is already here tonight.")
    assert not night.league.events.filter(kind=LeagueEvent.Kind.LATE_ARRIVAL)


# Sent twice, one after the other --------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "data", "field", "message"),
    [
        (
            "/leagues/new/",
            league_form(),
            "slug",
            "Another league already uses the address “friday”; choose another, such as “friday-2”.",
        ),
        (
            "/leagues/thursday/seasons/new/",
            WINTER,
            "name",
            "Thursday Club already has a season called Winter.",
        ),
        (
            "/leagues/thursday/nights/new/",
            {"date": NIGHT.isoformat()},
            "date",
            "Thursday Club already has a club night on 1 October 2026.",
        ),
    ],
    ids=["league", "season", "night"],
)
def test_a_form_sent_twice_saves_once_and_the_second_is_told(
    as_organiser, league, url, data, field, message
):
    before = LeagueEvent.objects.count()
    first = as_organiser.post(url, data)
    second = as_organiser.post(url, data)

    assert first.status_code == 302
    assert second.status_code == 200
    assert_beside(second.text, field, message)
    assert LeagueEvent.objects.count() == before + 1


def test_a_member_added_twice_is_added_once(as_organiser, league, pat):
    form = {"action": "add_existing", "player": str(pat.pk)}
    first = as_organiser.post("/leagues/thursday/members/", form)
    second = as_organiser.post("/leagues/thursday/members/", form)

    assert first.status_code == 302
    assert second.status_code == 200
    assert_beside(second.text, "player", "Choose one of the players listed.")
    assert Membership.objects.filter(league=league, player=pat).count() == 1


def test_an_arrival_sent_twice_is_recorded_once(as_organiser, night):
    night, p = night
    form = {"player": str(p["Cy"].pk), "name": ""}
    url = f"/leagues/thursday/nights/{night.pk}/arrivals/"
    first = as_organiser.post(url, form)
    second = as_organiser.post(url, form)

    assert first.status_code == 302
    assert second.status_code == 200
    assert_beside(second.text, "player", "Choose one of the members listed.")
    assert night.attendances.filter(player=p["Cy"]).count() == 1


# Merges -------------------------------------------------------------------------------------


def test_a_merge_sent_twice_merges_once_and_the_second_is_told_beside_the_player(
    as_organiser, league
):
    p = members(league, "Ann", "Cat")
    form = {"keep": str(p["Ann"].pk), "absorb": str(p["Cat"].pk), "confirm": "yes"}
    first = as_organiser.post("/leagues/thursday/members/merge/", form)
    second = as_organiser.post("/leagues/thursday/members/merge/", form)

    assert first.status_code == 302
    assert second.status_code == 200
    assert_beside(
        second.text, "absorb", "Cat was merged into Ann a moment ago; nothing was changed."
    )
    assert league.events.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED).count() == 1


def test_a_merge_whose_player_went_after_the_form_was_checked_is_refused(league, organiser):
    p = members(league, "Ann", "Cat")
    ann, cat = p["Ann"], p["Cat"]
    services.player_merge(league=league, keep=cat, absorb=ann, user=organiser)

    # The objects the form had checked before the other merge went through.
    with pytest.raises(services.LeagueError) as refused:
        services.player_merge(league=league, keep=ann, absorb=cat, user=organiser)

    assert refused.value.errors == [
        ("keep", "Ann was merged into Cat a moment ago; nothing was changed.")
    ]
    assert league.events.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED).count() == 1
