"""Starting a game and who scores it: the start form, its refusals, the scorer link, claims."""

import re

import pytest

from scorekeeper import engine
from scorekeeper.models import Game, Round
from tests.helpers.games import round_form, start_form


def test_another_phone_can_view_but_not_score_until_given_the_scorer_link(start_game, client):
    url = start_game("baskets")
    game = Game.objects.get()
    rules = engine.RULESETS["baskets"]

    assert client.get(url).status_code == 200
    assert "Enter round" not in client.get(url).content.decode()
    assert client.post(url + "rounds/new/", round_form(rules)).status_code == 403
    assert client.get(url + "rounds/new/").status_code == 403
    assert Round.objects.count() == 0

    response = client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    assert response["Location"] == url
    assert client.post(url + "rounds/new/", round_form(rules)).status_code == 302
    assert Round.objects.count() == 1


def test_a_wrong_scorer_token_is_refused(start_game, client):
    url = start_game("baskets")
    assert client.get(url + "join/not-the-token/").status_code == 403


def test_unknown_game_and_preset_are_404(client, db):
    assert client.get("/g/nope/").status_code == 404
    assert client.get("/games/new/poker/").status_code == 404


def test_home_lists_the_games_this_browser_scores_unfinished_first(scorer, start_game):
    first = start_game("baskets")
    second = start_game("sevens")
    scorer.post(second + "rounds/new/", round_form(engine.RULESETS["sevens"]))
    scorer.post(second + "end/")

    html = scorer.get("/").content.decode()

    assert html.index(f'href="{first}"') < html.index(f'href="{second}"')


def test_signed_in_user_claims_a_game_and_sees_it_under_my_games(scorer, start_game):
    from django.contrib.auth.models import User

    url = start_game("baskets")
    user = User.objects.create_user("ann", password="pw-for-tests-only")
    scorer.force_login(user)  # the session, and so the right to score, is kept

    scorer.post(url + "claim/")

    assert Game.objects.get().owner == user
    other_browser = type(scorer)()
    other_browser.force_login(user)
    assert url in other_browser.get("/games/").content.decode()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "rule-going_out_bonus",
            "-5",
            "The going-out bonus must be a whole number from 0 to 1,000,000, not −5.",
        ),
        (
            "rule-target_score",
            "lots",
            "The target score must be a whole number from 1 to 100,000,000 or left empty, not "
            "&quot;lots&quot;.",
        ),
    ],
)
def test_start_form_shows_house_rule_errors_beside_the_field(scorer, field, value, message):
    response = scorer.post("/games/new/baskets/", {**start_form("baskets"), field: value})
    html = response.content.decode()

    assert response.status_code == 200
    assert Game.objects.count() == 0
    block = html[html.index(f'id="{field}"') :]
    assert message in block[: block.index('class="rule-field"')]
    assert f'value="{value}"' in block[:400]


def test_house_rules_are_frozen_with_the_game(scorer):
    data = {**start_form("baskets"), "rule-going_out_bonus": "300", "rule-target_score": "7500"}
    response = scorer.post("/games/new/baskets/", data)

    game = Game.objects.get()
    assert response.status_code == 302
    assert game.house_rules == {"going_out_bonus": 300, "target_score": 7500}
    assert game.rules["overrides"]["going_out_bonus"] == 300
    assert "First to 7,500" in scorer.get(response["Location"]).content.decode()


def test_start_form_needs_names_and_a_dealer(scorer):
    response = scorer.post("/games/new/baskets/", {"side0-player0": "Ann"})
    html = response.content.decode()

    assert "Baskets needs at least 2 players; name 1 more." in html
    assert "Choose who deals first: tap the circle by a name." in html
    assert Game.objects.count() == 0


def test_duplicate_names_are_refused_by_the_engine(scorer):
    response = scorer.post(
        "/games/new/baskets/",
        {"side0-player0": "Ann", "side1-player0": "Ann", "first_dealer": "0-0"},
    )

    assert response.status_code == 200
    assert Game.objects.count() == 0
    assert "Ann" in re.findall(r'class="field-error"[^>]*>([^<]*)', response.content.decode())[0]


def test_rules_picker_shows_every_preset_with_key_numbers(client, db):
    html = client.get("/games/new/").content.decode()

    for rules in engine.RULESETS.values():
        assert f"<h2>{rules.name}</h2>" in html
        assert f'href="/games/new/{rules.id}/"' in html
    assert "<dt>Game ends</dt><dd>First to 5,000, highest total wins</dd>" in html
    assert "<dt>Exact cut</dt><dd>+100</dd>" in html


def name_values(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(side\d-player\d)" value="([^"]*)"', html))


def test_the_start_form_names_the_players_it_needs_until_names_are_typed(client, db):
    before = name_values(client.get("/games/new/baskets/").content.decode())
    assert before == {"side0-player0": "Player 1", "side1-player0": "Player 2"}
    # Teams of two, numbered round the table: Player 1 and 3 sit on one team.
    teams = name_values(client.get("/games/new/four-rounds/").content.decode())
    assert teams == {
        "side0-player0": "Player 1",
        "side0-player1": "Player 3",
        "side0-player2": "",
        "side1-player0": "Player 2",
        "side1-player1": "Player 4",
        "side1-player2": "",
    }
    # A name cleared on purpose stays cleared, with the error beside it.
    refused = client.post(
        "/games/new/baskets/", {"side0-player0": "Ann", "side1-player0": "", "first_dealer": "0-0"}
    ).content.decode()
    assert name_values(refused) == {"side0-player0": "Ann", "side1-player0": ""}
    assert "Baskets needs at least 2 players; name 1 more." in refused


def test_a_team_games_players_are_named_by_their_seats_and_the_third_ones_folded(client, db):
    page = client.get("/games/new/four-rounds/").content.decode()

    rows = re.findall(
        r'<label for="(side\d-player\d)">([^<]+)</label>\s*<input[^>]* value="([^"]*)"', page
    )
    assert rows == [
        ("side0-player0", "Player 1", "Player 1"),
        ("side0-player1", "Player 3", "Player 3"),
        ("side0-player2", "Player 5", ""),
        ("side1-player0", "Player 2", "Player 2"),
        ("side1-player1", "Player 4", "Player 4"),
        ("side1-player2", "Player 6", ""),
    ]
    assert re.findall(
        r'<details class="extra-player"( open)?><summary>([^<]+)</summary>', page
    ) == [
        ("", "A third player in team 1"),
        ("", "A third player in team 2"),
    ]


def test_a_third_player_typed_in_keeps_the_fold_open_when_the_form_comes_back(client, db):
    form = {**start_form("four-rounds"), "side1-player2": "Eve", "rule-going_out_bonus": "x"}

    page = client.post("/games/new/four-rounds/", form).content.decode()

    assert re.findall(r'<details class="extra-player"( open)?>', page) == ["", " open"]
