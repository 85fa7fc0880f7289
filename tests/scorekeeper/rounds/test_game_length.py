"""No game grows past 60 rounds, whichever way its rounds come: the service, the round form and
a phone sending rounds it scored offline are all refused at round 61, nothing stored; and saving
round 59 costs what saving round 2 does."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.models import GameEvent, Round, RoundScore
from scorekeeper.rounds.services import round_record
from tests.helpers.offline_sync import scoring_phone, send
from tests.helpers.round_saves import ENTRY, saved_with_queries, shape

OVER = (
    "The game is over: a game holds at most 60 rounds, and the highest total won. Start a "
    "rematch to play on."
)


@pytest.fixture
def sixty(game_with_rounds):
    """A Baskets game ended by round 60, far short of its 5,000 (50 and 25 a round)."""
    game = game_with_rounds(60)
    game.refresh_from_db()
    return game


def stored(game) -> tuple[int, int, int]:
    return (
        game.rounds.count(),
        RoundScore.objects.filter(round__game=game).count(),
        GameEvent.objects.filter(game=game).count(),
    )


def test_round_60_ends_the_game_and_the_highest_total_wins(game_with_rounds):
    game = game_with_rounds(59)
    game.refresh_from_db()
    assert game.finished is False

    round_record(game=game, number=60, ended_by="stock_exhausted", entry=ENTRY)

    game.refresh_from_db()
    assert (game.finished, game.winner.name, game.tie) == (True, "Ann", False)
    assert [side.total for side in game.sides.order_by("position")] == [3000, 1500]


def test_the_service_refuses_round_61_and_stores_nothing(sixty):
    before = stored(sixty)

    with pytest.raises(engine.RoundError) as refused:
        round_record(game=sixty, number=61, ended_by="stock_exhausted", entry=ENTRY)

    assert [(e.path, e.message) for e in refused.value.errors] == [("round", OVER)]
    assert stored(sixty) == before


def test_the_round_form_refuses_round_61_on_the_game_page_and_stores_nothing(sixty):
    phone = Client()
    phone.get(reverse("game_join", args=[sixty.public_id, sixty.scorer_token]))
    before = stored(sixty)

    response = phone.post(
        reverse("round_new", args=[sixty.public_id]),
        {"round_number": "61", "went_out": "stock", "s0-melded_points": "50"},
        follow=True,
    )

    assert response.status_code == 200
    assert f'<li class="message info">{OVER}</li>' in response.content.decode()
    assert stored(sixty) == before


def test_a_phone_sending_a_round_to_go_after_round_60_is_refused_and_nothing_is_stored(sixty):
    phone = scoring_phone(sixty)
    phone.get("/games/new/baskets/")
    before = stored(sixty)

    response = send(phone, sixty, number=3, place="end")

    assert (response.status_code, response.json()) == (
        400,
        {"errors": [{"key": "__all__", "message": OVER}]},
    )
    assert stored(sixty) == before


def test_a_phone_sending_a_round_numbered_past_60_is_told_the_bound(sixty):
    phone = scoring_phone(sixty)
    phone.get("/games/new/baskets/")

    response = send(phone, sixty, number=1509)

    assert (response.status_code, response.json()) == (
        400,
        {
            "errors": [
                {
                    "key": "number",
                    "message": "The round number must be a whole number from 1 to 60.",
                }
            ]
        },
    )
    assert Round.objects.filter(game=sixty).count() == 60


def test_saving_round_59_runs_the_queries_of_round_2(game_with_rounds):
    early, late = game_with_rounds(1), game_with_rounds(58)
    at_2, at_59 = saved_with_queries(early, 2), saved_with_queries(late, 59)

    assert [shape(sql, early) for sql in at_2] == [shape(sql, late) for sql in at_59]
