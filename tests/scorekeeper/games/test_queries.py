"""The game page and the round form cost the same number of queries at 1 round and at 30."""

import pytest
from django.core.cache import cache

from scorekeeper.engine.formatting import number

# The first view of a game's version: the few columns every view reads (with the version), then
# the whole row, its sides, rounds and scores, the session and the phone's right to score.
GAME_PAGE_QUERIES = 7
# Every later view of that version: the row (whose version finds the cached parts), the session
# and the phone's right to score; a viewer without a session, the row alone.
GAME_PAGE_CACHED_QUERIES = 3
GAME_PAGE_VIEWER_QUERIES = 1
# The game's row, its sides (with the totals so far), the number of its rounds (not the rounds
# themselves), the session and the phone's right to score (one look a request): the same for
# the form and for each preview made as the player types, however long the game.
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
    assert f"<title>Round {rounds + 1} · {game}</title>" in response.content.decode()


@pytest.mark.parametrize("rounds", [1, 30])
def test_a_preview_costs_the_same_queries_at_1_round_and_at_30(
    client, game_with_rounds, django_assert_num_queries, rounds
):
    game = game_with_rounds(rounds)
    scoring_client(client, game)
    form = {
        "round_number": str(rounds + 1),
        "went_out": "stock",
        "s0-melded_points": "90",
        "s1-melded_points": "10",
    }

    with django_assert_num_queries(ROUND_FORM_QUERIES):
        response = client.post(
            f"/g/{game.public_id}/rounds/new/", form, headers={"HX-Request": "true"}
        )

    # Each stored round gave Ann 50 and Bob 25; this one gives them 90 and 10.
    ann, bob = number(50 * rounds + 90), number(25 * rounds + 10)
    assert (
        f"Totals after round {rounds + 1}: Ann <strong>{ann}</strong>, Bob <strong>{bob}</strong>"
        in response.content.decode()
    )
