"""Accounts for the account tests: a user with a known password, signing in, who is signed in."""

from django.contrib.auth import SESSION_KEY, get_user_model

PASSWORD = "a-long-enough-password"


def make_user(username="ann", email="ann@example.org", password=PASSWORD):
    return get_user_model().objects.create_user(username, email, password)


def signed_in_as(client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return None if value is None else int(value)


def sign_in(client, username="ann", password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)
