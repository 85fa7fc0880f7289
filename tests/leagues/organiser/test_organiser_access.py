"""Who may open the organiser's pages and write through them, and what everyone else is answered."""

import pytest

from leagues import services
from leagues.models import League, LeagueEvent, LeagueGame, Player
from tests.helpers.leagues import league_form

pytestmark = pytest.mark.django_db


def page_urls(league: League, league_game: LeagueGame) -> list[str]:
    season = league.seasons.get()
    night = league_game.night
    player = league_game.participations.first().player
    slug = league.slug
    return [
        f"/leagues/{slug}/edit/",
        f"/leagues/{slug}/seasons/new/",
        f"/leagues/{slug}/seasons/{season.pk}/edit/",
        f"/leagues/{slug}/members/",
        f"/leagues/{slug}/members/{player.pk}/edit/",
        f"/leagues/{slug}/members/merge/",
        f"/leagues/{slug}/members/import/",
        f"/leagues/{slug}/nights/new/",
        f"/leagues/{slug}/nights/{night.pk}/seating/",
        f"/leagues/{slug}/nights/{night.pk}/start/",
        f"/leagues/{slug}/nights/{night.pk}/arrivals/",
        f"/leagues/{slug}/games/{league_game.pk}/void/",
        f"/leagues/{slug}/games/{league_game.pk}/unvoid/",
        f"/leagues/{slug}/audit/",
    ]


def test_every_page_opens_for_an_organiser(as_organiser, league, league_game):
    for url in page_urls(league, league_game):
        assert as_organiser.get(url).status_code == 200, url


def test_every_page_refuses_a_member_who_does_not_organise(
    client, league, league_game, member_user
):
    client.force_login(member_user)
    for url in page_urls(league, league_game):
        response = client.get(url)
        assert response.status_code == 403, url
        assert (
            "Only the organisers of Thursday Club can do this. Ask one of them to add you."
            in response.content.decode()
        )


def test_every_page_refuses_a_signed_in_stranger(client, league, league_game, stranger):
    client.force_login(stranger)
    for url in page_urls(league, league_game):
        assert client.get(url).status_code == 403, url


def test_every_page_sends_a_signed_out_visitor_to_sign_in(client, league, league_game):
    for url in [*page_urls(league, league_game), "/leagues/new/"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/accounts/login/?next={url}"


def test_a_private_league_is_not_found_for_a_stranger(client, league, league_game, stranger):
    services.league_update(league=league, user=None, visibility=League.Visibility.PRIVATE)
    client.force_login(stranger)
    for url in page_urls(league, league_game):
        assert client.get(url).status_code == 404, url


def test_a_private_league_refuses_its_member_who_does_not_organise(
    client, league, league_game, member_user
):
    services.league_update(league=league, user=None, visibility=League.Visibility.PRIVATE)
    client.force_login(member_user)
    for url in page_urls(league, league_game):
        assert client.get(url).status_code == 403, url


def test_an_unknown_league_is_not_found(as_organiser):
    assert as_organiser.get("/leagues/nowhere/members/").status_code == 404


def test_a_stranger_cannot_write(client, league, league_game, stranger):
    client.force_login(stranger)
    night = league_game.night
    posts = [
        (f"/leagues/thursday/games/{league_game.pk}/void/", {"reason": "Mine now"}),
        (f"/leagues/thursday/nights/{night.pk}/seating/", {"action": "propose"}),
        (f"/leagues/thursday/nights/{night.pk}/start/", {}),
        ("/leagues/thursday/members/", {"action": "add_new", "name": "Zed"}),
        ("/leagues/thursday/edit/", league_form(name="Taken")),
    ]
    events = LeagueEvent.objects.count()
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    league_game.refresh_from_db()
    assert not league_game.voided
    assert League.objects.get().name == "Thursday Club"
    assert not Player.objects.filter(name="Zed").exists()
    assert LeagueEvent.objects.count() == events
