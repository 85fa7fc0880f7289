"""A league's standings as a printed table, for the club's notice board.

The builder only lays out: the rows arrive as the strings the standings page shows, so that the
sheet and the page never disagree on a number.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from scorekeeper.documents.pdf.base import (
    BODY,
    BOLD,
    CELL,
    CELL_BOLD,
    CELL_RIGHT,
    CELL_RIGHT_BOLD,
    FONT,
    HEADING,
    LIGHT,
    RULE,
    SHADE,
    SMALL,
    TITLE,
    PdfError,
    cell,
    cell_style,
    frame_width,
    render,
    text,
    unbroken,
)

CELL_PADDING = 3
# A long name wraps rather than turning the page: no text column asks for more than this (but
# its longest word, which never breaks).
TEXT_COLUMN_MAX = 45 * mm
# Room a column keeps beyond its text's width: a paragraph adds its words' widths up in another
# order, and must never find a word a hair too wide for its line.
SLACK = 0.01
# How much smaller, at each step, the cells of a table too wide for a landscape page are set.
STEP = 0.1


@dataclass(frozen=True)
class Column:
    """A column of the table: its heading, and whether it holds figures (set right) or text."""

    heading: str
    numeric: bool = True
    # The column the table is ranked on, printed bold as the page shows it.
    bold: bool = False


@dataclass(frozen=True)
class StandingsSheet:
    """What a printed standings table shows; every cell already formatted."""

    league: str
    # The season's name, or "All time".
    season: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    printed_on: datetime.date
    starts_on: datetime.date | None = None
    ends_on: datetime.date | None = None
    # "Win 2, tie 1, loss 0.": how a game scores in the league.
    scoring: str = ""
    tie_break: str = ""
    # Further lines under the table: how the rating is made, what the marks mean.
    notes: tuple[str, ...] = ()
    empty: str = "No games counted yet."
    # Right under the table: the organiser's league points adjustments, a heading line first
    # ("* League points adjusted by the organiser:"), one line each; none without any.
    adjustments: tuple[str, ...] = ()


def _day(day: datetime.date) -> str:
    return f"{day.day} {day:%B %Y}"


def title_of(sheet: StandingsSheet) -> str:
    """`Riverside Card Club standings: Autumn 2026`."""
    return f"{sheet.league} standings: {sheet.season}"


def _longest_word(values: Sequence[str], font: str, size: float) -> float:
    return max(
        (stringWidth(word, font, size) for value in values for word in value.split()), default=0
    )


def _heading_widths(column: Column, size: float) -> tuple[float, float]:
    """The heading's width on one line, and the width of its longest word (it may wrap)."""
    one_line = stringWidth(column.heading, BOLD, size)
    return one_line, _longest_word([column.heading], BOLD, size)


def _cell_width(column: Column, cells: Sequence[str], size: float) -> float:
    """The room a column's cells ask for: a figure's whole width; a text's, up to
    TEXT_COLUMN_MAX, but never less than its longest word."""
    font = BOLD if column.bold else FONT
    widest = max((stringWidth(cell, font, size) for cell in cells), default=0)
    if column.numeric:
        return widest
    return max(min(widest, TEXT_COLUMN_MAX), _longest_word(cells, font, size))


def _natural_widths(sheet: StandingsSheet, size: float) -> tuple[list[float], list[float]]:
    """Each column's least width (its widest cell, its heading's longest word) and the width
    that also sets its heading on one line, its text `size` points."""
    pad = 2 * CELL_PADDING + SLACK
    least, whole = [], []
    for index, column in enumerate(sheet.columns):
        cells = _cell_width(column, [row[index] for row in sheet.rows], size)
        one_line, longest = _heading_widths(column, size)
        least.append(max(cells, longest) + pad)
        whole.append(max(cells, one_line) + pad)
    return least, whole


def column_widths(
    sheet: StandingsSheet, width: float, size: float = CELL.fontSize
) -> list[float] | None:
    """Widths that fill `width`, or None when the columns need more room than that.

    Each column first gets its least width; what is left lets headings sit on one line, then
    goes to the text columns (the names)."""
    least, whole = _natural_widths(sheet, size)
    spare = width - sum(least)
    if spare < 0:
        return None
    wanted = sum(w - n for w, n in zip(whole, least, strict=True))
    share = min(1.0, spare / wanted) if wanted else 0.0
    widths = [n + (w - n) * share for w, n in zip(whole, least, strict=True)]
    spare -= wanted * share
    names = [i for i, column in enumerate(sheet.columns) if not column.numeric]
    targets = names or [len(widths) - 1]
    for index in targets:
        widths[index] += spare / len(targets)
    return widths


def layout(sheet: StandingsSheet, paper: str) -> tuple[bool, list[float], float]:
    """Upright when the columns fit across the page, else turned to landscape; and the size of
    the table's text."""
    for landscape in (False, True):
        widths = column_widths(sheet, frame_width(paper, landscape=landscape))
        if widths is not None:
            return landscape, widths, CELL.fontSize
    # Wider than a landscape page even so: the text set smaller until every column fits, its
    # words whole (narrowing the columns instead would break them inside a word).
    width = frame_width(paper, landscape=True)
    least, _ = _natural_widths(sheet, CELL.fontSize)
    pad = (2 * CELL_PADDING + SLACK) * len(least)
    size = CELL.fontSize * (width - pad) / (sum(least) - pad)
    size = max(int(size / STEP) * STEP, STEP)
    while (widths := column_widths(sheet, width, size)) is None and size > STEP:
        size -= STEP
    return True, widths or least, size


def _styles(
    sheet: StandingsSheet, size: float
) -> tuple[list[ParagraphStyle], list[ParagraphStyle]]:
    """Each column's heading style and cell style: figures set right, the ranked column bold,
    `size` points, words never broken."""
    headings, cells = [], []
    for column in sheet.columns:
        headings.append(unbroken(CELL_RIGHT_BOLD if column.numeric else CELL_BOLD, size))
        if column.numeric:
            cells.append(unbroken(CELL_RIGHT_BOLD if column.bold else CELL_RIGHT, size))
        else:
            cells.append(unbroken(CELL_BOLD if column.bold else CELL, size))
    return headings, cells


def _column_styles(styles: list[ParagraphStyle], first: int, last: int) -> list[tuple]:
    """Cell commands for rows `first` to `last`, one pair for each run of columns alike."""
    commands: list[tuple] = []
    start = 0
    for index in range(1, len(styles) + 1):
        if index == len(styles) or styles[index] is not styles[start]:
            commands += cell_style(styles[start], (start, first), (index - 1, last))
            start = index
    return commands


def _table(sheet: StandingsSheet, widths: list[float], size: float) -> Table:
    headings, cells = _styles(sheet, size)
    # A cell's room as the table measures it, so that a string never overruns where a
    # paragraph would have wrapped.
    rooms = [width - CELL_PADDING - CELL_PADDING for width in widths]
    rows: list[list] = [
        [
            cell(column.heading, style_, room)
            for column, style_, room in zip(sheet.columns, headings, rooms, strict=True)
        ]
    ]
    for row in sheet.rows:
        rows.append(
            [
                cell(value, style_, room)
                for value, style_, room in zip(row, cells, rooms, strict=True)
            ]
        )
    commands: list[tuple] = [
        # Under what follows: the empty cells and any cell of a paragraph, which sets its own
        # font but would set ReportLab's default, Helvetica, on the page first.
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        *_column_styles(headings, 0, 0),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BOX", (0, 0), (-1, -1), 1, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.8),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ]
    if sheet.rows:
        commands += _column_styles(cells, 1, -1)
        # Every other row shaded, so that a finger can follow a line across a wide table.
        commands.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, LIGHT]))
    else:
        rows.append([text(sheet.empty, CELL)] + [""] * (len(sheet.columns) - 1))
        commands.append(("SPAN", (0, 1), (-1, 1)))
    return Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT", style=TableStyle(commands))


def standings_story(sheet: StandingsSheet, *, paper: str) -> tuple[bool, list[Flowable]]:
    """Whether the page is turned to landscape, and the flowables of the sheet."""
    if not sheet.columns:
        raise PdfError("A standings table needs at least one column.")
    for row in sheet.rows:
        if len(row) != len(sheet.columns):
            raise PdfError(
                f"A standings row has {len(row)} cells for {len(sheet.columns)} columns: {row!r}."
            )
    landscape, widths, size = layout(sheet, paper)
    story: list[Flowable] = [text(sheet.league, TITLE)]
    story.append(text(f"Standings: {sheet.season}", HEADING))
    facts = []
    if sheet.starts_on and sheet.ends_on:
        facts.append(f"{_day(sheet.starts_on)} to {_day(sheet.ends_on)}")
    facts.append(f"Printed {_day(sheet.printed_on)}")
    story.append(text(" · ".join(facts), BODY))
    story.append(Spacer(0, 3 * mm))
    story.append(_table(sheet, widths, size))
    story.append(Spacer(0, 3 * mm))
    for line in sheet.adjustments:
        story.append(text(line, SMALL))
        story.append(Spacer(0, 1 * mm))
    if sheet.adjustments:
        story.append(Spacer(0, 2 * mm))
    for line in (sheet.tie_break, sheet.scoring, *sheet.notes):
        if line:
            story.append(text(line, SMALL))
            story.append(Spacer(0, 1 * mm))
    return landscape, story


def build_standings(sheet: StandingsSheet, *, paper: str = "a4") -> bytes:
    """The standings as a PDF file: the header row repeats on every page."""
    landscape, story = standings_story(sheet, paper=paper)
    footer = f"{title_of(sheet)} · printed {_day(sheet.printed_on)} · Hand and Foot scorekeeper"
    return render(story, paper=paper, title=title_of(sheet), footer=footer, landscape=landscape)
