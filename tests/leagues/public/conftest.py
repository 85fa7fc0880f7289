"""The public pages' league: four players over three club nights, and its season."""

import pytest

from tests.helpers.leagues import OCT, members, play, table_game


@pytest.fixture
def club(league):
    """Four players over three club nights, with hand-computed records:

    1 Oct  Ann & Bob 500 beat Cat & Dan 300
    8 Oct  Ann & Cat 400 tie Bob & Dan 400
    15 Oct Ann & Dan 200 lose to Bob & Cat 600
    """
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    for date, sides, totals in [
        (OCT[0], [["Ann", "Bob"], ["Cat", "Dan"]], [500, 300]),
        (OCT[1], [["Ann", "Cat"], ["Bob", "Dan"]], [400, 400]),
        (OCT[2], [["Ann", "Dan"], ["Bob", "Cat"]], [200, 600]),
    ]:
        play(table_game(league, [[p[n] for n in side] for side in sides], date=date), totals)
    return p


@pytest.fixture
def season(league):
    return league.seasons.get()
