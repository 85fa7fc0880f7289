"""What the organiser's pages are tried with: a stranger, a member who does not organise, the
organiser signed in, eight members, a club night of theirs and a game started at it."""

import pytest

from leagues import services
from leagues.models import ClubNight, LeagueGame
from tests.helpers.leagues import EIGHT, NIGHT, UserFactory, members, table_game


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
