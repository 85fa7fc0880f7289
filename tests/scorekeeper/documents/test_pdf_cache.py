"""A PDF printed again comes from the cache; any write of what it shows makes it anew."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scorekeeper.documents import views
from scorekeeper.rounds.services import round_record

ENTRY = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


@pytest.fixture
def builds(monkeypatch):
    """Every call of the score card's builder, by the views, as (sides, rounds on the card)."""
    cache.clear()
    made = []
    real = views.build_score_card

    def counted(card, **kwargs):
        made.append((len(card.sides), len(card.status.rounds) if card.status else 0))
        return real(card, **kwargs)

    monkeypatch.setattr(views, "build_score_card", counted)
    return made


def pdf(url: str, query: dict) -> bytes:
    response = Client().get(url, query)
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def card(game, paper: str = "a4") -> bytes:
    return pdf(reverse("game_score_card", args=[game.public_id]), {"paper": paper})


def test_the_same_card_printed_twice_is_built_once(game_with_rounds, builds):
    game = game_with_rounds(3)
    first, again = card(game), card(game)
    assert again == first
    assert builds == [(2, 3)]


def test_a_round_saved_since_makes_the_card_again_with_it(game_with_rounds, builds):
    game = game_with_rounds(3)
    before = card(game)
    round_record(game=game, number=4, ended_by="stock_exhausted", entry=ENTRY)
    after = card(game)
    assert after != before
    assert builds == [(2, 3), (2, 4)]


def test_each_paper_size_is_kept_apart(game_with_rounds, builds):
    game = game_with_rounds(1)
    a4, letter = card(game, "a4"), card(game, "letter")
    assert a4 != letter
    assert card(game, "letter") == letter
    assert builds == [(2, 1), (2, 1)]


def test_a_blank_sheet_is_built_once_for_the_same_house_rules(db, builds):
    url = reverse("score_sheet", args=["baskets"])
    plain = pdf(url, {})
    assert pdf(url, {}) == plain
    changed = pdf(url, {"rule-canasta_bonus-natural": "600"})
    assert changed != plain
    assert builds == [(2, 0), (2, 0)]


def test_a_card_from_the_cache_reads_the_game_and_its_sides_and_no_round(
    game_with_rounds, builds, django_assert_num_queries
):
    game = game_with_rounds(20)
    first = card(game)
    with django_assert_num_queries(2):
        assert card(game) == first
