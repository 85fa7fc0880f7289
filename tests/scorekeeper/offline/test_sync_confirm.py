"""A round confirmed on a phone while it was offline, sent when the connection returned: the
other side's word as the form would have given it, once, and refused in words when the round
changed since the phone showed it."""

import pytest

from scorekeeper.models import Game, Round
from scorekeeper.rounds.services import round_record, round_update
from tests.helpers.offline_sync import SMALL, post, scoring_phone


@pytest.fixture
def confirming(game) -> Game:
    Game.objects.filter(pk=game.pk).update(confirm_rounds=True)
    game.refresh_from_db()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL, phone="ann")
    return game


def confirm(phone, game, **sent):
    body = {"number": 1, "version": game.rounds.get().version, **sent}
    return post(phone, f"/g/{game.public_id}/offline/confirm/", body)


def state(game) -> list[tuple[str, str]]:
    return list(game.rounds.values_list("confirmation", "checked_by"))


def test_a_confirmation_sent_late_confirms_the_round_once(confirming, phone):
    first = confirm(phone, confirming)
    again = confirm(phone, confirming)

    assert (first.status_code, first.json()) == (
        200,
        {"number": 1, "confirmed": True, "already": False},
    )
    assert (again.status_code, again.json()) == (
        200,
        {"number": 1, "confirmed": True, "already": True},
    )
    assert state(confirming) == [("confirmed", "the other side, on another phone")]
    assert confirming.events.filter(kind="round_confirmed").count() == 1


def test_a_round_corrected_since_the_phone_showed_it_is_409_and_stays_waiting(confirming, phone):
    seen = confirming.rounds.get().version
    round_update(game=confirming, number=1, ended_by="stock_exhausted", entry=SMALL, phone="cy")

    answer = post(
        phone, f"/g/{confirming.public_id}/offline/confirm/", {"number": 1, "version": seen}
    )

    assert answer.status_code == 409
    message = answer.json()["errors"][0]["message"]
    assert message.startswith("Round 1 was corrected on another phone at ")
    assert message.endswith(
        " since you opened it, so nothing was recorded. This is the round as stored now."
    )
    assert state(confirming) == [("waiting", "")]


def test_what_cannot_be_read_is_400_naming_each_part(confirming, phone):
    answer = post(
        phone,
        f"/g/{confirming.public_id}/offline/confirm/",
        {"number": "1", "version": 7, "handed_over": "yes"},
    )

    assert answer.status_code == 400
    assert [e["key"] for e in answer.json()["errors"]] == ["number", "version", "handed_over"]
    assert answer.json()["errors"][0]["message"] == (
        "The round number must be a whole number from 1 to 60."
    )
    assert state(confirming) == [("waiting", "")]


def test_a_phone_that_may_not_score_is_403(confirming):
    stranger = scoring_phone(Game.objects.create(preset="baskets", rules={}))

    answer = post(stranger, f"/g/{confirming.public_id}/offline/confirm/", {"number": 1})

    assert answer.status_code == 403
    assert Round.objects.get().confirmation == "waiting"
