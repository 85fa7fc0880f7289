"""A club night's results on paper, from plain data: each table's result, the night's best and
how the season's standings moved that night, for the organiser to print or share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from scorekeeper.documents.pdf.base import (
    BODY,
    CELL,
    CELL_BOLD,
    CELL_RIGHT,
    CELL_RIGHT_BOLD,
    HEADING,
    RULE,
    SHADE,
    TITLE,
    frame_width,
    render,
    text,
)


@dataclass(frozen=True)
class ResultTable:
    """A table's line: its number, each side as `(names, total or "", won)` and a note such as
    `after 4 rounds` or `voided`."""

    number: int
    sides: tuple[tuple[str, str, bool], ...]
    note: str


@dataclass(frozen=True)
class NightResultsSheet:
    league: str
    title: str  # "Club night, Thursday 15 October 2026"
    season: str
    tables: tuple[ResultTable, ...]
    best: tuple[str, ...]  # "Highest total: Ann & Bob, 3,250 at table 2"
    # Each player of the night: rank after, name, rank before, the move, league points gained.
    moves: tuple[tuple[str, str, str, str, str], ...]
    scoring: str


def _tables(sheet: NightResultsSheet, width: float) -> Table:
    rows: list[list] = []
    commands: list[tuple] = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    for table in sheet.tables:
        first = len(rows)
        for index, (names, total, won) in enumerate(table.sides):
            label = f"Table {table.number}" if index == 0 else ""
            rows.append(
                [
                    text(label, CELL_BOLD),
                    text(names + (" (won)" if won else ""), CELL_BOLD if won else CELL),
                    text(total, CELL_RIGHT_BOLD if won else CELL_RIGHT),
                ]
            )
        if table.note:
            rows.append(["", text(table.note, CELL), ""])
        commands.append(("LINEABOVE", (0, first), (-1, first), 0.4, RULE))
    return Table(rows, colWidths=[22 * mm, width - 44 * mm, 22 * mm], hAlign="LEFT", style=commands)


MOVE_HEADINGS = ("Rank", "Player", "Before", "Move", "Points")


def _moves(sheet: NightResultsSheet, width: float) -> Table:
    rows: list[list] = [
        [text(h, CELL_RIGHT_BOLD if i != 1 else CELL_BOLD) for i, h in enumerate(MOVE_HEADINGS)]
    ]
    for rank, name, before, move, gained in sheet.moves:
        rows.append(
            [
                text(rank, CELL_RIGHT),
                text(name, CELL),
                text(before, CELL_RIGHT),
                text(move, CELL_RIGHT),
                text(gained, CELL_RIGHT),
            ]
        )
    narrow = 16 * mm
    style = TableStyle(
        [
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("LINEBELOW", (0, 0), (-1, 0), 0.4, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
    return Table(
        rows,
        colWidths=[narrow, width - 4 * narrow, narrow, narrow, narrow],
        repeatRows=1,
        hAlign="LEFT",
        style=style,
    )


def night_results_story(sheet: NightResultsSheet, *, paper: str) -> list[Flowable]:
    """The flowables of the results."""
    width = frame_width(paper)
    story: list[Flowable] = [text(sheet.league, TITLE), text(sheet.title, HEADING)]
    story.append(text(sheet.season, BODY))
    story.append(text("Tables", HEADING))
    if sheet.tables:
        story.append(_tables(sheet, width))
    else:
        story.append(text("Nobody was seated.", BODY))
    if sheet.best:
        story.append(text("The night's best", HEADING))
        story.extend(text(line, BODY) for line in sheet.best)
    if sheet.moves:
        story.append(text("The standings after the night", HEADING))
        story.append(_moves(sheet, width))
        story.append(Spacer(0, 2 * mm))
        story.append(text(sheet.scoring, BODY))
    return story


def build_night_results(sheet: NightResultsSheet, *, paper: str = "a4") -> bytes:
    """The night's results as a PDF file."""
    title = f"{sheet.league}: {sheet.title}"
    footers: Sequence[str] = (f"{title} · Hand and Foot scorekeeper", title)
    return render(night_results_story(sheet, paper=paper), paper=paper, title=title, footer=footers)
