"""Every page of a whole game, and its score card, in players' words: no hyphen for a minus, no
field name or JSON word."""

import html as html_lib
import re

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import GameEvent
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_delete_last, round_record, round_restore, round_update
from tests.helpers.leagues import UserFactory
from tests.helpers.pdfs import pdf_text

ANN_OUT = {"went_out": True, "canastas": {"natural": 1, "mixed": 2}, "melded_points": 640}
# Bob never picked up the buns and kept a hand full of cards: a round below zero.
BOB_BURIED = {"melded_points": 0, "hand_points": 400, "foot_picked_up": False}
LEAKS = [
    "ended_by",
    "melded_points",
    "hand_points",
    "stock_exhausted",
    "going_out",
    "natural",
    "True",
    "False",
    "None",
    "{'",
    "['",
    '"went_out"',
]


def visible_text(page: str) -> str:
    """What a reader sees: no tags, scripts, styles or attribute values."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def whole_game(db):
    olive = UserFactory(username="olive")
    game = services.game_start(
        preset="baskets",
        sides=[SideSpec("Ann"), SideSpec("Bob")],
        owner=olive,
    )
    round_record(game=game, number=1, ended_by="going_out", entry=[ANN_OUT, BOB_BURIED])
    for number in (2, 3):
        round_record(
            game=game,
            number=number,
            ended_by="stock_exhausted",
            entry=[{"melded_points": 300}, BOB_BURIED],
        )
    round_update(
        game=game,
        number=1,
        ended_by="going_out",
        entry=[{**ANN_OUT, "melded_points": 540}, BOB_BURIED],
        user=olive,
    )
    round_delete_last(game=game, user=olive)
    deleted = GameEvent.objects.get(game=game, kind="round_deleted")
    round_restore(game=game, event_id=deleted.pk, user=olive)
    round_record(game=game, number=4, ended_by="stock_exhausted", entry=[{"hand_points": 20}, {}])
    services.game_end(game=game, user=olive)
    services.game_reopen(game=game, user=olive)
    client = Client()
    client.force_login(olive)
    return game, client


def test_no_page_of_a_whole_game_writes_a_hyphen_minus_or_a_json_word(whole_game):
    game, client = whole_game
    base = f"/g/{game.public_id}/"
    pages = {
        url: visible_text(client.get(url).content.decode())
        for url in (
            base,
            f"{base}rounds/1/",
            f"{base}rounds/4/",
            f"{base}rounds/4/edit/",
            f"{base}history/",
            "/games/",
        )
    }
    services.game_end(game=game)
    pages["finished game page"] = visible_text(client.get(base).content.decode())
    pdf = client.get(f"{base}score-card.pdf")
    pages["score card"] = pdf_text(b"".join(pdf.streaming_content))

    # The game has negative figures, so every page has a minus to write.
    assert "−500" in pages["score card"]
    assert "−500" in pages[base]
    assert "Final score: Ann 2,470, Bob −1,500." in pages["finished game page"]
    assert "−20" in pages[f"{base}rounds/4/"]
    for name, text in pages.items():
        # The game's random address and scorer token are shown as links; they are not words.
        text = text.replace(game.public_id, "").replace(game.scorer_token, "")
        assert re.findall(r"(?<![0-9A-Za-z])-\d", text) == [], name
        assert [leak for leak in LEAKS if leak in text] == [], name
