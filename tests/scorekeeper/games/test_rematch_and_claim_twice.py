"""Rematch and Claim sent twice, one after the other (a double tap) or at the same moment from
several phones or tabs: done once, and every answer is the game page of what was done."""

import re

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs
from tests.helpers.leagues import UserFactory
from tests.helpers.races import ON_POSTGRESQL, THREADS, together

STARTED = "Rematch started: same rules, same sides, the deal moves on."
ALREADY = (
    "The rematch was already started, from this phone or another, so no other game was "
    "started. This is the rematch."
)
CLAIMED = "The game is now under My games."


@pytest.fixture
def finished(db) -> Game:
    """A finished game of Baskets, ended by hand after one round."""
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 120}, {"melded_points": 80}],
    )
    return services.game_end(game=game)


def phone(game: Game, user=None) -> Client:
    """A phone that joined the game by its scorer link (signed in as `user`, if given)."""
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    # Followed, so that its "This phone can now score the game." is shown and gone.
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    return client


def said(response) -> list[str]:
    return re.findall(r'<li class="message [a-z]+">([^<]*)<', response.text)


def answered(response) -> tuple:
    """A post's answer followed to its page: where it went and what the page said."""
    return response.redirect_chain, said(response)


# Rematch --------------------------------------------------------------------------------------


def test_rematch_sent_twice_starts_one_game_and_the_second_goes_to_it(finished):
    scorer = phone(finished)
    url = f"/g/{finished.public_id}/rematch/"

    first = scorer.post(url, follow=True)
    second = scorer.post(url, follow=True)

    rematch = Game.objects.get(rematch_of=finished)
    address = f"/g/{rematch.public_id}/"
    assert answered(first) == ([(address, 302)], [STARTED])
    assert answered(second) == ([(address, 302)], [ALREADY])
    assert second.status_code == 200
    assert (
        GameEvent.objects.filter(kind="started", after__rematch_of=finished.public_id).count() == 1
    )


def test_rematch_from_another_phone_after_the_first_goes_to_the_same_game(finished):
    first, other = phone(finished), phone(finished)
    url = f"/g/{finished.public_id}/rematch/"

    first.post(url)
    response = other.post(url, follow=True)

    rematch = Game.objects.get(rematch_of=finished)
    assert answered(response) == ([(f"/g/{rematch.public_id}/", 302)], [ALREADY])
    # The other phone may score the rematch it was sent to, as the first may.
    assert f'href="/g/{rematch.public_id}/rounds/new/"' in response.text


def test_the_service_refuses_a_second_rematch_naming_the_first(finished):
    rematch = services.game_rematch(game=finished)

    with pytest.raises(services.AlreadyRematched) as refused:
        services.game_rematch(game=finished)

    assert refused.value.rematch == rematch
    assert [(e.path, e.message) for e in refused.value.errors] == [("rematch", ALREADY)]
    assert Game.objects.filter(rematch_of=finished).count() == 1


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_twenty_phones_tapping_rematch_at_once_start_one_game(finished):
    phones = [phone(finished) for _ in range(THREADS)]
    url = f"/g/{finished.public_id}/rematch/"

    results = together(lambda index: phones[index].post(url, follow=True))

    (rematch,) = Game.objects.filter(rematch_of=finished)
    address = f"/g/{rematch.public_id}/"
    counted = sorted(
        repr(r) if isinstance(r, BaseException) else (r.status_code, *answered(r)) for r in results
    )
    assert counted == sorted(
        [(200, [(address, 302)], [STARTED])] + [(200, [(address, 302)], [ALREADY])] * (THREADS - 1)
    )
    assert rematch.events.filter(kind="started").count() == 1


# Claim ----------------------------------------------------------------------------------------


def test_claim_sent_twice_claims_once_and_both_go_to_the_game(finished):
    olive = UserFactory(username="olive")
    scorer = phone(finished, olive)
    url = f"/g/{finished.public_id}/claim/"

    first = scorer.post(url, follow=True)
    second = scorer.post(url, follow=True)

    address = f"/g/{finished.public_id}/"
    assert answered(first) == answered(second) == ([(address, 302)], [CLAIMED])
    finished.refresh_from_db()
    assert finished.owner == olive
    assert list(finished.events.filter(kind="claimed").values_list("who", "before", "after")) == [
        ("olive", {"owner": None}, {"owner": "olive"})
    ]


def test_a_claim_of_a_game_already_claimed_by_the_same_account_changes_nothing(finished):
    olive = UserFactory(username="olive")
    services.game_claim(game=finished, user=olive)
    updated_at = Game.objects.get().updated_at

    services.game_claim(game=finished, user=olive)

    assert Game.objects.get().updated_at == updated_at
    assert finished.events.filter(kind="claimed").count() == 1


@pytest.mark.django_db(transaction=True)
@ON_POSTGRESQL[1]
def test_twenty_tabs_claiming_at_once_claim_once(finished):
    olive = UserFactory(username="olive")
    tabs = [phone(finished, olive) for _ in range(THREADS)]
    url = f"/g/{finished.public_id}/claim/"

    results = together(lambda index: tabs[index].post(url, follow=True))

    address = f"/g/{finished.public_id}/"
    counted = [repr(r) if isinstance(r, BaseException) else answered(r) for r in results]
    assert counted == [([(address, 302)], [CLAIMED])] * THREADS
    assert Game.objects.get(pk=finished.pk).owner == olive
    assert finished.events.filter(kind="claimed").count() == 1
