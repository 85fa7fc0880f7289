"""Plain text on the page: a string where it fits on its line, a paragraph where it wraps; and
the round blocks, drawn straight, where a platypus Table of the same style would draw them."""

import io
import shutil
import subprocess
from dataclasses import replace

import pytest
from pypdf import PdfReader
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table, TableStyle

from scorekeeper.documents.pdf.base import (
    BODY,
    CELL,
    CELL_BOLD,
    CELL_RIGHT,
    CELL_RIGHT_BOLD,
    LIGHT,
    RULE,
    SHADE,
    SMALL,
    TITLE,
    Text,
    cell,
    cell_style,
    paragraph,
    text,
)
from scorekeeper.documents.pdf.blocks import (
    BLANK_ROW_HEIGHT,
    BOTTOM_PADDING,
    CELL_PADDING,
    PAIR_SPACE,
    TOP_PADDING,
    RoundBlock,
    SideBySide,
    Wrapped,
)
from scorekeeper.documents.pdf.night_pack import NOTICE
from scorekeeper.documents.pdf.score_card import CardSide, round_block, round_blocks
from tests.helpers.score_cards import ROUNDS, SIDES, four_round_card

MELD = "Opening meld by your total before the round: below 1,500: 50; 1,500 and over: 90"


def page(flowable, width: float, height: float = 400) -> bytes:
    """A PDF of one page `width` wide with the flowable laid out on it at the bottom left."""
    data = io.BytesIO()
    canvas = Canvas(data, pagesize=(width, height), invariant=True)
    flowable.wrapOn(canvas, width, height)
    flowable.drawOn(canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    return data.getvalue()


def placed(flowable, width: float) -> list[tuple[str, float, float, str, float]]:
    """Each run of text the flowable shows: its text, where it starts, its font and size."""
    found = []

    def visit(value, cm, tm, font, size):
        if value.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            name = font["/BaseFont"].split("+")[-1] if font else ""
            found.append((value.strip(), round(x, 2), round(y, 2), name, size))

    PdfReader(io.BytesIO(page(flowable, width))).pages[0].extract_text(visitor_text=visit)
    return found


def test_a_value_that_fits_its_line_is_the_string_itself():
    assert cell("Łukasz & Søren", CELL_RIGHT_BOLD, 100) == "Łukasz & Søren"
    assert cell("3 = 1,500", CELL, 100) == "3 = 1,500"


def test_a_value_too_wide_is_text_that_wraps_escaped():
    wide = cell("Maximilian-Alexander <b>Featherstonehaugh</b>", CELL, 100)
    assert isinstance(wide, Text)
    assert wide.wrap(100, 1000) == (100, 2 * CELL.leading)
    assert wide.as_paragraph().text == "Maximilian-Alexander &lt;b&gt;Featherstonehaugh&lt;/b&gt;"
    assert wide.as_paragraph().style is CELL


def test_runs_of_spaces_and_empty_values_stay_paragraphs_as_they_were_drawn():
    # A paragraph makes a run of spaces one; a string would keep them all.
    spaced = cell("Łukasz  &  Søren", CELL, 100)
    assert isinstance(spaced, Text)
    assert spaced.wrap(100, 1000) == (100, CELL.leading)
    assert not spaced.one_line
    assert [value for value, *_ in placed(spaced, 100)] == ["Łukasz & Søren"]
    assert cell("", CELL, 100).wrap(100, 1000) == (100, 0)


@pytest.mark.parametrize("paragraph_style", [CELL, CELL_BOLD, CELL_RIGHT, CELL_RIGHT_BOLD])
def test_a_string_cell_is_placed_as_its_paragraph_would_be(paragraph_style):
    assert cell("1,500", paragraph_style, 64) == "1,500"
    tables = [
        Table([[value]], colWidths=[70])
        for value in ("1,500", paragraph("1,500", paragraph_style), text("1,500", paragraph_style))
    ]
    for table in tables:
        table.setStyle(TableStyle(cell_style(paragraph_style, (0, 0), (-1, -1))))
    # 8-point text at 1.22 leading, and the default padding of 3 points above and below.
    assert [table.wrap(70, 1000) for table in tables] == [(70, paragraph_style.leading + 6)] * 3
    (shown,) = placed(tables[0], 70)
    assert shown[3:] == (paragraph_style.fontName, paragraph_style.fontSize)
    assert placed(tables[1], 70) == placed(tables[2], 70) == [shown]


CENTRED = ParagraphStyle("centred", parent=BODY, alignment=TA_CENTER)


@pytest.mark.parametrize("paragraph_style", [TITLE, BODY, SMALL, CELL_RIGHT_BOLD, CENTRED])
def test_text_on_one_line_is_one_string_where_its_paragraph_would_draw_it(paragraph_style):
    line = text("Zoë & <b>Søren</b>", paragraph_style)
    theirs = paragraph("Zoë & <b>Søren</b>", paragraph_style)
    assert line.wrap(300, 1000) == theirs.wrap(300, 1000) == (300, paragraph_style.leading)
    assert line.one_line and line.wrapped is None  # no paragraph was made
    assert line.getSpaceBefore() == theirs.getSpaceBefore()
    assert line.getSpaceAfter() == theirs.getSpaceAfter()
    assert placed(line, 300) == placed(theirs, 300)
    assert placed(line, 300)[0][:1] == ("Zoë & <b>Søren</b>",)
    # One line cannot split: it moves whole to the next frame.
    assert line.split(300, paragraph_style.leading - 1) == []
    assert line.split(300, paragraph_style.leading) == [line]


def test_text_that_wraps_is_its_paragraph():
    long = text(MELD)
    assert long.wrap(150, 1000) == paragraph(MELD, BODY).wrap(150, 1000) == (150, 3 * 10.98)
    assert not long.one_line
    assert placed(long, 150) == placed(paragraph(MELD, BODY), 150)
    first, rest = long.split(150, 2.5 * BODY.leading)
    assert first.wrap(150, 1000) == (150, 2 * BODY.leading)
    assert rest.wrap(150, 1000) == (150, BODY.leading)
    # A style that dresses its line (a border) is always the paragraph.
    notice = text("Not started yet.", NOTICE)
    assert notice.wrap(300, 1000) == paragraph("Not started yet.", NOTICE).wrap(300, 1000)
    assert not notice.one_line


def block_table(block: RoundBlock, *, played: bool) -> Table:
    """The platypus Table a round block stands for: its cells, rows and style."""
    rows = [
        [value.paragraph if isinstance(value, Wrapped) else value for value in row]
        for row in block.rows
    ]
    last = len(rows) - 1
    return Table(
        rows,
        colWidths=block.widths,
        rowHeights=None if played else [None] + [6 * mm] * last,
        minRowHeights=[BLANK_ROW_HEIGHT if "" in row[1:] else 0 for row in rows]
        if played
        else None,
        style=[
            ("GRID", (0, 0), (-1, -1), 0.5, RULE),
            ("BOX", (0, 0), (-1, -1), 1, colors.black),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("BACKGROUND", (0, 1), (-1, 1), LIGHT),
            ("LINEABOVE", (0, last - 1), (-1, last - 1), 1, colors.black),
            ("BACKGROUND", (0, last), (-1, last), SHADE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            *cell_style(CELL, (0, 1), (0, last - 2)),
            *cell_style(CELL_BOLD, (0, 0), (0, 0)),
            *cell_style(CELL_BOLD, (0, last - 1), (0, last)),
            *cell_style(CELL_RIGHT_BOLD, (1, 0), (-1, 0)),
            *cell_style(CELL_RIGHT, (1, 1), (-1, last - 2)),
            *cell_style(CELL_RIGHT_BOLD, (1, last - 1), (-1, last)),
            ("TOPPADDING", (0, 0), (-1, -1), TOP_PADDING),
            ("BOTTOMPADDING", (0, 0), (-1, -1), BOTTOM_PADDING),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ],
    )


def test_a_played_rounds_row_with_an_empty_cell_stands_as_tall_as_it_always_has():
    block = round_block(four_round_card(ROUNDS), 1, 250, {})
    heights = dict(zip([row[0] for row in block.rows], block.row_heights, strict=True))
    # Both sides scored here: the line is as tall as its 8-point text.
    assert heights["Natural canastas × 500"] == CELL.leading + 1.6 + 1.9
    # Only José & Zoë went out: the other side's empty cell keeps the taller line.
    assert heights["Going out"] == BLANK_ROW_HEIGHT == 12 + 1.6 + 1.9


def test_two_round_blocks_side_by_side_stand_as_tall_as_the_taller_and_never_split():
    card = four_round_card(ROUNDS)
    wrapped = {}
    played, blank = round_block(card, 1, 250, wrapped), round_block(card, 3, 250, wrapped)
    pair = SideBySide(played, blank, column=250, gap=10)
    assert pair.wrap(510, 1000) == (510, blank.height + PAIR_SPACE)
    # Round 3 is blank: rows of 6 mm to write in, under its heading ("Łukasz & Søren" wraps).
    assert blank.row_heights == [2 * CELL_RIGHT_BOLD.leading + 3.5] + [6 * mm] * 11
    assert pair.split(510, 100) == []
    # The names that wrap are one paragraph for every block of the card, broken into lines
    # once.
    assert isinstance(played.rows[0][2], Wrapped) and played.rows[0][2] is blank.rows[0][2]
    # Four rounds: two pairs.
    assert [len(row.blocks) for row in round_blocks(card, 510)] == [2, 2]


BLOCKS = [
    # Round 1 played, round 3 blank; José & Zoë and Łukasz & Søren wrap at 120 points.
    (SIDES, 1),
    (SIDES, 3),
    ((CardSide("Ann", ()), CardSide("Bob", ())), 1),
    ((CardSide("Ann", ()), CardSide("Bob", ())), 4),
    ((CardSide("Ann", ()), CardSide("Bob", ()), CardSide("Cy", ())), 2),
]


@pytest.mark.parametrize(("sides", "number"), BLOCKS)
def test_a_round_block_shows_its_text_where_its_table_would(sides, number):
    card = replace(four_round_card(ROUNDS), sides=sides)
    if len(sides) == 3:
        card = replace(card, status=None)
    block = round_block(card, number, 250, {})
    table = block_table(block, played=number <= 2 and len(sides) == 2)
    assert block.wrap(250, 1000) == pytest.approx(table.wrap(250, 1000))
    assert placed(block, 250) == placed(table, 250)


def grey(pdf: bytes) -> bytes:
    """The page rendered by poppler at 150 dpi, as the bytes of a PGM picture."""
    done = subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", "-singlefile", "-"],
        input=pdf,
        capture_output=True,
        check=True,
        timeout=60,
    )
    return done.stdout


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
@pytest.mark.parametrize(("sides", "number"), BLOCKS)
def test_a_round_block_looks_as_its_table_would(sides, number):
    card = replace(four_round_card(ROUNDS), sides=sides)
    if len(sides) == 3:
        card = replace(card, status=None)
    block = round_block(card, number, 250, {})
    table = block_table(block, played=number <= 2 and len(sides) == 2)
    ours, theirs = grey(page(block, 250)), grey(page(table, 250))
    assert len(ours) == len(theirs)
    # Only antialiasing may differ (sums of the same heights in another order): no pixel by
    # more than a quarter of the way from white to black.
    assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 64
