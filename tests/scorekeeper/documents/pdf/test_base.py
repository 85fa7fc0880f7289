"""Plain text on the page: a string where it fits on its line, a paragraph where it wraps, each
drawn where ReportLab's paragraph would draw it."""

import io
from dataclasses import replace

import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, Table, TableStyle

from scorekeeper.documents.pdf.base import (
    BODY,
    CELL,
    CELL_RIGHT_BOLD,
    FONT,
    Grid,
    Text,
    cell,
    cell_style,
    text,
)
from scorekeeper.documents.pdf.score_card import (
    BLANK_ROW_HEIGHT,
    CardSide,
    _Block,
    _blocks,
    _round_block,
    _SideBySide,
)
from tests.scorekeeper.documents.pdf.test_score_card_pdf import ROUNDS, SIDES, four_round_card

MELD = "Opening meld by your total before the round: below 1,500: 50; 1,500 and over: 90"


def drawn(flowable, width: float) -> list[str]:
    """The drawing operators the flowable adds to a page, laid out `width` wide."""
    canvas = Canvas(io.BytesIO())
    flowable.wrapOn(canvas, width, 1000)
    flowable.drawOn(canvas, 0, 0)
    # The page's operators so far, one a line, as the content stream will hold them.
    return list(canvas._code)


def shown(lines: list[str]) -> list[str]:
    """The text objects that show text."""
    return [line for line in lines if line.startswith("BT") and " Tj " in line]


def test_a_value_that_fits_its_line_is_the_string_itself():
    assert cell("Łukasz & Søren", CELL_RIGHT_BOLD, 100) == "Łukasz & Søren"
    assert cell("3 = 1,500", CELL, 100) == "3 = 1,500"


def test_a_value_too_wide_is_a_paragraph_that_wraps_escaped():
    wide = cell("Maximilian-Alexander <b>Featherstonehaugh</b>", CELL, 100)
    assert isinstance(wide, Text)
    assert wide.wrap(100, 1000) == (100, 2 * CELL.leading)
    assert wide.paragraph().text == "Maximilian-Alexander &lt;b&gt;Featherstonehaugh&lt;/b&gt;"
    assert wide.paragraph().style is CELL


def test_runs_of_spaces_and_empty_values_stay_paragraphs_as_they_were_drawn():
    # A paragraph makes a run of spaces one; a string cell would keep them all.
    spaced = cell("Łukasz  &  Søren", CELL, 100)
    assert isinstance(spaced, Text)
    assert spaced.wrap(100, 1000) == (100, CELL.leading)
    assert [line for line in drawn(spaced, 100) if " Tj " in line] == [
        r"BT 1 0 0 1 0 1.76 Tm 9.76 TL 0 0 0 rg /F2+0 8 Tf 9.76 TL (\001ukasz & S\002ren) Tj T* ET"
    ]
    empty = cell("", CELL, 100)
    assert isinstance(empty, Text)
    assert empty.wrap(100, 1000) == (100, 0)


def test_a_string_cell_takes_the_paragraphs_height_font_and_alignment():
    for value in ("1,500", text("1,500", CELL_RIGHT_BOLD)):
        table = Table([[value]], colWidths=[100])
        table.setStyle(TableStyle(cell_style(CELL_RIGHT_BOLD, (0, 0), (-1, -1))))
        table.wrap(100, 1000)
        style = table._cellStyles[0][0]
        assert (style.fontname, style.fontsize, style.alignment) == (
            "DejaVuSansCondensed-Bold",
            8,
            "RIGHT",
        )
        # 8-point text at 1.22 leading, and the default padding of 3 points above and below.
        assert table._rowHeights == [CELL_RIGHT_BOLD.leading + 6]


def test_a_played_rounds_row_with_an_empty_cell_stands_as_tall_as_it_always_has():
    block = _round_block(four_round_card(ROUNDS), 1, 250)
    block.wrap(250, 1000)
    labels = [row[0] for row in block._cellvalues]
    heights = dict(zip(labels, block._rowHeights, strict=True))
    # Both sides scored here: the line is as tall as its 8-point text.
    assert heights["Natural canastas × 500"] == CELL.leading + 1.6 + 1.9
    # Only José & Zoë went out: the other side's empty cell keeps the taller line.
    assert heights["Going out"] == BLANK_ROW_HEIGHT == 12 + 1.6 + 1.9


def test_text_on_one_line_is_one_string_on_the_paragraphs_baseline():
    line = text("Zoë & <b>Søren</b>", BODY)
    assert line.wrap(200, 1000) == (200, BODY.leading)
    # No paragraph was made, and one line cannot split: it moves whole to the next frame.
    assert line._paragraph is None
    assert line.split(200, BODY.leading - 1) == []
    assert line.split(200, BODY.leading) == [line]
    # The paragraph's first baseline is its font size below the top of its line (9 points
    # below 10.98): the same position, the same text.
    ours = drawn(line, 200)
    theirs = drawn(Paragraph("Zoë &amp; &lt;b&gt;Søren&lt;/b&gt;", BODY), 200)
    assert len(shown(ours)) == len(shown(theirs)) == 1
    assert shown(ours) == [
        r"BT 1 0 0 1 0 1.98 Tm /F2+0 9 Tf 10.98 TL (Zo\001 & <b>S\002ren</b>) Tj T* ET"
    ]
    assert shown(theirs)[0].startswith("BT 1 0 0 1 0 1.98 Tm ")


def test_text_that_wraps_is_the_paragraph_broken_once_per_width():
    long = text(MELD)
    assert long.wrap(150, 1000) == Paragraph(MELD, BODY).wrap(150, 1000) == (150, 3 * 10.98)
    broken = long.paragraph().blPara
    # Laid out again at the same width (as a table does to draw it): the same lines.
    assert long.wrap(150, 5) == (150, 3 * BODY.leading)
    assert long.paragraph().blPara is broken
    assert long.wrap(300, 1000) == (300, 2 * BODY.leading)
    assert long.paragraph().blPara is not broken
    first, rest = long.split(150, 2.5 * BODY.leading)
    assert first.wrap(150, 1000) == (150, 2 * BODY.leading)
    assert rest.wrap(150, 1000) == (150, BODY.leading)
    assert shown(drawn(long, 150)) == shown(drawn(Paragraph(MELD, BODY), 150))
    assert shown(drawn(long, 150))[0].count(" Tj T*") == 3


def test_a_grid_draws_nothing_for_an_empty_cell():
    table = drawn(Table([["1,500", ""]], colWidths=[50, 50]), 100)
    grid = drawn(Grid([["1,500", ""]], colWidths=[50, 50]), 100)
    assert "BT 1 0 0 1 56 5 Tm  T* ET" in table
    assert [line for line in table if line != "BT 1 0 0 1 56 5 Tm  T* ET"] == grid


def test_two_round_blocks_side_by_side_stand_as_tall_as_the_taller_and_never_split():
    card = four_round_card(ROUNDS)
    played, blank = _round_block(card, 1, 250), _round_block(card, 3, 250)
    pair = _SideBySide(played, blank, column=250, gap=10)
    assert pair.wrap(510, 1000) == (510, blank.wrap(250, 1000)[1] + 3 * mm)
    # Round 3 is blank: rows of 6 mm to write in, under its heading ("Łukasz & Søren" wraps).
    assert blank._rowHeights == [2 * CELL_RIGHT_BOLD.leading + 3.5] + [6 * mm] * 11
    assert pair.split(510, 100) == []
    # Four rounds: two pairs.
    assert [len(row.blocks) for row in _blocks(card, 510)] == [2, 2]


@pytest.mark.parametrize(
    ("sides", "number"),
    [
        # Round 1 played, round 3 blank; José & Zoë and Łukasz & Søren wrap at 120 points.
        (SIDES, 1),
        (SIDES, 3),
        ((CardSide("Ann", ()), CardSide("Bob", ())), 1),
        ((CardSide("Ann", ()), CardSide("Bob", ())), 4),
    ],
)
def test_a_round_block_drawn_straight_draws_what_its_table_draws(sides, number):
    card = replace(four_round_card(ROUNDS), sides=sides)
    block = _round_block(card, number, 250, fast=True)
    table = _round_block(card, number, 250)
    assert isinstance(block, _Block) and isinstance(table, Grid)
    assert block.wrap(250, 1000) == table.wrap(250, 1000)
    assert drawn(block, 250) == drawn(table, 250)


def test_a_string_cell_is_drawn_as_reportlab_draws_it():
    for value, alignment in (("Łukasz & Søren", "RIGHT"), ("3 = 1,500", "LEFT"), ("7", "CENTER")):
        table = Table([[value]], colWidths=[120])
        grid = Grid([[value]], colWidths=[120])
        for each in (table, grid):
            each.setStyle(
                [("FONT", (0, 0), (0, 0), FONT, 8, 9.76), ("ALIGN", (0, 0), (0, 0), alignment)]
            )
        assert drawn(grid, 120) == drawn(table, 120)
