"""Phones saving at the same moment, in real concurrent transactions on PostgreSQL."""

import re

import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.rounds.services import round_record, round_update
from scorekeeper.rounds.views import DELETE_NUMBER_MISSING, ROUND_NUMBER_MISSING
from tests.helpers.games import expected_scores, round_form, side_specs
from tests.helpers.races import ON_POSTGRESQL, THREADS, together

pytestmark = ON_POSTGRESQL

SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def _joined_phones(game: Game, count: int) -> list[Client]:
    phones = []
    for _ in range(count):
        phone = Client()
        phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
        phones.append(phone)
    return phones


def _messages(response) -> list[str]:
    return re.findall(r'<li class="message [a-z]+">([^<]*)<', response.content.decode())


def test_twenty_phones_saving_the_same_round_store_it_once_and_the_others_are_told(
    scorer, start_game
):
    url = start_game("baskets")
    game = Game.objects.get()
    rules = engine.RULESETS["baskets"]
    phones = [scorer, *_joined_phones(game, THREADS - 1)]
    form = {**round_form(rules), "round_number": "1"}

    def save(index: int):
        response = phones[index].post(url + "rounds/new/", form, follow=True)
        # The page's text, not response.context: the test client collects contexts through a
        # signal that every thread's requests send.
        said = re.findall(r'<li class="message [a-z]+">([^<]*)<', response.content.decode())
        return response.status_code, response.redirect_chain, said

    results = together(save)

    assert [r for r in results if isinstance(r, BaseException)] == []
    saved = [r for r in results if r[1] == [(url, 302)]]
    told = [r for r in results if r[1] == [(url + "rounds/1/", 302)]]
    assert saved == [(200, [(url, 302)], ["Round 1 saved."])]
    assert len(told) == THREADS - 1
    assert {(status, tuple(said)) for status, _, said in told} == {
        (
            200,
            (
                "Round 1 was already saved, from this phone or another, so nothing was added. "
                "This is the stored round; correct it if it is wrong.",
            ),
        )
    }
    assert Round.objects.count() == 1
    assert RoundScore.objects.count() == 2
    assert list(Side.objects.order_by("position").values_list("total", flat=True)) == list(
        expected_scores(rules)
    )
    assert GameEvent.objects.filter(kind="round_added").count() == 1


def test_twenty_threads_recording_the_same_round_leave_exactly_one(db):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))

    def record(index: int):
        entry = [{"melded_points": 50 + 5 * index}, SMALL[1]]
        return round_record(game=game, number=1, ended_by="stock_exhausted", entry=entry).entry

    results = together(record)

    stored = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(stored) == 1 and len(refused) == THREADS - 1
    assert {r.errors[0].message for r in refused} == {
        "Round 1 was already saved, from this phone or another; the game is at round 2."
    }
    (round_one,) = Round.objects.all()
    assert round_one.entry == stored[0]
    assert list(
        RoundScore.objects.order_by("side__position").values_list("points", "running_total")
    ) == [(stored[0][0]["melded_points"],) * 2, (25, 25)]
    assert list(Side.objects.order_by("position").values_list("total", flat=True)) == [
        stored[0][0]["melded_points"],
        25,
    ]


def test_twenty_threads_scoring_twenty_games_lose_nothing(db):
    games = [
        services.game_start(preset="baskets", sides=side_specs("baskets")) for _ in range(THREADS)
    ]

    def score(index: int) -> int:
        for number in range(1, 6):
            round_record(game=games[index], number=number, ended_by="stock_exhausted", entry=SMALL)
        return index

    results = together(score)

    assert results == list(range(THREADS))
    assert Round.objects.count() == THREADS * 5
    assert RoundScore.objects.count() == THREADS * 5 * 2
    for game in games:
        assert list(game.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
        assert list(game.sides.order_by("position").values_list("total", flat=True)) == [250, 125]
    assert GameEvent.objects.filter(kind="round_added").count() == THREADS * 5


def test_two_phones_correcting_the_same_round_keep_one_correction(db):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    opened = Round.objects.get().version

    def correct(index: int):
        entry = [{"melded_points": 100 * (index + 1)}, SMALL[1]]
        return round_update(
            game=game, number=1, ended_by="stock_exhausted", entry=entry, version=opened
        ).entry

    results = together(correct, count=2)

    stored = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(stored) == 1 and len(refused) == 1
    assert refused[0].errors[0].message.startswith("Round 1 was corrected on another phone at ")
    assert (
        refused[0]
        .errors[0]
        .message.endswith(
            " while you were editing; nothing you entered was saved. "
            "This is the round as stored now."
        )
    )
    assert Round.objects.get().entry == stored[0]
    assert GameEvent.objects.filter(kind="round_changed").count() == 1


def test_twenty_phones_posting_a_round_without_its_number_store_nothing_and_are_told(start_game):
    url = start_game("baskets")
    game = Game.objects.get()
    phones = _joined_phones(game, THREADS)
    form = round_form(engine.RULESETS["baskets"])
    del form["round_number"]

    def save(index: int):
        response = phones[index].post(url + "rounds/new/", form, follow=True)
        return response.redirect_chain, _messages(response)

    results = together(save)

    assert results == [([(url, 302)], [ROUND_NUMBER_MISSING])] * THREADS
    assert Round.objects.count() == 0
    assert GameEvent.objects.filter(kind="round_added").count() == 0


@pytest.fixture
def three_rounds(db) -> tuple[str, list[Client]]:
    """A game with three rounds, its address and twenty phones scoring it."""
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    for number in (1, 2, 3):
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=SMALL)
    return f"/g/{game.public_id}/", _joined_phones(game, THREADS)


def test_twenty_phones_deleting_without_the_round_number_delete_nothing_and_are_told(
    three_rounds,
):
    url, phones = three_rounds

    def delete(index: int):
        response = phones[index].post(url + "rounds/delete-last/", follow=True)
        return response.redirect_chain, _messages(response)

    results = together(delete)

    assert results == [([(url, 302)], [DELETE_NUMBER_MISSING])] * THREADS
    assert list(Round.objects.values_list("number", flat=True).order_by("number")) == [1, 2, 3]
    assert GameEvent.objects.filter(kind="round_deleted").count() == 0


def test_twenty_phones_deleting_the_last_round_with_its_number_delete_it_once(three_rounds):
    url, phones = three_rounds

    def delete(index: int):
        response = phones[index].post(
            url + "rounds/delete-last/", {"round_number": "3"}, follow=True
        )
        return _messages(response)

    results = together(delete)

    assert sorted(results) == sorted(
        [["Round 3 deleted."]]
        + [
            [
                "Round 3 was already deleted, from this phone or another, so nothing else was "
                "deleted."
            ]
        ]
        * (THREADS - 1)
    )
    assert list(Round.objects.values_list("number", flat=True).order_by("number")) == [1, 2]
    assert GameEvent.objects.filter(kind="round_deleted").count() == 1
