"""Table cells of plain text: a string where it fits on its line, a paragraph where it wraps."""

from reportlab.platypus import Paragraph, Table, TableStyle

from scorekeeper.pdf.base import CELL, CELL_RIGHT_BOLD, cell, cell_style
from scorekeeper.pdf.score_card import BLANK_ROW_HEIGHT, _round_block
from tests.scorekeeper.pdf.test_score_card_pdf import ROUNDS, four_round_card


def test_a_value_that_fits_its_line_is_the_string_itself():
    assert cell("Łukasz & Søren", CELL_RIGHT_BOLD, 100) == "Łukasz & Søren"
    assert cell("3 = 1,500", CELL, 100) == "3 = 1,500"


def test_a_value_too_wide_is_a_paragraph_that_wraps_escaped():
    wide = cell("Maximilian-Alexander <b>Featherstonehaugh</b>", CELL, 100)
    assert isinstance(wide, Paragraph)
    assert wide.text == "Maximilian-Alexander &lt;b&gt;Featherstonehaugh&lt;/b&gt;"
    assert wide.style is CELL
    assert wide.wrap(100, 1000)[1] == 2 * CELL.leading


def test_runs_of_spaces_and_empty_values_stay_paragraphs_as_they_were_drawn():
    # A paragraph makes a run of spaces one; a string cell would keep them all.
    spaced = cell("Łukasz  &  Søren", CELL, 100)
    assert isinstance(spaced, Paragraph)
    assert spaced.text == "Łukasz &amp; Søren"
    assert isinstance(cell("", CELL, 100), Paragraph)


def test_a_string_cell_takes_the_paragraphs_height_font_and_alignment():
    for value in ("1,500", cell("1,500", CELL_RIGHT_BOLD, 100)):
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
