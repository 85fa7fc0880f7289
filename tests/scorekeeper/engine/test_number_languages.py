"""Numbers in each language the app speaks, from the CLDR through Babel: 1.990 in Portuguese,
12.345 in Spanish, the true minus sign kept; English wherever no language is set."""

import pytest
from babel.numbers import format_decimal

from docs.cldr_numbers import LANGUAGES, source
from scorekeeper.engine.cldr_numbers import NUMBER_SYMBOLS
from scorekeeper.engine.formatting import MINUS, decimal, number, percent, signed, written_in
from tests.helpers.paths import REPO


def test_numbers_are_written_the_english_way_where_no_language_is_set():
    assert (number(1990), number(-12345), decimal(1234.5, 1), percent(83.25)) == (
        "1,990",
        "−12,345",
        "1,234.5",
        "83.3",
    )


def test_portuguese_and_spanish_group_with_a_point_and_keep_the_true_minus_sign():
    with written_in("pt-br"):
        assert (number(1990), signed(-100), decimal(-1234.5, 1)) == ("1.990", "−100", "−1.234,5")
    with written_in("es"):
        assert (number(12345), number(1_000_000), percent(75.0), percent(83.25)) == (
            "12.345",
            "1.000.000",
            "75",
            "83,3",
        )
    assert number(1990) == "1,990"


def test_a_language_the_app_does_not_speak_writes_english():
    with written_in("fr"):
        assert number(12345) == "12,345"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("value", [0, 7, 1990, 12345, -1234567, 1_000_000_000])
def test_every_figure_reads_as_babel_writes_it_but_for_the_minus_sign(language, value):
    with written_in(language):
        ours = number(value)
    assert ours.replace(MINUS, "-") == format_decimal(value, locale=LANGUAGES[language])


def test_the_engines_table_is_the_one_babel_gives():
    written = (REPO / "scorekeeper" / "engine" / "cldr_numbers.py").read_text(encoding="utf-8")
    assert written == source(), "run make cldr-numbers and commit the result"
    assert set(NUMBER_SYMBOLS) == set(LANGUAGES)
