"""The lockout after five wrong passwords from one address, and that address behind proxies."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.test import Client, override_settings

from scorekeeper.accounts.services import client_address, cool_off_words
from tests.helpers.accounts import make_user, sign_in, signed_in_as

pytestmark = pytest.mark.django_db


LOCKED = (
    "Signing in to this account from this address is paused after 5 wrong passwords. "
    "Try again in 15 minutes."
)


# Lockout -------------------------------------------------------------------------------------


def test_five_wrong_passwords_lock_the_account_out_from_that_address(client):
    user = make_user()
    for _ in range(4):
        assert sign_in(client, password="wrong").status_code == 200

    fifth = sign_in(client, password="wrong")
    assert fifth.status_code == 429
    assert LOCKED in fifth.content.decode()

    right = sign_in(client)
    assert right.status_code == 429
    assert LOCKED in right.content.decode()
    assert signed_in_as(client) is None
    assert client.session.get(SESSION_KEY) != user.pk


def test_a_lockout_does_not_lock_another_account_or_another_address(client):
    make_user()
    bob = make_user(username="bob", email="bob@example.org")
    for _ in range(5):
        sign_in(client, password="wrong")
    assert sign_in(client).status_code == 429

    assert sign_in(client, username="bob").status_code == 302
    assert signed_in_as(client) == bob.pk

    from django.test import Client

    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert sign_in(elsewhere).status_code == 302


def test_a_right_password_before_the_limit_starts_the_count_again(client):
    make_user()
    for _ in range(4):
        sign_in(client, password="wrong")
    assert sign_in(client).status_code == 302
    client.post("/accounts/logout/")

    for _ in range(4):
        assert sign_in(client, password="wrong").status_code == 200


# Behind reverse proxies ----------------------------------------------------------------------

PROXY = "10.0.0.2"  # every request reaches the app from the proxy's address


def behind_proxy(client_address: str) -> Client:
    """A browser at client_address, through one proxy that appends it to X-Forwarded-For."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_two_clients_behind_one_trusted_proxy_are_counted_apart():
    make_user()
    first, second = behind_proxy("198.51.100.1"), behind_proxy("198.51.100.2")
    for _ in range(4):
        assert sign_in(first, password="wrong").status_code == 200
    assert sign_in(first, password="wrong").status_code == 429

    assert sign_in(first).status_code == 429
    assert sign_in(second).status_code == 302
    assert signed_in_as(second) is not None


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_what_the_client_adds_to_the_header_is_not_read():
    make_user()
    for n in range(5):
        # The client sends a made-up address; the proxy appends the one it saw.
        attacker = behind_proxy(f"203.0.113.{n}, 198.51.100.9")
        sign_in(attacker, password="wrong")

    assert sign_in(behind_proxy("203.0.113.99, 198.51.100.9")).status_code == 429
    assert sign_in(behind_proxy("198.51.100.1")).status_code == 302


def test_without_trusted_proxies_a_forged_forwarding_header_is_ignored(settings):
    assert settings.TRUSTED_PROXY_COUNT == 0
    make_user()
    for n in range(5):
        forger = Client(REMOTE_ADDR="192.0.2.50", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        sign_in(forger, password="wrong")

    forger = Client(REMOTE_ADDR="192.0.2.50", HTTP_X_FORWARDED_FOR="203.0.113.77")
    assert sign_in(forger).status_code == 429
    assert sign_in(Client(REMOTE_ADDR="192.0.2.51")).status_code == 302


@pytest.mark.parametrize(
    ("count", "forwarded", "address"),
    [
        (0, "198.51.100.1", "10.0.0.2"),
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "203.0.113.5, 198.51.100.1", "198.51.100.1"),
        (2, "203.0.113.5, 198.51.100.1, 10.0.0.1", "198.51.100.1"),
        (2, "198.51.100.1", "10.0.0.2"),  # came round the outer proxy
        (1, "", "10.0.0.2"),
        (1, "not-an-address", "10.0.0.2"),
        (1, "2001:DB8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_counts_the_trusted_proxies_from_the_right(
    rf, settings, count, forwarded, address
):
    settings.TRUSTED_PROXY_COUNT = count
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == address


@pytest.mark.parametrize(
    ("minutes", "words"),
    [(1, "1 minute"), (15, "15 minutes"), (60, "1 hour"), (90, "1 hour and 30 minutes")],
)
def test_cool_off_in_words(minutes, words):
    assert cool_off_words(minutes) == words


def test_a_sign_in_with_a_username_longer_than_any_is_refused_like_a_wrong_password(client):
    # axes keeps the username in a column of 255: it is counted cut to the 150 a username has.
    response = sign_in(client, username="a" * 300, password="wrong")

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert [len(name) for name in AccessAttempt.objects.values_list("username", flat=True)] == [150]
