import os
import subprocess
import sys

import pytest
from django.urls import reverse

from tests.helpers.games import start_form
from tests.helpers.paths import REPO


@pytest.mark.django_db
def test_healthz_answers_200_when_the_database_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.headers["Cache-Control"] == (
        "max-age=0, no-cache, no-store, must-revalidate, private"
    )


def test_healthz_answers_503_when_the_database_is_unreachable():
    # A real unreachable server (nothing listens on port 1), not a mocked cursor.
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client(HTTP_HOST='localhost').get('/healthz')\n"
        "print(r.status_code, r.content.decode())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.settings",
        DATABASE_URL="postgres://nobody@127.0.0.1:1/nowhere",
        LOG_LEVEL="CRITICAL",
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '503 {"status": "error", "database": "unavailable"}'


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_home_page_says_what_the_app_is_and_links_to_games_and_leagues(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Keep score of Hand and Foot without the arithmetic</h1>" in html
    assert f'href="{reverse("game_list")}"' in html
    assert f'href="{reverse("leagues:list")}"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


@pytest.mark.django_db
def test_home_page_loads_htmx_from_static_and_from_no_cdn(client):
    html = client.get("/").content.decode()

    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in html
    for cdn in ("unpkg.com", "jsdelivr", "cdnjs", "https://"):
        assert cdn not in html


@pytest.mark.django_db
def test_vendored_htmx_is_served_by_whitenoise(client):
    response = client.get("/static/vendor/htmx/htmx.min.js")

    assert response.status_code == 200
    assert response.headers["Content-Type"] == 'text/javascript; charset="utf-8"'
    body = b"".join(response.streaming_content)
    assert body.startswith(b"var htmx=function(){")
    assert b'version:"2.0.11"' in body


@pytest.mark.django_db
def test_htmx_requests_carry_the_csrf_token(client):
    client.get("/")  # sets the CSRF cookie
    html = client.get("/").content.decode()

    assert '<body hx-headers=\'{"X-CSRFToken": "' in html
    assert 'hx-headers=\'{"X-CSRFToken": "NOTPROVIDED"}\'' not in html


@pytest.mark.django_db
def test_htmx_middleware_marks_htmx_requests(client):
    assert not client.get("/").wsgi_request.htmx
    assert client.get("/", headers={"HX-Request": "true"}).wsgi_request.htmx


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["game_list", "leagues:list"])
def test_pages_linked_from_home_render(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 200


@pytest.mark.django_db
def test_a_phone_with_games_sees_them_first_and_what_the_app_is_after(client):
    before = client.get("/").content.decode()
    client.get("/games/new/baskets/")
    started = client.post("/games/new/baskets/", start_form("baskets"))
    assert started.status_code == 302

    after = client.get("/").content.decode()

    assert "Your games" not in before
    assert after.index("<h1>Your games</h1>") < after.index("Ann vs Bob")
    assert after.index("Ann vs Bob") < after.index(
        "<h2>Keep score of Hand and Foot without the arithmetic</h2>"
    )


@pytest.mark.django_db
def test_a_game_page_with_its_chart_shows_no_template_comment(client, game_with_rounds):
    game = game_with_rounds(2)

    page = client.get(f"/g/{game.public_id}/").content.decode()

    assert "<svg" in page
    assert "{#" not in page and "#}" not in page
