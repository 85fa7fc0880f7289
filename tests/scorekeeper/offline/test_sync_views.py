"""What the offline sync API refuses, and how: in words, as JSON, with nothing stored."""

import json
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client

from scorekeeper.busy import BUSY
from scorekeeper.games import services
from scorekeeper.models import GameEvent, Round
from scorekeeper.offline import sync
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs
from tests.helpers.offline_sync import KEY, OTHER, SMALL, UNREADABLE, post, scoring_phone, send
from tests.helpers.races import write_lock_held

NOT_A_SCORER = {
    "errors": [
        {
            "key": "__all__",
            "message": "Only the phones scoring this game can change it, so nothing was saved. "
            "Ask a scorer for the scorer link.",
        }
    ]
}


def test_a_round_the_engine_refuses_is_400_with_its_words(game, phone):
    response = send(phone, game, entry=[{"melded_points": -5}, {}])

    assert response.status_code == 400
    assert response.json() == {
        "errors": [
            {
                "key": "sides[0].melded_points",
                "message": "Ann's melded points must be a whole number of 0 or more, not −5.",
            }
        ]
    }
    assert Round.objects.count() == 0


@pytest.mark.parametrize("url", ["/g/{id}/offline/rounds/", "/offline/games/"])
def test_a_body_of_3_mb_is_413_in_words_without_a_traceback(game, phone, url, caplog):
    body = b'{"key": "' + b"a" * 3_000_000 + b'"}'

    response = post(phone, url.format(id=game.public_id), body)

    assert (response.status_code, response.json()) == (
        413,
        {
            "errors": [
                {
                    "key": "__all__",
                    "message": "Nothing was saved: what this phone sent is far larger than any "
                    "round or game can be. Reload the page and send it again.",
                }
            ]
        },
    )
    assert [(r.levelname, r.exc_info is None) for r in caplog.records] == [("WARNING", True)]
    assert Round.objects.count() == 0


def test_a_round_for_a_game_that_is_over_is_400(game, phone):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    services.game_end(game=game)

    response = send(phone, game, number=2)

    assert (response.status_code, response.json()) == (
        400,
        {
            "errors": [
                {
                    "key": "__all__",
                    "message": "The game is over; reopen it or correct a round instead.",
                }
            ]
        },
    )
    assert Round.objects.count() == 1


def test_a_phone_that_may_not_score_is_403_and_nothing_is_stored(game):
    viewer = Client(enforce_csrf_checks=True)
    viewer.get("/games/new/baskets/")

    response = send(viewer, game)

    assert (response.status_code, response.json()) == (403, NOT_A_SCORER)
    assert Round.objects.count() == 0


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"key": '])
def test_what_cannot_be_read_is_400_and_nothing_is_stored(game, phone, body):
    response = post(phone, f"/g/{game.public_id}/offline/rounds/", body)

    assert (response.status_code, response.json()) == (400, UNREADABLE)
    assert Round.objects.count() == 0


def test_a_form_post_instead_of_json_is_400(game, phone):
    token = phone.cookies["csrftoken"].value

    response = phone.post(
        f"/g/{game.public_id}/offline/rounds/", {"csrfmiddlewaretoken": token, "number": "1"}
    )

    assert (response.status_code, response.json()) == (400, UNREADABLE)
    assert Round.objects.count() == 0


def test_wrong_types_an_unknown_place_and_a_long_key_are_400_naming_each(game, phone):
    response = send(phone, game, key="k" * 37, number="1", entry={"melded_points": 5}, place="x")

    assert response.status_code == 400
    assert response.json() == {
        "errors": [
            {
                "key": "key",
                "message": "The round's mark on this phone must be 1 to 36 letters, digits or "
                "dashes.",
            },
            {
                "key": "number",
                "message": "The round number must be a whole number from 1 to 60.",
            },
            {
                "key": "entry",
                "message": "The round needs the scores of each side, one per side in seating "
                "order.",
            },
            {
                "key": "place",
                "message": "The round must go at its own number, after the last round, or in "
                "place of the stored round (exact, end or replace).",
            },
        ]
    }
    assert Round.objects.count() == 0


def test_a_round_without_the_csrf_token_is_refused(game, phone):
    response = phone.post(
        f"/g/{game.public_id}/offline/rounds/",
        json.dumps({"key": KEY, "number": 1, "ended_by": "stock_exhausted", "entry": SMALL}),
        content_type="application/json",
    )

    assert (response.status_code, response.json()) == (
        403,
        {
            "errors": [
                {
                    "key": "csrf",
                    "message": "Nothing was saved: this phone's pass for the site is out of date. "
                    "Open the game page while online, then send again.",
                }
            ]
        },
    )
    assert Round.objects.count() == 0


def test_a_form_without_the_csrf_token_still_gets_djangos_page(game, phone):
    response = phone.post(f"/g/{game.public_id}/rounds/new/", {"round_number": "1"})

    assert response.status_code == 403
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "CSRF verification failed" in response.content.decode()


def test_a_busy_database_is_503_with_the_busy_message_to_send_again(game, phone):
    with mock.patch.object(sync, "round_sync", side_effect=OperationalError("database is locked")):
        response = send(phone, game)

    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.json() == {
        "errors": [
            {
                "key": "__all__",
                "message": "The scorebook is busy with another table's save; nothing was saved. "
                "Tap Save again.",
            }
        ]
    }


def test_another_database_error_is_not_taken_for_busy(game, phone):
    with (
        mock.patch.object(sync, "round_sync", side_effect=OperationalError("disk I/O error")),
        pytest.raises(OperationalError),
    ):
        send(phone, game)


def test_only_get_reads_and_only_post_writes(game, phone):
    assert post(phone, f"/g/{game.public_id}/offline.json", {}).status_code == 405
    assert phone.get(f"/g/{game.public_id}/offline/rounds/").status_code == 405
    assert phone.get("/offline/games/").status_code == 405


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the embedded default's own locking is SQLite's"
)
def test_a_round_sent_while_another_table_holds_the_sqlite_file_is_503_then_stored(club_file):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    phone = scoring_phone(game)
    phone.get("/games/new/baskets/")

    with write_lock_held(club_file):
        refused = send(phone, game)

    assert (refused.status_code, refused["Retry-After"]) == (503, "1")
    assert refused.json() == {"errors": [{"key": "__all__", "message": BUSY}]}
    assert (Round.objects.count(), GameEvent.objects.count()) == (0, 1)

    again = send(phone, game)

    assert (again.status_code, again.json()["status"]) == (201, "stored")
    assert Round.objects.count() == 1
