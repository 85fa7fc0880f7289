"""Standings sheets from plain data: every cell printed as given, the page turned when the
columns need it, the header row on every page."""

import datetime
import io

import pytest
from pypdf import PdfReader

from scorekeeper.documents.pdf.base import PdfError
from scorekeeper.documents.pdf.standings import Column, StandingsSheet, build_standings
from tests.helpers.pdfs import pdf_pages, pdf_words

COLUMNS = (
    Column("#"),
    Column("Player", numeric=False),
    Column("Games"),
    Column("Wins"),
    Column("Ties"),
    Column("Losses"),
    Column("Win %"),
    Column("Points for"),
    Column("Points against"),
    Column("Average score"),
    Column("Average margin"),
    Column("League points", bold=True),
    Column("Rating"),
    Column("Last five", numeric=False),
)
HEADER = (
    "# Player Games Wins Ties Losses Win % Points for Points against Average score "
    "Average margin League points Rating Last five"
)
ROWS = (
    ("1", "José Martínez", "3", "2", "1", "0", "83.3", "1400", "1000", "466.7", "133.3", "5",
     "2.1", "WTW"),
    ("2", "Łukasz Nowak", "3", "1", "1", "1", "50.0", "1200", "1300", "400.0", "-33.3", "3",
     "–", "LTW"),
    ("3", "Zoë <b>Clarke</b> & Søren", "2", "0", "0", "2", "0.0", "600", "900", "300.0",
     "-150.0", "0", "-1.4", "LL"),
)  # fmt: skip
PRINTED = datetime.date(2026, 11, 21)


def sheet(**changes) -> StandingsSheet:
    values = {
        "league": "Riverside Card Club",
        "season": "Autumn 2026",
        "columns": COLUMNS,
        "rows": ROWS,
        "printed_on": PRINTED,
        "starts_on": datetime.date(2026, 9, 1),
        "ends_on": datetime.date(2026, 11, 30),
        "scoring": "League points for a game: Win 2, tie 1, loss 0.",
        "tie_break": "Ties are broken by league points, then wins.",
        "notes": ("Last five: the latest results, newest first (W win, T tie, L loss).",),
    }
    values.update(changes)
    return StandingsSheet(**values)


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(data))
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]


def test_every_cell_is_printed_as_given_row_by_row():
    data = build_standings(sheet())
    words = pdf_words(data)
    assert (
        "Riverside Card Club Standings: Autumn 2026 "
        "1 September 2026 to 30 November 2026 · Printed 21 November 2026 " + HEADER
    ) in words
    assert (
        HEADER + " 1 José Martínez 3 2 1 0 83.3 1400 1000 466.7 133.3 5 2.1 WTW "
        "2 Łukasz Nowak 3 1 1 1 50.0 1200 1300 400.0 -33.3 3 – LTW "
        "3 Zoë <b>Clarke</b> & Søren 2 0 0 2 0.0 600 900 300.0 -150.0 0 -1.4 LL "
        "Ties are broken by league points, then wins. "
        "League points for a game: Win 2, tie 1, loss 0. "
        "Last five: the latest results, newest first (W win, T tie, L loss)."
    ) in words
    assert (
        "Riverside Card Club standings: Autumn 2026 · printed 21 November 2026 · "
        "Hand and Foot scorekeeper Page 1"
    ) in words
    assert PdfReader(io.BytesIO(data)).metadata.title == (
        "Riverside Card Club standings: Autumn 2026"
    )


def test_all_time_has_no_dates():
    words = pdf_words(build_standings(sheet(season="All time", starts_on=None, ends_on=None)))
    assert "Standings: All time Printed 21 November 2026 #" in words
    assert "September" not in words


def test_the_page_is_upright_when_the_columns_fit_and_turned_when_they_do_not():
    upright = page_sizes(build_standings(sheet(), paper="a4"))
    assert upright == [(595.2756, 841.8898)]
    # Ten-figure points and a long name do not fit across an upright page.
    wide = (
        ROWS[0][:1]
        + ("Margaret Aoife O'Brien-Byrne",)
        + ROWS[0][2:7]
        + ("1234567890", "9876543210", "1234567890.1", "-987654321.0")
        + ROWS[0][11:],
    )
    turned = page_sizes(build_standings(sheet(rows=wide), paper="letter"))
    assert turned == [(792.0, 612.0)]
    words = pdf_words(build_standings(sheet(rows=wide), paper="letter"))
    assert (
        "Margaret Aoife O'Brien-Byrne 3 2 1 0 83.3 1234567890 9876543210 1234567890.1 "
        "-987654321.0 5 2.1 WTW"
    ) in words


def test_the_header_row_repeats_on_every_page():
    many = tuple(
        (str(n), f"Player {n:03}", "1", "1", "0", "0", "100.0", "500", "400", "500.0", "100.0",
         "2", "–", "W")
        for n in range(1, 121)
    )  # fmt: skip
    pages = pdf_pages(build_standings(sheet(rows=many)))
    assert len(pages) >= 2
    for page in pages:
        assert " ".join(page.split()).count("Average margin League points") == 1
    everything = " ".join(" ".join(pages).split())
    for n in range(1, 121):
        assert f" {n} Player {n:03} 1 1 0 0 100.0 500 400 500.0 100.0 2 – W " in everything
    assert "Ties are broken" in " ".join(pages[-1].split())


def test_no_rows_prints_an_empty_table_with_its_header():
    words = pdf_words(build_standings(sheet(rows=())))
    assert HEADER + " No games counted yet." in words


def test_a_row_that_does_not_match_the_columns_is_refused():
    with pytest.raises(PdfError, match="A standings row has 2 cells for 14 columns"):
        build_standings(sheet(rows=(("1", "Ann"),)))
    with pytest.raises(PdfError, match="Paper must be one of a4, letter, not 'a3'"):
        build_standings(sheet(), paper="a3")
