"""The one CSV writer: text defused wherever a cell could start when a spreadsheet splits a line
on ",", ";" or a tab, text quoted and numbers bare, each file read back by the csv module under
every separator; sent in chunks, the header before any row is read."""

import csv
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.public.csv_writer import ROWS_A_CHUNK, cell, csv_chunks, csv_response, text_cell
from tests.helpers.pages import read_csv, runnable_cells

FORGED = "Ann;=cmd|' /C calc'!A0;"
NOTHING_RUNNABLE = {",": [], ";": [], "\t": []}


def written(header, rows) -> str:
    return b"".join(csv_chunks(header, rows)).decode("utf-8")


@pytest.mark.parametrize(
    ("text", "defused"),
    [
        # At the start of the cell: each character OWASP names.
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        # Text that looks like a number is still text (a name may be "-5").
        ("-5", "'-5"),
        # After each character that ends a cell under some reading of the file.
        (FORGED, "Ann;'=cmd|' /C calc'!A0;"),
        ("Wrong deck, =again", "Wrong deck, '=again"),
        ("a\t@b", "a\t'@b"),
        ("a\n+b", "a\n'+b"),
        ("a\r-b", "a\r'-b"),
        ('say "=b"', 'say "\'=b"'),
        # Spaces between, which an import may trim.
        (" =1", " '=1"),
        ("a;  -b", "a;  '-b"),
        ("==", "'=="),
        # Nothing to defuse: the characters inside a word, or after a character that ends no cell.
        ("Jean-Luc", "Jean-Luc"),
        ("a+b=c", "a+b=c"),
        ("ann@example.org", "ann@example.org"),
        ('Ann "Ace", Jr', 'Ann "Ace", Jr'),
        ("2026-10-01", "2026-10-01"),
        ("", ""),
    ],
)
def test_text_cell_defuses_whatever_could_start_a_formula(text, defused):
    assert text_cell(text) == defused


def test_numbers_stay_numbers_and_anything_else_is_text():
    cells = [cell(value) for value in (-200, 3, -12.5, Decimal("-0.4"), "=1", None, True)]

    assert cells == [-200, 3, -12.5, Decimal("-0.4"), "'=1", "", "True"]
    assert [type(value) for value in cells[:4]] == [int, int, float, Decimal]


def test_text_is_quoted_and_numbers_are_bare():
    text = written(["Name", "Margin"], [["Ann", -200], [FORGED, Decimal("-0.5")], ["", 0]])

    assert text == (
        '\ufeff"Name","Margin"\r\n"Ann",-200\r\n"Ann;\'=cmd|\' /C calc\'!A0;",-0.5\r\n"",0\r\n'
    )
    # The csv module tells the numbers from the text: unquoted cells come back as floats.
    assert read_csv(text.removeprefix("\ufeff"), quoting=csv.QUOTE_NONNUMERIC) == [
        ["Name", "Margin"],
        ["Ann", -200.0],
        ["Ann;'=cmd|' /C calc'!A0;", -0.5],
        ["", 0.0],
    ]


def test_the_forged_name_is_text_under_every_separator():
    text = written(["#", "Player", "Margin"], [[1, FORGED, -2]]).removeprefix("\ufeff")

    assert read_csv(text) == [["#", "Player", "Margin"], ["1", "Ann;'=cmd|' /C calc'!A0;", "-2"]]
    # Split on ";", as German or French Excel splits it, the name's second part is a cell of its
    # own: text, which it shows as '=cmd|' /C calc'!A0 and never runs.
    assert read_csv(text, delimiter=";") == [
        ['#,"Player","Margin"'],
        ['1,"Ann', "'=cmd|' /C calc'!A0", ",-2\r\n"],
    ]
    assert runnable_cells(text) == NOTHING_RUNNABLE


# Characters that start a formula or end a cell, often, among any others (not NUL, which no
# stored text holds: the forms refuse it and PostgreSQL cannot store it).
_char = st.sampled_from(list("=+-@\t\r\n,;\"' a1")) | st.characters(
    blacklist_categories=("Cs",), blacklist_characters="\x00"
)
_text = st.text(_char, max_size=20)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_text, _text, _text), min_size=1, max_size=4))
def test_no_reading_of_any_file_has_a_cell_a_spreadsheet_would_run(texts):
    # As in every export, a row starts with text or a rank, never with a negative number: a ";"
    # reading of `-5,"a"` starts a cell with "-", not a formula a spreadsheet could run, but
    # not one the check can tell from one.
    rows = [[first, -5, Decimal("-1.5"), middle, 3, last] for first, middle, last in texts]

    text = written(["A", "B", "C", "D", "E", "F"], rows).removeprefix("\ufeff")

    assert runnable_cells(text) == NOTHING_RUNNABLE
    assert read_csv(text, quoting=csv.QUOTE_NONNUMERIC)[1:] == [
        [text_cell(first), -5.0, -1.5, text_cell(middle), 3.0, text_cell(last)]
        for first, middle, last in texts
    ]


def test_the_header_is_sent_before_a_row_is_read_then_rows_a_chunk_at_a_time():
    read = []

    def rows():
        for n in range(ROWS_A_CHUNK + 1):
            read.append(n)
            yield [n]

    chunks = csv_chunks(["N"], rows())

    assert (next(chunks), read) == (b'\xef\xbb\xbf"N"\r\n', [])
    assert next(chunks) == "".join(f"{n}\r\n" for n in range(ROWS_A_CHUNK)).encode()
    assert len(read) == ROWS_A_CHUNK
    assert list(chunks) == [f"{ROWS_A_CHUNK}\r\n".encode()]


def test_the_response_is_a_streamed_download_kept_by_no_cache():
    response = csv_response(["N"], [[1]], "thursday-club-games")

    assert response.streaming
    assert (
        response["Content-Type"],
        response["Content-Disposition"],
        response["Cache-Control"],
    ) == (
        "text/csv; charset=utf-8",
        'attachment; filename="thursday-club-games.csv"',
        "no-store",
    )
    assert b"".join(response.streaming_content) == b'\xef\xbb\xbf"N"\r\n1\r\n'
