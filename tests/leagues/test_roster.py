"""Reading a roster (a pasted list or a CSV file) and deciding each row: plain functions, no
database."""

import pytest

from leagues import roster
from leagues.models import Player
from leagues.roster import (
    ADD,
    DUPLICATE,
    MEMBER,
    NEAR,
    REFUSED,
    Facts,
    Known,
    Member,
    RosterError,
    Row,
    decide,
    name_key,
    one_letter_apart,
    read_csv,
    read_text,
    skipped_text,
)

NOTHING = Facts(members=[], accounts={})
CONTROL = "This row has a control character in it (an invisible one); type the row again."


def outcomes(decisions) -> list[tuple[int, str, str, str]]:
    return [(d.row.line, d.row.name, d.outcome, d.message) for d in decisions]


# Reading --------------------------------------------------------------------------------------


def test_a_pasted_list_keeps_each_names_line_and_skips_blank_lines():
    reading = read_text("  Ann   Smith \r\n\r\nBob\tbob\n\t\nCy\n")

    assert reading.rows == [Row(1, "Ann Smith"), Row(3, "Bob", "bob"), Row(5, "Cy")]
    assert reading.header is None


def test_a_reading_names_the_empty_lines_between_its_rows_but_not_around_them():
    assert read_text("\nAnn\n\nBob\n \t \nCy\n\n").skipped == [3, 5]
    assert read_csv(b"name\r\nAnn\r\n\r\nBob\r\n").skipped == [3]
    assert read_text("Ann\nBob\n").skipped == []


def test_the_skipped_lines_are_said_one_two_or_many():
    assert skipped_text([]) == ""
    assert skipped_text([13]) == "Line 13 is empty, skipped."
    assert skipped_text([13, 20]) == "Lines 13 and 20 are empty, skipped."
    assert skipped_text([2, 4, 6, 8, 10, 1200, 1300]) == (
        "Lines 2, 4, 6, 8, 10 and 2 more are empty, skipped."
    )


def test_a_comma_is_part_of_a_pasted_name():
    assert read_text("Smith, Ann").rows == [Row(1, "Smith, Ann")]


def test_a_csv_header_row_is_recognised_and_skipped():
    reading = read_csv(b'\xef\xbb\xbfName,Username\r\nAnn Smith,ann\r\n"Smith, Bob",\r\n')

    assert reading.header == 1
    assert reading.rows == [Row(2, "Ann Smith", "ann"), Row(3, "Smith, Bob")]


def test_a_csv_without_a_header_starts_with_a_name():
    assert read_csv(b"Ann\nBob,bob").rows == [Row(1, "Ann"), Row(2, "Bob", "bob")]


def test_semicolons_and_tabs_separate_columns_as_spreadsheets_write_them():
    assert read_csv(b"Ann;ann\nBob;").rows == [Row(1, "Ann", "ann"), Row(2, "Bob")]
    assert read_csv(b"Ann\tann\n").rows == [Row(1, "Ann", "ann")]


def test_a_nul_in_utf16_text_is_read_and_then_refused():
    (row,) = read_csv("Ann\x00".encode("utf-16")).rows

    assert decide([row], NOTHING)[0].message == CONTROL


def test_excels_separator_line_says_the_separator_and_is_not_a_name():
    reading = read_csv(b"sep=;\r\nname;username\r\nSmith, Ann;ann\r\n")

    assert reading.header == 2
    assert reading.rows == [Row(3, "Smith, Ann", "ann")]
    assert read_csv(b"sep=\tx\nAnn\n").rows == [Row(1, "sep=", "x"), Row(2, "Ann")]


def test_utf16_unicode_text_from_a_spreadsheet_is_read():
    data = "name\tusername\r\nZoë\tzoe\r\n".encode("utf-16")

    assert read_csv(data).rows == [Row(2, "Zoë", "zoe")]


def test_a_row_with_too_many_columns_is_refused_by_itself():
    (row,) = read_csv(b"Ann,ann,Thursdays,,").rows

    assert row.problem == (
        "3 columns: a row has a name and, optionally, the username of the player's account."
    )


def test_a_line_that_is_not_utf8_is_refused_by_itself():
    rows = read_csv("Ann\nZoë\nBob\n".encode("latin-1")).rows

    assert [(r.line, r.problem) for r in rows] == [(1, ""), (2, roster.ENCODING), (3, "")]
    assert roster.ENCODING == (
        "This row is not UTF-8 text. In your spreadsheet, save the file as “CSV UTF-8” and "
        "upload it again."
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty."),
        (b"  \r\n\r\n", "The file is empty."),
        (b"name,username\n", "There are no names in it, only a header row."),
        (b"PK\x03\x04\x14\x00\x06\x00", roster.NOT_TEXT),
        (b"\xff\xfeA\x00\x00\xd8", roster.NOT_TEXT),
        (b"Ann\n" * 501, "It has 501 rows; add at most 500 players at a time."),
        (
            b"x" * 100_001,
            "It is 100,001 characters long; a list may have at most 100,000 (about 500 players).",
        ),
    ],
)
def test_a_file_that_cannot_be_read_says_why(data, message):
    with pytest.raises(RosterError) as refused:
        read_csv(data)

    assert str(refused.value) == message


def test_a_paste_of_blank_lines_has_no_names():
    with pytest.raises(RosterError) as refused:
        read_text("\n \n\t\n")

    assert str(refused.value) == "There are no names in it: put one name a line."


# Near-duplicates ------------------------------------------------------------------------------


def test_a_names_key_ignores_case_accents_spaces_and_punctuation():
    assert name_key("Zoë  O'Neil") == name_key("zoe oneil") == "zoeoneil"


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("annsmith", "annesmith", True),  # a letter added
        ("annesmith", "annsmith", True),  # dropped
        ("annsmith", "ansmith", True),
        ("annsmith", "annsmyth", True),  # changed
        ("annsmith", "annsmiht", True),  # two swapped
        ("annsmith", "annsmith", False),  # the same: not a typo
        ("annsmith", "bobsmith", False),
        ("annsmith", "annsmithes", False),
        ("jon", "jan", False),  # short names: a different name, not a typo
        ("anna", "anne", False),
    ],
)
def test_one_letter_apart(a, b, near):
    assert one_letter_apart(a, b) is near


# Deciding -------------------------------------------------------------------------------------


def test_each_outcome_names_what_it_is_about():
    facts = Facts(
        members=[Member(1, "Ann Smith", None), Member(2, "Bob", "bob")],
        accounts={"bob": 10, "cy": 11, "di": 12},
    )
    rows = [
        Row(1, "Anne Smith"),
        Row(2, "Bob"),
        Row(3, "Cy", "cy"),
        Row(4, "Cy"),
        Row(5, "Dee", "bob"),
        Row(6, "Di", "nobody"),
        Row(7, "Zoë"),
        Row(8, "zoe"),
        Row(9, "", "di"),
        Row(10, "x" * 101),
        Row(11, "Eve", "cy"),
        Row(12, "Fay", "", "3 columns: a row has a name and, optionally, ..."),
        Row(13, "Gus\x00"),
        Row(14, "Hal", "hal\x1b"),
    ]

    assert outcomes(decide(rows, facts)) == [
        (1, "Anne Smith", NEAR, "Looks like Ann Smith, already a member."),
        (2, "Bob", MEMBER, "Bob is already a member: not added again."),
        (3, "Cy", ADD, "Linked to the account “cy”."),
        (4, "Cy", DUPLICATE, "The same name as row 3: not added twice."),
        (5, "Dee", REFUSED, "The account “bob” is already linked to Bob, a member."),
        (
            6,
            "Di",
            REFUSED,
            "No account is called “nobody”; check the spelling, or leave the username out.",
        ),
        (7, "Zoë", ADD, ""),
        (8, "zoe", NEAR, "Looks like Zoë on row 7."),
        (9, "", REFUSED, "No name: each row starts with the player's name."),
        (
            10,
            "x" * 101,
            REFUSED,
            "The name is 101 characters long; a name may have at most 100.",
        ),
        (11, "Eve", REFUSED, "The account “cy” is already on row 3 (Cy)."),
        (12, "Fay", REFUSED, "3 columns: a row has a name and, optionally, ..."),
        (13, "Gus\x00", REFUSED, CONTROL),
        (14, "Hal", REFUSED, CONTROL),
    ]


def test_the_name_limit_is_the_players():
    assert roster.NAME_MAX == Player._meta.get_field("name").max_length == 100
    assert decide([Row(1, "x" * 100)], NOTHING)[0].outcome == ADD


def test_a_player_of_the_organisers_other_league_keeps_one_record():
    facts = Facts(
        members=[],
        accounts={"pat": 7},
        others={"Pat": [Known(5, "Friday Club")], "Sam": [Known(6, "A"), Known(8, "B")]},
    )

    (pat, sam) = decide([Row(1, "Pat", "pat"), Row(2, "Sam")], facts)

    assert (pat.outcome, pat.player_id, pat.account_id, pat.message) == (
        ADD,
        5,
        7,
        "The player of the same name in Friday Club, linked to the account “pat”.",
    )
    # Two players of that name elsewhere: which one is this? A new record, to merge later.
    assert (sam.outcome, sam.player_id, sam.message) == (ADD, None, "")


def test_the_summary_counts_each_outcome():
    facts = Facts(members=[Member(1, "Bob", None)], accounts={})
    rows = [Row(1, "Ann"), Row(2, "Ann"), Row(3, "Bob"), Row(4, ""), Row(5, "Eve"), Row(6, "ann")]

    assert roster.summary(decide(rows, facts)) == (
        "6 rows: 2 will be added, 1 to check, 1 already a member, 1 duplicate and 1 refused."
    )


def test_names_that_differ_by_a_number_are_different_players():
    rows = [Row(1, "Table Player 1"), Row(2, "Table Player 2"), Row(3, "Table Player 12")]

    assert [d.outcome for d in decide(rows, NOTHING)] == [ADD, ADD, ADD]


def test_spellings_find_the_same_letters_first_then_one_letter_away():
    spellings = roster.Spellings(["Bob Jones", "Ann Smith", "Anne Smith"])

    assert spellings.near("Ann Smiht") == "Ann Smith"  # two letters swapped
    assert spellings.near("Annie Smith") == "Anne Smith"
    # One letter from Ann Smith, and only case and spaces from Anne Smith: Anne Smith.
    assert spellings.near("ANNE  SMITH") == "Anne Smith"
    assert spellings.near("Ann Smyth") == "Ann Smith"
    assert spellings.near("Cy Young") is None
