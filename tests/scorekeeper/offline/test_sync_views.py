"""The offline sync API as a phone uses it: JSON in and out, the CSRF token in a header."""

import json
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client

from scorekeeper import engine
from scorekeeper.busy import BUSY
from scorekeeper.games import live, services
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.offline import sync
from scorekeeper.portable import phone as phone_module
from scorekeeper.rounds.services import round_record, round_update
from tests.helpers.games import round_form, side_specs, start_form
from tests.helpers.races import write_lock_held

SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]
OTHER = [{"melded_points": 90}, {"melded_points": 10}]
KEY = "0b7e3f5c-3d1a-4c3e-9a59-0f1d2e3c4b5a"
PUBLIC_ID = "Zm9vYmFyYmF6cXV4MTIzNA"
NOT_A_SCORER = {
    "errors": [
        {
            "key": "__all__",
            "message": "Only the phones scoring this game can change it, so nothing was saved. "
            "Ask a scorer for the scorer link.",
        }
    ]
}
UNREADABLE = {
    "errors": [
        {
            "key": "__all__",
            "message": "Nothing was saved: what this phone sent could not be read. Reload the "
            "page and send it again.",
        }
    ]
}


def scoring_phone(game: Game) -> Client:
    """A phone given the scorer link, sending the CSRF token as offline.js does."""
    phone = Client(enforce_csrf_checks=True)
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return phone


def post(phone: Client, url: str, body, **headers):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    token = phone.cookies["csrftoken"].value if "csrftoken" in phone.cookies else ""
    return phone.post(
        url, data, content_type="application/json", headers={"X-CSRFToken": token, **headers}
    )


def send(phone: Client, game: Game, **sent):
    body = {"key": KEY, "number": 1, "ended_by": "stock_exhausted", "entry": SMALL, **sent}
    return post(phone, f"/g/{game.public_id}/offline/rounds/", body)


@pytest.fixture
def game(db) -> Game:
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


@pytest.fixture
def phone(game) -> Client:
    phone = scoring_phone(game)
    # The CSRF cookie, as any page of the app sets it.
    phone.get("/games/new/baskets/")
    return phone


def snapshot(game: Game) -> dict:
    return sync.game_snapshot(game)


def test_the_offline_snapshot_is_the_game_and_whether_this_phone_may_score(game, phone):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    stored = Round.objects.get()

    response = phone.get(f"/g/{game.public_id}/offline.json")

    assert response.status_code == 200
    # Every field as tests/scorekeeper/offline/test_sync.py shows it, and whether this phone scores.
    assert response.json() == {**snapshot(game), "can_score": True}
    assert [
        (r["number"], r["entry"], r["key"], r["version"]) for r in response.json()["rounds"]
    ] == [(1, OTHER, None, stored.version)]
    assert response["Cache-Control"] == "private, no-cache"
    assert response["ETag"] == live.game_etag(Game.objects.get().updated_at)[:-1] + '-s"'


def test_the_snapshot_is_not_sent_again_until_the_game_changes(game, phone):
    url = f"/g/{game.public_id}/offline.json"
    etag = phone.get(url)["ETag"]

    unchanged = phone.get(url, headers={"If-None-Match": etag})
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    changed = phone.get(url, headers={"If-None-Match": etag})

    assert (unchanged.status_code, unchanged.content, unchanged["ETag"]) == (304, b"", etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert [r["number"] for r in changed.json()["rounds"]] == [1]


def test_a_viewer_gets_the_snapshot_saying_it_may_not_score_under_another_etag(game, phone):
    viewer = Client()

    response = viewer.get(f"/g/{game.public_id}/offline.json")

    assert response.json()["can_score"] is False
    assert response["ETag"] == live.game_etag(Game.objects.get().updated_at)[:-1] + '-v"'
    assert response["ETag"] != phone.get(f"/g/{game.public_id}/offline.json")["ETag"]


def test_no_game_at_the_address_is_404_in_words(db):
    phone = Client()

    response = phone.get("/g/nothing-here/offline.json")
    sent = send(phone, Game(public_id="nothing-here"))

    expected = {
        "errors": [
            {
                "key": "__all__",
                "message": "There is no game at this address on the server. If it was started on "
                "this phone, it is sent first.",
            }
        ]
    }
    assert (response.status_code, response.json()) == (404, expected)
    assert (sent.status_code, sent.json()) == (404, expected)


def test_a_round_sent_is_stored_and_answered_201_with_the_new_snapshot(game, phone):
    state = f"/g/{game.public_id}/state"
    seen = phone.get(state)["ETag"]

    response = send(phone, game)

    assert response.status_code == 201
    assert response.json() == {"status": "stored", "number": 1, "snapshot": snapshot(game)}
    assert list(Round.objects.values_list("number", "entry", "client_key")) == [(1, SMALL, KEY)]
    # Other phones following the game see the round at their next check.
    assert phone.get(state, headers={"If-None-Match": seen}).status_code == 200
    assert [e.kind for e in GameEvent.objects.order_by("at", "id")] == ["started", "round_added"]


def test_a_round_sent_again_is_already_stored_and_not_doubled(game, phone):
    send(phone, game)
    before = (Round.objects.count(), GameEvent.objects.count())

    response = send(phone, game)

    assert response.status_code == 200
    assert response.json() == {"status": "already", "number": 1, "snapshot": snapshot(game)}
    assert (Round.objects.count(), GameEvent.objects.count()) == before == (1, 2)


def test_a_round_another_phone_saved_first_is_409_with_both_versions(game, phone):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    theirs = Round.objects.get()

    response = send(phone, game)

    assert response.status_code == 409
    assert response.json() == {
        "status": "conflict",
        "number": 1,
        "message": "Round 1 was already saved, from this phone or another; the game is at round 2.",
        "theirs": {
            "number": 1,
            "ended_by": "stock_exhausted",
            "entry": OTHER,
            "key": None,
            "version": theirs.version,
            "scores": [
                {
                    "side": "Ann",
                    "points": 90,
                    "points_text": "+90",
                    "total": 90,
                    "total_text": "90",
                },
                {
                    "side": "Bob",
                    "points": 10,
                    "points_text": "+10",
                    "total": 10,
                    "total_text": "10",
                },
            ],
        },
        "snapshot": snapshot(game),
    }
    assert list(Round.objects.values_list("entry", flat=True)) == [OTHER]


def test_keeping_both_sends_mine_to_the_end(game, phone):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)

    response = send(phone, game, place="end")

    assert (response.status_code, response.json()["status"], response.json()["number"]) == (
        201,
        "stored",
        2,
    )
    assert list(Round.objects.values_list("number", "entry")) == [(1, OTHER), (2, SMALL)]


def test_keeping_mine_replaces_theirs_and_the_history_page_says_so(game, phone):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)

    response = send(phone, game, place="replace", version=Round.objects.get().version)

    assert (response.status_code, response.json()["status"], response.json()["number"]) == (
        201,
        "stored",
        1,
    )
    assert list(Round.objects.values_list("number", "entry", "client_key")) == [(1, SMALL, KEY)]
    assert [e.kind for e in GameEvent.objects.order_by("at", "id")] == [
        "started",
        "round_added",
        "round_changed",
    ]
    history = phone.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Round 1 corrected" in history


def test_keeping_mine_over_a_round_changed_again_meanwhile_is_409_with_the_new_one(game, phone):
    seen = round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=SMALL[::-1])

    response = send(phone, game, place="replace", version=seen.version)

    answer = response.json()
    assert response.status_code == 409
    assert (answer["status"], answer["number"]) == ("conflict", 1)
    assert answer["message"].startswith("Round 1 was corrected on another phone at ")
    assert answer["theirs"]["entry"] == SMALL[::-1]
    assert answer["theirs"]["version"] == Round.objects.get().version
    assert list(Round.objects.values_list("entry", flat=True)) == [SMALL[::-1]]


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
                "message": "The round number must be a whole number from 1 to 10,000.",
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


def new_phone() -> Client:
    phone = Client(enforce_csrf_checks=True)
    phone.get("/games/new/baskets/")
    return phone


def create(phone: Client, **sent):
    body = {"id": PUBLIC_ID, "preset": "baskets", "form": start_form("baskets"), **sent}
    return post(phone, "/offline/games/", body)


def test_a_game_started_offline_is_created_and_this_phone_scores_it(db):
    phone = new_phone()

    response = create(phone)

    game = Game.objects.get()
    assert response.status_code == 201
    assert response.json() == {"snapshot": snapshot(game)}
    assert game.public_id == PUBLIC_ID
    assert phone.get(f"/g/{PUBLIC_ID}/offline.json").json()["can_score"] is True
    assert send(phone, game).status_code == 201


def test_a_game_sent_again_by_the_same_phone_is_200_and_not_doubled(db):
    phone = new_phone()
    create(phone)
    before = (Game.objects.count(), GameEvent.objects.count())

    response = create(phone)

    assert response.status_code == 200
    assert response.json() == {"snapshot": snapshot(Game.objects.get())}
    assert (Game.objects.count(), GameEvent.objects.count()) == before == (1, 1)


def test_an_address_another_phones_game_has_is_409(db):
    create(new_phone())

    response = create(new_phone())

    assert (response.status_code, response.json()) == (
        409,
        {
            "errors": [
                {
                    "key": "id",
                    "message": "This phone's address for the new game is already used by another "
                    "game, so it was not created. Start the game again on this phone to give it "
                    "a new address.",
                }
            ]
        },
    )
    assert Game.objects.count() == 1


def test_a_game_the_start_page_would_refuse_is_400_with_its_words(db):
    response = create(new_phone(), form={"side0-player0": "Ann", "side1-player0": "Bob"})

    assert (response.status_code, response.json()) == (
        400,
        {
            "errors": [
                {
                    "key": "first_dealer",
                    "message": "Choose who deals first: tap the circle by a name.",
                }
            ]
        },
    )
    assert Game.objects.count() == 0


def test_a_game_that_cannot_be_read_is_400(db):
    phone = new_phone()

    unreadable = post(phone, "/offline/games/", b"{")
    wrong = create(phone, id="short", preset=3, form=[])

    assert (unreadable.status_code, unreadable.json()) == (400, UNREADABLE)
    assert wrong.status_code == 400
    assert [e["key"] for e in wrong.json()["errors"]] == ["id", "preset", "form"]
    assert Game.objects.count() == 0


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


@pytest.mark.parametrize("preset", sorted(engine.RULESETS))
def test_a_game_created_from_the_phone_is_the_game_the_phones_engine_started(db, preset):
    form = start_form(preset)
    on_phone = phone_module.start_game(preset, form, PUBLIC_ID)["snapshot"]

    created = create(new_phone(), preset=preset, form=form).json()["snapshot"]

    assert created == {**on_phone, "version": created["version"]}


@pytest.mark.parametrize("preset", sorted(engine.RULESETS))
def test_a_round_the_phones_engine_previewed_is_stored_with_the_totals_it_showed(db, preset):
    phone = new_phone()
    game = create(phone, preset=preset, form=start_form(preset)).json()["snapshot"]
    preview = phone_module.round_preview(game, [], round_form(engine.RULESETS[preset]))
    assert preview["ok"], preview["errors"]

    response = send(phone, Game.objects.get(), entry=preview["entry"], ended_by=preview["ended_by"])

    stored = response.json()["snapshot"]
    assert response.status_code == 201
    assert stored["rounds"][0]["entry"] == preview["entry"]
    assert phone_module.game_view(stored, [])["totals"] == preview["totals_after"]


def test_a_game_refused_is_refused_with_the_phones_own_keys_and_words(db):
    form = {"side0-player0": "Ann", "first_dealer": "0-0", "rule-going_out_bonus": "lots"}
    on_phone = phone_module.start_game("baskets", form, PUBLIC_ID)

    response = create(new_phone(), form=form)

    assert response.status_code == 400
    assert response.json() == {"errors": on_phone["errors"]}
    assert [e["key"] for e in on_phone["errors"]] == ["sides", "rule-going_out_bonus"]
