"""The offline snapshot, and the rounds a phone sends: stored, sent again, or in conflict."""

from django.test import Client

from scorekeeper.games import live
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.rounds.services import round_record, round_update
from tests.helpers.offline_sync import KEY, OTHER, SMALL, send, snapshot


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
