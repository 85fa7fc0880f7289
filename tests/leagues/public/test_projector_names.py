"""Names on the projector's cards: whole when they fit a card's line, else with first names as
initials, never a word cut, and never two players shown as the same short name."""

import pytest

from leagues.public import projector
from leagues.public.board_names import initial, short_name, shown_names


def test_a_name_that_fits_its_line_is_shown_whole():
    assert short_name("Abigail Fairweather-Montgomery", 30) == "Abigail Fairweather-Montgomery"
    assert short_name("Ann Lee", 25) == "Ann Lee"


def test_a_longer_name_shows_its_first_name_as_an_initial():
    assert short_name("Abigail Fairweather-Montgomery", 25) == "A. Fairweather-Montgomery"
    assert short_name("Bartholomew Ashworth-Beauchamp", 25) == "B. Ashworth-Beauchamp"


def test_middle_names_become_initials_before_the_first_name():
    assert short_name("Mary Elizabeth Fairweather", 25) == "Mary E. Fairweather"
    assert short_name("Mary Elizabeth Fairweather-Montgomery", 25) == (
        "M. E. Fairweather-Montgomery"
    )


def test_a_name_too_long_even_with_initials_keeps_every_word_whole():
    # Longer than the line, but no word is cut: the page may wrap it at the space or hyphen.
    assert short_name("Al Wolfeschlegelsteinhausen-Bergerdorff", 25) == (
        "A. Wolfeschlegelsteinhausen-Bergerdorff"
    )
    assert short_name("Wolfeschlegelsteinhausenbergerdorff", 10) == (
        "Wolfeschlegelsteinhausenbergerdorff"
    )


def test_the_surname_keeps_its_particles_and_suffixes():
    assert short_name("Ludwig Maximilian van Beethoven", 20) == "L. M. van Beethoven"
    assert short_name("Tomás Seanán Ó Briain", 14) == "T. S. Ó Briain"
    assert short_name("Maria de la Cruz Fernández", 20) == "M. de la Cruz Fernández"
    assert short_name("Samuel George Davis Jr.", 15) == "S. G. Davis Jr."


def test_initials_keep_accents_and_hyphens():
    assert initial("Ana-María") == "A.-M."
    assert initial("Łukasz") == "Ł."
    # É written as E and a combining acute accent keeps its accent.
    assert initial("E\N{COMBINING ACUTE ACCENT}lodie") == "E\N{COMBINING ACUTE ACCENT}."
    assert initial("'Bob'") == "B."
    assert initial("&") == "&"
    assert short_name("Ana-María Fairweather-Montgomery", 25) == "A.-M. Fairweather-Montgomery"


def test_spaces_are_squeezed_and_nothing_else_changes():
    assert short_name("  Ann   Lee ", 25) == "Ann Lee"
    assert short_name("Ann", 1) == "Ann"


def test_two_players_whose_short_names_would_be_the_same_are_shown_whole():
    names = [
        "Abigail Fairweather-Montgomery",
        "Adrian Fairweather-Montgomery",
        "Bartholomew Ashworth-Beauchamp",
        "Ann Lee",
    ]

    assert shown_names(names + names[:1], 25) == {
        "Abigail Fairweather-Montgomery": "Abigail Fairweather-Montgomery",
        "Adrian Fairweather-Montgomery": "Adrian Fairweather-Montgomery",
        "Bartholomew Ashworth-Beauchamp": "B. Ashworth-Beauchamp",
        "Ann Lee": "Ann Lee",
    }


@pytest.mark.parametrize(
    ("tables", "columns", "letters"),
    [(1, 1, 40), (4, 2, 30), (9, 3, 25), (12, 4, 25), (16, 4, 25), (17, 5, 25), (20, 5, 25)],
)
def test_each_grid_has_its_line_length(tables, columns, letters):
    assert projector.grid_columns(tables) == columns
    assert projector.name_letters(columns) == letters
