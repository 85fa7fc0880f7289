"""One renderer per piece: the server's pages and the phone's offline pages draw the next round,
the result, the scoreboard, the round form's fields, the dealer line and a round's breakdown
with scorekeeper.portable.fragments, so the phone's piece is the server's, byte for byte.

Each comparison takes the piece out of the page the server answers and the phone's answer for
the same game (phone.py, run here in CPython; test_phone_runtime.py holds Pyodide to CPython)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.portable import fragments, phone, round_fields
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs
from tests.helpers.offline_games import (
    PRESETS,
    next_round_form,
    planned_to_the_end,
    played_game,
    snapshot,
)

MINUS = "\N{MINUS SIGN}"


def scorer(game: Game) -> Client:
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return client


def between(page: str, start: str, end: str) -> str:
    """The text of `page` from the first `start` to the first `end` after it, both included."""
    at = page.index(start)
    return page[at : page.index(end, at) + len(end)]


def inner(page: str, opening: str, closing: str) -> str:
    """What stands between `opening` and the `closing` after it, white space at its ends cut."""
    at = page.index(opening) + len(opening)
    return page[at : page.index(closing, at)].strip()


# ---- The same piece on both sides, for every rule set ----------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_next_round_on_the_phone_is_the_game_pages(db, preset):
    game, _ = played_game(preset)
    page = scorer(game).get(f"/g/{game.public_id}/").content.decode()
    drawn = phone.game_view(snapshot(game), [])
    assert (
        inner(page, '<div data-offline-part="state">', "</section>") + "</section>"
        == (drawn["state_html"])
    )
    # One who only watches has no Enter round, on either side.
    watched = Client().get(f"/g/{game.public_id}/").content.decode()
    assert "Enter round" not in phone.game_view(snapshot(game), [], False)["state_html"]
    assert (
        inner(watched, '<div data-offline-part="state">', "</section>") + "</section>"
        == (phone.game_view(snapshot(game), [], False)["state_html"])
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_the_scoreboard_on_the_phone_is_the_game_pages_without_the_panel_links(db, preset):
    game, _ = played_game(preset)
    page = scorer(game).get(f"/g/{game.public_id}/").content.decode()
    served = between(page, '<section data-offline-part="scores">', "</section>")
    # Offline there is no server to put a round's breakdown in the panel: the links go to it.
    served = re.sub(r' hx-get="[^"]*" hx-target="#breakdown-panel"', "", served)
    assert phone.game_view(snapshot(game), [])["scores_html"] == served


@pytest.mark.parametrize("preset", PRESETS)
def test_the_result_on_the_phone_is_the_game_pages(db, preset):
    game = services.game_start(preset=preset, sides=side_specs(preset))
    for number, (ended_by, entry) in enumerate(planned_to_the_end(preset), start=1):
        round_record(game=game, number=number, ended_by=ended_by, entry=entry)
    game = Game.objects.get(pk=game.pk)
    assert game.finished
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    served = inner(page, '<section class="result" aria-live="polite">', "</section>")
    drawn = phone.game_view(snapshot(game), [])["state_html"]
    assert drawn == f'<section class="result" aria-live="polite">{served}</section>'


@pytest.mark.parametrize("preset", PRESETS)
def test_the_round_form_on_the_phone_is_the_round_pages(db, preset):
    game, _ = played_game(preset)
    page = scorer(game).get(f"/g/{game.public_id}/rounds/new/").content.decode()
    drawn = phone.round_form(snapshot(game), [])
    fields = page[page.index('<div id="err-__all__"') : page.index('<div class="preview-trigger"')]
    assert drawn["fields_html"] == fields.strip()
    dealer = inner(page, '<p class="dealer" data-offline-part="dealer">', "</p>\n")
    assert drawn["dealer_html"] == dealer
    assert drawn["preview_html"] == between(page, '<section id="preview"', "</section>")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_rounds_lines_on_the_phone_are_the_round_pages(db, preset):
    game, _ = played_game(preset)
    page = Client().get(f"/g/{game.public_id}/rounds/2/").content.decode()
    stored = game.rounds.get(number=2)
    drawn = phone.round_lines(
        snapshot(game), [], {"number": 2, "ended_by": stored.ended_by, "entry": stored.entry}
    )
    served = [
        match.group(0).replace("<h2>", "<h4>").replace("</h2>", "</h4>")
        for match in re.finditer(r'<div class="breakdown">.*?</table></div>', page)
    ]
    assert drawn["sides_html"] == served


@pytest.mark.parametrize("preset", PRESETS)
def test_the_live_preview_on_the_phone_is_the_round_pages(db, preset):
    game, planned = played_game(preset)
    client = scorer(game)
    url = f"/g/{game.public_id}/rounds/new/"
    for data in (next_round_form(game, planned[0]), {"round_number": "4", "s0-melded_points": "7"}):
        served = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
        drawn = phone.round_preview(snapshot(game), [], data)
        assert drawn["preview_html"] == between(served, '<section id="preview"', "</section>")
        summary = '<div id="save-summary" class="save-summary" hx-swap-oob="true">'
        assert drawn["summary_html"] == inner(served, summary, "</div>")


# ---- The pieces themselves ---------------------------------------------------------------------


def test_every_value_is_escaped_as_django_escapes_it_and_html_is_kept():
    assert fragments.esc('<a href="x">Tom & Jerry\'s</a>') == (
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#x27;s&lt;/a&gt;"
    )
    assert fragments.esc(None) == ""
    assert fragments.esc(fragments.Html("<b>kept</b>")) == "<b>kept</b>"
    assert fragments.Html("<b>x</b>").__html__() == "<b>x</b>"


def test_the_next_round_says_who_deals_the_melds_what_wins_and_enter_round_for_a_scorer():
    drawn = fragments.next_round_html(
        next_round=3,
        dealer="Bob & Co",
        melds=[("Ann", 90), ("Bob & Co", 1200)],
        to_win=["Ann needs 1,200 more"],
        enter_url="/g/g1/rounds/new/",
    )
    assert drawn == (
        '<section class="next-round"><h2>Round 3</h2>'
        '<p class="dealer"><strong>Bob &amp; Co</strong> deals.</p>'
        '<ul class="meld-needs">'
        '<li><span>Ann needs</span> <strong class="meld">90</strong> <span>to open</span></li>\n'
        '<li><span>Bob &amp; Co need</span> <strong class="meld">1,200</strong> '
        "<span>to open</span></li></ul>"
        '<ul class="to-win"><li>Ann needs 1,200 more</li></ul>'
        '<a class="button big" href="/g/g1/rounds/new/" data-needs-settled>Enter round 3</a>'
        "</section>"
    )
    watched = fragments.next_round_html(
        next_round=3, dealer="Ann", melds=[("Ann", 90)], to_win=[], enter_url=None
    )
    assert "to-win" not in watched
    assert "Enter round" not in watched


def test_a_finished_games_result_names_the_winner_or_the_tie_and_the_final_score():
    final = fragments.final_score_text([("Ann", 1990), ("Bob & Co", -45)])
    assert final == f"Ann 1,990, Bob & Co {MINUS}45"
    assert fragments.result_html(tie=False, winner="Ann wins!", final_score=final) == (
        f"<h2>Ann wins!</h2><p>Final score: Ann 1,990, Bob &amp; Co {MINUS}45.</p>"
    )
    assert fragments.result_html(tie=True, winner="", final_score=final).startswith(
        "<h2>It's a tie</h2>"
    )
    assert fragments.winner_text("Ann", "player") == "Ann wins!"
    assert fragments.winner_text("Ann and Bob", "team") == "Ann and Bob win!"


def test_the_scoreboard_links_stored_rounds_and_marks_the_waiting_ones():
    rounds = [
        {"number": 1, "scores": [(50, 50), (40, 40)]},
        {"number": 2, "waiting": True, "scores": [(-10, 40), (5, 45)]},
    ]
    drawn = fragments.scoreboard_html(
        ["Ann", "Bob"], rounds, [40, 45], round_url=lambda n: f"/r/{n}/", panel=True
    )
    assert (
        '<tr><th scope="row"><a href="/r/1/">1</a></th>'
        '<td><a href="/r/1/" hx-get="/r/1/" hx-target="#breakdown-panel">'
        '<span class="visually-hidden">Round 1, Ann: </span><span class="points">+50</span>'
        '<span class="visually-hidden">, total</span> <span class="running">50</span></a></td>'
    ) in drawn
    assert (
        '<tr class="waiting"><th scope="row"><span class="cell">2 <span class="waiting-note">'
        "saved on this phone, not sent yet</span></span></th>"
        f'<td><span class="cell"><span class="visually-hidden">Round 2, Ann: </span>'
        f'<span class="points">{MINUS}10</span>'
    ) in drawn
    assert drawn.count('<tr class="waiting">') == 1
    assert '<tfoot><tr><th scope="row">Total</th><td class="total">40</td>' in drawn
    empty = fragments.scoreboard_html(["Ann", "Bob"], [], [0, 0], round_url=str, panel=False)
    assert '<tbody><tr><td colspan="3" class="empty">No rounds yet.</td></tr></tbody>' in empty


def test_a_sides_lines_show_counts_beside_labels_and_say_when_nothing_scored():
    lines = [
        {"label": "Wicker baskets", "points": 1000, "count": 2, "each": 500},
        {"label": "Cards left in hand", "points": -415},
    ]
    assert fragments.breakdown_html("Ann", 585, lines, level=3) == (
        '<div class="breakdown"><h3>Ann: <span class="round-total">+585</span></h3>'
        '<table class="lines">'
        '<tr><th scope="row">Wicker baskets <span class="muted">2 × 500</span></th>'
        "<td>+1,000</td></tr>"
        f'<tr><th scope="row">Cards left in hand</th><td>{MINUS}415</td></tr></table></div>'
    )
    assert fragments.breakdown_html("<b>Bob</b>", 0, [], level=4, total=25) == (
        '<div class="breakdown"><h4>&lt;b&gt;Bob&lt;/b&gt;: <span class="round-total">0</span>'
        ' <span class="muted">(total 25)</span></h4>'
        '<table class="lines"><tr><td>Nothing scored.</td></tr></table></div>'
    )


def test_the_preview_shows_a_note_or_each_sides_lines_and_the_totals_after():
    assert fragments.preview_html(number_=3, note="No <engine>") == (
        '<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2>'
        '<p class="muted">No &lt;engine&gt;</p></section>'
    )
    sides = [{"name": "Ann", "total": 150, "lines": [{"label": "Melded", "points": 150}]}]
    drawn = fragments.preview_html(number_=3, sides=sides, totals=[("Ann", 1200)])
    assert drawn.endswith(
        '<p class="new-totals">Totals after round 3: Ann <strong>1,200</strong></p></section>'
    )


def test_the_save_summary_says_nothing_when_ok_else_the_forms_error_or_how_many_fields():
    rules = engine.RULESETS["baskets"]
    names = ["Ann", "Bob"]
    clean = round_fields.build(rules, names, {}, 0)
    assert fragments.save_summary_html(clean, number_=3) == ""
    whole = round_fields.build(rules, names, {}, 0, [engine.FieldError("", "Who went out?")])
    assert fragments.save_summary_html(whole, number_=3) == (
        '<p><a href="#err-__all__">Who went out?</a></p>'
    )
    two = round_fields.build(
        rules,
        names,
        {},
        0,
        [
            engine.FieldError("sides[0].melded_points", "Too many."),
            engine.FieldError("sides[1].hand_points", "A multiple of 5."),
        ],
    )
    assert fragments.save_summary_html(two, number_=3) == (
        '<p><a href="#s0-melded_points">Round 3 not saved yet: 2 fields to fix, '
        "marked in red</a></p>"
    )
    assert "Not saved yet: 2 fields" in fragments.save_summary_html(two, number_=3, editing=True)


def test_a_field_with_an_error_is_marked_invalid_and_points_to_its_message():
    field = round_fields.Field(
        key="s0-melded_points", name="Melded", kind="points", value="7", errors=("<5>",), step=5
    )
    assert fragments.stepper_html(field, focus="s0-melded_points") == (
        '<div class="field has-error"><div class="field-name">'
        '<label for="s0-melded_points">Melded</label></div><div class="stepper">'
        '<button type="button" class="step" data-for="s0-melded_points" data-step="-5" '
        'aria-label="Melded: less">−</button>'
        '<input type="number" id="s0-melded_points" name="s0-melded_points" value="7" min="0" '
        'step="5" inputmode="numeric" pattern="[0-9]*" placeholder="0" autofocus '
        'aria-invalid="true" aria-describedby="err-s0-melded_points">'
        '<button type="button" class="step" data-for="s0-melded_points" data-step="5" '
        'aria-label="Melded: more">+</button></div>'
        '<div id="err-s0-melded_points" class="errors">'
        '<p class="field-error" role="alert">&lt;5&gt;</p></div></div>'
    )


def test_the_phones_addresses_are_the_servers():
    assert fragments.game_path("abc_-1") == reverse("game_detail", args=["abc_-1"])
    assert fragments.round_path("abc_-1", 4) == reverse("round_detail", args=["abc_-1", 4])


def test_a_count_shows_what_one_is_worth_under_its_name_and_keeps_it_in_its_label():
    field = round_fields.Field("s0-red_threes", "Red threes laid down", "count", amount="+100 each")
    assert field.label == "Red threes laid down (+100 each)"
    drawn = fragments.stepper_html(field)
    assert drawn.startswith(
        '<div class="field"><div class="field-name"><label for="s0-red_threes">'
        'Red threes laid down <span class="amount">(+100 each)</span></label></div>'
    )
    assert 'aria-label="Red threes laid down (+100 each): more"' in drawn


def two_sides(rules: engine.RuleSet, data=None, errors=()) -> round_fields.RoundForm:
    sides = [type("S", (), {"name": name})() for name in ("Ann & Cy", "Bob & Di")]
    return round_fields.build(rules, sides, data or {}, dealer=0, errors=errors)


def test_a_sides_count_cards_helper_holds_both_piles_and_opens_while_it_counts():
    rules = engine.get_ruleset("four-rounds")
    closed = fragments.count_cards_html((two_sides(rules).blocks[0].melded,))
    assert closed.startswith(
        '<details class="count-cards"><summary>Count cards</summary>'
        '<p class="hint">Counted cards replace the points typed above.</p>'
        '<fieldset class="pile-cards" id="s0-melded_cards"><legend>Cards laid down</legend>'
        '<div id="err-s0-melded_cards" class="errors"></div><div class="rank-grid">'
    )
    block = two_sides(rules, {"s0-hand_cards-K": "2"}).blocks[0]
    both = fragments.count_cards_html((block.melded, block.hand))
    assert both.startswith('<details class="count-cards" open>')
    assert re.findall(r"<legend>([^<]*)</legend>", both) == [
        "Cards laid down",
        "Cards left in hand and foot",
    ]


def test_a_side_block_puts_the_dealers_cut_last_so_that_two_sides_rows_stay_level():
    form = two_sides(engine.get_ruleset("four-rounds"))
    dealer = fragments.side_block_html(form.blocks[0], "Ann & Cy", kinds=form.kinds)
    other = fragments.side_block_html(form.blocks[1], "Bob & Di", kinds=form.kinds)
    found = r'<input type="(?:number|checkbox)" id="s\d-([^"]+)"'
    ids = [re.findall(found, block) for block in (dealer, other)]
    # Each pile's cards, by rank, in the one helper after both piles' points.
    fields = [[i for i in side if "_cards-" not in i] for side in ids]
    assert fields[0] == [
        "canastas-natural",
        "canastas-mixed",
        "red_threes",
        "melded_points",
        "hand_points",
        "red_threes_in_hand",
        "exact_cuts",
    ]
    assert fields[1] == fields[0][:-1]
    after_piles = ids[0][ids[0].index("hand_points") + 1 : ids[0].index("red_threes_in_hand")]
    assert after_piles[0] == "melded_cards-A"
    assert after_piles[-1] == "hand_cards-joker"
    assert dealer.startswith('<fieldset class="side-block dealer" id="s0">')
    assert other.startswith('<fieldset class="side-block" id="s1">')


def test_the_went_out_choices_carry_the_canastas_going_out_needs_and_two_sides_pair_up():
    drawn = fragments.round_fields_html(
        two_sides(engine.get_ruleset("four-rounds")), ["Ann & Cy", "Bob & Di"]
    )
    assert re.findall(r'id="went_out-(\w+)"[^>]*data-least="([^"]*)"', drawn) == [
        ("s0", "s0-canastas-natural:2 s0-canastas-mixed:3"),
        ("s1", "s1-canastas-natural:2 s1-canastas-mixed:3"),
    ]
    assert '<div class="side-blocks pair">' in drawn
    three = round_fields.build(
        engine.get_ruleset("ten-thousand"),
        [type("S", (), {"name": n})() for n in "ABC"],
        {},
        dealer=0,
    )
    drawn = fragments.round_fields_html(three, list("ABC"))
    assert '<div class="side-blocks">' in drawn
    assert 'data-least="s2-canastas-natural:3 s2-canastas-mixed:1 s2-canastas-wild:1"' in drawn


def test_the_dealer_line_gives_one_opening_meld_when_every_side_needs_the_same():
    assert fragments.dealer_html("Ann", [("Ann & Cy", 60), ("Bob & Di", 60)]) == (
        "<strong>Ann</strong> deals. Opening meld: <strong>60</strong> each."
    )
    assert fragments.dealer_html("Ann", [("Ann", 50), ("Bob", 90)]) == (
        "<strong>Ann</strong> deals. Opening meld: Ann <strong>50</strong>, "
        "Bob <strong>90</strong>."
    )
    assert fragments.dealer_html("Ann", [("Ann", 50)]) == (
        "<strong>Ann</strong> deals. Opening meld: Ann <strong>50</strong>."
    )
