"""A merge and an edit of the player it merges away: one after the other, and at the same moment
(real concurrent transactions on PostgreSQL). The edit that comes second is told the player
was merged, on the members' page; never a server error."""

import re

import pytest
from django.test import Client

from leagues import services
from leagues.models import LeagueEvent, Player
from tests.helpers.leagues import NIGHT, members
from tests.helpers.races import ON_POSTGRESQL, THREADS, together

MEMBERS = "/leagues/thursday/members/"
MERGE = "/leagues/thursday/members/merge/"
TOLD = "Cat was merged into Ann a moment ago; nothing was changed."


def said(response) -> list[str]:
    return re.findall(r'<li class="message [a-z]+">([^<]*)<', response.text)


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def test_an_edit_of_a_player_merged_meanwhile_is_refused_with_the_merge(league, organiser):
    p = members(league, "Ann", "Cat")
    services.player_merge(league=league, keep=p["Ann"], absorb=p["Cat"], user=organiser)

    # The player as the edit page had read it before the merge went through.
    with pytest.raises(services.LeagueError) as refused:
        services.player_update(
            league=league, player=p["Cat"], name="Cat B.", account=None, user=organiser
        )

    assert refused.value.errors == [("player", TOLD)]
    assert not league.events.filter(kind=LeagueEvent.Kind.MEMBER_CHANGED)


def test_an_edit_form_sent_after_the_merge_goes_to_the_members_and_says_so(
    as_organiser, league, organiser
):
    p = members(league, "Ann", "Cat")
    url = f"/leagues/thursday/members/{p['Cat'].pk}/edit/"
    services.player_merge(league=league, keep=p["Ann"], absorb=p["Cat"], user=organiser)

    posted = as_organiser.post(url, {"name": "Cat B.", "username": ""}, follow=True)
    opened = as_organiser.get(url, follow=True)

    assert posted.redirect_chain == opened.redirect_chain == [(MEMBERS, 302)]
    assert said(posted) == said(opened) == [TOLD]
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]


def test_the_edit_page_of_someone_never_merged_here_is_still_not_found(as_organiser, league):
    stranger = Player.objects.create(name="Sam")

    response = as_organiser.get(f"/leagues/thursday/members/{stranger.pk}/edit/")

    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_a_merge_and_nineteen_edits_of_the_player_it_merges_away_at_once(league, organiser):
    p = members(league, "Ann", "Cat")
    ann, cat = p["Ann"], p["Cat"]
    clients = []
    for _ in range(THREADS):
        # A 500 comes back as a page, so that every thread's answer is counted.
        client = Client(raise_request_exception=False)
        client.force_login(organiser)
        clients.append(client)
    edit = f"/leagues/thursday/members/{cat.pk}/edit/"

    def post(index: int):
        if index == 0:
            form = {"keep": str(ann.pk), "absorb": str(cat.pk), "confirm": "yes"}
            return clients[0].post(MERGE, form, follow=True)
        return clients[index].post(edit, {"name": f"Cat {index}", "username": ""}, follow=True)

    results = together(post, THREADS)

    answered = [
        repr(r) if isinstance(r, BaseException) else (r.status_code, r.redirect_chain, said(r))
        for r in results
    ]
    (merged,) = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED)
    # The merge took the player under the name the last edit before it gave them.
    gone = merged.before["name"]
    assert merged.summary == f"{gone} merged into Ann"
    # Its message names the player as its form read them, before or after an edit.
    names = ["Cat", *(f"Cat {index}" for index in range(1, THREADS))]
    assert answered[0] in [
        (
            200,
            [(MEMBERS, 302)],
            [f"{name} is merged into Ann; the ratings have been worked out again."],
        )
        for name in names
    ], answered[0]
    saved = [f"Cat {index} is saved." for index in range(1, THREADS)]
    told = f"{gone} was merged into Ann a moment ago; nothing was changed."
    for index, answer in enumerate(answered[1:], start=1):
        assert answer in [
            (200, [(MEMBERS, 302)], [saved[index - 1]]),
            (200, [(MEMBERS, 302)], [told]),
        ], answer
    edits = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.MEMBER_CHANGED)
    assert edits.count() == sum(answer[2] != [told] for answer in answered[1:])
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]


# A late arrival of the player a merge takes away ---------------------------------------------


def test_a_late_arrival_of_a_player_merged_meanwhile_is_refused_with_the_merge(league, organiser):
    p = members(league, "Ann", "Bob", "Cat")
    night = services.night_create(
        league=league, date=NIGHT, player_ids=[p["Bob"].pk], user=organiser
    )
    services.player_merge(league=league, keep=p["Ann"], absorb=p["Cat"], user=organiser)

    # The player as the arrival form had read it before the merge went through.
    with pytest.raises(services.LeagueError) as refused:
        services.night_arrival(night=night, player=p["Cat"], user=organiser)

    assert refused.value.errors == [("player", TOLD)]
    assert list(night.attendances.values_list("player__name", flat=True)) == ["Bob"]
    assert not league.events.filter(kind=LeagueEvent.Kind.LATE_ARRIVAL)


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_a_merge_and_nineteen_late_arrivals_of_the_player_it_merges_away_at_once(league, organiser):
    p = members(league, "Ann", "Bob", "Cat")
    ann, cat = p["Ann"], p["Cat"]
    night = services.night_create(league=league, date=NIGHT, player_ids=[p["Bob"].pk], user=None)
    arrivals = f"/leagues/thursday/nights/{night.pk}/arrivals/"
    clients = []
    for _ in range(THREADS):
        client = Client(raise_request_exception=False)
        client.force_login(organiser)
        clients.append(client)

    def post(index: int):
        if index == 0:
            form = {"keep": str(ann.pk), "absorb": str(cat.pk), "confirm": "yes"}
            return clients[0].post(MERGE, form, follow=True)
        return clients[index].post(arrivals, {"player": str(cat.pk), "name": ""})

    results = together(post, THREADS)

    assert not [r for r in results if isinstance(r, BaseException)], results
    assert said(results[0]) == ["Cat is merged into Ann; the ratings have been worked out again."]
    arrived = [r for r in results[1:] if r.status_code == 302]
    # At most one arrival went in before the merge; every other one was told why not.
    assert len(arrived) <= 1
    for refused in (r for r in results[1:] if r.status_code != 302):
        assert refused.status_code == 200
        assert any(
            told in refused.text
            for told in (
                TOLD,
                "Cat is already here tonight.",
                "Choose one of the members listed.",
            )
        ), refused.text[:2000]
    present = sorted(night.attendances.values_list("player__name", flat=True))
    assert present == (["Ann", "Bob"] if arrived else ["Bob"])
    assert list(Player.objects.order_by("name").values_list("name", flat=True)) == ["Ann", "Bob"]
