"""A refused Save says each problem once, and says it was refused at the top of the page, where
the page opens, as well as beside Save."""

import re

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.portable.start_fields import SideSpec

pytestmark = pytest.mark.django_db
SUMMARY = "Round 1 not saved yet: 1 field to fix, marked in red"


@pytest.fixture
def phone_and_game():
    game = services.game_start(
        preset="four-rounds",
        sides=[SideSpec("Us", ("Ann", "Carl")), SideSpec("Them", ("Bea", "Dan"))],
    )
    phone = Client()
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return phone, game


def test_an_empty_save_says_its_one_problem_once(phone_and_game):
    phone, game = phone_and_game

    page = phone.post(f"/g/{game.public_id}/rounds/new/", {"round_number": "1"}).content.decode()

    assert re.findall(r'<p class="field-error"[^>]*>([^<]*)</p>', page) == [
        "Choose the team that went out, or that the stock ran out."
    ]


def test_a_refused_save_says_so_at_the_top_of_the_form_and_beside_save(phone_and_game):
    phone, game = phone_and_game

    page = phone.post(f"/g/{game.public_id}/rounds/new/", {"round_number": "1"}).content.decode()

    top = page.index('<div class="save-summary refused-summary" role="alert">')
    assert top < page.index('name="went_out"') < page.index('<div id="save-summary"')
    assert page.count(f'<a href="#went_out-s0">{SUMMARY}</a>') == 2


def test_the_form_before_any_save_has_no_summary_at_the_top(phone_and_game):
    phone, game = phone_and_game

    page = phone.get(f"/g/{game.public_id}/rounds/new/").content.decode()

    assert "refused-summary" not in page
