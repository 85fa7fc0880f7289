"""What static/js/offline.js finds on the server's pages: the status line, the parts of the game
page it draws again from the phone's copy, the round form it scores offline and the start form's
error slots. Without JavaScript the pages stand as they are."""

import re

import pytest

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record


@pytest.fixture
def game(db) -> Game:
    sides = [SideSpec(name) for name in ("Ann", "Bob")]
    return services.game_start(preset="baskets", sides=sides)


def scorer(client, game: Game):
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return client


def test_every_page_has_the_status_line_hidden_until_the_script_fills_it(client, db):
    html = client.get("/").content.decode()

    assert '<p id="sync-status" class="sync-status" role="status" hidden></p>' in html
    assert re.search(r'<script src="/static/js/offline\.js[^"]*" type="module"></script>', html)


def test_the_game_page_marks_its_scores_for_a_scorer_and_not_for_a_viewer(client, game):
    viewer = client.get(f"/g/{game.public_id}/").content.decode()
    assert f'data-offline-game="{game.public_id}" data-can-score="0"' in viewer

    html = scorer(client, game).get(f"/g/{game.public_id}/").content.decode()
    assert f'data-offline-game="{game.public_id}" data-can-score="1"' in html
    for part in ("problems", "state", "scores"):
        assert html.count(f'data-offline-part="{part}"') == 1


def test_the_round_form_for_a_new_round_is_marked_and_a_correction_is_not(client, game):
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 50}, {}])
    scorer(client, game)

    new = client.get(f"/g/{game.public_id}/rounds/new/").content.decode()
    assert f'data-round-new="2" data-offline-game="{game.public_id}"' in new
    assert '<h1 data-offline-part="heading">Round 2</h1>' in new
    assert '<p class="dealer" data-offline-part="dealer">' in new

    edit = client.get(f"/g/{game.public_id}/rounds/1/edit/").content.decode()
    assert "data-offline-game" not in edit
    assert "<h1>Correct round 1</h1>" in edit


def test_the_start_form_names_its_preset_and_has_an_error_slot_per_field(client, db):
    html = client.get("/games/new/baskets/").content.decode()

    assert 'data-offline-preset="baskets"' in html
    for slot in ("__all__", "first_dealer", "side0", "side1", "rule-target_score"):
        assert f'id="err-{slot}" class="errors"' in html
