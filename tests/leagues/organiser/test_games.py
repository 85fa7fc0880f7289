"""A league's games voided with a reason and counted again, and the refusals."""

import pytest

from leagues import services
from leagues.models import LeagueEvent, LeagueGame
from tests.helpers.leagues import play
from tests.helpers.pages import assert_beside

pytestmark = pytest.mark.django_db


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
