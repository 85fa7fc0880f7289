"""Accounts: sign up with an e-mail address, sign in and out, reset and change a password."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from scorekeeper.models import SignupMail
from tests.helpers.accounts import PASSWORD, make_user, sign_in, signed_in_as

pytestmark = pytest.mark.django_db


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
        page = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", page)
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


# Sign-up mails are limited -------------------------------------------------------------------


def test_one_address_gets_at_most_three_sign_up_links_an_hour(mailoutbox):
    answers = [
        Client(REMOTE_ADDR=f"203.0.113.{n}").post("/accounts/signup/", signup_form()).status_code
        for n in range(31)
    ]

    assert answers == [302] * 3 + [429] * 28
    assert len(mailoutbox) == 3
    page = Client(REMOTE_ADDR="203.0.113.99").post("/accounts/signup/", signup_form())
    assert (
        escape(
            "A sign-up link went to this address 3 times in the last hour, as many as we send. "
            "Look for it in your inbox and spam folder, or ask again in 1 hour."
        )
        in page.content.decode()
    )
    assert len(mailoutbox) == 3


def test_one_client_sends_at_most_20_sign_up_links_an_hour(mailoutbox):
    phone = Client(REMOTE_ADDR="198.51.100.7")
    answers = [
        phone.post("/accounts/signup/", signup_form(email=f"p{n}@example.org")).status_code
        for n in range(21)
    ]

    assert answers == [302] * 20 + [429]
    assert len(mailoutbox) == 20
    refused = phone.post("/accounts/signup/", signup_form(email="late@example.org"))
    assert (
        escape(
            "20 sign-up links went out from this connection in the last hour, as many as we send. "
            "Please ask again in 1 hour."
        )
        in refused.content.decode()
    )
    other = Client(REMOTE_ADDR="198.51.100.8")
    assert other.post("/accounts/signup/", signup_form(email="late@example.org")).status_code == 302
    assert len(mailoutbox) == 21


def test_an_hour_later_the_address_gets_a_link_again_and_the_old_counts_are_gone(mailoutbox):
    for n in range(3):
        Client(REMOTE_ADDR=f"203.0.113.{n}").post("/accounts/signup/", signup_form())
    SignupMail.objects.update(sent_at=timezone.now() - timedelta(minutes=61))

    response = Client().post("/accounts/signup/", signup_form())

    assert response.status_code == 302
    assert len(mailoutbox) == 4
    assert SignupMail.objects.count() == 1
    # The address is kept only as a keyed hash.
    assert "ann@example.org" not in str(SignupMail.objects.values_list("address", flat=True)[0])
