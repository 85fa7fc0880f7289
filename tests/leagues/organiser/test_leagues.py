"""A new league, its settings and its organisers, and every refusal shown beside its field."""

import pytest

from leagues import services
from leagues.models import League, LeagueEvent
from tests.helpers.leagues import league_form
from tests.helpers.pages import assert_beside, field_block, rule_block

pytestmark = pytest.mark.django_db


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
        services.league_update(league=league, user=organiser, preset="poker")

    assert caught.value.errors == [
        (
            "preset",
            "Choose one of the rule sets: Baskets, Four Rounds, Sevens, Ten Thousand, Cutthroat, "
            "Contract, Canasta, Samba or Buraco.",
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
        "to 60 or left empty, not 0.</p>"
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
