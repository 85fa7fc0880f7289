"""Inputs a fuzzer found that once answered 500 or were misread; each now gets a clear answer."""

import pytest

from scorekeeper import engine
from scorekeeper.models import Game, Round
from tests.helpers.games import round_form, start_form


@pytest.mark.parametrize("posted", ["²", "9" * 5000, "-1", "1.0", "", "0"])
def test_an_odd_round_number_is_refused_never_a_500(scorer, start_game, posted):
    url = start_game("baskets")

    response = scorer.post(
        url + "rounds/new/",
        {**round_form(engine.RULESETS["baskets"]), "round_number": posted},
        follow=True,
    )

    assert response.redirect_chain == [(url, 302)]
    assert [str(m) for m in response.context["messages"]] == [
        "Nothing was saved: the form did not say which round it was for, so it may be an old "
        "copy of the page or a repeat. These are the rounds stored; tap Enter round to add the "
        "next one."
    ]
    assert Round.objects.count() == 0


def test_a_game_with_no_target_and_no_round_limit_ends_by_hand(scorer):
    data = {**start_form("ten-thousand"), "rule-target_score": ""}
    response = scorer.post("/games/new/ten-thousand/", data)

    page = scorer.get(response["Location"])

    assert page.status_code == 200
    html = page.content.decode()
    assert "Ten Thousand · When you end it (at most 60 rounds), highest total wins" in html
    assert (
        '<p class="muted house-rules-text">House rules: no target score '
        "(the rule set&#x27;s: 10,000)</p>"
    ) in html


def test_deeply_nested_json_for_the_opening_meld_is_refused_beside_the_field(scorer):
    nested = "[" * 2000 + "]" * 2000
    data = {**start_form("baskets"), "rule-opening_meld": nested}

    response = scorer.post("/games/new/baskets/", data)
    html = response.content.decode()

    assert response.status_code == 200
    block = html[html.index('id="rule-opening_meld"') :]
    assert (
        "An opening meld set by score must be a list of [lowest score, points] levels"
        in (block[: block.index('class="rule-field"')])
    )
    assert Game.objects.count() == 0


def test_sevens_can_give_black_threes_a_value_when_they_may_be_melded(scorer):
    html = scorer.get("/games/new/sevens/").content.decode()
    assert 'id="rule-card_values-black3" name="rule-card_values-black3" value=""' in html

    data = {
        **start_form("sevens"),
        "rule-black_threes_meld": "yes",
        "rule-card_values-black3": "5",
    }
    response = scorer.post("/games/new/sevens/", data)

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.house_rules == {"black_threes_meld": True, "card_values": {"black3": 5}}


def test_a_duplicate_name_is_shown_beside_the_second_side(scorer):
    data = {"side0-player0": "Ann", "side2-player0": "Ann", "first_dealer": "0-0"}

    html = scorer.post("/games/new/sevens/", data).content.decode()

    slot = html[html.index('id="side2"') :]
    assert '<p class="field-error" role="alert">' in slot[: slot.index("</h3>") + 200]
    assert Game.objects.count() == 0


def test_first_dealer_is_the_seat_tapped_even_when_two_players_share_a_name(scorer):
    data = {
        "side0-player0": "Al",
        "side0-player1": "Al",
        "side1-player0": "Bo",
        "side1-player1": "Cy",
        "first_dealer": "0-1",
    }

    scorer.post("/games/new/four-rounds/", data)

    # Dealing order: Al (0), Bo (1), the second Al (2), Cy (3).
    assert Game.objects.get().first_dealer == 2


def test_digits_from_other_scripts_are_refused_not_read_as_numbers(scorer):
    data = {**start_form("baskets"), "rule-going_out_bonus": "５００"}

    response = scorer.post("/games/new/baskets/", data)

    assert response.status_code == 200
    assert "The going-out bonus must be a whole number from 0 to 1,000,000, not" in (
        response.content.decode()
    )
    assert Game.objects.count() == 0
