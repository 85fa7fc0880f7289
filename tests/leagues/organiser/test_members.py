"""A league's members: added, renamed, linked to accounts and merged, and the refusals."""

import re

import pytest
from django.utils.html import escape

from leagues import services
from leagues.models import LeagueEvent, Membership, Player
from tests.helpers.leagues import NIGHT, league_with, play, table_game
from tests.helpers.pages import assert_beside

pytestmark = pytest.mark.django_db


def test_the_members_page_lists_names_ratings_and_games(as_organiser, league, league_game):
    play(league_game, [500, 100])

    html = as_organiser.get("/leagues/thursday/members/").content.decode()

    ann = Membership.objects.get(league=league, player__name="Ann")
    assert ann.rated_games == 1
    assert f'<td class="num">{ann.rating:.1f}</td>' in html
    assert '<th scope="row">Eve</th>' in html
    assert '<td class="num"><span class="muted">new</span></td>' in html


def member_rows(html: str) -> list[str]:
    return re.findall(r'<th scope="row">([^<]*)</th>', html)


def test_a_long_members_list_is_searched_by_name_or_account_as_it_is_typed(
    as_organiser, league, eight, stranger
):
    before = as_organiser.get("/leagues/thursday/members/").content.decode()
    for name in ("Zoë O'Neil", "Zoe Adams", "Bea", "Cal", "Dot", "Flo", "Gil", "Hop", "Ivo"):
        services.member_add(league=league, name=name, user=league.organisers.get())
    services.member_add(league=league, name="Sam", account=stranger, user=league.organisers.get())
    url = "/leagues/thursday/members/"

    every = as_organiser.get(url).content.decode()
    found = as_organiser.get(url, {"q": " zoe o'neil "}).content.decode()
    by_account = as_organiser.get(url, {"q": "SAM"}).content.decode()
    accents = as_organiser.get(url, {"q": "zoe"}).content.decode()
    none = as_organiser.get(url, {"q": "Quentin"}).content.decode()

    # Eight members are offered no search; past ten they are.
    assert 'role="search"' not in before
    assert 'role="search"' in every
    assert member_rows(found) == ["Zoë O&#x27;Neil"]
    assert "1 of 18 members matches “zoe o&#x27;neil”." in found
    assert member_rows(by_account) == ["Sam"]
    assert member_rows(accents) == ["Zoe Adams", "Zoë O&#x27;Neil"]
    assert "2 of 18 members match “zoe”." in accents
    assert member_rows(none) == []
    assert '<td colspan="5" class="empty">No member matches “Quentin”.</td>' in none
    assert 'href="/leagues/thursday/members/">Show every member</a>' in none
    assert len(member_rows(every)) == 18


def test_a_new_member_is_added_with_an_account(as_organiser, league, stranger):
    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_new", "name": " Sam ", "username": "sam"}
    )

    assert response["Location"] == "/leagues/thursday/members/"
    membership = Membership.objects.get(league=league, player__name="Sam")
    assert membership.user == stranger


def test_a_member_needs_a_name(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_new", "name": "", "username": ""}
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), "name", "Type the member's name.")
    assert not Membership.objects.filter(league=league).exists()


def test_a_member_with_an_unknown_account_is_refused(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_new", "name": "Zed", "username": "zed"}
    )

    assert_beside(
        response.content.decode(),
        "username",
        "No account is called “zed”; check the spelling, or leave it blank.",
    )
    assert not Player.objects.filter(name="Zed").exists()


def test_a_player_from_another_league_the_organiser_runs_is_added(as_organiser, organiser):
    thursday = league_with(organiser)
    friday = services.league_create(name="Friday", slug="friday", preset="sevens", user=organiser)
    pat = services.member_add(league=friday, name="Pat", user=None).player

    html = as_organiser.get("/leagues/thursday/members/").content.decode()
    assert f'<option value="{pat.pk}">Pat</option>' in html

    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_existing", "player": str(pat.pk)}
    )

    assert response.status_code == 302
    assert Membership.objects.filter(league=thursday, player=pat).exists()
    assert Player.objects.filter(name="Pat").count() == 1


def test_a_player_from_a_league_the_organiser_does_not_run_cannot_be_added(
    as_organiser, league, stranger
):
    theirs = services.league_create(name="Theirs", slug="theirs", preset="sevens", user=stranger)
    pat = services.member_add(league=theirs, name="Pat", user=None).player

    response = as_organiser.post(
        "/leagues/thursday/members/", {"action": "add_existing", "player": str(pat.pk)}
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), "player", "Choose one of the players listed.")
    assert not Membership.objects.filter(league=league, player=pat).exists()


def test_a_member_is_renamed_and_unlinked(as_organiser, league, member_user):
    mia = Player.objects.get(name="Mia")

    response = as_organiser.post(
        f"/leagues/thursday/members/{mia.pk}/edit/", {"name": "Mia Jones", "username": ""}
    )

    assert response["Location"] == "/leagues/thursday/members/"
    mia.refresh_from_db()
    assert (mia.name, Membership.objects.get(player=mia).user) == ("Mia Jones", None)
    event = league.events.latest("id")
    assert (event.before, event.after) == (
        {"name": "Mia", "account": "mia"},
        {"name": "Mia Jones", "account": None},
    )


def test_a_member_is_linked_to_an_account(as_organiser, league, eight, stranger):
    ann = eight["Ann"]

    as_organiser.post(
        f"/leagues/thursday/members/{ann.pk}/edit/", {"name": "Ann", "username": "sam"}
    )

    assert Membership.objects.get(league=league, player=ann).user == stranger


def test_a_player_outside_the_league_is_not_found(as_organiser, league):
    outsider = Player.objects.create(name="Out")

    assert as_organiser.get(f"/leagues/thursday/members/{outsider.pk}/edit/").status_code == 404


def test_merging_a_name_ending_in_s_says_what_moves_without_s_apostrophe_s(
    as_organiser, league, eight, league_game
):
    chris = services.member_add(league=league, name="Chris", user=None).player
    table_game(
        league, [[chris, eight["Eve"]], [eight["Fay"], eight["Gus"]]], date=NIGHT.replace(day=8)
    )

    response = as_organiser.post(
        "/leagues/thursday/members/merge/", {"keep": str(eight["Bob"].pk), "absorb": str(chris.pk)}
    )

    assert "The 1 game and 1 club night of Chris move to Bob." in response.content.decode()


def test_merging_asks_first_and_says_what_moves(as_organiser, league, eight, league_game):
    bob = eight["Bob"]
    twin = services.member_add(league=league, name="Bob S.", user=None).player
    table_game(
        league, [[twin, eight["Eve"]], [eight["Fay"], eight["Gus"]]], date=NIGHT.replace(day=8)
    )

    response = as_organiser.post(
        "/leagues/thursday/members/merge/", {"keep": str(bob.pk), "absorb": str(twin.pk)}
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Merge Bob S. into Bob?</h1>" in html
    assert escape("Bob S.'s 1 game and 1 club night move to Bob.") in html
    assert "Bob S. is then removed. This cannot be undone." in html
    assert Player.objects.filter(pk=twin.pk).exists()

    response = as_organiser.post(
        "/leagues/thursday/members/merge/",
        {"keep": str(bob.pk), "absorb": str(twin.pk), "confirm": "yes"},
    )

    assert response["Location"] == "/leagues/thursday/members/"
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert bob.participations.count() == 2
    assert league.events.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED).count() == 1


def test_a_merge_keeps_each_leagues_account_link(as_organiser, organiser, league, eight, stranger):
    friday = services.league_create(name="Friday", slug="friday", preset="sevens", user=organiser)
    bob = eight["Bob"]
    twin = services.member_add(league=league, name="Bob S.", account=stranger, user=None).player
    services.member_add(league=friday, player=twin, user=None)

    response = as_organiser.post(
        "/leagues/thursday/members/merge/",
        {"keep": str(bob.pk), "absorb": str(twin.pk), "confirm": "yes"},
    )

    assert response.status_code == 302
    assert sorted(
        Membership.objects.filter(player=bob).values_list("league__slug", "user__username")
    ) == [("friday", None), ("thursday", "sam")]


def test_a_player_cannot_be_merged_into_themself(as_organiser, league, eight):
    ann = eight["Ann"]

    response = as_organiser.post(
        "/leagues/thursday/members/merge/", {"keep": str(ann.pk), "absorb": str(ann.pk)}
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), "absorb", "Choose two different players to merge.")


def test_two_players_at_the_same_night_are_not_merged(as_organiser, league, eight, league_game):
    ann, bob = eight["Ann"], eight["Bob"]

    response = as_organiser.post(
        "/leagues/thursday/members/merge/",
        {"keep": str(ann.pk), "absorb": str(bob.pk), "confirm": "yes"},
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(),
        "absorb",
        "Ann and Bob were at the same club night, so they are two people.",
    )
    assert Player.objects.filter(pk=bob.pk).exists()


@pytest.mark.parametrize("field", ["keep", "absorb"])
@pytest.mark.parametrize("digits", [20, 4301, 5000])
def test_a_merge_of_an_id_longer_than_any_is_refused_beside_its_field(
    as_organiser, league, eight, field, digits
):
    chosen = {"keep": str(eight["Ann"].pk), "absorb": str(eight["Bob"].pk)}
    players = Player.objects.count()

    response = as_organiser.post(
        "/leagues/thursday/members/merge/", {**chosen, field: "9" * digits, "confirm": "yes"}
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), field, "Choose one of the league's members.")
    assert Player.objects.count() == players
