"""The organiser's pages: who may open them, what each writes, and every refusal shown beside
the field it is about with nothing written."""

import datetime
import re

import pytest
from django.utils import timezone
from django.utils.html import escape

from leagues import services
from leagues.models import (
    Attendance,
    ClubNight,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Player,
)
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_update
from tests.helpers.leagues import (
    NIGHT,
    UserFactory,
    league_form,
    league_with,
    members,
    play,
    table_game,
)
from tests.helpers.pages import assert_beside, field_block, rule_block

pytestmark = pytest.mark.django_db

EIGHT = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


# Helpers ------------------------------------------------------------------------------------


def seat_row(html: str, player: Player) -> str:
    start = html.index('<div class="seat-row')
    rows = re.split(r'(?=<div class="seat-row)', html[start:])
    (row,) = [r for r in rows if f'id="seat-{player.pk}"' in r]
    return row.split("</fieldset>")[0]


def table_fieldset(html: str, table: int) -> str:
    start = html.index(f'<fieldset class="seat-table" id="table-{table}">')
    return html[start : html.index("</fieldset>", start)]


def seating_form(night: ClubNight, seats: dict[Player, tuple[int | str, int] | None]) -> dict:
    """The seating form as typed: a table and a 1-based side per player; None sits out."""
    data = {"action": "save"}
    for player, seat in seats.items():
        table, side = seat if seat is not None else ("", 1)
        data[f"seat-{player.pk}-table"] = str(table)
        data[f"seat-{player.pk}-side"] = str(side)
    return data


def seats_of(night: ClubNight) -> dict[str, tuple]:
    return {
        a.player.name: (a.table, a.side)
        for a in Attendance.objects.filter(night=night).select_related("player")
    }


@pytest.fixture
def stranger(db):
    return UserFactory(username="sam")


@pytest.fixture
def member_user(league):
    """A signed-up player of the league who does not organise it."""
    user = UserFactory(username="mia")
    services.member_add(league=league, name="Mia", account=user, user=None)
    return user


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def eight(league):
    return members(league, *EIGHT)


@pytest.fixture
def night(league, eight) -> ClubNight:
    return services.night_create(
        league=league, date=NIGHT, player_ids=[p.pk for p in eight.values()], user=None
    )


@pytest.fixture
def league_game(league, eight) -> LeagueGame:
    p = eight
    return table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]])


# Who may open the pages ---------------------------------------------------------------------


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


# A new league -------------------------------------------------------------------------------


def test_any_signed_in_user_starts_a_league_and_runs_it(client, stranger):
    client.force_login(stranger)
    assert client.get("/leagues/new/").status_code == 200

    response = client.post("/leagues/new/", league_form())

    assert response.status_code == 302
    assert response["Location"] == "/leagues/friday/"
    league = League.objects.get(slug="friday")
    assert (league.name, league.preset, league.play, league.win_points) == (
        "Friday Club",
        "ten-thousand",
        "teams",
        3,
    )
    assert list(league.organisers.all()) == [stranger]
    assert league.events.get().kind == LeagueEvent.Kind.LEAGUE_CREATED


def test_baskets_plays_singles_unless_told_otherwise(as_organiser):
    as_organiser.post("/leagues/new/", league_form(preset="baskets"))
    as_organiser.post("/leagues/new/", league_form(slug="duo", preset="baskets", play="teams"))

    assert League.objects.get(slug="friday").play == League.Play.SINGLES
    assert League.objects.get(slug="duo").play == League.Play.TEAMS


def test_a_blank_address_is_made_from_the_name(as_organiser):
    response = as_organiser.post("/leagues/new/", league_form(name="Sunday Stars", slug=""))

    assert response["Location"] == "/leagues/sunday-stars/"


def test_house_rules_none_and_numbers(as_organiser):
    as_organiser.post("/leagues/new/", league_form(**{"rule-target_score": "", "rule-rounds": "4"}))

    assert League.objects.get(slug="friday").house_rules == {"target_score": None, "rounds": 4}


def test_a_taken_address_is_refused_beside_it(as_organiser, league):
    response = as_organiser.post("/leagues/new/", league_form(slug="thursday"))

    assert response.status_code == 200
    assert_beside(
        response.content.decode(),
        "slug",
        "Another league already uses the address “thursday”; choose another, such as “thursday-2”.",
    )
    assert League.objects.count() == 1
    assert 'value="Friday Club"' in field_block(response.content.decode(), "name")


def test_the_address_new_is_kept_for_the_new_league_page(as_organiser):
    response = as_organiser.post("/leagues/new/", league_form(slug="new"))

    assert_beside(
        response.content.decode(),
        "slug",
        "The address “new” is kept for this site's pages; choose another.",
    )
    assert not League.objects.exists()


def test_an_empty_name_is_refused_beside_it(as_organiser):
    response = as_organiser.post("/leagues/new/", league_form(name="  ", slug="x"))

    assert response.status_code == 200
    assert_beside(response.content.decode(), "name", "Give the league a name.")
    assert not League.objects.exists()


def test_a_house_rule_the_engine_refuses_is_shown_beside_it(as_organiser):
    response = as_organiser.post("/leagues/new/", league_form(**{"rule-target_score": "lots"}))

    assert response.status_code == 200
    block = rule_block(response.content.decode(), "target_score")
    assert (
        '<p class="field-error" role="alert">The target score must be a whole number from 1 to '
        "100,000,000 or left empty, not &quot;lots&quot;.</p>"
    ) in block
    assert 'value="lots"' in block
    assert not League.objects.exists()


# League settings and organisers -------------------------------------------------------------


def test_the_settings_page_says_seasons_keep_their_rules(as_organiser, league):
    html = as_organiser.get("/leagues/thursday/edit/").content.decode()

    assert "Seasons already created keep the rules they froze when they were added" in html
    assert 'value="Thursday Club"' in field_block(html, "name")
    assert "disabled" in field_block(html, "slug")


def test_settings_are_saved_and_seasons_keep_their_rules(as_organiser, league):
    frozen = league.seasons.get().rules

    response = as_organiser.post(
        "/leagues/thursday/edit/",
        league_form(
            name="Thursday Night Club",
            slug="ignored",
            scoring="total",
            **{"rule-target_score": "5000", "rule-rounds": ""},
        ),
    )

    assert response.status_code == 302
    assert response["Location"] == "/leagues/thursday/"
    league.refresh_from_db()
    assert (league.name, league.slug, league.scoring) == (
        "Thursday Night Club",
        "thursday",
        "total",
    )
    assert league.house_rules == {"target_score": 5000}
    assert league.seasons.get().rules == frozen
    event = league.events.filter(kind=LeagueEvent.Kind.LEAGUE_CHANGED).get()
    assert event.before["name"] == "Thursday Club"
    # The audit names the settings as the form does, never by their field names.
    assert event.summary == (
        "Settings changed: name, description, house rules, standings by and points for a win. "
        "Now: target score 5,000 (the rule set's: 10,000)"
    )


def test_a_rule_set_the_site_does_not_know_is_refused_by_name(organiser, league):
    with pytest.raises(services.LeagueError) as caught:
        services.league_update(league=league, user=organiser, preset="canasta")

    assert caught.value.errors == [
        (
            "preset",
            "Choose one of the rule sets: Baskets, Four Rounds, Sevens, Ten Thousand, Cutthroat "
            "or Contract.",
        )
    ]


def test_settings_refusal_keeps_what_was_typed(as_organiser, league):
    before = league.house_rules
    response = as_organiser.post(
        "/leagues/thursday/edit/",
        league_form(name="Renamed", **{"rule-rounds": "0", "rule-decks": "4"}),
    )

    assert response.status_code == 200
    html = response.content.decode()
    block = rule_block(html, "rounds")
    assert (
        '<p class="field-error" role="alert">The number of rounds must be a whole number from 1 '
        "to 1,000 or left empty, not 0.</p>"
    ) in block
    assert 'value="0"' in block
    assert 'value="4"' in rule_block(html, "decks")
    assert (
        '<p class="field-error" role="alert">Nothing was saved: a house rule below needs '
        "changing.</p>"
    ) in html
    assert 'value="Renamed"' in field_block(html, "name")
    league.refresh_from_db()
    assert (league.name, league.house_rules) == ("Thursday Club", before)
    assert not league.events.filter(kind=LeagueEvent.Kind.LEAGUE_CHANGED).exists()


def test_an_organiser_is_added_by_username(as_organiser, league, stranger):
    response = as_organiser.post(
        "/leagues/thursday/edit/", {"action": "add_organiser", "username": "sam"}
    )

    assert response["Location"] == "/leagues/thursday/edit/"
    assert set(league.organisers.values_list("username", flat=True)) == {"olive", "sam"}
    event = league.events.latest("id")
    assert (event.summary, event.after) == (
        "sam added as an organiser",
        {"organisers": ["olive", "sam"]},
    )


def test_an_unknown_username_is_refused_beside_it(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/edit/", {"action": "add_organiser", "username": "nobody"}
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(),
        "username",
        "No account is called “nobody”; check the spelling, or leave it blank.",
    )
    assert league.organisers.count() == 1


def test_the_last_organiser_cannot_be_removed(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/edit/", {"action": "remove_organiser", "username": "olive"}
    )

    assert response.status_code == 200
    assert (
        "A league needs at least one organiser: add another before removing olive."
        in response.content.decode()
    )
    assert list(league.organisers.values_list("username", flat=True)) == ["olive"]


def test_another_organiser_is_removed(as_organiser, league, stranger):
    league.organisers.add(stranger)

    response = as_organiser.post(
        "/leagues/thursday/edit/", {"action": "remove_organiser", "username": "sam"}
    )

    assert response["Location"] == "/leagues/thursday/edit/"
    assert list(league.organisers.values_list("username", flat=True)) == ["olive"]


def test_removing_yourself_leaves_for_the_league_page(as_organiser, league, stranger):
    league.organisers.add(stranger)

    response = as_organiser.post(
        "/leagues/thursday/edit/", {"action": "remove_organiser", "username": "olive"}
    )

    assert response["Location"] == "/leagues/thursday/"
    assert list(league.organisers.values_list("username", flat=True)) == ["sam"]


# Seasons ------------------------------------------------------------------------------------


def test_a_season_is_added(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Winter 2026", "starts_on": "2026-12-01", "ends_on": "2027-02-28"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/leagues/thursday/"
    season = league.seasons.get(name="Winter 2026")
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2026, 12, 1),
        datetime.date(2027, 2, 28),
    )
    assert season.rules["base"] == "ten-thousand"


def test_an_overlapping_season_is_refused_beside_its_start(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Late autumn", "starts_on": "2026-11-15", "ends_on": "2027-01-31"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert_beside(
        html,
        "starts_on",
        "These dates overlap season Autumn 2026 (1 September 2026 to 30 November 2026); a game's "
        "date must fall in one season only.",
    )
    assert 'value="2027-01-31"' in field_block(html, "ends_on")
    assert league.seasons.count() == 1


def test_a_season_ending_before_it_starts_is_refused_beside_its_end(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Backwards", "starts_on": "2027-03-01", "ends_on": "2027-02-01"},
    )

    assert_beside(
        response.content.decode(), "ends_on", "The season must end on or after the day it starts."
    )
    assert league.seasons.count() == 1


def test_a_season_name_used_twice_is_refused_beside_it(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/seasons/new/",
        {"name": "Autumn 2026", "starts_on": "2027-03-01", "ends_on": "2027-05-01"},
    )

    assert_beside(
        response.content.decode(), "name", "Thursday Club already has a season called Autumn 2026."
    )
    assert league.seasons.count() == 1


def test_a_season_is_renamed_and_moved(as_organiser, league):
    season = league.seasons.get()

    response = as_organiser.post(
        f"/leagues/thursday/seasons/{season.pk}/edit/",
        {"name": "Autumn", "starts_on": "2026-08-15", "ends_on": "2026-11-30"},
    )

    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.starts_on) == ("Autumn", datetime.date(2026, 8, 15))


def test_a_season_cannot_leave_out_its_club_nights(as_organiser, league, night):
    season = league.seasons.get()

    response = as_organiser.post(
        f"/leagues/thursday/seasons/{season.pk}/edit/",
        {"name": "Autumn 2026", "starts_on": "2026-10-02", "ends_on": "2026-11-30"},
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(),
        "starts_on",
        "The club night of 1 October 2026 belongs to this season; its dates must include it.",
    )
    season.refresh_from_db()
    assert season.starts_on == datetime.date(2026, 9, 1)


def test_another_leagues_season_is_not_found(as_organiser, league, organiser):
    other = League.objects.create(name="Other", slug="other", preset="ten-thousand")
    season = services.season_create(
        league=other,
        name="Spring",
        starts_on=datetime.date(2027, 3, 1),
        ends_on=datetime.date(2027, 5, 31),
        user=None,
    )

    assert as_organiser.get(f"/leagues/thursday/seasons/{season.pk}/edit/").status_code == 404


# Members ------------------------------------------------------------------------------------


def test_the_members_page_lists_names_ratings_and_games(as_organiser, league, league_game):
    play(league_game, [500, 100])

    html = as_organiser.get("/leagues/thursday/members/").content.decode()

    ann = Membership.objects.get(league=league, player__name="Ann")
    assert ann.rated_games == 1
    assert f'<td class="num">{ann.rating:.1f}</td>' in html
    assert '<th scope="row">Eve</th>' in html
    assert '<td class="num"><span class="muted">new</span></td>' in html


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


# Club nights --------------------------------------------------------------------------------


def test_the_new_night_form_starts_today_with_nobody_ticked(as_organiser, league, eight):
    html = as_organiser.get("/leagues/thursday/nights/new/").content.decode()

    assert f'value="{timezone.localdate():%Y-%m-%d}"' in field_block(html, "date")
    assert 'type="checkbox"' in html
    assert "checked" not in field_block(html, "players")


def test_tick_everyone_ticks_every_member_and_writes_nothing(as_organiser, league, eight):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "select_all", "date": "2026-10-01", "notes": "Hall B"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    players = field_block(html, "players")
    assert players.count("checked") == 8
    assert 'value="2026-10-01"' in field_block(html, "date")
    assert 'value="Hall B"' in field_block(html, "notes")
    assert not ClubNight.objects.exists()


@pytest.mark.parametrize("player_id", ["9223372036854775808", "-9223372036854775809"])
def test_an_id_too_big_for_the_database_is_refused_beside_the_players(
    as_organiser, league, eight, player_id
):
    # Found by the hostile-input property test: SQLite raised OverflowError, a 500.
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": [eight["Ann"].pk, player_id]},
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), "players", "Tick members of the league only.")
    assert not ClubNight.objects.exists()


def test_a_night_opens_with_the_players_ticked(as_organiser, league, eight):
    chosen = [eight[name].pk for name in EIGHT]

    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": chosen, "notes": "Hall B"},
    )

    night = ClubNight.objects.get()
    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/seating/"
    assert (night.date, night.notes) == (NIGHT, "Hall B")
    assert sorted(night.attendances.values_list("player_id", flat=True)) == sorted(chosen)


def test_a_night_outside_every_season_is_refused_beside_its_date(as_organiser, league, eight):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2027-01-07", "players": [eight["Ann"].pk]},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert_beside(
        html, "date", "No season of Thursday Club covers 7 January 2027; add a season first."
    )
    assert f'value="{eight["Ann"].pk}"' in field_block(html, "players")
    assert "checked" in field_block(html, "players")
    assert not ClubNight.objects.exists()


def test_a_second_night_on_a_date_is_refused(as_organiser, league, night):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/", {"action": "create", "date": "2026-10-01"}
    )

    assert_beside(
        response.content.decode(),
        "date",
        "Thursday Club already has a club night on 1 October 2026.",
    )
    assert ClubNight.objects.count() == 1


def test_a_bogus_night_is_not_found(as_organiser, league, night):
    assert as_organiser.get("/leagues/thursday/nights/99999/seating/").status_code == 404
    assert as_organiser.post("/leagues/thursday/nights/99999/start/").status_code == 404


def test_another_leagues_night_is_not_found(as_organiser, league, night, organiser):
    other = services.league_create(name="Other", slug="other", preset="sevens", user=organiser)

    assert as_organiser.get(f"/leagues/{other.slug}/nights/{night.pk}/seating/").status_code == 404


# Seating ------------------------------------------------------------------------------------


def test_a_club_night_from_the_form_to_three_tables(as_organiser, league, eight):
    p = eight
    # Open the night with eight players.
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": [x.pk for x in p.values()]},
    )
    night = ClubNight.objects.get()
    seating_url = f"/leagues/thursday/nights/{night.pk}/seating/"
    assert response["Location"] == seating_url

    # Propose: two tables of two pairs.
    response = as_organiser.post(seating_url, {"action": "propose"})
    assert response["Location"] == seating_url
    seats = seats_of(night)
    assert sorted({table for table, _ in seats.values()}) == [1, 2]
    assert all(side in (0, 1) for _, side in seats.values())
    html = as_organiser.get(seating_url).content.decode()
    assert '<fieldset class="seat-table" id="table-1">' in html
    assert '<fieldset class="seat-table" id="table-2">' in html

    # Swap two players between the tables by hand.
    at_1 = sorted(name for name, (t, _) in seats.items() if t == 1)
    at_2 = sorted(name for name, (t, _) in seats.items() if t == 2)
    a, b = at_1[0], at_2[0]
    typed = {p[name]: (t, s + 1) for name, (t, s) in seats.items()}
    typed[p[a]], typed[p[b]] = typed[p[b]], typed[p[a]]
    response = as_organiser.post(seating_url, seating_form(night, typed))
    assert response["Location"] == seating_url
    swapped = seats_of(night)
    assert swapped[a] == seats[b] and swapped[b] == seats[a]

    # Start the games: two league games whose sides hold the seated players.
    response = as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/")
    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/"
    started = list(LeagueGame.objects.filter(night=night).order_by("table"))
    assert [g.table for g in started] == [1, 2]
    for league_game in started:
        expected = [
            sorted(n for n, (t, s) in swapped.items() if t == league_game.table and s == side)
            for side in (0, 1)
        ]
        sides = list(league_game.game.sides.order_by("position"))
        assert [sorted(side.players) for side in sides] == expected
    assert Game.objects.count() == 2

    # Four more arrive late: three members and a newcomer.
    more = members(league, "Ida", "Jo", "Kim")
    for player in more.values():
        response = as_organiser.post(
            f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(player.pk)}
        )
        assert response["Location"] == seating_url
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": "", "name": "Lou"}
    )
    assert response["Location"] == seating_url
    lou = Player.objects.get(name="Lou")
    assert Membership.objects.filter(league=league, player=lou).exists()
    html = as_organiser.get(seating_url).content.decode()
    assert "<strong>Waiting for a seat:</strong> Ida, Jo, Kim, Lou" in html
    # The playing tables are shown, not offered for changes.
    assert f'name="seat-{p["Ann"].pk}-table"' not in html

    # Seat the four at table 3 and start it.
    late = {more["Ida"]: (3, 1), more["Jo"]: (3, 1), more["Kim"]: (3, 2), lou: (3, 2)}
    response = as_organiser.post(seating_url, seating_form(night, late))
    assert response["Location"] == seating_url
    assert as_organiser.get(f"/leagues/thursday/nights/{night.pk}/start/").status_code == 200
    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/")
    third = LeagueGame.objects.get(night=night, table=3)
    assert [side.players for side in third.game.sides.order_by("position")] == [
        ["Ida", "Jo"],
        ["Kim", "Lou"],
    ]
    assert seats_of(night) == {**swapped, "Ida": (3, 0), "Jo": (3, 0), "Kim": (3, 1), "Lou": (3, 1)}


def test_propose_after_tables_started_seats_only_the_others(as_organiser, league, eight, night):
    p = eight
    services.night_seating_set(
        night=night,
        choices=[
            services.SeatChoice(p["Ann"].pk, 1, 0),
            services.SeatChoice(p["Bob"].pk, 1, 0),
            services.SeatChoice(p["Cy"].pk, 1, 1),
            services.SeatChoice(p["Di"].pk, 1, 1),
        ],
        user=None,
    )
    services.night_games_start(night=night, user=None)

    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", {"action": "propose"})

    seats = seats_of(night)
    assert {n: seats[n] for n in ("Ann", "Bob", "Cy", "Di")} == {
        "Ann": (1, 0),
        "Bob": (1, 0),
        "Cy": (1, 1),
        "Di": (1, 1),
    }
    assert {seats[n][0] for n in ("Eve", "Fay", "Gus", "Hal")} == {2}


def test_a_table_with_one_side_is_refused_beside_the_table(as_organiser, league, eight, night):
    p = eight
    typed = {p[n]: (1, 1) for n in ("Ann", "Bob")} | {p[n]: None for n in EIGHT[2:]}

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed)
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert (
        '<p class="field-error" role="alert">Table 1 has 1 side; this rule set plays with 2 or '
        "more.</p>" in table_fieldset(html, 1)
    )
    assert 'value="1"' in seat_row(html, p["Ann"])
    assert all(seat == (None, None) for seat in seats_of(night).values())
    assert not league.events.filter(kind=LeagueEvent.Kind.SEATING_SET).exists()


def test_a_table_that_is_not_a_number_is_refused_beside_the_player(
    as_organiser, league, eight, night
):
    p = eight
    typed = {p["Ann"]: ("one", 1), p["Bob"]: (1, 1), p["Cy"]: (1, 2), p["Di"]: (1, 2)}

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed)
    )

    assert response.status_code == 200
    row = seat_row(response.content.decode(), p["Ann"])
    assert (
        '<p class="field-error" role="alert">Type Ann&#x27;s table as a number from 1 to 99, or '
        "leave it blank to sit out.</p>" in row
    )
    assert 'value="one"' in row
    assert all(seat == (None, None) for seat in seats_of(night).values())


def test_a_player_cannot_join_a_table_already_playing(as_organiser, league, eight, league_game):
    night = league_game.night
    eve = eight["Eve"]
    services.night_arrival(night=night, player=eve, user=None)

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, {eve: (1, 1)})
    )

    assert response.status_code == 200
    assert "Table 1&#x27;s game has started; seat Eve at a new table." in seat_row(
        response.content.decode(), eve
    )
    assert seats_of(night)["Eve"] == (None, None)


def test_a_player_left_off_the_posted_form_keeps_their_seat(as_organiser, league, eight, night):
    p = eight
    typed = {p["Ann"]: (1, 1), p["Bob"]: (1, 1), p["Cy"]: (1, 2), p["Di"]: (1, 2)}
    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed))
    # Eve arrived while another organiser had the form open; Ann moves to side 2 and Cy to 1.
    typed = {p["Ann"]: (1, 2), p["Bob"]: (1, 1), p["Cy"]: (1, 1), p["Di"]: (1, 2)}

    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed))

    assert seats_of(night)["Ann"] == (1, 1)
    assert seats_of(night)["Eve"] == (None, None)


def test_starting_with_nobody_seated_says_why(as_organiser, league, night):
    response = as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/", follow=False)

    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/seating/"
    page = as_organiser.get(response["Location"]).content.decode()
    assert "Every seated table is already playing; seat players first." in page
    assert not LeagueGame.objects.exists()


def test_an_arrival_needs_a_member_or_a_name(as_organiser, league, night):
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": "", "name": ""}
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(), "player", "Choose who arrived, or type a new member's name."
    )


def test_an_arrival_is_a_member_or_a_name_not_both(as_organiser, league, night):
    ida = members(league, "Ida")["Ida"]

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(ida.pk), "name": "Lou"}
    )

    assert_beside(
        response.content.decode(), "name", "Choose a member or type a new name, not both."
    )
    assert not Player.objects.filter(name="Lou").exists()
    assert not night.attendances.filter(player=ida).exists()


def test_a_player_already_here_is_not_offered_as_an_arrival(as_organiser, league, eight, night):
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(eight["Ann"].pk)}
    )

    assert_beside(response.content.decode(), "player", "Choose one of the members listed.")
    assert night.attendances.count() == 8


# Voids --------------------------------------------------------------------------------------


def test_a_game_is_voided_with_a_reason(as_organiser, league, league_game):
    play(league_game, [500, 100])
    url = f"/leagues/thursday/games/{league_game.pk}/void/"
    assert 'name="reason"' in as_organiser.get(url).content.decode()

    response = as_organiser.post(url, {"reason": "Wrong deck used"})

    assert response["Location"] == f"/leagues/thursday/nights/{league_game.night_id}/"
    league_game.refresh_from_db()
    assert (league_game.voided, league_game.void_reason) == (True, "Wrong deck used")
    assert not league_game.participations.filter(counted=True).exists()


def test_a_game_without_a_night_goes_back_to_the_league(as_organiser, league, league_game):
    LeagueGame.objects.filter(pk=league_game.pk).update(night=None, table=None)

    response = as_organiser.post(
        f"/leagues/thursday/games/{league_game.pk}/void/", {"reason": "Practice"}
    )

    assert response["Location"] == "/leagues/thursday/"


def test_a_void_needs_a_reason(as_organiser, league, league_game):
    response = as_organiser.post(f"/leagues/thursday/games/{league_game.pk}/void/", {"reason": " "})

    assert response.status_code == 200
    assert_beside(
        response.content.decode(), "reason", "Say why the game is voided (up to 200 characters)."
    )
    league_game.refresh_from_db()
    assert not league_game.voided
    assert not league.events.filter(kind=LeagueEvent.Kind.GAME_VOIDED).exists()


def test_a_void_reason_is_at_most_200_characters(as_organiser, league, league_game):
    response = as_organiser.post(
        f"/leagues/thursday/games/{league_game.pk}/void/", {"reason": "x" * 201}
    )

    assert_beside(
        response.content.decode(),
        "reason",
        "Say why the game is voided in at most 200 characters (this has 201).",
    )
    league_game.refresh_from_db()
    assert not league_game.voided


def test_a_voided_game_counts_again(as_organiser, league, league_game):
    play(league_game, [500, 100])
    services.game_void(league_game=league_game, reason="Oops", user=None)
    url = f"/leagues/thursday/games/{league_game.pk}/unvoid/"
    assert "It was voided: Oops" in as_organiser.get(url).content.decode()

    response = as_organiser.post(url)

    assert response["Location"] == f"/leagues/thursday/nights/{league_game.night_id}/"
    league_game.refresh_from_db()
    assert not league_game.voided
    assert league_game.participations.filter(counted=True).count() == 4


def test_lifting_a_void_from_a_game_that_counts_is_refused(as_organiser, league, league_game):
    response = as_organiser.post(f"/leagues/thursday/games/{league_game.pk}/unvoid/")

    assert response.status_code == 200
    assert "This game is not voided." in response.content.decode()


def test_another_leagues_game_is_not_found(as_organiser, league, league_game, organiser):
    other = services.league_create(name="Other", slug="other", preset="sevens", user=organiser)

    assert (
        as_organiser.get(f"/leagues/{other.slug}/games/{league_game.pk}/void/").status_code == 404
    )


# Audit --------------------------------------------------------------------------------------


def test_the_audit_shows_a_round_correction_and_a_void(
    as_organiser, league, league_game, organiser
):
    play(league_game, [500, 100])
    round_update(
        game=league_game.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 100}, {"melded_points": 500}],
        user=organiser,
    )
    services.game_void(league_game=league_game, reason="Wrong <deck>", user=organiser)

    html = as_organiser.get("/leagues/thursday/audit/").content.decode()

    public_id = league_game.game.public_id
    assert (
        f'<strong>Round corrected</strong>: round 1 of <a href="/g/{public_id}/">Ann &amp; Bob '
        "vs Cy &amp; Di</a>" in html
    )
    assert "<dt>Entry</dt>" in html
    assert "&quot;melded_points&quot;: 500" in html
    assert (
        "<strong>Game Ann &amp; Bob vs Cy &amp; Di of 1 October 2026 voided: Wrong &lt;deck&gt;"
        "</strong>" in html
    )
    assert "<dt>Reason</dt><dd>Wrong &lt;deck&gt;</dd>" in html
    assert "Wrong <deck>" not in html
    # Newest first: the void, then the correction, then the league's earlier events.
    assert html.index("voided: Wrong") < html.index("Round corrected") < html.index("Games started")
    assert "by olive" in html


def _events(league: League, count: int) -> None:
    LeagueEvent.objects.bulk_create(
        LeagueEvent(league=league, kind="member_changed", who="olive", summary=f"Change {i}")
        for i in range(count)
    )


@pytest.mark.parametrize("extra", [5, 60])
def test_the_audit_costs_the_same_queries_however_long(
    as_organiser, league, league_game, organiser, extra, django_assert_num_queries
):
    play(league_game, [500, 100])
    for _ in range(extra // 5):
        round_update(
            game=league_game.game,
            number=1,
            ended_by="stock_exhausted",
            entry=[{"melded_points": 100}, {"melded_points": 500}],
            user=organiser,
        )
    _events(league, extra)

    # Session, user, league, organiser check, two counts, two reads, the games' sides.
    with django_assert_num_queries(9):
        response = as_organiser.get("/leagues/thursday/audit/")

    assert response.status_code == 200


def test_the_audit_pages_at_a_hundred(as_organiser, league, league_game):
    _events(league, 150)
    total = LeagueEvent.objects.filter(league=league).count()

    first = as_organiser.get("/leagues/thursday/audit/").content.decode()
    second = as_organiser.get("/leagues/thursday/audit/?page=2").content.decode()

    assert first.count('<p class="org-audit-what">') == 100
    assert second.count('<p class="org-audit-what">') == total - 100
    assert "Change 149" in first and "Change 49" not in first
    assert "Change 49" in second
    assert "Page 2 of 2" in second
