import pytest

from leagues.models import League
from tests.helpers.leagues import UserFactory, league_with


@pytest.fixture
def organiser(db):
    return UserFactory(username="olive")


@pytest.fixture
def league(organiser) -> League:
    return league_with(organiser)
