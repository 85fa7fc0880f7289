"""The game page and the round form cost the same number of queries at 1 round and at 30."""

import pytest

GAME_PAGE_QUERIES = 5
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

    with django_assert_num_queries(GAME_PAGE_QUERIES):
        response = client.get(f"/g/{game.public_id}/")

    assert response.status_code == 200
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
