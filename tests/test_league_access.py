"""A league beyond the permission table: who sees it listed, a refused void, account links."""

import datetime
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from leagues import services
from leagues.models import League, LeagueGame, Player
from tests.helpers.leagues import UserFactory, table_game
from tests.helpers.permissions import CHANGE, build_league, resolve

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.mark.parametrize(
    ("who", "listed"),
    [("anyone", False), ("user", False), ("member", True), ("organiser", True)],
)
def test_league_list_shows_a_private_league_only_to_its_members_and_organisers(world, who, listed):
    page = world.clients[who].get("/leagues/").content.decode()

    assert "Thursday Club" in page
    assert ("Hidden Club" in page) is listed


def test_unlisted_league_is_open_to_anyone_with_its_address_but_not_listed(world):
    League.objects.filter(slug="thursday").update(visibility=League.Visibility.UNLISTED)
    anyone = world.clients["anyone"]

    assert anyone.get("/leagues/thursday/").status_code == 200
    assert "Thursday Club" not in anyone.get("/leagues/").content.decode()


def test_voided_game_void_is_organisers_only_and_changes_nothing_when_refused(world):
    url = resolve("{l}/games/{league_game}/void/", world, False)

    refused = world.clients["member"].post(url, {"reason": "Wrong players"})
    assert refused.status_code == 403
    assert not LeagueGame.objects.get(pk=world.public.league_game).voided

    allowed = world.clients["organiser"].post(url, {"reason": "Wrong players"})
    assert allowed.status_code == 302
    assert LeagueGame.objects.get(pk=world.public.league_game).voided


# Account links ------------------------------------------------------------------------------


@dataclass
class Shared:
    """Pat plays in the private Hidden Club, linked there to the account pat, and in Eve's
    Club, which eve organises and Hidden Club's organisers do not."""

    pat: Player
    eves_game: str
    clients: dict[str, Client]


@pytest.fixture
def shared(world) -> Shared:
    olive, eve = User.objects.get(username="olive"), UserFactory(username="eve")
    pat_account = UserFactory(username="pat")
    hidden = League.objects.get(slug="hidden")
    pat = services.member_add(league=hidden, name="Pat", account=pat_account, user=olive).player
    build_league(
        eve, UserFactory(), name="Eve's Club", slug="eves", visibility=League.Visibility.PRIVATE
    )
    eves = League.objects.get(slug="eves")
    services.member_add(league=eves, player=pat, user=eve)
    rival = services.member_add(league=eves, name="Rex", user=eve).player
    eves_game = table_game(eves, [[pat], [rival]], date=datetime.date(2026, 10, 8)).game.public_id
    clients = {}
    for who, account in (
        ("eve", eve),
        ("pat", pat_account),
        ("sam", User.objects.get(username="sam")),
    ):
        clients[who] = Client()
        clients[who].force_login(account)
    return Shared(pat, eves_game, clients)


def can_read_and_score(client: Client, slug: str, public_id: str) -> tuple[int, int, bool]:
    """The league page, the round form of one of its games, and whether /leagues/ lists it."""
    return (
        client.get(f"/leagues/{slug}/").status_code,
        client.get(f"/g/{public_id}/rounds/new/").status_code,
        f'href="/leagues/{slug}/"' in client.get("/leagues/").text,
    )


def test_an_organiser_who_links_a_shared_player_to_themself_gains_nothing_in_the_other_league(
    world, shared
):
    eve = shared.clients["eve"]
    assert can_read_and_score(eve, "hidden", world.private.game) == (404, 403, False)

    linked = eve.post(
        f"/leagues/eves/members/{shared.pat.pk}/edit/", {"name": "Pat", "username": "eve"}
    )

    assert linked["Location"] == "/leagues/eves/members/"
    assert can_read_and_score(eve, "hidden", world.private.game) == (404, 403, False)
    refused = eve.post(f"/g/{world.private.game}/rounds/new/", {})
    assert (refused.status_code, escape(CHANGE) in refused.text) == (403, True)


def test_an_account_linked_in_one_league_becomes_a_member_of_that_league_only(world, shared):
    sam = shared.clients["sam"]
    before = (
        can_read_and_score(sam, "eves", shared.eves_game),
        can_read_and_score(sam, "hidden", world.private.game),
    )

    shared.clients["eve"].post(
        f"/leagues/eves/members/{shared.pat.pk}/edit/", {"name": "Pat", "username": "sam"}
    )

    after = (
        can_read_and_score(sam, "eves", shared.eves_game),
        can_read_and_score(sam, "hidden", world.private.game),
    )
    assert before == ((404, 403, False), (404, 403, False))
    assert after == ((200, 200, True), (404, 403, False))


def test_the_other_leagues_link_is_untouched_by_an_edit_here(world, shared):
    pat, eve = shared.clients["pat"], shared.clients["eve"]
    assert can_read_and_score(pat, "hidden", world.private.game) == (200, 200, True)

    eve.post(f"/leagues/eves/members/{shared.pat.pk}/edit/", {"name": "Pat", "username": ""})
    eve.post(f"/leagues/eves/members/{shared.pat.pk}/edit/", {"name": "Pat", "username": "eve"})

    assert can_read_and_score(pat, "hidden", world.private.game) == (200, 200, True)
    members_page = world.clients["organiser"].get("/leagues/hidden/members/").text
    assert re.search(r"<th scope=\"row\">Pat</th>\s*<td>pat</td>", members_page)
