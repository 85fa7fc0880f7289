"""The organiser's page of a season's league points adjustments: the form (player, points with
their sign, reason) and the list with a Remove button each, post/redirect/get without
JavaScript; bad input is told beside its field, never a server error; a form or a Remove sent
twice acts once; the page's queries do not grow with the adjustments."""

import re

import pytest

from leagues import services
from leagues.models import LeagueEvent, PointsAdjustment
from tests.helpers.leagues import play, table_game
from tests.helpers.pages import assert_beside, text

pytestmark = pytest.mark.django_db

POINTS = (
    "Give the points as a whole number from −1,000 to 1,000: below 0 for a penalty (−10), "
    "above for a bonus (5)."
)
# Session, user, league, the organiser check, season, the adjustments with their players and
# seasons, the members to choose from.
PAGE_QUERIES = 7


@pytest.fixture
def played(league, eight):
    play(table_game(league, [[eight["Ann"]], [eight["Bob"]]]), [500, 300])
    return eight


@pytest.fixture
def url(league):
    return f"/leagues/thursday/seasons/{league.seasons.get().pk}/adjustments/"


def form_key(page: str) -> str:
    return re.search(r'name="form_key" value="([0-9a-f]{32})"', page)[1]


def sent(client, url, **fields):
    """The form as the page gives it (its key included), with these fields."""
    key = form_key(client.get(url).text)
    return client.post(url, {"form_key": key, **fields})


def test_a_penalty_is_saved_and_listed_and_the_standings_mark_it(as_organiser, league, played, url):
    ann = played["Ann"]

    response = sent(as_organiser, url, player=str(ann.pk), points="−10", reason="Late twice")

    assert response.status_code == 302
    assert response["Location"] == url
    page = as_organiser.get(url)
    assert "−10 league points for Ann in Autumn 2026: the standings show it." in text(page)
    assert "−10 Ann: Late twice (olive, " in text(page)
    season = league.seasons.get()
    standings = as_organiser.get(f"/leagues/thursday/seasons/{season.pk}/standings/")
    shown = text(standings)
    assert "* League points adjusted by the organiser: −10 Ann: Late twice (olive, " in shown
    assert 'class="adjusted-mark"' in standings.text
    event = LeagueEvent.objects.get(kind=LeagueEvent.Kind.POINTS_ADJUSTED)
    assert event.summary == "−10 league points for Ann in Autumn 2026: Late twice"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"points": ""}, "points", POINTS),
        ({"points": "ten"}, "points", POINTS),
        ({"points": "1.5"}, "points", POINTS),
        ({"points": "9" * 5000}, "points", POINTS),
        (
            {"points": "0"},
            "points",
            "An adjustment of 0 changes nothing: give a penalty below 0 or a bonus above.",
        ),
        ({"points": "-1001"}, "points", f"−1,001 is too many. {POINTS}"),
        ({"reason": "  "}, "reason", "Say why the points are adjusted (up to 200 characters)."),
        (
            {"reason": "x" * 201},
            "reason",
            "Say why the points are adjusted in at most 200 characters (this has 201).",
        ),
        ({"player": ""}, "player", "Choose the member whose points change."),
        ({"player": "999999"}, "player", "Choose one of the league's members listed."),
        ({"player": "9" * 30}, "player", "Choose one of the league's members listed."),
    ],
)
def test_bad_input_is_told_beside_its_field(as_organiser, played, url, fields, field, message):
    data = {"player": str(played["Ann"].pk), "points": "-10", "reason": "Late"} | fields

    response = sent(as_organiser, url, **data)

    assert response.status_code == 200
    assert_beside(response.text, field, message)
    assert not PointsAdjustment.objects.exists()


def test_another_leagues_player_is_not_a_choice(as_organiser, organiser, url):
    friday = services.league_create(name="Friday", slug="friday", preset="sevens", user=organiser)
    zed = services.member_add(league=friday, name="Zed", user=None).player

    response = sent(as_organiser, url, player=str(zed.pk), points="5", reason="Hosted")

    assert_beside(response.text, "player", "Choose one of the league's members listed.")
    assert not PointsAdjustment.objects.exists()


def test_the_same_form_sent_twice_saves_once_and_the_second_is_told(as_organiser, played, url):
    key = form_key(as_organiser.get(url).text)
    data = {"form_key": key, "player": str(played["Ann"].pk), "points": "-2", "reason": "Late"}

    first = as_organiser.post(url, data)
    second = as_organiser.post(url, data)

    assert (first.status_code, second.status_code) == (302, 200)
    assert_beside(
        second.text, "points", "This adjustment was saved a moment ago; it is listed below, once."
    )
    assert PointsAdjustment.objects.count() == 1
    # A new form has a new key: the same penalty again is a second penalty.
    again = {name: value for name, value in data.items() if name != "form_key"}
    assert sent(as_organiser, url, **again).status_code == 302
    assert PointsAdjustment.objects.count() == 2


def test_a_form_key_that_the_page_did_not_give_is_no_key(as_organiser, played, url):
    data = {"player": str(played["Ann"].pk), "points": "-2", "reason": "Late"}
    for key in ("", "x" * 5000, "not-a-key"):
        assert as_organiser.post(url, {**data, "form_key": key}).status_code == 302
    assert PointsAdjustment.objects.count() == 3


def test_remove_takes_it_back_and_a_second_remove_is_told(as_organiser, league, played, url):
    adjustment = services.adjustment_add(
        league=league,
        season=league.seasons.get(),
        player=played["Ann"],
        points=-10,
        reason="Late twice",
        user=None,
    )
    remove = f"{url}{adjustment.pk}/remove/"

    first = as_organiser.post(remove)
    second = as_organiser.post(remove)

    assert (first.status_code, first["Location"]) == (302, url)
    assert (second.status_code, second["Location"]) == (302, url)
    page = text(as_organiser.get(url))
    assert "The adjustment of −10 for Ann is removed: the standings no longer count it." in page
    assert "This adjustment was removed already; nothing was changed." in page
    assert "No adjustments in Autumn 2026." in page
    assert league.events.filter(kind=LeagueEvent.Kind.ADJUSTMENT_REMOVED).count() == 1


def test_odd_addresses_are_a_404_or_told_never_a_server_error(as_organiser, league, played, url):
    season = league.seasons.get()
    huge = "9" * 30
    assert as_organiser.get(f"/leagues/thursday/seasons/{huge}/adjustments/").status_code == 404
    assert as_organiser.get("/leagues/thursday/seasons/999/adjustments/").status_code == 404
    gone = as_organiser.post(f"{url}{huge}/remove/")
    assert (gone.status_code, gone["Location"]) == (302, url)
    assert as_organiser.get(f"{url}1/remove/").status_code == 405
    # Another season's adjustment is not this season's to remove.
    other = services.season_create(
        league=league,
        name="Winter",
        starts_on=season.ends_on.replace(month=12, day=1),
        ends_on=season.ends_on.replace(year=2027, month=2, day=28),
        user=None,
    )
    theirs = services.adjustment_add(
        league=league, season=other, player=played["Ann"], points=1, reason="Hosted", user=None
    )
    assert as_organiser.post(f"{url}{theirs.pk}/remove/").status_code == 302
    assert PointsAdjustment.objects.filter(pk=theirs.pk).exists()


def test_the_players_row_link_chooses_the_player(as_organiser, played, url):
    bob = played["Bob"]

    page = as_organiser.get(f"{url}?player={bob.pk}").text

    assert f'<option value="{bob.pk}" selected>Bob</option>' in page
    assert as_organiser.get(f"{url}?player={'9' * 40}").status_code == 200


@pytest.mark.parametrize("adjustments", [1, 12])
def test_the_page_takes_the_same_queries_for_many_adjustments(
    as_organiser, league, played, url, django_assert_num_queries, adjustments
):
    season = league.seasons.get()
    players = list(played.values())
    for n in range(adjustments):
        services.adjustment_add(
            league=league,
            season=season,
            player=players[n % len(players)],
            points=n + 1,
            reason=f"Reason {n}",
            user=None,
        )

    with django_assert_num_queries(PAGE_QUERIES):
        response = as_organiser.get(url)

    assert response.text.count(">Remove<") == adjustments
