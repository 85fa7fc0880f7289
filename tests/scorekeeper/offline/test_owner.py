"""Every page names whose it is (X-Offline-Owner), so that the service worker drops what it kept
for a phone or an account that is no longer this browser's."""

from django.test import Client

from tests.helpers.leagues import UserFactory

PASSWORD = "a-long-enough-password"


def owner(client: Client, path: str = "/") -> str:
    return client.get(path)["X-Offline-Owner"]


def sign_in(client: Client, username: str) -> None:
    answer = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302


def test_a_phone_with_no_id_and_no_account_owns_nothing(db):
    assert owner(Client()) == "."


def test_a_start_page_gives_the_phone_its_id_and_the_pages_name_it_hashed(db):
    phone = Client()
    before = owner(phone)
    phone.get("/games/new/baskets/")
    after = owner(phone)
    phone_part, account = after.split(".")
    assert (before, len(phone_part), account) == (".", 24, "")
    assert phone.session["phone"] not in after
    assert owner(phone, "/games/new/") == after


def test_signing_in_keeps_the_phone_and_adds_the_account(db):
    UserFactory(username="olive", password=PASSWORD)
    phone = Client()
    phone.get("/games/new/baskets/")
    anonymous = owner(phone)
    sign_in(phone, "olive")
    signed_in = owner(phone)
    assert signed_in.split(".")[0] == anonymous.split(".")[0]
    assert (anonymous.split(".")[1], len(signed_in.split(".")[1])) == ("", 24)


def test_signing_out_changes_both_and_another_account_is_another_owner(db):
    UserFactory(username="olive", password=PASSWORD)
    UserFactory(username="pat", password=PASSWORD)
    phone = Client()
    phone.get("/games/new/baskets/")
    sign_in(phone, "olive")
    olive = owner(phone)
    phone.post("/accounts/logout/")
    signed_out = owner(phone)
    sign_in(phone, "pat")
    pat = owner(phone)
    assert signed_out == "."
    assert olive.split(".")[1] != pat.split(".")[1]


def test_only_pages_name_an_owner(db, client):
    assert "X-Offline-Owner" not in client.get("/sw.js")
    assert "X-Offline-Owner" not in client.get("/manifest.webmanifest")
