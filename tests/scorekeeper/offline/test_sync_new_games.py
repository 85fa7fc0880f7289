"""Games started on a phone and sent to the server: created once, or refused in its words."""

import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.models import Game, GameEvent
from scorekeeper.portable import phone as phone_module
from tests.helpers.games import round_form, start_form
from tests.helpers.offline_sync import UNREADABLE, post, send, snapshot

PUBLIC_ID = "Zm9vYmFyYmF6cXV4MTIzNA"


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
