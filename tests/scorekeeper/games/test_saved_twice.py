"""A round saved or deleted twice, from two phones or from one: done once, and said so."""

import pytest

from scorekeeper import engine
from scorekeeper.models import Game, GameEvent, Round
from tests.helpers.games import round_form


def test_a_second_phone_saving_the_same_round_is_told_and_nothing_doubles(
    scorer, start_game, client
):
    url = start_game("baskets")
    rules = engine.RULESETS["baskets"]
    game = Game.objects.get()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    form = scorer.get(url + "rounds/new/").content.decode()
    assert '<input type="hidden" name="round_number" value="1">' in form

    assert (
        scorer.post(url + "rounds/new/", {**round_form(rules), "round_number": "1"}).status_code
        == 302
    )
    stale = client.post(
        url + "rounds/new/", {**round_form(rules), "round_number": "1"}, follow=True
    )

    assert stale.redirect_chain == [(url + "rounds/1/", 302)]
    assert (
        "Round 1 was already saved, from this phone or another, so nothing was added. "
        "This is the stored round; correct it if it is wrong."
    ) in stale.content.decode()
    assert Round.objects.count() == 1


def messages_after(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_a_round_form_posted_twice_without_its_number_stores_nothing_and_says_so(
    scorer, start_game
):
    url = start_game("baskets")
    form = round_form(engine.RULESETS["baskets"])
    del form["round_number"]

    first = scorer.post(url + "rounds/new/", form, follow=True)
    second = scorer.post(url + "rounds/new/", form, follow=True)

    refused = (
        "Nothing was saved: the form did not say which round it was for, so it may be an old "
        "copy of the page or a repeat. These are the rounds stored; tap Enter round to add the "
        "next one."
    )
    assert first.redirect_chain == second.redirect_chain == [(url, 302)]
    assert messages_after(first) == messages_after(second) == [refused]
    assert Round.objects.count() == 0
    assert GameEvent.objects.filter(kind="round_added").count() == 0


def test_the_same_round_form_posted_twice_from_one_phone_stores_one_round(scorer, start_game):
    url = start_game("baskets")
    form = round_form(engine.RULESETS["baskets"])

    first = scorer.post(url + "rounds/new/", form, follow=True)
    second = scorer.post(url + "rounds/new/", form, follow=True)

    assert messages_after(first) == ["Round 1 saved."]
    assert second.redirect_chain == [(url + "rounds/1/", 302)]
    assert messages_after(second) == [
        "Round 1 was already saved, from this phone or another, so nothing was added. "
        "This is the stored round; correct it if it is wrong."
    ]
    assert Round.objects.count() == 1


def test_delete_last_posted_twice_without_the_round_number_deletes_nothing(scorer, start_game):
    url = start_game("baskets")
    for number in (1, 2):
        scorer.post(
            url + "rounds/new/", round_form(engine.RULESETS["baskets"], number=number), follow=True
        )

    first = scorer.post(url + "rounds/delete-last/", follow=True)
    second = scorer.post(url + "rounds/delete-last/", {"round_number": ""}, follow=True)

    refused = (
        "Nothing was deleted: the form did not say which round to delete, so it may be an old "
        "copy of the page or a repeat. These are the rounds stored; open the last round to "
        "delete it."
    )
    assert first.redirect_chain == second.redirect_chain == [(url, 302)]
    assert messages_after(first) == messages_after(second) == [refused]
    assert list(Round.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert GameEvent.objects.filter(kind="round_deleted").count() == 0


def test_delete_last_posted_twice_with_its_round_number_deletes_one_round(scorer, start_game):
    url = start_game("baskets")
    for number in (1, 2):
        scorer.post(
            url + "rounds/new/", round_form(engine.RULESETS["baskets"], number=number), follow=True
        )
    page = scorer.get(url + "rounds/delete-last/").content.decode()
    assert '<input type="hidden" name="round_number" value="2">' in page

    first = scorer.post(url + "rounds/delete-last/", {"round_number": "2"}, follow=True)
    second = scorer.post(url + "rounds/delete-last/", {"round_number": "2"}, follow=True)

    assert messages_after(first) == ["Round 2 deleted."]
    assert messages_after(second) == [
        "Round 2 was already deleted, from this phone or another, so nothing else was deleted."
    ]
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    assert GameEvent.objects.filter(kind="round_deleted").count() == 1


def test_the_round_service_refuses_a_round_number_already_taken(scorer, start_game):
    url = start_game("baskets")
    scorer.post(url + "rounds/new/", round_form(engine.RULESETS["baskets"]))
    from scorekeeper.rounds.services import round_record

    game = Game.objects.get()
    with pytest.raises(engine.RoundError) as refused:
        round_record(game=game, number=1, ended_by="going_out", entry=[{}, {}])
    assert refused.value.errors[0].message == (
        "Round 1 was already saved, from this phone or another; the game is at round 2."
    )
    assert Round.objects.count() == 1
