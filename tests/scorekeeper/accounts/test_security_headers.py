"""The security headers every page carries, signed-in pages kept from caches, refusals logged."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse

from config.middleware import private_for_its_viewer
from scorekeeper.games import services
from scorekeeper.portable.start_fields import SideSpec
from tests.helpers.accounts import make_user

pytestmark = pytest.mark.django_db


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
def test_a_page_that_sets_its_own_caching_is_made_private_for_its_viewer(rf, signed_in):
    def view(request):
        response = HttpResponse("Standings")
        response["Cache-Control"] = "public, max-age=60"
        return response

    request = rf.get("/")
    request.user = make_user() if signed_in else AnonymousUser()

    response = private_for_its_viewer(view)(request)

    expected = "max-age=60, private" if signed_in else "public, max-age=60"
    assert response["Cache-Control"] == expected


@pytest.mark.parametrize(
    "path", ["/g/{id}/", "/g/{id}/rounds/new/", "/g/{id}/rounds/delete-last/", "/", "/games/"]
)
def test_a_scoring_phones_pages_are_never_stored_by_a_cache(client, path):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    joined = client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    # The scorer link's answer sets the session that holds the phone's right to score.
    assert (joined.status_code, joined["Cache-Control"]) == (302, "private, no-store")

    response = client.get(path.format(id=game.public_id))

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


def test_a_watchers_game_page_is_left_as_it_was(client):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])

    response = client.get(f"/g/{game.public_id}/")

    assert response.status_code == 200
    assert not response.has_header("Cache-Control")


def test_a_start_page_gives_the_phone_its_session_and_is_never_stored(client):
    response = client.get("/games/new/")

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.parametrize("path", ["/", "/leagues/"])
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
