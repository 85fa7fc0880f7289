import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs, start_form


@pytest.fixture
def scorer(db) -> Client:
    return Client()


@pytest.fixture
def start_game(scorer):
    """Start a game through the start page, as the scoring phone; returns its address."""

    def start(preset: str) -> str:
        response = scorer.post(f"/games/new/{preset}/", start_form(preset))
        assert response.status_code == 302, response.content.decode()[:2000]
        return response["Location"]

    return start


@pytest.fixture
def game_with_rounds(db):
    """A Baskets game with n small rounds (the stock ran out each time), made by the services."""

    def make(n: int):
        game = services.game_start(preset="baskets", sides=side_specs("baskets"))
        for number in range(1, n + 1):
            round_record(
                game=game,
                number=number,
                ended_by="stock_exhausted",
                entry=[{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
            )
        return game

    return make
