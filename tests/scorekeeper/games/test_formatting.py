"""The one formatter: numbers, signs and names the same on every page, PDF and message."""

import datetime

import pytest
from django.utils import dateformat

from scorekeeper import engine
from scorekeeper.engine import formatting
from scorekeeper.engine.formatting import (
    change,
    decimal,
    number,
    owned,
    percent,
    rule_set_name,
    signed,
)
from scorekeeper.engine.sheet import sheet_items
from scorekeeper.games.presenters import rules_card
from scorekeeper.portable.round_fields import build


def test_numbers_have_thousands_separators_and_a_true_minus():
    assert [number(v) for v in (0, 5, 1990, -100, -12345, 10**6)] == [
        "0",
        "5",
        "1,990",
        "\u2212100",
        "\u221212,345",
        "1,000,000",
    ]


def test_signed_points_carry_plus_or_a_true_minus():
    assert [signed(v) for v in (1990, 0, -100, -5)] == ["+1,990", "0", "\u2212100", "\u22125"]


def test_a_change_shows_before_and_after_or_the_value_alone():
    assert change(640, 540) == "640 → 540"
    assert change(625, 625) == "625"


def test_an_enormous_number_is_named_not_printed():
    assert number(-(10**5000)) == "about \u221210^5,000"


@pytest.mark.parametrize(
    "name, thing, start, expected",
    [
        ("Ann", "melded points", False, "Ann's melded points"),
        ("Us", "melded points", True, "The melded points of Us"),
        ("Us", "hand", False, "the hand of Us"),
        ("Chris", "dealer", False, "the dealer of Chris"),
    ],
)
def test_a_name_owns_a_thing_the_way_players_say_it(name, thing, start, expected):
    assert owned(name, thing, start=start) == expected


def test_a_rule_set_is_named_never_by_its_id():
    assert rule_set_name("four-rounds") == "Four Rounds"
    assert rule_set_name("ten-thousand") == "Ten Thousand"
    assert rule_set_name("old-house-game") == "Old house game"


def test_an_error_about_a_side_called_us_does_not_say_uss():
    with pytest.raises(engine.RoundError) as caught:
        engine.score_round(
            engine.get_ruleset("cutthroat"),
            {"sides": [{"name": "Us", "melded_points": 12}, {"name": "Them"}]},
        )
    messages = [error.message for error in caught.value.errors]
    assert "The melded points of Us must be a multiple of 5, since every card is, not 12." in (
        messages
    )
    assert not any("Us's" in message for message in messages)


def test_a_round_ended_by_going_out_with_nobody_out_is_told_in_players_words():
    with pytest.raises(engine.RoundError) as caught:
        engine.score_round(
            engine.get_ruleset("baskets"),
            {"ended_by": "going_out", "sides": [{"name": "Ann"}, {"name": "Bob"}]},
        )
    assert [e.message for e in caught.value.errors] == [
        "The round ended by going out, but no player went out: mark the player that went "
        "out, or say that the stock ran out."
    ]


def test_penalties_on_the_sheet_the_form_and_the_rules_card_carry_a_true_minus():
    rules = engine.get_ruleset("ten-thousand")
    headings = [item.heading for item in sheet_items(rules) if item.each]
    assert "Red threes in hand × \u2212300" in headings
    form = build(rules, [type("S", (), {"name": "Ann"})()], {}, dealer=None)
    labels = [f.label for f in form.blocks[0].after_piles]
    assert labels == [
        "Red threes left in hand (\u2212300 each)",
        "Black threes left in hand (\u22125 each)",
    ]
    facts = dict(rules_card(rules).facts)
    assert facts["Red threes"] == "+100 laid down, \u2212300 in hand"


def test_a_figure_with_decimals_has_separators_a_true_minus_and_rounds_a_half_up():
    assert [decimal(v, 1) for v in (1234.5, -0.5, 1500, 0, -1234567.25, 0.05)] == [
        "1,234.5",
        "\u22120.5",
        "1,500.0",
        "0.0",
        "\u22121,234,567.3",
        "0.1",
    ]


def test_a_figure_that_rounds_to_nothing_has_no_minus():
    assert decimal(-0.04, 1) == "0.0"


def test_a_figure_rounds_as_written_not_as_the_float_is_stored():
    # 2.675 is stored as 2.67499999…; the page shows what a reader would round.
    assert decimal(2.675, 2) == "2.68"
    assert decimal(-33.35, 1) == "\u221233.4"


def test_a_percentage_drops_a_dot_zero_that_says_nothing():
    assert [percent(v) for v in (100.0, 75, 83.333, 0.0, 12.05, 1234.5)] == [
        "100",
        "75",
        "83.3",
        "0",
        "12.1",
        "1,234.5",
    ]


def test_dates_are_written_as_the_pages_write_them_whatever_the_locale():
    assert formatting.day_month(datetime.date(2026, 9, 30)) == "30 Sep"
    assert formatting.day_month(datetime.date(2027, 1, 7)) == "7 Jan"
    every_month = [datetime.date(2026, month, 1) for month in range(1, 13)]
    assert [formatting.day_month(d) for d in every_month] == [
        dateformat.format(d, "j M") for d in every_month
    ]
