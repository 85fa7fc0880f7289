"""A game played round by round: every preset's game, the round form, its breakdown, corrections."""

import re

import pytest
from django.utils.html import escape

from scorekeeper import engine
from scorekeeper.models import Game, GameEvent, Round
from tests.helpers.games import expected_scores, round_form

PRESETS = list(engine.RULESETS)


def totals(scorer, url) -> list[int]:
    html = scorer.get(url).content.decode()
    found = re.findall(r'<td class="total">(−?[\d,]+)</td>', html)
    return [int(t.replace(",", "").replace("−", "-")) for t in found]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_whole_game_of_each_preset(scorer, start_game, preset):
    rules = engine.RULESETS[preset]
    url = start_game(preset)
    game = Game.objects.get()
    assert game.rules == {"base": preset, "overrides": rules.parameters()}
    assert totals(scorer, url) == [0, 0]

    # Round 1 and 2, each added up by hand from the rule set's numbers.
    went_out, other = expected_scores(rules)
    response = scorer.post(url + "rounds/new/", round_form(rules))
    assert response.status_code == 302
    assert response["Location"] == url
    assert totals(scorer, url) == [went_out, other]
    scorer.post(url + "rounds/new/", round_form(rules, number=2))
    assert totals(scorer, url) == [2 * went_out, 2 * other]

    # An invalid round: the going-out side lacks canastas. The error stands beside the field,
    # the values typed are kept and nothing is saved.
    bad = round_form(rules, number=3)
    for key in [k for k in bad if k.startswith("s0-canastas-")]:
        bad[key] = "0"
    response = scorer.post(url + "rounds/new/", bad)
    html = response.content.decode()
    assert response.status_code == 200
    beside = re.search(
        r'id="err-s0-canastas[^"]*" class="errors"><p class="field-error" role="alert">'
        r"(Ann went out but has|Ann &amp; Cy went out but have) 0 (baskets|canastas|books); "
        r"going out needs",
        html,
    )
    assert beside, html
    assert f'name="s0-melded_points" value="{bad["s0-melded_points"]}"' in html
    assert Round.objects.count() == 2

    # Correct round 1: 100 more melded for the other side; every later total follows.
    corrected = round_form(rules, other_melded=410)
    response = scorer.post(url + "rounds/1/edit/", corrected)
    assert response.status_code == 200  # asks first, showing the totals before and after
    assert "<h2>Save this correction?</h2>" in response.content.decode()
    assert totals(scorer, url) == [2 * went_out, 2 * other]
    response = scorer.post(url + "rounds/1/edit/", {**corrected, "confirm": "1"})
    assert response.status_code == 302
    assert totals(scorer, url) == [2 * went_out, 2 * other + 100]

    # Delete the last round.
    scorer.post(url + "rounds/delete-last/", {"round_number": "2"})
    assert totals(scorer, url) == [went_out, other + 100]
    assert list(Round.objects.values_list("number", flat=True)) == [1]

    # Play on until the rules end the game (or end it by hand if they never would).
    for _ in range(12):
        game.refresh_from_db()
        if game.finished:
            break
        scorer.post(url + "rounds/new/", round_form(rules, number=game.rounds.count() + 1))
    game.refresh_from_db()
    assert game.finished
    assert game.winner.position == 0
    assert not game.tie
    page = scorer.get(url).content.decode()
    assert f"<h2>{escape(game.winner.name)} win" in page
    assert "Enter round" not in page

    # A round after the end is refused without saving.
    count = Round.objects.count()
    scorer.post(url + "rounds/new/", round_form(rules, number=count + 1))
    assert Round.objects.count() == count

    # Rematch: same rules and sides, the deal moves on one seat.
    response = scorer.post(url + "rematch/")
    rematch = Game.objects.get(rematch_of=game)
    assert response["Location"] == f"/g/{rematch.public_id}/"
    assert rematch.rules == game.rules
    assert [s.name for s in rematch.sides.all()] == [s.name for s in game.sides.all()]
    assert rematch.first_dealer == 1
    assert not rematch.finished


def test_worked_example_one_on_the_game_page(scorer, start_game):
    url = start_game("baskets")
    scorer.post(
        url + "rounds/new/",
        {
            "round_number": "1",
            "went_out": "s0",
            "s0-canastas-natural": "1",
            "s0-canastas-mixed": "2",
            "s0-melded_points": "640",
            "s1-canastas-natural": "1",
            "s1-melded_points": "310",
            "s1-hand_points": "85",
            "s1-foot_missed": "1",
        },
    )
    page = scorer.get(url).content.decode()

    assert totals(scorer, url) == [1990, 625]
    assert '<span>Ann needs</span> <strong class="meld">70</strong>' in page
    assert '<span>Bob needs</span> <strong class="meld">50</strong>' in page
    assert '<p class="dealer"><strong>Bob</strong> deals.</p>' in page


def test_round_breakdown_lists_each_line(scorer, start_game):
    url = start_game("baskets")
    scorer.post(url + "rounds/new/", round_form(engine.RULESETS["baskets"]))

    html = scorer.get(url + "rounds/1/").content.decode()

    assert '<tr><th scope="row">Wicker baskets <span class="muted">1 × 500</span></th>' in html
    assert "<td>+250</td>" in html  # going out
    assert "<td>−85</td>" in html  # Bob's cards left in hand


def test_four_rounds_offers_the_exact_cut_to_the_dealers_team_only(scorer, start_game):
    url = start_game("four-rounds")
    html = scorer.get(url + "rounds/new/").content.decode()

    assert 'name="s0-exact_cuts"' in html  # Ann deals round 1
    assert 'name="s1-exact_cuts"' not in html

    rules = engine.RULESETS["four-rounds"]
    data = round_form(rules)
    data["s0-exact_cuts"] = "1"
    scorer.post(url + "rounds/new/", data)
    went_out, other = expected_scores(rules)
    assert totals(scorer, url) == [went_out + 100, other]

    html = scorer.get(url + "rounds/new/").content.decode()
    assert "<strong>Bob</strong> deals" in html  # the deal passes left, to the other team
    assert 'name="s1-exact_cuts"' in html
    assert 'name="s0-exact_cuts"' not in html


def test_a_scoreboard_cell_opens_the_breakdown_as_a_fragment(scorer, start_game):
    url = start_game("baskets")
    scorer.post(url + "rounds/new/", round_form(engine.RULESETS["baskets"]))
    page = scorer.get(url).content.decode()
    assert f'hx-get="{url}rounds/1/" hx-target="#breakdown-panel"' in page

    fragment = scorer.get(url + "rounds/1/", headers={"HX-Request": "true"}).content.decode()

    assert fragment.lstrip().startswith('<section id="breakdown">')
    assert "<html" not in fragment
    assert '<h2>Bob: <span class="round-total">+725</span>' in fragment


def test_count_cards_fills_in_the_points(scorer, start_game):
    url = start_game("baskets")
    data = round_form(engine.RULESETS["baskets"])
    del data["s1-hand_points"]
    data.update({"s1-hand_cards-K": "3", "s1-hand_cards-7": "4", "s1-hand_cards-2": "1"})

    response = scorer.post(url + "rounds/new/", data, headers={"HX-Request": "true"})
    html = response.content.decode()

    # 3 kings (30) + 4 sevens (20) + a deuce (20) = 70, filled into the points field.
    assert 'hx-swap-oob="outerHTML:#s1-hand_points"' in html
    assert 'id="s1-hand_points" name="s1-hand_points" value="70"' in html
    assert "<td>−70</td>" in html
    assert Round.objects.count() == 0

    scorer.post(url + "rounds/new/", data)
    assert Round.objects.get().entry[1]["hand_cards"] == {"K": 3, "7": 4, "2": 1}


def test_live_preview_shows_breakdown_and_errors_and_saves_nothing(scorer, start_game):
    url = start_game("baskets")
    data = round_form(engine.RULESETS["baskets"])
    data["s1-melded_points"] = "12a"

    response = scorer.post(url + "rounds/new/", data, headers={"HX-Request": "true"})
    html = response.content.decode()

    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="preview"')
    assert "<html" not in html
    assert (
        '<div id="err-s1-melded_points" class="errors" hx-swap-oob="true">'
        '<p class="field-error" role="alert">'
        "Bob&#x27;s melded points must be a whole number of 0 or more, not &quot;12a&quot;.</p>"
        in html.replace("\n", "")
    )
    assert Round.objects.count() == 0

    data["s1-melded_points"] = "310"
    html = scorer.post(url + "rounds/new/", data, headers={"HX-Request": "true"}).content.decode()
    # Ann: 500 + 2 x 300 + 250 + 1000; Bob: 500 + 310 - 85.
    assert "Totals after round 1: Ann <strong>2,350</strong>, Bob <strong>725</strong>" in html
    assert (
        '<div id="err-s1-melded_points" class="errors" hx-swap-oob="true"></div>'
        in html.replace("\n", "")
    )
    assert Round.objects.count() == 0


def test_a_round_needs_who_went_out(scorer, start_game):
    url = start_game("baskets")
    data = round_form(engine.RULESETS["baskets"])
    del data["went_out"]

    html = scorer.post(url + "rounds/new/", data).content.decode()

    assert "Choose the player that went out, or that the stock ran out." in html
    assert Round.objects.count() == 0


def test_end_by_hand_and_reopen(scorer, start_game):
    url = start_game("sevens")
    rules = engine.RULESETS["sevens"]
    scorer.post(url + "rounds/new/", round_form(rules))
    assert "End the game now?" in scorer.get(url + "end/").content.decode()

    scorer.post(url + "end/")
    game = Game.objects.get()
    assert game.finished and game.ended_by_hand and game.winner.name == "Ann"

    scorer.post(url + "reopen/")
    game.refresh_from_db()
    assert not game.finished and game.winner is None
    kinds = list(GameEvent.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["started", "round_added", "ended", "reopened"]


def test_history_keeps_the_values_before_and_after_a_correction(scorer, start_game):
    url = start_game("baskets")
    rules = engine.RULESETS["baskets"]
    scorer.post(url + "rounds/new/", round_form(rules))
    scorer.post(url + "rounds/1/edit/", {**round_form(rules, other_melded=410), "confirm": "1"})

    event = GameEvent.objects.get(kind="round_changed")
    assert event.before["entry"][1]["melded_points"] == 310
    assert event.after["entry"][1]["melded_points"] == 410
    html = scorer.get(url + "history/").content.decode()
    totals = [event.before["totals"]["Bob"], event.after["totals"]["Bob"]]
    assert totals[1] - totals[0] == 100
    assert (
        "Round 1 corrected: Bob&#x27;s points laid down 310 → 410; "
        f"totals Ann {event.after['totals']['Ann']:,}, Bob {totals[0]:,} → {totals[1]:,}.</p>"
    ) in html


def test_a_correction_asks_first_showing_the_totals_before_and_after(scorer, start_game):
    url = start_game("baskets")
    rules = engine.RULESETS["baskets"]
    scorer.post(url + "rounds/new/", round_form(rules))

    html = scorer.post(url + "rounds/1/edit/", round_form(rules, other_melded=410)).content
    text = " ".join(html.decode().split())

    assert (
        "The game's totals go from Ann 2,350, Bob 725 to Ann 2,350, Bob 825. "
        "The history keeps the old round."
    ) in text.replace("&#x27;", "'")
    # At the top of the form (in view without JavaScript), its Yes button focused.
    confirm = text.index(
        '<button class="button big" type="submit" name="confirm" value="1" autofocus>'
    )
    assert text.index('<dialog open class="confirm-box"') < confirm < text.index('name="went_out"')
    assert GameEvent.objects.filter(kind="round_changed").count() == 0


def test_a_refused_save_focuses_its_first_error_and_sums_up_beside_save(scorer, start_game):
    url = start_game("baskets")
    rules = engine.RULESETS["baskets"]
    data = {**round_form(rules), "s1-hand_points": "33"}
    html = " ".join(scorer.post(url + "rounds/new/", data).content.decode().split())
    assert re.findall(r"<input [^>]*autofocus[^>]*>", html) == [
        '<input type="number" id="s1-hand_points" name="s1-hand_points" value="33" min="0" '
        'step="5" inputmode="numeric" pattern="[0-9]*" placeholder="0" autofocus '
        'aria-invalid="true" aria-describedby="err-s1-hand_points">'
    ]
    bar = html[html.index('<div class="save-bar">') :]
    assert bar.startswith(
        '<div class="save-bar"> <div id="save-summary" class="save-summary"><p>'
        '<a href="#s1-hand_points">Round 1 not saved yet: 1 field to fix, marked in red</a></p>'
        '</div> <button class="button big" type="submit">Save round 1</button>'
    ), bar[:400]
    assert Round.objects.count() == 0
    # Two errors: the first on the page is focused, and the count says two.
    data["s0-melded_points"] = "1001"
    html = " ".join(scorer.post(url + "rounds/new/", data).content.decode().split())
    assert re.findall(r'id="([^"]+)"[^>]* autofocus', html) == ["s0-melded_points"]
    assert "Round 1 not saved yet: 2 fields to fix, marked in red" in html


def test_a_round_form_without_errors_focuses_nothing_and_sums_up_nothing(scorer, start_game):
    url = start_game("baskets")
    html = scorer.get(url + "rounds/new/").content.decode()
    assert "autofocus" not in html
    assert '<div id="save-summary" class="save-summary"></div>' in html


def test_the_live_preview_keeps_the_summary_beside_save_up_to_date(scorer, start_game):
    url = start_game("baskets")
    data = {**round_form(engine.RULESETS["baskets"]), "s1-hand_points": "33"}
    htmx = {"HTTP_HX_REQUEST": "true"}
    wrong = " ".join(scorer.post(url + "rounds/new/", data, **htmx).content.decode().split())
    assert (
        '<div id="save-summary" class="save-summary" hx-swap-oob="true"><p>'
        '<a href="#s1-hand_points">Round 1 not saved yet: 1 field to fix, marked in red</a></p>'
        "</div>"
    ) in wrong
    data["s1-hand_points"] = "35"
    right = scorer.post(url + "rounds/new/", data, **htmx).content.decode()
    assert '<div id="save-summary" class="save-summary" hx-swap-oob="true"></div>' in right
    assert Round.objects.count() == 0
