"""The round blocks of a score card: small ruled tables, drawn straight with the canvas.

A card of 20 rounds has 40 blocks of a dozen rows. As platypus Tables they cost most of the
card's time: each table styles every cell command by command, lays its cells out twice and
draws each through its generic path. A block's shape is fixed (one line of text a cell, or a
name that wraps), so it is measured once here and drawn with the canvas's public methods, where
a Table of the same cells and style would draw them (tests/scorekeeper/documents/pdf/
test_base.py lays the two side by side).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph

from scorekeeper.documents.pdf.base import (
    CELL,
    CELL_BOLD,
    CELL_RIGHT,
    CELL_RIGHT_BOLD,
    LIGHT,
    RULE,
    SHADE,
    fits,
    paragraph,
)
from scorekeeper.documents.pdf.names import Fit

CELL_PADDING = 2.5
TOP_PADDING, BOTTOM_PADDING = 1.6, 1.9
# Below each pair of round blocks.
PAIR_SPACE = 3 * mm
# A played round's row with an empty cell stands as tall as an empty cell of ReportLab's
# default style (a 12-point leading) and the block's padding, as it always has.
BLANK_ROW_HEIGHT = 12 + TOP_PADDING + BOTTOM_PADDING
# The height a name that wraps may take: all it needs.
ROOM = 72000


@dataclass(frozen=True)
class Wrapped:
    """Text that wraps in its cell: the paragraph, broken into lines at the cell's width."""

    paragraph: Paragraph
    width: float
    height: float


Cell = str | Wrapped


def block_cell(
    value: str, paragraph_style: ParagraphStyle, room: float, wrapped: dict[tuple, Wrapped]
) -> Cell:
    """A block's cell: the string where it fits on its line `room` points wide (or is empty),
    else the paragraph that wraps it. `wrapped` keeps one paragraph per text, style and width
    for one sheet, broken into lines once: a card's 40 blocks head their columns with the
    same two names. (Not shared between sheets: a paragraph being drawn holds its canvas, and
    two builds may run at once on two threads.)"""
    if not value or fits(value, paragraph_style, room):
        return value
    key = (value, paragraph_style, room)
    found = wrapped.get(key)
    if found is None:
        lines = paragraph(value, paragraph_style)
        found = wrapped[key] = Wrapped(lines, *lines.wrap(room, ROOM))
    return found


def fitted_cell(
    found: Fit, paragraph_style: ParagraphStyle, room: float, wrapped: dict[tuple, Wrapped]
) -> Cell:
    """A block's cell of a name measured to fit its room (`names.fit`): the string where it is
    one line at the style's size, else its lines as a paragraph, kept in `wrapped` as
    `block_cell` keeps its own."""
    if found.one_line(paragraph_style):
        return "".join(found.lines)
    key = (found, paragraph_style, room)
    made = wrapped.get(key)
    if made is None:
        lines = found.paragraph(paragraph_style)
        made = wrapped[key] = Wrapped(lines, *lines.wrap(room, ROOM))
    return made


class RoundBlock(Flowable):
    """A round's block: a shaded heading row, a lightly shaded meld row, the score's lines and
    the totals (the last two rows bold, the running total shaded), every cell ruled.

    The label column is set left, the figures right; a blank block's rows are `heights` tall,
    room to write by hand. It never splits: it is a round, kept whole on a page."""

    def __init__(
        self,
        rows: list[list[Cell]],
        widths: list[float],
        *,
        heights: list[float | None] | None = None,
        least: list[float] | None = None,
    ) -> None:
        super().__init__()
        self.rows, self.widths = rows, widths
        last = len(rows) - 1
        self.bold = [index in (0, last - 1, last) for index in range(len(rows))]
        one_line = CELL.leading + TOP_PADDING + BOTTOM_PADDING
        self.row_heights = []
        for index, row in enumerate(rows):
            height = heights[index] if heights else None
            if height is None:
                height = max(
                    [one_line]
                    + [
                        value.height + TOP_PADDING + BOTTOM_PADDING
                        for value in row
                        if isinstance(value, Wrapped)
                    ]
                )
                if least:
                    height = max(height, least[index])
            self.row_heights.append(height)
        self.width, self.height = sum(widths), sum(self.row_heights)
        self.columns = [sum(widths[:index]) for index in range(len(widths) + 1)]
        # Each row's bottom edge, from the top row down to the block's foot at 0.
        self.bottoms = [self.height - sum(self.row_heights[: index + 1]) for index in range(last)]
        self.bottoms.append(0)
        self.hAlign = "CENTER"

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canvas = self.canv
        rows, last = self.rows, len(self.rows) - 1
        tops = [self.height, *self.bottoms[:-1]]
        for index, shade in ((0, SHADE), (1, LIGHT), (last, SHADE)):
            canvas.setFillColor(shade)
            canvas.rect(
                0, self.bottoms[index], self.width, self.row_heights[index], stroke=0, fill=1
            )
        canvas.setFillColor(colors.black)
        # Row by row, left to right: the order a reader selects and searches the text in.
        font = None
        for index, row in enumerate(rows):
            bottom, height = self.bottoms[index], self.row_heights[index]
            label_style, figure_style = (
                (CELL_BOLD, CELL_RIGHT_BOLD) if self.bold[index] else (CELL, CELL_RIGHT)
            )
            for column, value in enumerate(row):
                if not value:
                    continue
                left = self.columns[column]
                if isinstance(value, Wrapped):
                    # Where a table sets a cell's paragraph: in the middle of its row, at the
                    # left of its cell (as wide as the cell, it aligns its own lines).
                    y = bottom + (height + BOTTOM_PADDING - TOP_PADDING - value.height) / 2
                    value.paragraph.drawOn(canvas, left + CELL_PADDING, y)
                    continue
                paragraph_style = label_style if column == 0 else figure_style
                if paragraph_style is not font:
                    font = paragraph_style
                    canvas.setFont(font.fontName, font.fontSize, font.leading)
                # A line of text in the middle of its row, as a table sets a string cell.
                y = bottom + (BOTTOM_PADDING + height - TOP_PADDING + font.leading) / 2
                if column == 0:
                    canvas.drawString(left + CELL_PADDING, y - font.fontSize, value)
                else:
                    right = self.columns[column + 1] - CELL_PADDING
                    canvas.drawRightString(right, y - font.fontSize, value)
        self.rule(tops, last)

    def rule(self, tops: list[float], last: int) -> None:
        """The grid in grey, the box round it in black and a black rule above the totals."""
        canvas = self.canv
        columns, width, height = self.columns, self.width, self.height
        canvas.saveState()
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        box = [(0, height, width, height), (0, 0, width, 0), (0, 0, 0, height)]
        box.append((width, 0, width, height))
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.lines(
            box + [(0, y, width, y) for y in tops[1:]] + [(x, 0, x, height) for x in columns[1:-1]]
        )
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(1)
        canvas.lines([*box, (0, tops[last - 1], width, tops[last - 1])])
        canvas.restoreState()


class SideBySide(Flowable):
    """Two round blocks side by side, their tops level, with room to write below. A pair of
    rounds never breaks across pages: it moves whole to the next one."""

    def __init__(
        self, left: RoundBlock, right: RoundBlock | None, *, column: float, gap: float
    ) -> None:
        super().__init__()
        self.blocks = [left] if right is None else [left, right]
        self.column, self.gap = column, gap
        self.width = 2 * column + gap
        self.height = max(block.height for block in self.blocks) + PAIR_SPACE
        self.hAlign = "CENTER"

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        for index, block in enumerate(self.blocks):
            block.drawOn(self.canv, index * (self.column + self.gap), self.height - block.height)
