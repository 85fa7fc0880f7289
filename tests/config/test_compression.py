"""Text answers go gzipped to a browser that takes gzip, the same bytes once unpacked; a page
showing the scorer link goes uncompressed (BREACH), and PDFs as they are."""

import gzip

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.portable.start_fields import SideSpec
from tests.helpers.leagues import EIGHT, UserFactory, league_with, members, play, table_game

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture
def league(db):
    league = league_with(UserFactory())
    p = members(league, *EIGHT)
    for first in range(0, 8, 4):
        ann, bob, cy, di = (p[name] for name in EIGHT[first : first + 4])
        play(table_game(league, [[ann, bob], [cy, di]]), [500, 300])
    return league


@pytest.fixture
def game(db):
    return services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])


def test_a_page_is_gzipped_and_unpacks_to_the_page_sent_plain(league):
    browser = Client()
    plain = browser.get("/leagues/thursday/standings/")

    packed = browser.get("/leagues/thursday/standings/", headers=GZIP)

    assert (plain.status_code, packed.status_code) == (200, 200)
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content).decode().count("<tr") == plain.text.count("<tr")
    assert len(packed.content) < len(plain.content) / 3


def test_a_streamed_csv_is_gzipped_and_unpacks_to_the_same_rows(league):
    browser = Client()
    season = league.seasons.get()
    url = f"/leagues/thursday/seasons/{season.pk}/games.csv"
    plain = b"".join(browser.get(url).streaming_content)

    packed = browser.get(url, headers=GZIP)

    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(packed.streaming_content)) == plain


def test_the_scorers_game_page_showing_the_scorer_link_is_sent_uncompressed(game):
    scorer = Client()
    scorer.get(f"/g/{game.public_id}/join/{game.scorer_token}/")

    page = scorer.get(f"/g/{game.public_id}/", headers=GZIP)

    assert page.status_code == 200
    assert game.scorer_token in page.text
    assert not page.has_header("Content-Encoding")


def test_a_watchers_game_page_without_the_scorer_link_is_gzipped(game):
    page = Client().get(f"/g/{game.public_id}/", headers=GZIP)

    assert page["Content-Encoding"] == "gzip"
    assert game.scorer_token not in gzip.decompress(page.content).decode()


def test_a_pdf_is_sent_as_it_is(game):
    response = Client().get("/games/new/baskets/score-sheet.pdf", headers=GZIP)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert not response.has_header("Content-Encoding")


def test_a_gzipped_answers_weak_etag_sent_back_is_a_304(game):
    phone = Client()
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    url = f"/g/{game.public_id}/offline.json"
    first = phone.get(url, headers=GZIP)
    assert first["Content-Encoding"] == "gzip"
    assert first["ETag"].startswith('W/"')

    again = phone.get(url, headers={**GZIP, "If-None-Match": first["ETag"]})

    assert again.status_code == 304
