"""A Baskets game and a phone given its scorer link, for the offline sync API's tests."""

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import Game
from tests.helpers.games import side_specs
from tests.helpers.offline_sync import scoring_phone


@pytest.fixture
def game(db) -> Game:
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


@pytest.fixture
def phone(game) -> Client:
    phone = scoring_phone(game)
    # The CSRF cookie, as any page of the app sets it.
    phone.get("/games/new/baskets/")
    return phone
