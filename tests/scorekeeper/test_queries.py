"""The game page and the round form cost the same number of queries at 1 round and at 30."""

import pytest
from django.core.cache import cache

# The first view of a game's version: its row, its sides, rounds and scores, and the session.
GAME_PAGE_QUERIES = 5
# Every later view of that version: the row (whose version finds the cached parts) and the
# session; a viewer without a session, the row alone.
GAME_PAGE_CACHED_QUERIES = 2
GAME_PAGE_VIEWER_QUERIES = 1
ROUND_FORM_QUERIES = 5


def scoring_client(client, game):
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    return client


@pytest.mark.parametrize("rounds", [1, 30])
def test_game_page_queries_do_not_grow_with_rounds(
    client, game_with_rounds, django_assert_num_queries, rounds
):
    game = game_with_rounds(rounds)
    scoring_client(client, game)
    cache.clear()

    with django_assert_num_queries(GAME_PAGE_QUERIES):
        first = client.get(f"/g/{game.public_id}/")
    with django_assert_num_queries(GAME_PAGE_CACHED_QUERIES):
        again = client.get(f"/g/{game.public_id}/")

    assert first.status_code == again.status_code == 200
    assert first.content.decode().count('<td><a href="/g/') == 2 * rounds
    assert again.content.decode().count('<td><a href="/g/') == 2 * rounds


@pytest.mark.parametrize("rounds", [1, 30])
def test_a_viewers_game_page_is_one_query_once_its_version_is_cached(
    client, game_with_rounds, django_assert_num_queries, rounds
):
    game = game_with_rounds(rounds)
    client.get(f"/g/{game.public_id}/")

    with django_assert_num_queries(GAME_PAGE_VIEWER_QUERIES):
        response = client.get(f"/g/{game.public_id}/")

    assert response.content.decode().count('<td><a href="/g/') == 2 * rounds


@pytest.mark.parametrize("rounds", [1, 30])
def test_round_form_queries_do_not_grow_with_rounds(
    client, game_with_rounds, django_assert_num_queries, rounds
):
    game = game_with_rounds(rounds)
    scoring_client(client, game)

    with django_assert_num_queries(ROUND_FORM_QUERIES):
        response = client.get(f"/g/{game.public_id}/rounds/new/")

    assert response.status_code == 200
    assert f"Round {rounds + 1}</h1>" in response.content.decode()
