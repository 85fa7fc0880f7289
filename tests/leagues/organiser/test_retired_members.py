"""A retired member: off the tick lists of a new night and of late arrivals, kept in the games,
standings and history, and brought back in one tap; each change in the league's audit."""

import datetime

import pytest

from leagues import selectors, services
from leagues.models import LeagueEvent, Membership
from leagues.services import LeagueError
from tests.helpers.leagues import OCT, play, table_game

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 2)


def retired_on(league, player):
    return Membership.objects.get(league=league, player=player).retired_on


def events(league):
    return [(e.kind, e.summary) for e in LeagueEvent.objects.filter(league=league).order_by("pk")][
        -2:
    ]


def test_a_retired_member_is_kept_and_retiring_twice_changes_nothing(league, eight, organiser):
    ann = eight["Ann"]
    assert retired_on(league, ann) is None

    services.member_retire(league=league, player=ann, on=DAY, user=organiser)
    services.member_retire(league=league, player=ann, on=OCT[2], user=organiser)

    assert retired_on(league, ann) == DAY
    assert events(league)[-1] == (LeagueEvent.Kind.MEMBER_RETIRED, "Ann retired")
    assert LeagueEvent.objects.filter(kind=LeagueEvent.Kind.MEMBER_RETIRED).count() == 1

    services.member_return(league=league, player=ann, user=organiser)
    services.member_return(league=league, player=ann, user=organiser)

    assert retired_on(league, ann) is None
    assert events(league) == [
        (LeagueEvent.Kind.MEMBER_RETIRED, "Ann retired"),
        (LeagueEvent.Kind.MEMBER_BACK, "Ann is back"),
    ]


def test_a_retired_member_keeps_their_games_and_standing(league, eight, organiser):
    ann, bob = eight["Ann"], eight["Bob"]
    play(table_game(league, [[ann], [bob]], date=OCT[0]), [500, 300])

    services.member_retire(league=league, player=ann, on=DAY, user=organiser)

    rows = {row.name: (row.rank, row.games, row.wins) for row in selectors.standings(league)}
    assert rows["Ann"] == ("1", 1, 1)


def test_a_new_night_and_a_late_arrival_refuse_a_retired_member(league, eight, organiser):
    ann, bob = eight["Ann"], eight["Bob"]
    services.member_retire(league=league, player=ann, on=DAY, user=organiser)

    with pytest.raises(LeagueError) as refused:
        services.night_create(
            league=league, date=OCT[0], player_ids=[ann.pk, bob.pk], user=organiser
        )
    assert refused.value.errors == [
        (
            "players",
            "Ann has retired from Thursday Club: bring the member back on the members' page first.",
        )
    ]

    night = services.night_create(league=league, date=OCT[0], player_ids=[bob.pk], user=None)
    with pytest.raises(LeagueError) as refused:
        services.night_arrival(night=night, player=ann, user=organiser)
    assert refused.value.errors == [
        (
            "player",
            "Ann has retired from Thursday Club: bring the member back on the members' page first.",
        )
    ]


def test_the_tick_lists_leave_a_retired_member_out(as_organiser, league, eight, organiser):
    ann = eight["Ann"]
    services.member_retire(league=league, player=ann, on=DAY, user=organiser)

    page = as_organiser.get("/leagues/thursday/nights/new/").content.decode()
    sent = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "save", "date": "2026-10-01", "players": [ann.pk]},
    ).content.decode()

    assert f'value="{ann.pk}"' not in page
    assert f'value="{eight["Bob"].pk}"' in page
    assert "Tick members of the league only." in sent


def test_the_members_page_folds_the_retired_and_brings_one_back(
    as_organiser, league, eight, organiser
):
    ann = eight["Ann"]
    url = f"/leagues/thursday/members/{ann.pk}/retire/"
    edit = as_organiser.get(f"/leagues/thursday/members/{ann.pk}/edit/").content.decode()
    assert f'<form method="post" action="{url}">' in edit

    response = as_organiser.post(url)
    again = as_organiser.post(url)

    assert response["Location"] == again["Location"] == "/leagues/thursday/members/"
    page = as_organiser.get("/leagues/thursday/members/").content.decode()
    assert "Ann is retired: off the tick lists, kept in the games and standings." in page
    assert '<th scope="row">Ann</th>' not in page
    assert "<summary>Retired members (1)</summary>" in page
    assert f'action="/leagues/thursday/members/{ann.pk}/back/"' in page
    assert retired_on(league, ann) is not None

    back = as_organiser.post(f"/leagues/thursday/members/{ann.pk}/back/")

    assert back["Location"] == "/leagues/thursday/members/"
    assert retired_on(league, ann) is None
    assert (
        '<th scope="row">Ann</th>'
        in as_organiser.get("/leagues/thursday/members/").content.decode()
    )


def test_retiring_is_for_organisers_by_post_of_a_member(client, as_organiser, league, eight):
    ann = eight["Ann"]
    url = f"/leagues/thursday/members/{ann.pk}/retire/"

    assert as_organiser.get(url).status_code == 405
    assert as_organiser.post("/leagues/thursday/members/999999/retire/").status_code == 404
    assert (
        as_organiser.post("/leagues/thursday/members/99999999999999999999/back/").status_code == 404
    )
    client.logout()
    assert client.post(url).status_code == 302
    assert retired_on(league, ann) is None
