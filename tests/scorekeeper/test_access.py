"""A phone's rights to score: rows under the id its session keeps, given by the start pages and
never written again; kept through signing in, gone at signing out; an old session's list of
games made rights at its next request."""

import pytest
from django.conf import settings
from django.test import Client

from scorekeeper.access import PHONE_KEY, SESSION_KEY
from scorekeeper.games import services
from scorekeeper.models import Game, ScoringRight
from scorekeeper.offline import sync
from tests.helpers.accounts import make_user, sign_in, signed_in_as
from tests.helpers.games import side_specs, start_form

pytestmark = pytest.mark.django_db

SESSION = settings.SESSION_COOKIE_NAME


def baskets() -> Game:
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


def start(phone: Client) -> Game:
    response = phone.post("/games/new/baskets/", start_form("baskets"))
    assert response.status_code == 302
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def may_score(phone: Client, game: Game) -> bool:
    return phone.get(f"/g/{game.public_id}/offline.json").json()["can_score"]


def rights(game: Game) -> list[str]:
    return list(ScoringRight.objects.filter(game=game).values_list("phone", flat=True))


def test_the_start_page_gives_a_phone_its_id_and_its_rights_are_rows_under_it():
    phone = Client()

    phone.get("/games/new/baskets/")
    given = phone.session[PHONE_KEY]
    game = start(phone)

    assert len(given) == 22
    assert rights(game) == [given]
    assert phone.session[PHONE_KEY] == given
    assert may_score(phone, game) is True
    assert may_score(Client(), game) is False


def test_a_grant_leaves_the_session_unwritten():
    phone = Client()
    phone.get("/games/new/")

    response = phone.post("/games/new/baskets/", start_form("baskets"))

    # Nothing of the session changed, so nothing of it was saved: no other request's write of
    # it can be lost to this one, nor this one's to another.
    assert response.status_code == 302
    assert SESSION not in response.cookies
    assert ScoringRight.objects.count() == 1


def test_a_right_granted_twice_is_one_row():
    game = baskets()
    phone = Client()
    phone.get("/games/new/")

    for _ in range(2):
        phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")

    assert rights(game) == [phone.session[PHONE_KEY]]


def test_a_phone_only_watching_a_game_gets_no_id_and_no_session():
    game = baskets()
    viewer = Client()

    page = viewer.get(f"/g/{game.public_id}/")

    assert page.status_code == 200
    assert SESSION not in viewer.cookies
    assert may_score(viewer, game) is False


def test_a_phone_with_no_id_yet_gets_one_at_its_first_right():
    game = baskets()
    phone = Client()

    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")

    assert rights(game) == [phone.session[PHONE_KEY]]
    assert may_score(phone, game) is True


def test_a_right_survives_signing_in_and_goes_at_signing_out():
    make_user()
    phone = Client()
    phone.get("/games/new/baskets/")
    game = start(phone)
    given = phone.session[PHONE_KEY]

    assert sign_in(phone).status_code == 302
    assert signed_in_as(phone) is not None
    assert phone.session[PHONE_KEY] == given
    assert may_score(phone, game) is True
    assert phone.get("/games/").content.decode().count(f'href="/g/{game.public_id}/"') == 1

    phone.post("/accounts/logout/")

    assert signed_in_as(phone) is None
    assert PHONE_KEY not in phone.session
    assert may_score(phone, game) is False
    assert f'href="/g/{game.public_id}/"' not in phone.get("/games/").content.decode()


# Transactional: the list leaves the session once the rights are committed, which a test's
# own transaction would put off to its end.
@pytest.mark.django_db(transaction=True)
def test_an_old_sessions_list_of_games_becomes_its_rights_once():
    mine, other = baskets(), baskets()
    phone = Client()
    session = phone.session
    session[SESSION_KEY] = [mine.public_id, "a-game-since-deleted", 7]
    session.save()

    assert may_score(phone, mine) is True

    given = phone.session[PHONE_KEY]
    assert rights(mine) == [given]
    assert SESSION_KEY not in phone.session
    assert may_score(phone, other) is False
    assert ScoringRight.objects.count() == 1
    # Read from the rows from now on: the same rights, the same id.
    assert may_score(phone, mine) is True
    assert phone.session[PHONE_KEY] == given


@pytest.mark.django_db(transaction=True)
def test_an_old_sessions_list_becomes_rights_at_its_first_request_whatever_the_page():
    game = baskets()
    phone = Client()
    session = phone.session
    session[SESSION_KEY] = [game.public_id]
    session.save()

    phone.get("/accounts/login/")

    assert rights(game) == [phone.session[PHONE_KEY]]
    assert SESSION_KEY not in phone.session


def test_an_old_sessions_games_are_listed_as_its_games_and_new_rights_join_them():
    old = baskets()
    phone = Client()
    session = phone.session
    session[SESSION_KEY] = [old.public_id]
    session.save()

    listed = phone.get("/games/").content.decode()
    new = start(phone)

    assert f'href="/g/{old.public_id}/"' in listed
    games = phone.get("/games/").content.decode()
    assert f'href="/g/{old.public_id}/"' in games
    assert f'href="/g/{new.public_id}/"' in games
    assert set(ScoringRight.objects.values_list("phone", flat=True)) == {phone.session[PHONE_KEY]}


def test_an_offline_game_is_created_with_its_phones_right_and_a_repeat_adds_none():
    made = sync.game_sync_create(
        public_id="Zm9vYmFyYmF6cXV4MTIzNA",
        preset="baskets",
        form=start_form("baskets"),
        phone="this-phone",
    )
    again = sync.game_sync_create(
        public_id="Zm9vYmFyYmF6cXV4MTIzNA",
        preset="baskets",
        form=start_form("baskets"),
        phone="another-phone",
    )

    assert (made.created, again.created, again.game) == (True, False, made.game)
    assert rights(made.game) == ["this-phone"]
