"""Names in narrow places: lines broken only at a space or after a hyphen, never wider than
their room; a name too long shortened to initials, then set smaller."""

import re

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from scorekeeper.documents.pdf.base import BOLD, CELL_RIGHT_BOLD, FONT, FOOTER_SIZE, footer_line
from scorekeeper.documents.pdf.names import (
    SMALLEST,
    fit,
    fit_all,
    initialed,
    lines,
    named_after,
    pieces,
    short_name,
)
from tests.helpers.score_cards import LONG_NAMES


def rejoined(found: tuple[str, ...]) -> str:
    """The lines as one text again: a line that ends after a hyphen runs on into the next."""
    return re.sub(r"(?<=-) ", "", " ".join(found))


@pytest.mark.parametrize("room", [30, 45, 52, 58, 64, 80, 120, 400])
@pytest.mark.parametrize(
    "value",
    [
        *LONG_NAMES,
        "Abigail Fairweather-Montgomery & Oluwaseun Oyelaran-Williams",
        "A. Fairweather-Montgomery & O. Oyelaran-Williams",
        "Ann, Bob and Cy",
    ],
)
def test_lines_end_only_at_a_space_or_after_a_hyphen_and_fit_their_room(value, room):
    found = lines(value, BOLD, 8, room)
    if found is None:
        # Some part of a word (an initial with the name after it) is wider than the room.
        assert any(stringWidth(part, BOLD, 8) > room for part, _ in pieces(value))
        return
    assert rejoined(found) == value
    assert all(stringWidth(line, BOLD, 8) <= room for line in found)


def test_an_initial_stays_on_the_line_of_the_name_after_it():
    assert lines("A. Fairweather-Montgomery & O. Oyelaran-Williams", BOLD, 7, 58) == (
        "A. Fairweather-",
        "Montgomery &",
        "O. Oyelaran-",
        "Williams",
    )


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("Abigail Fairweather-Montgomery", "A. Fairweather-Montgomery"),
        ("Mary Ann Oyelaran-Williams", "M. A. Oyelaran-Williams"),
        ("Jean-Luc Picard", "J.-L. Picard"),
        ("Ludwig van Beethoven", "L. van Beethoven"),
        ("Featherstonehaugh", "Featherstonehaugh"),
        ("Player 1", "P. 1"),
    ],
)
def test_a_persons_first_names_become_initials(name, short):
    assert initialed(name) == short


def test_a_team_is_shortened_player_by_player_and_a_chosen_name_never():
    team = "Abigail Fairweather-Montgomery & Oluwaseun Oyelaran-Williams"
    players = ("Abigail Fairweather-Montgomery", "Oluwaseun Oyelaran-Williams")
    assert named_after(team, players)
    assert short_name(team, players) == "A. Fairweather-Montgomery & O. Oyelaran-Williams"
    three = ("Ann Lee", "Bob Ray", "Cy Young")
    assert short_name("Ann Lee, Bob Ray and Cy Young", three) == "A. Lee, B. Ray and C. Young"
    # A side of one player, or with no players listed, is a person's name.
    assert short_name(players[0], players[:1]) == "A. Fairweather-Montgomery"
    assert short_name(players[1]) == "O. Oyelaran-Williams"
    # A name the team chose is theirs: "T. C. Sharks" would be no one's.
    assert not named_after("The Card Sharks", players)
    assert short_name("The Card Sharks", players) == "The Card Sharks"


def test_a_name_is_whole_where_it_fits_else_shortened_else_smaller():
    name = "Abigail Fairweather-Montgomery"
    forms = (name, initialed(name))
    # Six sides' columns on A4: the whole name on three lines.
    found = fit(forms, BOLD, 8, 56.8, 4)
    assert (found.lines, found.size, found.whole) == (
        ("Abigail", "Fairweather-", "Montgomery"),
        8,
        True,
    )
    # Two lines at most: the first name an initial.
    found = fit(forms, BOLD, 8, 70, 2)
    assert (found.lines, found.size, found.whole) == (
        ("A. Fairweather-", "Montgomery"),
        8,
        False,
    )
    # Narrower still: a size smaller, never a word broken.
    found = fit(forms, BOLD, 8, 50, 4)
    assert found.size < 8 and not any(line.endswith("Fairweat") for line in found.lines)
    assert all(stringWidth(line, BOLD, found.size) <= 50 for line in found.lines)


def test_a_word_wider_than_its_room_even_small_is_set_as_small_as_it_needs():
    found = fit(("Featherstonehaughcholmondeley",), BOLD, 8, 56.8, 4)
    assert found.lines == ("Featherstonehaughcholmondeley",)
    assert found.size < SMALLEST
    assert stringWidth(found.lines[0], BOLD, found.size) <= 56.8
    # The form that shrinks least: the whole name, whose longest part is shorter than
    # "W. Featherstonehaugh" (an initial stays with its name).
    found = fit(("Wilhelmina Featherstonehaugh", "W. Featherstonehaugh"), BOLD, 8, 56.8, 4)
    assert found.lines == ("Wilhelmina", "Featherstonehaugh") and found.whole


def test_names_side_by_side_share_one_size():
    teams = [
        (name, short_name(name, name.split(" & ")))
        for name in (
            "Abigail Fairweather-Montgomery & Oluwaseun Oyelaran-Williams",
            "Bartholomew Castellanos-Whitby & Guinevere Okonkwo-Hargreaves",
        )
    ]
    alone = [fit(forms, BOLD, 8, 58, 4).size for forms in teams]
    assert alone[0] != alone[1]
    together = fit_all(teams, CELL_RIGHT_BOLD, 58, 4)
    assert {found.size for found in together} == {min(alone)}


def test_a_footer_too_long_is_its_next_form_or_set_smaller():
    full, short = "A very long title · Four Rounds", "Four Rounds"
    room = stringWidth(short, FONT, FOOTER_SIZE) + 1
    assert footer_line([full, short], 1000) == (full, FOOTER_SIZE)
    assert footer_line([full, short], room) == (short, FOOTER_SIZE)
    line, size = footer_line([full], room)
    assert line == full and stringWidth(full, FONT, size) == pytest.approx(room)
