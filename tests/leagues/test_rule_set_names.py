"""Each rule set has one name, written by `formatting.rule_set_name` on every page and PDF that
names it: the league list, a league's page, a player's page, a game's page and its score card."""

import datetime

import pytest

from leagues import services
from scorekeeper import engine
from scorekeeper.games import services as scores
from tests.helpers.leagues import members, play, table_game
from tests.helpers.pages import section, text
from tests.helpers.pdfs import pdf_words

NAMES = {
    "baskets": "Baskets",
    "four-rounds": "Four Rounds",
    "sevens": "Sevens",
    "ten-thousand": "Ten Thousand",
    "cutthroat": "Cutthroat",
    "contract": "Contract",
    "canasta": "Canasta",
    "samba": "Samba",
    "buraco": "Buraco",
}


def test_every_preset_is_named():
    assert set(NAMES) == set(engine.RULESETS)


@pytest.mark.parametrize("preset", list(NAMES))
def test_the_rule_set_has_the_same_name_on_every_page_and_the_score_card(client, organiser, preset):
    name = NAMES[preset]
    league = services.league_create(
        name="Club",
        slug="club",
        preset=preset,
        play="singles",
        user=organiser,
    )
    services.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
        user=organiser,
    )
    p = members(league, "Ann", "Bob")
    game = table_game(league, [[p["Ann"]], [p["Bob"]]])
    play(game, [500, 300])
    # Ended by hand, so that it counts whatever the rule set's target or rounds.
    scores.game_end(game=game.game)

    listed = text(client.get("/leagues/"))
    front = text(client.get("/leagues/club/"))
    player = text(client.get(f"/leagues/club/players/{p['Ann'].pk}/"))
    game_page = text(client.get(f"/g/{game.game.public_id}/"))
    card = client.get(f"/g/{game.game.public_id}/score-card.pdf")
    card_text = pdf_words(b"".join(card.streaming_content))

    assert f"Club {name} · 2 members" in listed
    assert f"Rule set {name} " in front
    assert section(player, "By rule set", "Results").startswith(f"{name} 1 counted game ")
    assert f" {name} · " in game_page
    assert f"{name}. The game ends" in card_text
    assert f"Ann vs Bob · {name} · Hand and Foot scorekeeper" in card_text
