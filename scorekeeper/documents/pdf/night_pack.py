"""A club night's pack: a cover page with every table's seating and who sits out, then a
blank score sheet per table, its names filled in and a QR code of the table's game.

The organiser prints it before play and lays a sheet on each table; the sheets are the
ordinary score cards (`score_card_story`), so a table scores on paper exactly as on a phone.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer, Table, TableStyle

from scorekeeper.documents.pdf.base import (
    BODY,
    CELL,
    CELL_BOLD,
    FONT,
    HEADING,
    PAGES_MAX,
    RULE,
    SHADE,
    SMALL,
    TITLE,
    TooManyPages,
    frame_width,
    page_count,
    render,
    style,
    text,
)
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, score_card_story
from scorekeeper.engine.formatting import number

NOTICE = style("notice", 8, borderColor=RULE, borderWidth=0.5, borderPadding=4, spaceAfter=4 * mm)
NOT_STARTED = (
    "Not started yet: the QR code of this table's game appears on its sheet once the "
    "organiser starts the night's games. Print the pack again then, or score on paper."
)


@dataclass(frozen=True)
class PackTable:
    """A table of the night: its sides, its seats and its score sheet."""

    number: int
    # Sides in the game's order, each with its players in seating order.
    sides: tuple[CardSide, ...]
    # Everyone round the table from the first dealer, the deal passing left.
    seats: tuple[str, ...]
    # The blank sheet, names filled in; its link is the QR code of the table's game.
    card: ScoreCard
    started: bool = True

    @property
    def first_dealer(self) -> str:
        return self.seats[0] if self.seats else ""


@dataclass(frozen=True)
class NightPack:
    """What a club night's pack prints."""

    league: str
    season: str
    date: datetime.date
    # "Four Rounds".
    rules: str
    tables: tuple[PackTable, ...]
    sitting_out: tuple[str, ...] = ()
    # Late arrivals not seated yet.
    waiting: tuple[str, ...] = ()
    # Lines for the cover: what the QR codes open, who may score.
    notes: tuple[str, ...] = ()
    # "House rules: 4 decks (the rule set's: 3)", or "" where the night plays the preset.
    house_rules: str = ""


def _day(day: datetime.date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def title_of(pack: NightPack) -> str:
    """`Riverside Card Club: club night, Saturday 21 November 2026`."""
    return f"{pack.league}: club night, {_day(pack.date)}"


def _side_text(side: CardSide) -> str:
    """`José & Zoë`, or `Team A: José & Zoë` when the side's name is not its players'."""
    players = " & ".join(side.players)
    if not players or players == side.name:
        return side.name
    return f"{side.name}: {players}"


def _names(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _cover(pack: NightPack, width: float) -> list[Flowable]:
    story: list[Flowable] = [text(f"Club night, {_day(pack.date)}", TITLE)]
    story.append(text(f"{pack.league} · {pack.season} · {pack.rules}", BODY))
    if pack.house_rules:
        story.append(text(f"{pack.house_rules}.", BODY))
    story.append(Spacer(0, 2 * mm))
    story.append(text("Tables", HEADING))
    if pack.tables:
        rows: list[list] = [
            [
                text("Table", CELL_BOLD),
                text("Sides", CELL_BOLD),
                text("Seats round the table, the deal passing left", CELL_BOLD),
            ]
        ]
        for table in pack.tables:
            rows.append(
                [
                    text(number(table.number), CELL_BOLD),
                    [text(_side_text(side), CELL) for side in table.sides],
                    [
                        text(", ".join(table.seats), CELL),
                        text(
                            f"{table.first_dealer} deals first."
                            + ("" if table.started else " Not started yet."),
                            CELL,
                        ),
                    ],
                ]
            )
        first = 14 * mm
        rest = (width - first) / 2
        grid = Table(rows, colWidths=[first, rest, rest], repeatRows=1, hAlign="LEFT")
        grid.setStyle(
            TableStyle(
                [
                    # Its flowables set their own fonts; ReportLab's default, Helvetica, would
                    # be put in the file for nothing.
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("GRID", (0, 0), (-1, -1), 0.5, RULE),
                    ("BOX", (0, 0), (-1, -1), 1, colors.black),
                    ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("TOPPADDING", (0, 0), (-1, -1), 2.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ]
            )
        )
        story.append(grid)
    else:
        story.append(text("Nobody is seated yet.", BODY))
    story.append(text("Sitting out", HEADING))
    story.append(text(f"{_names(pack.sitting_out)}." if pack.sitting_out else "Nobody.", BODY))
    if pack.waiting:
        story.append(text("Waiting for a seat", HEADING))
        story.append(text(f"{_names(pack.waiting)}.", BODY))
    if pack.notes:
        story.append(Spacer(0, 3 * mm))
        story.extend(text(note, SMALL) for note in pack.notes)
    return story


def _table_page(table: PackTable, paper: str) -> list[Flowable]:
    """A new page: the table's sheet titled with its number, the seats among its details so
    that they sit beside the QR code and one table fits a page of Letter."""
    details = table.card.details
    if table.seats:
        details += (("Seats, the deal passing left", ", ".join(table.seats)),)
    card = replace(table.card, title=f"Table {number(table.number)}", details=details)
    story: list[Flowable] = [PageBreak()]
    if not table.started:
        story.append(text(NOT_STARTED, NOTICE))
    story.extend(score_card_story(card, paper=paper))
    return story


def build_night_pack(pack: NightPack, *, paper: str = "a4") -> bytes:
    """The night's pack as a PDF file: the cover, then a page (or more) per table."""
    if pack.tables:
        # Every table's sheet has the night's rules, so one sheet's pages tell the whole
        # pack's length; a pack too long is refused at the cost of one sheet, not of 120 pages.
        per_table = page_count(_table_page(pack.tables[0], paper)[1:], paper=paper)
        pages = 1 + per_table * len(pack.tables)
        if pages > PAGES_MAX:
            raise TooManyPages(
                f"This club night's pack would run to about {number(pages)} pages, more than the "
                f"{PAGES_MAX} we print in one file; print each table's sheet from its game page."
            )
    story = _cover(pack, frame_width(paper))
    for table in pack.tables:
        story.extend(_table_page(table, paper))
    footer = f"{title_of(pack)} · Hand and Foot scorekeeper"
    return render(story, paper=paper, title=title_of(pack), footer=footer)
