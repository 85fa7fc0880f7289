"""The league form's house rules: every parameter of the rule set, from the start form's component,
the preset's value beside each, the changed ones marked, and errors beside their fields."""

import re

import pytest

from leagues import league_rules
from leagues.models import League, LeagueEvent
from leagues.organiser import forms
from scorekeeper import engine
from scorekeeper.portable import start_fields
from tests.helpers.leagues import league_form
from tests.helpers.pages import field_block, rule_block


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def rule_keys(html: str) -> list[str]:
    return re.findall(r'<div class="rule-field[^"]*">\s*<label for="([^"]+)"', html)


def rule_divs(html: str) -> str:
    """The house-rule fields alone, without the note above them that differs by page."""
    start = html.index('<div class="rule-field')
    return html[start : html.index("</details>", start)]


def test_a_new_league_offers_every_parameter_with_the_preset_value(as_organiser):
    html = as_organiser.get("/leagues/new/").content.decode()

    baskets = engine.RULESETS["baskets"]
    assert rule_keys(html) == list(start_fields.rule_values(baskets))
    decks = rule_block(html, "decks")
    assert 'value="3"' in decks
    assert "More players need more cards: a table of five may need a fourth deck." in decks
    assert '<span class="preset-value">Preset: 3</span>' in decks
    assert '<span class="preset-value">Preset: 5,000</span>' in rule_block(html, "target_score")
    assert (
        '<span class="preset-value">Preset: 15 below 0, 50 from 0, 70 from 1,500, 90 from '
        "3,000</span>"
    ) in rule_block(html, "opening_meld")
    assert '<span class="preset-value">Preset: must be none</span>' in rule_block(
        html, "went_out_hand"
    )
    assert "changed" not in rule_divs(html)
    assert '<input type="hidden" name="rules_for" value="baskets">' in html
    assert (
        "Each season keeps the rules the league has when the season is added." in html
    )  # and a new league has no seasons yet


def test_the_league_form_and_the_game_start_form_share_the_fields(as_organiser):
    """One component: for the same rule set, the two pages draw the same house-rule fields."""
    game = as_organiser.get("/games/new/ten-thousand/").content.decode()
    league = as_organiser.post(
        "/leagues/new/", {"preset": "ten-thousand", "show_rules": "1"}
    ).content.decode()

    assert rule_divs(league) == rule_divs(game)


def test_the_settings_show_the_league_s_values_and_mark_those_that_differ(as_organiser, league):
    html = as_organiser.get("/leagues/thursday/edit/").content.decode()

    target = rule_block(html, "target_score")
    assert 'value=""' in target
    assert "Preset: 10,000 · <strong>changed</strong>" in target
    assert 'value="1"' in rule_block(html, "rounds")
    assert "Preset: none · <strong>changed</strong>" in rule_block(html, "rounds")
    assert "changed" not in rule_block(html, "decks")
    assert html.count("<strong>changed</strong>") == 2
    assert '<details class="house-rules" open>' in html
    assert (
        "A change applies to seasons added from now on; seasons already created keep the rules "
        "they froze." in html
    )


def test_a_fourth_deck_is_saved_audited_and_left_out_of_the_frozen_season(as_organiser, league):
    frozen = league.seasons.get().rules
    html = as_organiser.get("/leagues/thursday/edit/").content.decode()
    # Every field as the page drew it, as a browser posts the form, with the decks changed.
    posted = dict(re.findall(r'<input id="(rule-[^"]+)" name="[^"]+" value="([^"]*)"', html))
    posted.update(
        re.findall(
            r'<select id="(rule-[^"]+)"[^>]*>(?:(?!</select>).)*?<option value="([^"]*)" selected',
            html,
            re.S,
        )
    )
    assert len(posted) == len(rule_keys(html))
    posted["rule-decks"] = "4"

    response = as_organiser.post(
        "/leagues/thursday/edit/",
        league_form(name="Thursday Club", description="", **posted, win_points="2"),
    )

    assert response.status_code == 302
    league.refresh_from_db()
    assert league.house_rules == {"decks": 4, "target_score": None, "rounds": 1}
    assert league.seasons.get().rules == frozen
    event = league.events.get(kind=LeagueEvent.Kind.LEAGUE_CHANGED)
    assert event.summary == (
        "Settings changed: house rules. Now: 4 decks (the rule set's: 3); no target score "
        "(the rule set's: 10,000); 1 round (the rule set's: none)"
    )
    assert event.before == {"house_rules": {"target_score": None, "rounds": 1}}
    assert event.after == {"house_rules": {"target_score": None, "rounds": 1, "decks": 4}}


def test_a_form_drawn_before_the_house_rules_were_offered_leaves_them_as_they_are(
    as_organiser, league
):
    League.objects.filter(pk=league.pk).update(house_rules={"decks": 4})
    # A tab opened before the update posts no house-rule field and no rules_for.
    posted = league_form(name="Thursday Nights", slug="thursday", preset=league.preset)
    posted.pop("rules_for")

    response = as_organiser.post("/leagues/thursday/edit/", posted)

    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.name, league.house_rules) == ("Thursday Nights", {"decks": 4})


def test_a_bad_value_is_refused_beside_its_field_and_nothing_is_saved(as_organiser, league):
    too_many = as_organiser.post("/leagues/thursday/edit/", league_form(**{"rule-decks": "13"}))
    lots = as_organiser.post(
        "/leagues/thursday/edit/", league_form(**{"rule-canasta_bonus-natural": "lots"})
    )

    assert (too_many.status_code, lots.status_code) == (200, 200)
    assert (
        '<p class="field-error" role="alert">The number of decks must be between 1 and 12.</p>'
    ) in rule_block(too_many.content.decode(), "decks")
    assert (
        '<p class="field-error" role="alert">The bonus for a natural canasta must be a whole '
        "number from 0 to 1,000,000, not &quot;lots&quot;.</p>"
    ) in rule_block(lots.content.decode(), "canasta_bonus-natural")
    league.refresh_from_db()
    assert league.house_rules == {"target_score": None, "rounds": 1}
    assert not league.events.filter(kind=LeagueEvent.Kind.LEAGUE_CHANGED).exists()


def test_a_number_typed_with_its_separator_is_read(as_organiser):
    as_organiser.post("/leagues/new/", league_form(**{"rule-target_score": "7,500"}))

    assert League.objects.get(slug="friday").house_rules == {"target_score": 7500}


def test_another_rule_set_with_house_rules_typed_for_the_first_is_refused(as_organiser, league):
    response = as_organiser.post(
        "/leagues/thursday/edit/",
        league_form(preset="four-rounds", **{"rule-decks": "4", "rule-target_score": ""}),
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        '<p class="field-error" role="alert">The house rules below were set for Ten Thousand, '
        "and Four Rounds has its own: its values are shown now. Check the house rules and save "
        "again.</p>"
    ) in field_block(html, "preset")
    # Four Rounds' fields, at its own values, ready to save.
    assert rule_keys(html) == list(start_fields.rule_values(engine.RULESETS["four-rounds"]))
    assert 'value="6"' in rule_block(html, "decks")
    assert '<input type="hidden" name="rules_for" value="four-rounds">' in html
    league.refresh_from_db()
    assert (league.preset, league.house_rules) == (
        "ten-thousand",
        {"target_score": None, "rounds": 1},
    )


def test_another_rule_set_with_no_house_rules_typed_is_saved_as_published(as_organiser, league):
    preset_values = start_fields.rule_values(engine.RULESETS["ten-thousand"])

    response = as_organiser.post(
        "/leagues/thursday/edit/", league_form(preset="contract", **preset_values)
    )

    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.preset, league.house_rules) == ("contract", {})


def test_show_the_rules_redraws_the_form_and_saves_nothing(as_organiser):
    response = as_organiser.post(
        "/leagues/new/",
        league_form(name="", preset="sevens", rules_for="baskets", show_rules="1"),
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert rule_keys(html) == list(start_fields.rule_values(engine.RULESETS["sevens"]))
    assert "field-error" not in html
    assert 'value="friday"' in field_block(html, "slug")
    assert "The house rules below are those of Sevens." in html
    assert not League.objects.exists()


def test_a_service_error_about_a_house_rule_lands_beside_its_field(league):
    form = forms.LeagueForm(league_form(), league=league)
    assert form.is_valid()

    forms.show_errors(form, [("house_rules.canasta_bonus.natural", "Too much.")])

    (natural,) = [f for f in form.rule_fields if f.key == "rule-canasta_bonus-natural"]
    assert natural.errors == ("Too much.",)
    assert form.non_field_errors() == [league_rules.CHECK_THE_RULES]


def test_read_takes_only_what_differs_from_the_preset():
    data = {"rules_for": "baskets", "rule-decks": "3", "rule-going_out_bonus": "300"}

    assert league_rules.read(data, "baskets") == {"going_out_bonus": 300}


def test_the_chosen_preset_falls_back_to_the_league_then_the_first(league):
    assert league_rules.chosen_preset({"preset": "sevens"}, league) == "sevens"
    assert league_rules.chosen_preset({"preset": "poker"}, league) == "ten-thousand"
    assert league_rules.chosen_preset(None, None) == "baskets"


def test_the_season_pages_say_which_house_rules_they_freeze(as_organiser, league, organiser):
    from leagues import services

    services.league_update(league=league, user=organiser, house_rules={"decks": 4})
    season = league.seasons.get()

    new = as_organiser.get("/leagues/thursday/seasons/new/").content.decode()
    old = as_organiser.get(f"/leagues/thursday/seasons/{season.pk}/edit/").content.decode()

    assert (
        "The season freezes the league's rules as they are now: Ten Thousand. House rules: "
        "4 decks (the rule set&#x27;s: 3). Seasons may not overlap"
    ) in new
    assert (
        "This season plays by the rules it froze when it was added: Ten Thousand. House rules: "
        "no target score (the rule set&#x27;s: 10,000); 1 round (the rule set&#x27;s: none). "
        "Changing the league's settings does not change them."
    ) in old


@pytest.mark.parametrize(
    "junk",
    ["\x00", "9" * 40, "-1", "1.5", "[" * 5000 + "]" * 5000, '{"a": 1}', "yes", "", " 4 "],
)
def test_junk_in_every_house_rule_field_is_answered_never_a_500(as_organiser, league, junk):
    keys = start_fields.rule_values(engine.RULESETS["ten-thousand"])
    response = as_organiser.post(
        "/leagues/thursday/edit/",
        league_form(rules_for=junk, **dict.fromkeys(keys, junk)),
    )

    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert league_rules.CHECK_THE_RULES in response.content.decode().replace("&#x27;", "'")
        league.refresh_from_db()
        assert league.house_rules == {"target_score": None, "rounds": 1}


def test_a_long_audit_line_keeps_whole_house_rules(league, organiser):
    from leagues import services

    every_card = {rank: 15 for rank in ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")}
    services.league_update(league=league, user=organiser, house_rules={"card_values": every_card})

    summary = league.events.get(kind=LeagueEvent.Kind.LEAGUE_CHANGED).summary
    assert summary == (
        "Settings changed: house rules. Now: a king counts 15 (the rule set's: 10); a queen "
        "counts 15 (the rule set's: 10); a jack counts 15 (the rule set's: 10); a 10 counts 15 "
        "(the rule set's: 10); a 9 counts 15 (the rule set's: 10); an 8 counts 15 (the rule "
        "set's: 10); and 4 more (see After)"
    )
    assert len(summary) <= 300
