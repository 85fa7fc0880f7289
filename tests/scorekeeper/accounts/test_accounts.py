"""Accounts: sign up with an e-mail address, sign in and out, reset and change a password, the
lockout after too many wrong passwords, and the security headers every page carries."""

import re

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import Client, override_settings
from django.utils.html import escape

from config.middleware import private_when_signed_in
from scorekeeper.accounts.services import client_address, cool_off_words
from scorekeeper.games import services
from scorekeeper.portable.start_fields import SideSpec

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password"
LOCKED = (
    "Signing in to this account from this address is paused after 5 wrong passwords. "
    "Try again in 15 minutes."
)


def make_user(username="ann", email="ann@example.org", password=PASSWORD):
    return get_user_model().objects.create_user(username, email, password)


def signed_in_as(client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return None if value is None else int(value)


def sign_in(client, username="ann", password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


# Sign up -------------------------------------------------------------------------------------


def signup_form(**changes) -> dict:
    return {"username": "ann", "email": "ann@example.org", **changes}


def signup_link(mail) -> str:
    return re.search(r"http://testserver(/accounts/signup/\S+/)", mail.body).group(1)


SENT = (
    "A message is on its way to ann@example.org. Follow its link to choose your password and "
    "finish signing up; it works for one day."
)


def test_sign_up_asks_for_a_username_and_an_email_address_not_yet_a_password(client):
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="username"' in page
    assert 'name="email"' in page
    assert re.findall(r'<input type="(?!hidden)[^"]+" name="([^"]+)"', page) == [
        "username",
        "email",
    ]


def test_sign_up_mails_a_link_that_chooses_the_password_and_signs_in(client, mailoutbox):
    response = client.post("/accounts/signup/", signup_form())

    assert response.status_code == 302
    assert response["Location"] == "/accounts/signup/sent/"
    assert SENT in client.get("/accounts/signup/sent/").content.decode()
    assert not get_user_model().objects.exists()
    (mail,) = mailoutbox
    assert mail.to == ["ann@example.org"]
    assert mail.subject == "Finish signing up to the Hand and Foot scorekeeper"
    assert mail.body.startswith(
        "Hello ann,\n\nSomeone (we hope you) asked to sign up on testserver with this address."
    )

    link = signup_link(mail)
    assert "Choose a password for ann" in client.get(link).content.decode()
    done = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})

    assert done.status_code == 302
    assert done["Location"] == "/"
    user = get_user_model().objects.get()
    assert (user.username, user.email) == ("ann", "ann@example.org")
    assert user.check_password(PASSWORD)
    assert signed_in_as(client) == user.pk
    assert "Welcome, ann: your account is ready." in client.get("/").content.decode()


def test_sign_up_does_not_say_whether_an_account_has_the_address(mailoutbox):
    def sign_up() -> tuple:
        client = Client()
        response = client.post("/accounts/signup/", signup_form(email="Ann@example.org"))
        page = client.get(response["Location"]).content.decode()
        # The CSRF token is masked afresh for every page.
        page = re.sub(r'"X-CSRFToken": "\w+"', "", page)
        return response.status_code, response["Location"], response.content, page

    new = sign_up()
    make_user(username="annie", email="ann@example.org")
    taken = sign_up()

    assert taken == new
    assert SENT.replace("ann@example.org", "Ann@example.org") in taken[3]
    first, second = mailoutbox
    assert first.to == second.to == ["Ann@example.org"]
    assert first.subject == second.subject
    assert second.body == (
        "Hello annie,\n\n"
        "Someone (perhaps you) asked to sign up on testserver with this address, which your "
        "account,\nannie, has already. No other account is made. To sign in:\n\n"
        "http://testserver/accounts/login/\n\n"
        "Forgot your password? Choose a new one here:\n\n"
        "http://testserver/accounts/password_reset/\n\n"
        "If you did not ask for it, ignore this e-mail: nothing has changed.\n"
    )
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["annie"]


def test_sign_up_without_an_email_address_is_refused(client, mailoutbox):
    response = client.post("/accounts/signup/", signup_form(email=""))

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert mailoutbox == []


def test_sign_up_with_a_username_taken_says_so(client, mailoutbox):
    make_user(username="ann", email="someone@example.org")

    response = client.post("/accounts/signup/", signup_form(email="new@example.org"))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert mailoutbox == []


def test_a_sign_up_link_works_once(client, mailoutbox):
    client.post("/accounts/signup/", signup_form())
    link = signup_link(mailoutbox[0])
    client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    client.post("/accounts/logout/")

    again = client.post(
        link, {"new_password1": "another-long-password", "new_password2": "another-long-password"}
    )

    assert "This link has been used already." in again.content.decode()
    assert get_user_model().objects.get().check_password(PASSWORD)
    assert signed_in_as(client) is None


def test_a_forged_sign_up_link_creates_nothing(client):
    response = client.get("/accounts/signup/not-a-real-token/")

    assert "This link no longer works" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_sign_up_link_for_an_address_taken_since_is_refused(client, mailoutbox):
    client.post("/accounts/signup/", signup_form())
    make_user(username="annie", email="ANN@example.org")

    response = client.post(
        signup_link(mailoutbox[0]), {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )

    assert response.status_code == 200
    assert (
        escape(
            "An account with this e-mail address exists already. Sign in, or reset its password."
        )
        in response.content.decode()
    )
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["annie"]


def test_a_sign_up_password_is_checked_like_any_other(client, mailoutbox):
    client.post("/accounts/signup/", signup_form())

    response = client.post(
        signup_link(mailoutbox[0]), {"new_password1": "ann", "new_password2": "ann"}
    )

    assert "This password is too short." in response.content.decode()
    assert not get_user_model().objects.exists()


# Sign in and out -----------------------------------------------------------------------------


def test_sign_in_page_offers_a_password_reset(client):
    page = client.get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password_reset/">Forgot your password?</a>' in page


def test_sign_in_with_the_right_password(client):
    user = make_user()
    assert signed_in_as(client) is None

    response = sign_in(client)

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_as(client) == user.pk


def test_sign_in_with_a_wrong_password_is_refused(client):
    make_user()

    response = sign_in(client, password="wrong")

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert signed_in_as(client) is None


def test_sign_out_is_a_post_from_the_nav(client):
    user = make_user()
    client.force_login(user)
    page = client.get("/").content.decode()
    assert '<form method="post" action="/accounts/logout/" class="inline">' in page
    assert '<button class="link">Sign out</button>' in page

    assert client.get("/accounts/logout/").status_code == 405
    assert signed_in_as(client) == user.pk

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_as(client) is None


def test_sign_out_needs_the_csrf_token(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(make_user())

    response = strict.post("/accounts/logout/")

    assert response.status_code == 403
    assert strict.session.get(SESSION_KEY) is not None


# Password reset and change ----------------------------------------------------------------


def test_password_reset_mails_a_link_that_sets_a_new_password(client, mailoutbox):
    make_user()

    response = client.post("/accounts/password_reset/", {"email": "ann@example.org"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_reset/done/"
    (mail,) = mailoutbox
    assert mail.to == ["ann@example.org"]
    assert mail.subject == "Reset your Hand and Foot scorekeeper password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)

    # The link hides its token behind a redirect, then shows the form.
    form_url = client.get(link)["Location"]
    assert form_url.endswith("/set-password/")
    assert "Choose a new password" in client.get(form_url).content.decode()
    done = client.post(
        form_url,
        {"new_password1": "another-long-password", "new_password2": "another-long-password"},
    )
    assert done["Location"] == "/accounts/reset/done/"
    assert "Your new password is set." in client.get(done["Location"]).content.decode()

    assert sign_in(client).status_code == 200
    assert signed_in_as(client) is None
    assert sign_in(client, password="another-long-password").status_code == 302
    # A link works once.
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, mailoutbox):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})

    assert response["Location"] == "/accounts/password_reset/done/"
    assert mailoutbox == []


def test_password_change_needs_the_old_password(client):
    user = make_user()
    client.force_login(user)
    assert client.get("/accounts/password_change/").status_code == 200

    refused = client.post(
        "/accounts/password_change/",
        {
            "old_password": "wrong",
            "new_password1": "another-long-password",
            "new_password2": "another-long-password",
        },
    )
    assert (
        escape("Your old password was entered incorrectly. Please enter it again.")
        in refused.content.decode()
    )

    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password",
            "new_password2": "another-long-password",
        },
    )
    assert response["Location"] == "/accounts/password_change/done/"
    user.refresh_from_db()
    assert user.check_password("another-long-password")


def test_password_change_asks_a_signed_out_visitor_to_sign_in(client):
    response = client.get("/accounts/password_change/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/password_change/"


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


# Security headers ----------------------------------------------------------------------------


CSP = {
    "default-src 'self'",
    # Compiling WebAssembly (the offline engine's Pyodide), never eval.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/leagues/"])
def test_every_page_carries_the_security_headers(client, path):
    response = client.get(path)

    assert response.status_code == 200
    # django-csp writes the directives in no fixed order.
    assert set(response["Content-Security-Policy"].split("; ")) == CSP
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["Permissions-Policy"] == (
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
        "microphone=(), payment=(), usb=()"
    )
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_script_or_style_the_policy_would_block(client):
    page = client.get("/accounts/login/").content.decode()

    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert "<style" not in page
    assert " style=" not in page
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false}\'>' in page


# Caching and refusals ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/games/", "/accounts/password_change/", "/leagues/"])
def test_a_signed_in_page_is_never_stored_by_a_cache(client, path):
    client.force_login(make_user())

    response = client.get(path)

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.parametrize("signed_in", [True, False])
def test_a_page_that_sets_its_own_caching_is_made_private_when_signed_in(rf, signed_in):
    def view(request):
        response = HttpResponse("Standings")
        response["Cache-Control"] = "public, max-age=60"
        return response

    request = rf.get("/")
    request.user = make_user() if signed_in else AnonymousUser()

    response = private_when_signed_in(view)(request)

    expected = "max-age=60, private" if signed_in else "public, max-age=60"
    assert response["Cache-Control"] == expected


@pytest.mark.parametrize("path", ["/", "/leagues/", "/games/new/"])
def test_a_signed_out_page_is_left_as_it_was(client, path):
    response = client.get(path)

    assert response.status_code == 200
    assert not response.has_header("Cache-Control")


def test_a_refusal_is_logged_in_one_line_without_a_traceback(client, caplog):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    user = make_user()
    client.force_login(user)
    url = f"/g/{game.public_id}/rounds/new/"

    with caplog.at_level("INFO", logger="django.request"):
        response = client.get(url)

    assert response.status_code == 403
    assert "Only the phones scoring this game can enter rounds." in response.content.decode()
    assert [(r.name, r.levelname, r.getMessage(), r.exc_info) for r in caplog.records] == [
        ("django.request", "WARNING", f"Forbidden (403): {url} user={user.pk}", None)
    ]


def test_a_signed_out_refusal_names_no_account(client, caplog):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    url = f"/g/{game.public_id}/rounds/new/"

    with caplog.at_level("INFO", logger="django.request"):
        response = client.get(url)

    assert response.status_code == 403
    assert [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        (f"Forbidden (403): {url} user=anonymous", None)
    ]
