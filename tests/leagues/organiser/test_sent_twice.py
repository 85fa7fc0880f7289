"""A new member, and a late arrival under a new name, sent twice: one after the other (a double
tap) and at the same moment from several organisers' phones (real concurrent transactions on
PostgreSQL). One player is added, once; the other answers are the form with the reason beside the
name, never a server error and never a second player of the same name."""

import pytest
from django.utils.html import escape

from leagues import services
from leagues.models import Attendance, ClubNight, LeagueEvent, Membership, Player
from tests.helpers.leagues import NIGHT, members
from tests.helpers.pages import assert_beside
from tests.helpers.races import ON_POSTGRESQL, THREADS, answers, phones, together

MEMBERS = "/leagues/thursday/members/"


def told(name: str) -> str:
    return (
        f"{name} is already a member of Thursday Club, so nobody was added. A second player of "
        "that name needs something to tell them apart, such as an initial."
    )


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def night(league) -> ClubNight:
    p = members(league, "Ann", "Bob")
    return services.night_create(
        league=league, date=NIGHT, player_ids=[p["Ann"].pk, p["Bob"].pk], user=None
    )


def players_named(league, name: str) -> int:
    return Player.objects.filter(name=name, memberships__league=league).count()


# A new member ---------------------------------------------------------------------------------


def test_a_new_member_sent_twice_is_added_once_and_the_second_is_told_beside_the_name(
    as_organiser, league
):
    form = {"action": "add_new", "name": "Zoë Ortiz", "username": ""}

    first = as_organiser.post(MEMBERS, form)
    second = as_organiser.post(MEMBERS, form)

    assert (first.status_code, first["Location"]) == (302, MEMBERS)
    assert second.status_code == 200
    assert_beside(second.text, "name", told("Zoë Ortiz"))
    assert players_named(league, "Zoë Ortiz") == 1
    assert list(
        league.events.filter(kind=LeagueEvent.Kind.MEMBER_ADDED).values_list("summary", flat=True)
    ) == ["Zoë Ortiz joined"]


def test_a_new_member_of_a_members_name_but_for_spaces_is_refused(league, organiser):
    members(league, "Ann Lee")

    with pytest.raises(services.LeagueError) as refused:
        services.member_add(league=league, name="  Ann   Lee ", user=organiser)

    assert refused.value.errors == [("name", told("Ann Lee"))]
    assert Player.objects.filter(name__contains="Ann").count() == 1


def test_a_namesake_in_another_league_does_not_stop_a_new_member(league, organiser):
    friday = services.league_create(name="Friday", slug="friday", preset="sevens", user=organiser)
    services.member_add(league=friday, name="Ann", user=organiser)

    services.member_add(league=league, name="Ann", user=organiser)

    assert Membership.objects.filter(player__name="Ann").count() == 2


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_twenty_organisers_adding_the_same_new_member_at_once_add_one(league, organiser):
    clients = phones(organiser, THREADS)
    form = {"action": "add_new", "name": "Zed", "username": ""}

    results = together(lambda index: clients[index].post(MEMBERS, form))

    assert answers(results) == {
        f"302 {MEMBERS}": 1,
        f"200 {escape(told('Zed'))}": THREADS - 1,
    }
    assert players_named(league, "Zed") == 1
    assert (
        league.events.filter(kind=LeagueEvent.Kind.MEMBER_ADDED, summary="Zed joined").count() == 1
    )


# A late arrival under a new name ---------------------------------------------------------------


def test_a_late_arrival_under_a_new_name_sent_twice_adds_one_player_who_arrives_once(
    as_organiser, league, night
):
    url = f"/leagues/thursday/nights/{night.pk}/arrivals/"
    form = {"player": "", "name": "Zed"}

    first = as_organiser.post(url, form)
    second = as_organiser.post(url, form)

    assert (first.status_code, first["Location"]) == (
        302,
        f"/leagues/thursday/nights/{night.pk}/seating/",
    )
    assert second.status_code == 200
    assert_beside(second.text, "name", told("Zed"))
    assert players_named(league, "Zed") == 1
    assert list(night.attendances.filter(player__name="Zed").values_list("arrived_late")) == [
        (True,)
    ]
    assert list(
        league.events.filter(
            kind__in=[LeagueEvent.Kind.MEMBER_ADDED, LeagueEvent.Kind.LATE_ARRIVAL],
            summary__startswith="Zed",
        ).values_list("summary", flat=True)
    ) == [
        "Zed arrived late at the club night of 1 October 2026",
        "Zed joined",
    ]


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_twenty_organisers_recording_the_same_new_late_arrival_at_once_record_one(
    league, organiser, night
):
    clients = phones(organiser, THREADS)
    url = f"/leagues/thursday/nights/{night.pk}/arrivals/"
    form = {"player": "", "name": "Zed"}

    results = together(lambda index: clients[index].post(url, form))

    assert answers(results) == {
        f"302 /leagues/thursday/nights/{night.pk}/seating/": 1,
        f"200 {escape(told('Zed'))}": THREADS - 1,
    }
    assert players_named(league, "Zed") == 1
    assert Attendance.objects.filter(night=night, player__name="Zed").count() == 1
    assert league.events.filter(kind=LeagueEvent.Kind.LATE_ARRIVAL).count() == 1
