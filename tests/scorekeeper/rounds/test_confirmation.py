"""Rounds confirmed at the table: the other side's word on its own phone in one tap, on the
saving phone only as the explicit "Them: confirm" step, disputes with a reason, and a correction
that asks again."""

import re

import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.confirmation import (
    all_confirmed,
    round_confirm,
    round_dispute,
    rounds_confirm_all,
)
from scorekeeper.rounds.services import round_record, round_update
from tests.helpers.games import round_form

ENTRY = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


@pytest.fixture
def game(db) -> Game:
    """A Baskets game that confirms its rounds, as a league's club night starts one."""
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    Game.objects.filter(pk=game.pk).update(confirm_rounds=True)
    game.refresh_from_db()
    return game


def saved(game: Game, number: int = 1, phone: str = "ann-phone") -> Round:
    return round_record(
        game=game, number=number, ended_by="stock_exhausted", entry=ENTRY, phone=phone
    )


def state(game: Game) -> list[tuple[int, str, str, str]]:
    return list(
        game.rounds.order_by("number").values_list(
            "number", "confirmation", "checked_by", "dispute_reason"
        )
    )


def test_a_saved_round_waits_for_the_other_side_and_is_confirmed_from_their_phone(game):
    stored = saved(game)
    before = state(game)

    round_confirm(game=game, number=1, version=stored.version, phone="bob-phone")

    assert before == [(1, "waiting", "", "")]
    assert state(game) == [(1, "confirmed", "the other side, on another phone", "")]
    assert all_confirmed(game)
    event = game.events.filter(kind=GameEvent.Kind.ROUND_CONFIRMED).get()
    assert (event.round_number, event.before, event.after) == (
        1,
        {"confirmation": "waiting"},
        {"confirmation": "confirmed", "by": "the other side, on another phone"},
    )


def test_the_saving_phone_confirms_only_as_the_them_confirm_step(game):
    saved(game)

    with pytest.raises(engine.RoundError) as refused:
        round_confirm(game=game, number=1, version=None, phone="ann-phone")
    between = state(game)
    round_confirm(game=game, number=1, version=None, phone="ann-phone", handed_over=True)

    assert refused.value.errors[0].message == (
        "Round 1 was saved on this phone, so the other side confirms it: hand them the phone "
        "and let them tap “Them: confirm”."
    )
    assert between == [(1, "waiting", "", "")]
    assert state(game) == [(1, "confirmed", "the other side, on the phone that saved it", "")]


def test_a_dispute_says_why_and_a_correction_asks_the_other_side_again(game):
    saved(game)

    with pytest.raises(engine.RoundError) as empty:
        round_dispute(game=game, number=1, version=None, phone="bob-phone", reason="   ")
    round_dispute(
        game=game, number=1, version=None, phone="bob-phone", reason="  We  had two red threes "
    )
    disputed = state(game)
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=ENTRY, phone="ann-phone")

    assert empty.value.errors[0].message == (
        "Say what is wrong with the round, in up to 200 characters."
    )
    assert disputed == [
        (1, "disputed", "the other side, on another phone", "We had two red threes")
    ]
    assert state(game) == [(1, "waiting", "", "")]
    assert not all_confirmed(game)


def test_a_confirmation_of_a_round_corrected_meanwhile_is_refused(game):
    stored = saved(game)
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=ENTRY, phone="cy-phone")

    with pytest.raises(Conflict) as conflict:
        round_confirm(game=game, number=1, version=stored.version, phone="bob-phone")

    assert conflict.value.errors[0].message.startswith("Round 1 was corrected on another phone")
    assert state(game) == [(1, "waiting", "", "")]


def test_a_round_confirmed_twice_is_told_and_left_as_it_was(game):
    saved(game)
    round_confirm(game=game, number=1, version=None, phone="bob-phone")

    with pytest.raises(engine.RoundError) as again:
        round_confirm(game=game, number=1, version=None, phone="di-phone")

    assert again.value.errors[0].message == (
        "Round 1 is already confirmed (the other side, on another phone)."
    )
    assert state(game) == [(1, "confirmed", "the other side, on another phone", "")]


def test_the_organiser_confirms_every_round_left_disputed_or_waiting(game):
    saved(game, 1)
    saved(game, 2)
    round_dispute(game=game, number=1, version=None, phone="bob-phone", reason="Short by 100")

    numbers = rounds_confirm_all(game=game, organiser="olive")
    again = rounds_confirm_all(game=game, organiser="olive")

    assert (numbers, again) == ([1, 2], [])
    assert state(game) == [
        (1, "confirmed", "olive (organiser)", ""),
        (2, "confirmed", "olive (organiser)", ""),
    ]


def test_a_kitchen_table_game_needs_no_confirmation(db):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    saved(game)

    with pytest.raises(engine.RoundError) as refused:
        round_confirm(game=game, number=1, version=None, phone="bob-phone")

    assert refused.value.errors[0].message == "This game's rounds need no confirmation."
    assert state(game) == [(1, "", "", "")]
    assert all_confirmed(game)


# The pages: the game page lists what waits, the round page confirms or disputes.


def joined(game: Game) -> Client:
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return client


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_one_phone_shows_them_confirm_and_another_confirms_in_one_tap(game):
    ann, bob = joined(game), joined(game)
    ann.post(f"/g/{game.public_id}/rounds/new/", {**round_form_for(game), "round_number": "1"})

    on_ann = ann.get(f"/g/{game.public_id}/").content.decode()
    on_bob = bob.get(f"/g/{game.public_id}/").content.decode()
    version = game.rounds.get().version
    tapped = bob.post(f"/g/{game.public_id}/rounds/1/confirm/", {"round_version": version})
    after = text(bob.get(tapped["Location"]))

    assert "Round 1: waiting for the other side." in text_of(on_ann)
    assert f'href="/g/{game.public_id}/rounds/1/#confirm">Them: confirm round 1</a>' in on_ann
    assert ">Confirm round 1</button>" in on_bob and "Them: confirm" not in on_bob
    assert tapped["Location"] == f"/g/{game.public_id}/"
    assert "Round 1 confirmed." in after
    assert "Every round is confirmed (1)." in after


def test_the_round_page_hands_the_phone_over_and_a_dispute_without_a_reason_is_refused(game):
    ann = joined(game)
    ann.post(f"/g/{game.public_id}/rounds/new/", {**round_form_for(game), "round_number": "1"})

    page = text(ann.get(f"/g/{game.public_id}/rounds/1/"))
    refused = ann.post(f"/g/{game.public_id}/rounds/1/dispute/", {"reason": "", "handed_over": "1"})
    disputed = ann.post(
        f"/g/{game.public_id}/rounds/1/dispute/",
        {"reason": "Bob had 2 baskets", "handed_over": "1"},
    )
    game_page = text(ann.get(f"/g/{game.public_id}/"))

    assert (
        "This phone saved round 1. Hand it to the other side: they check the scores above, "
        "then confirm them or say what is wrong." in page
    )
    assert "Them: confirm round 1" in page
    assert refused.status_code == 200
    assert "Say what is wrong with the round, in up to 200 characters." in text(refused)
    assert state(game) == [
        (1, "disputed", "the other side, on the phone that saved it", "Bob had 2 baskets")
    ]
    assert disputed["Location"] == f"/g/{game.public_id}/"
    assert (
        "Round 1 disputed (the other side, on the phone that saved it): “Bob had 2 baskets”"
        in game_page
    )


def test_a_viewer_sees_what_waits_but_no_button(game):
    saved(game)

    page = Client().get(f"/g/{game.public_id}/").content.decode()

    assert "Round 1: waiting for the other side." in text_of(page)
    assert "Confirm round 1" not in page


def round_form_for(game: Game) -> dict:
    return round_form(engine.RULESETS[game.preset])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_history_says_who_confirmed_and_who_disputed(game):
    saved(game)
    round_dispute(game=game, number=1, version=None, phone="bob-phone", reason="Short by 100")
    round_confirm(game=game, number=1, version=None, phone="ann-phone", handed_over=True)

    page = text_of(Client().get(f"/g/{game.public_id}/history/").content.decode())

    assert "Round 1 disputed by the other side, on another phone: “Short by 100”" in page
    assert "Round 1 confirmed by the other side, on the phone that saved it." in page
