"""A league's PDF printed again comes from the cache; a result saved since makes it anew."""

import datetime

import pytest
from django.core.cache import cache

from leagues.public import views
from tests.helpers.leagues import NIGHT, members, play, table_game
from tests.helpers.pdfs import download, pdf_words

NEXT_WEEK = NIGHT + datetime.timedelta(days=7)


@pytest.fixture
def builds(monkeypatch):
    """The standings sheets the views built, as the number of rows on each."""
    cache.clear()
    made = []
    real = views.build_standings

    def counted(sheet, **kwargs):
        made.append(len(sheet.rows))
        return real(sheet, **kwargs)

    monkeypatch.setattr(views, "build_standings", counted)
    return made


def standings(client) -> bytes:
    return download(client.get("/leagues/thursday/standings.pdf"))


def test_the_standings_printed_twice_are_built_once(client, league, builds):
    ann, bob = members(league, "Ann", "Bob").values()
    play(table_game(league, [[ann], [bob]]), [300, 100])
    first = standings(client)
    assert standings(client) == first
    assert builds == [2]


def test_a_game_finished_since_prints_the_new_standings(client, league, builds):
    ann, bob, cy = members(league, "Ann", "Bob", "Cy").values()
    play(table_game(league, [[ann], [bob]]), [300, 100])
    before = standings(client)
    play(table_game(league, [[cy], [ann]], date=NEXT_WEEK), [500, 100])
    after = standings(client)
    assert "Cy" not in pdf_words(before)
    assert "Cy" in pdf_words(after)
    assert builds == [2, 3]
