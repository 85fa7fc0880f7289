"""Score sheets: blank for any rule set, or filled with a game's rounds as the engine scored them.

The builder only prints: every number comes from the engine's `GameStatus`, never from a sum
of its own, so the card says what the game page says.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.tables import CellStyle

from scorekeeper import engine
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
    Grid,
    Text,
    TooManyPages,
    cell,
    cell_style,
    draw_line,
    frame_width,
    render,
    text,
)
from scorekeeper.documents.pdf.qr import FixedMaskQrCode
from scorekeeper.engine.formatting import number, rule_set_name
from scorekeeper.engine.house_rules import house_rules_text

# A game to a target has no last round: the blank sheet gives this many blocks, and says how
# to carry on.
TARGET_ROUNDS = 8
# An unfinished game's card leaves this many empty blocks after its last round.
ROOM_TO_CONTINUE = 2
# The most round blocks one sheet prints: three times the rounds a table plays (house rules
# allow 20), for the longest game to a target; a sheet of 6 columns runs to about 21 pages.
ROUNDS_PRINTED_MAX = 60
CELL_PADDING = 2.5
# An empty cell of a round block: ReportLab's default leading (12 points) and the block's padding.
TOP_PADDING, BOTTOM_PADDING = 1.6, 1.9
# Below each pair of round blocks.
PAIR_SPACE = 3 * mm
BLANK_ROW_HEIGHT = CellStyle.leading + TOP_PADDING + BOTTOM_PADDING
# ReportLab's default padding, spelled out in the summary's style: its cells' room is measured
# against it.
SUMMARY_PADDING = 6


@dataclass(frozen=True)
class CardSide:
    """A column of the sheet: the side's name and its players in seating order."""

    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreCard:
    """What a score sheet shows. With no status (or no rounds yet) the sheet is blank."""

    rules: engine.RuleSet
    sides: tuple[CardSide, ...]
    status: engine.GameStatus | None = None
    title: str = ""
    date: datetime.date | None = None
    # ("League", "Riverside Card Club"), ("Club night", "21 November 2026, table 3")...
    details: tuple[tuple[str, str], ...] = ()
    # Who deals each round, first round first, as far as it is known.
    dealers: tuple[str, ...] = ()
    house_rules: bool = False
    # A link printed as a QR code and as text: the table's game on a phone.
    link: str = ""
    link_caption: str = "Scan to open this game on a phone"
    signatures: bool = True
    # The blank side names are lines to write on.
    named: bool = True


def end_condition(rules: engine.RuleSet) -> str:
    if rules.rounds:
        return f"The game ends after round {number(rules.rounds)}; the highest total wins."
    if rules.target_score is not None:
        return (
            f"The game ends when a {rules.words['side']} reaches {number(rules.target_score)}; "
            "the highest total wins."
        )
    return "The game ends when the table decides; the highest total wins."


def meld_bands(rules: engine.RuleSet) -> str:
    """The opening-meld requirement, printed once where it moves with the score."""
    if rules.opening_meld_by == "round":
        steps = ", ".join(
            f"round {index} needs {number(points)}"
            for index, points in enumerate(rules.opening_meld, 1)
        )
        return f"Opening meld by round: {steps}."
    bands = []
    levels = list(rules.opening_meld)
    for index, (floor, points) in enumerate(levels):
        upper = levels[index + 1][0] if index + 1 < len(levels) else None
        if floor is None and upper is not None:
            bands.append(f"below {number(upper)}: {number(points)}")
        elif upper is None:
            bands.append(f"{number(floor or 0)} and over: {number(points)}")
        else:
            bands.append(f"{number(floor)} to {number(upper - 5)}: {number(points)}")
    return "Opening meld by your total before the round: " + "; ".join(bands) + "."


def _rounds_shown(card: ScoreCard) -> int:
    played = len(card.status.rounds) if card.status else 0
    if card.rules.rounds:
        return max(card.rules.rounds, played)
    if card.status and card.status.finished:
        return played
    if played:
        return played + ROOM_TO_CONTINUE
    return TARGET_ROUNDS


def _cell(line: engine.Line | None) -> str:
    if line is None:
        return ""
    if line.count is not None:
        return f"{line.count} = {number(line.points)}"
    return number(line.points)


def _meld(card: ScoreCard, round_number: int) -> list[str]:
    """Each side's opening meld in a round: printed where the rules or the scores so far fix it,
    left blank to fill in where it depends on totals not yet known."""
    rules, status = card.rules, card.status
    if rules.opening_meld_by == "round":
        return [number(rules.opening_meld_for(round_number, 0))] * len(card.sides)
    before: list[int] | None = None
    if round_number == 1:
        before = [0] * len(card.sides)
    elif status and round_number - 1 <= len(status.rounds):
        totals = status.rounds[round_number - 2].totals
        before = [totals[side] for side in status.sides]
    if before is None:
        return [""] * len(card.sides)
    return [number(rules.opening_meld_for(round_number, total)) for total in before]


def _round_block(
    card: ScoreCard, round_number: int, width: float, *, fast: bool = False
) -> Table | _Block:
    """A round's block: a table, or where every cell is one line of text and the block is
    never split (`fast`, two blocks side by side), the same block drawn by `_Block`."""
    rules, status = card.rules, card.status
    played = (
        status.rounds[round_number - 1] if status and round_number <= len(status.rounds) else None
    )
    label_width = width * (0.5 if len(card.sides) <= 2 else 0.34)
    label_room = label_width - 2 * CELL_PADDING
    side_width = (width - label_width) / len(card.sides)
    side_room = side_width - 2 * CELL_PADDING

    def label(value: str, *, bold: bool = False) -> Paragraph | str:
        return cell(value, CELL_BOLD if bold else CELL, label_room)

    def figures(values: list[str], *, bold: bool = False) -> list[Paragraph | str]:
        # A blank cell of a blank sheet stays an empty string: a paragraph of nothing costs as
        # much to lay out as one of text, and a blank sheet is mostly blank cells.
        paragraph_style = CELL_RIGHT_BOLD if bold else CELL_RIGHT
        return [cell(value, paragraph_style, side_room) if value else "" for value in values]

    heading = f"Round {number(round_number)}"
    if round_number <= len(card.dealers):
        heading += f" · {card.dealers[round_number - 1]} deals"
    rows: list[list] = [
        [label(heading, bold=True)] + figures([side.name for side in card.sides], bold=True)
    ]
    rows.append([label("Opening meld")] + figures(_meld(card, round_number)))
    by_item = (
        [{line.item: line for line in side.lines} for side in played.result.sides]
        if played
        else None
    )
    stock_out = played is not None and played.result.went_out is None
    for item in engine.sheet_items(rules):
        if by_item is None:
            values = [""] * len(card.sides)
        elif item.item == "going_out" and stock_out:
            values = ["stock ran out"] * len(card.sides)
        else:
            values = [_cell(lines.get(item.item)) for lines in by_item]
        rows.append([label(item.heading)] + figures(values))
    if played:
        totals = [number(played.scores[name]) for name in status.sides]
        running = [number(played.totals[name]) for name in status.sides]
    else:
        totals = running = [""] * len(card.sides)
    rows.append([label("Round total", bold=True)] + figures(totals, bold=True))
    rows.append([label("Running total", bold=True)] + figures(running, bold=True))
    # A blank block leaves room to write by hand.
    heights = None if played else [None] + [6 * mm] * (len(rows) - 1)
    # A played round's row with an empty cell (nothing scored there) has always stood as tall
    # as the table's own leading makes an empty cell; the figures beside it keep their look.
    least = [BLANK_ROW_HEIGHT if "" in row[1:] else 0 for row in rows] if played else None
    if fast and all(type(value) in (str, Text) for row in rows for value in row):
        return _Block(
            rows,
            [label_width] + [side_width] * len(card.sides),
            heights or [None] * len(rows),
            least,
        )
    table = Grid(
        rows,
        colWidths=[label_width] + [side_width] * len(card.sides),
        rowHeights=heights,
        minRowHeights=least,
        repeatRows=1,
    )
    last = len(rows) - 1
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, RULE),
                ("BOX", (0, 0), (-1, -1), 1, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("BACKGROUND", (0, 1), (-1, 1), LIGHT),
                ("LINEABOVE", (0, last - 1), (-1, last - 1), 1, colors.black),
                ("BACKGROUND", (0, last), (-1, last), SHADE),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                # The cells that fit on one line are plain strings in the paragraphs' font.
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
            ]
        )
    )
    return table


def _blocks(card: ScoreCard, width: float) -> list[Flowable]:
    count = _rounds_shown(card)
    if len(card.sides) > 2:
        return [
            KeepTogether([_round_block(card, n, width), Spacer(0, 3 * mm)])
            for n in range(1, count + 1)
        ]
    # Two columns fit side by side: two rounds to a row, as on the printed pads.
    gap = 4 * mm
    half = (width - gap) / 2
    return [
        _SideBySide(
            _round_block(card, first, half, fast=True),
            _round_block(card, first + 1, half, fast=True) if first + 1 <= count else None,
            column=half,
            gap=gap,
        )
        for first in range(1, count + 1, 2)
    ]


class _Block(Flowable):
    """A round block whose every cell is a string or a paragraph of text, drawn as
    `_round_block`'s table would draw it, operator for operator: the same row heights and
    positions (summed as ReportLab sums them), shading, text and rules, without a platypus
    table to build, style and lay out cell by cell for each of a card's 40 blocks. Never
    split: it is one of a pair.
    """

    # The cells' paragraph styles: the label column, then the figures, by row.
    HEAD = (CELL_BOLD, CELL_RIGHT_BOLD)
    BODY = (CELL, CELL_RIGHT)

    def __init__(
        self,
        rows: list[list[str]],
        widths: list[float],
        heights: list[float | None],
        least: list[float] | None,
    ) -> None:
        super().__init__()
        self.rows, self.widths = rows, widths
        self.hAlign = "CENTER"
        last = len(rows) - 1
        self.styles = [
            self.HEAD if index in (0, last - 1, last) else self.BODY for index in range(len(rows))
        ]
        # Table._calc_height: a row of strings stands one leading and its padding tall (every
        # cell here has the same leading), a paragraph's row as tall as its lines and padding,
        # or as tall as its least height.
        line = CELL.leading
        line += BOTTOM_PADDING + TOP_PADDING
        # A paragraph's (width, height), wrapped as a table wraps a cell's flowable.
        self.sizes: dict[tuple[int, int], tuple[float, float]] = {}
        self.row_heights = []
        for index, (row, height) in enumerate(zip(rows, heights, strict=True)):
            tallest = line
            for column, value in enumerate(row):
                if type(value) is str:
                    continue
                room = widths[column] - CELL_PADDING - CELL_PADDING
                size = value.wrapOn(None, room, 72000 - TOP_PADDING - BOTTOM_PADDING)
                self.sizes[index, column] = size
                before, after = value.getSpaceBefore(), value.getSpaceAfter()
                tall = size[1] + after + before
                tall = tall - before - after
                tall += BOTTOM_PADDING + TOP_PADDING
                if tall > tallest:
                    tallest = tall
            if height is None:
                height = max(least[index], tallest) if least else tallest
            self.row_heights.append(height)
        positions, height, carry = [], 0, 0
        for row_height in reversed(self.row_heights):
            positions.append(height)
            step = row_height - carry
            total = height + step
            carry = (total - height) - step
            height = total
        positions.append(height)
        positions.reverse()
        self.row_positions = positions
        columns, across = [0], 0
        for column in widths:
            across = across + column
            columns.append(across)
        self.column_positions = columns
        self.width, self.height = across, height

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canvas = self.canv
        rows, last = self.rows, len(self.rows) - 1
        columns, positions, heights = self.column_positions, self.row_positions, self.row_heights
        left, right = columns[0], columns[-1]
        canvas.saveState()
        for row, shade in ((0, SHADE), (1, LIGHT), (last, SHADE)):
            canvas.setFillColor(shade)
            top = positions[row]
            canvas.rect(left, top, right - left, positions[row + 1] - top, stroke=0, fill=1)
        font = None
        coloured = False
        shown_y: dict[float, str] = {}
        for index, (row, styles) in enumerate(zip(rows, self.styles, strict=True)):
            bottom, row_height = positions[index + 1], heights[index]
            for column, value in enumerate(row):
                if not value:
                    continue
                paragraph_style = styles[0] if column == 0 else styles[1]
                if not coloured:
                    canvas.setFillColor(colors.black)
                    coloured = True
                if paragraph_style is not font:
                    canvas.setFont(
                        paragraph_style.fontName,
                        paragraph_style.fontSize,
                        paragraph_style.leading,
                    )
                    font = paragraph_style
                if type(value) is not str:
                    # Table._drawCell: a flowable in the middle of its cell, wrapped again at
                    # its width (its lines were broken once) and the row's height.
                    room = self.widths[column] - CELL_PADDING - CELL_PADDING
                    wide, tall = value.wrapOn(
                        canvas, room, row_height - TOP_PADDING - BOTTOM_PADDING
                    )
                    before, after = value.getSpaceBefore(), value.getSpaceAfter()
                    tall = (tall + after + before) - before - after
                    y = bottom + (row_height + BOTTOM_PADDING - TOP_PADDING + tall) / 2.0
                    y += before
                    if column == 0:
                        x = columns[0] + CELL_PADDING
                    else:
                        x = columns[column] + self.widths[column] - CELL_PADDING - wide
                    y -= before
                    y -= tall
                    value.drawOn(canvas, x, y)
                    continue
                y = (
                    bottom
                    + (BOTTOM_PADDING + row_height - TOP_PADDING + paragraph_style.leading) / 2.0
                    - paragraph_style.fontSize
                )
                y_text = shown_y.get(y) or shown_y.setdefault(y, fp_str(y))
                if column == 0:
                    draw_line(canvas, columns[0] + CELL_PADDING, y, value, "LEFT", y_text)
                else:
                    x = columns[column] + self.widths[column] - CELL_PADDING
                    draw_line(canvas, x, y, value, "RIGHT", y_text)
        # Table._drawLines: the grid, the box over it, the rule above the totals.
        canvas.saveState()
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        # canvas.line's operators, each coordinate written once.
        xs, ys = [fp_str(x) for x in columns], [fp_str(y) for y in positions]
        left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
        add = canvas._code.append
        for index, (weight, colour) in enumerate(((0.5, RULE), (1, colors.black))):
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(weight)
            add(f"n {left} {top} m {right} {top} l S")
            add(f"n {left} {bottom} m {right} {bottom} l S")
            add(f"n {left} {bottom} m {left} {top} l S")
            add(f"n {right} {bottom} m {right} {top} l S")
            if index == 0:
                for y in ys[1:-1]:
                    add(f"n {left} {y} m {right} {y} l S")
                for x in xs[1:-1]:
                    add(f"n {x} {bottom} m {x} {top} l S")
        y = ys[last - 1]
        add(f"n {left} {y} m {right} {y} l S")
        canvas.restoreState()
        canvas.restoreState()


class _SideBySide(Flowable):
    """Two round blocks side by side, their tops level, with room to write below: drawn as a
    one-row table of them would draw them, but each block is laid out once, not again for
    every try of a page and to be drawn."""

    # Platypus lays a table's cells out with this much height to spare.
    ROOM = 72000

    def __init__(self, left: Table, right: Table | None, *, column: float, gap: float) -> None:
        super().__init__()
        self.blocks = [left] if right is None else [left, right]
        self.column, self.gap = column, gap
        self.hAlign = "CENTER"
        self._heights: list[float] | None = None

    def wrap(self, availWidth, availHeight):
        if self._heights is None:
            # A block's size depends on its own column widths alone.
            self._heights = [block.wrap(self.column, self.ROOM)[1] for block in self.blocks]
        self.width = 2 * self.column + self.gap
        self.height = max(self._heights) + PAIR_SPACE
        return self.width, self.height

    def split(self, availWidth, availHeight):
        # A pair of rounds never breaks across pages: it moves whole to the next one.
        return []

    def draw(self):
        for index, (block, height) in enumerate(zip(self.blocks, self._heights, strict=True)):
            block.drawOn(self.canv, index * (self.column + self.gap), self.height - height)


def _qr(link: str, size: float) -> FixedMaskQrCode:
    # The flowable draws straight on the page; the graphics widget would encode the link twice
    # and build a shape per module, several times slower for a 20-table pack.
    return FixedMaskQrCode(link, width=size, height=size, qrLevel="M")


def _result(card: ScoreCard) -> str:
    status = card.status
    if not status or not status.rounds:
        return ""
    totals = ", ".join(f"{name} {number(status.totals[name])}" for name in status.sides)
    if status.finished and status.tie:
        return f"Tie after round {number(len(status.rounds))}: {totals}."
    if status.finished:
        best = number(status.totals[status.winner])
        return f"Winner: {status.winner} with {best}. Final totals: {totals}."
    needs = (
        ", ".join(f"{name} {number(status.meld_requirement[name])}" for name in status.sides)
        if status.meld_requirement
        else ""
    )
    return (
        f"In progress after round {number(len(status.rounds))}: {totals}. "
        f"Round {number(status.next_round)} opening meld: {needs}."
    )


def _summary(card: ScoreCard, width: float) -> Table:
    """The game page's scoreboard: each round's points and running total, side by side."""
    status = card.status
    assert status is not None
    label = min(22 * mm, width * 0.2)
    side = (width - label) / len(card.sides)
    label_room, side_room = label - 2 * SUMMARY_PADDING, side - 2 * SUMMARY_PADDING
    rows = [
        [cell("Round", CELL_BOLD, label_room)]
        + [cell(s.name, CELL_RIGHT_BOLD, side_room) for s in card.sides]
    ]
    for played in status.rounds:
        rows.append(
            [cell(number(played.round), CELL, label_room)]
            + [
                cell(
                    f"{number(played.scores[name])} → {number(played.totals[name])}",
                    CELL_RIGHT,
                    side_room,
                )
                for name in status.sides
            ]
        )
    rows.append(
        [cell("Total", CELL_BOLD, label_room)]
        + [cell(number(status.totals[n]), CELL_RIGHT_BOLD, side_room) for n in status.sides]
    )
    table = Grid(rows, colWidths=[label] + [side] * len(card.sides))
    table.setStyle(
        TableStyle(
            [
                # The cells that fit on one line are plain strings in the paragraphs' font.
                *cell_style(CELL_BOLD, (0, 0), (0, 0)),
                *cell_style(CELL, (0, 1), (0, -2)),
                *cell_style(CELL_BOLD, (0, -1), (0, -1)),
                *cell_style(CELL_RIGHT_BOLD, (1, 0), (-1, 0)),
                *cell_style(CELL_RIGHT, (1, 1), (-1, -2)),
                *cell_style(CELL_RIGHT_BOLD, (1, -1), (-1, -1)),
                ("GRID", (0, 0), (-1, -1), 0.5, RULE),
                ("BOX", (0, 0), (-1, -1), 1, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("BACKGROUND", (0, -1), (-1, -1), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
                ("LEFTPADDING", (0, 0), (-1, -1), SUMMARY_PADDING),
                ("RIGHTPADDING", (0, 0), (-1, -1), SUMMARY_PADDING),
            ]
        )
    )
    return table


def title_of(card: ScoreCard) -> str:
    if card.title:
        return card.title
    if card.named:
        return " vs ".join(side.name for side in card.sides)
    return f"{rule_set_name(card.rules.id)}: score sheet"


def _header(card: ScoreCard, width: float) -> list[Flowable]:
    rules = card.rules
    lines: list[Flowable] = [text(title_of(card), TITLE)]
    lines.append(text(f"{rule_set_name(rules.id)}. {end_condition(rules)}", BODY))
    house_rules = house_rules_text(rules) if card.house_rules else ""
    if house_rules:
        lines.append(text(f"{house_rules}.", BODY))
    lines.append(text(meld_bands(rules), BODY))
    facts = []
    if card.date:
        facts.append(f"Date: {card.date.day} {card.date:%B %Y}")
    facts.extend(f"{label}: {value}" for label, value in card.details)
    if facts:
        lines.append(text(" · ".join(facts), BODY))
    if not card.named:
        lines.append(
            text(f"Write each {rules.words['side']}'s name at the top of its column.", SMALL)
        )
    elif any(side.players for side in card.sides):
        seats = "; ".join(
            f"{side.name}: {', '.join(side.players)}" for side in card.sides if side.players
        )
        lines.append(text(f"Players: {seats}", BODY))
    if not card.link:
        return [*lines, Spacer(0, 2 * mm)]
    size = 30 * mm
    qr_cell = [_qr(card.link, size), text(card.link_caption, SMALL)]
    table = Grid([[lines, qr_cell]], colWidths=[width - size - 4 * mm, size + 4 * mm])
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return [table, text(card.link, SMALL), Spacer(0, 2 * mm)]


def _footer_notes(card: ScoreCard, width: float) -> list[Flowable]:
    out: list[Flowable] = []
    rules = card.rules
    if not rules.rounds and not (card.status and card.status.finished):
        shown = _rounds_shown(card)
        out.append(
            text(
                f"Game not over after round {shown}? Carry the running totals to a new sheet "
                f"and number its rounds on from {shown + 1}.",
                SMALL,
            )
        )
    if card.signatures:
        # Two signatures to a row, each a line to sign on with the side's name under it.
        gap = 10 * mm
        column = (width - gap) / 2
        rows: list[list] = []
        for start in range(0, len(card.sides), 2):
            chunk = card.sides[start : start + 2]
            captions = [
                text(f"Signed for {side.name}" if card.named else "Signature", SMALL)
                for side in chunk
            ]
            rows.append(["", "", ""])
            rows.append([captions[0], "", captions[1] if len(captions) > 1 else ""])
        lines = [
            ("LINEBELOW", (col, row), (col, row), 0.7, colors.black)
            for row in range(0, len(rows), 2)
            for col in ((0, 2) if rows[row + 1][2] != "" else (0,))
        ]
        table = Grid(rows, colWidths=[column, gap, column])
        table.setStyle(
            TableStyle(
                [
                    *lines,
                    *[
                        ("TOPPADDING", (0, row), (-1, row), 9 * mm)
                        for row in range(0, len(rows), 2)
                    ],
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        out.append(KeepTogether([Spacer(0, 2 * mm), table]))
    return out


def score_card_story(card: ScoreCard, *, paper: str) -> list[Flowable]:
    """The sheet's flowables, for a file of its own or a page of a club-night pack."""
    shown = _rounds_shown(card)
    if shown > ROUNDS_PRINTED_MAX:
        # Refused before any layout: a game saved with 1,000 rounds would otherwise take seconds.
        raise TooManyPages(
            f"A score sheet prints at most {ROUNDS_PRINTED_MAX} rounds; this one would have "
            f"{number(shown)}."
        )
    width = frame_width(paper)
    story = _header(card, width)
    result = _result(card)
    if result:
        story.append(Paragraph(f"<b>{escape(result)}</b>", BODY))
        story.append(Spacer(0, 2 * mm))
        story.append(_summary(card, width))
        story.append(Spacer(0, 4 * mm))
    story.extend(_blocks(card, width))
    story.extend(_footer_notes(card, width))
    return story


def build_score_card(card: ScoreCard, *, paper: str = "a4") -> bytes:
    """A score sheet as a PDF file: blank, or filled with the rounds of `card.status`."""
    footer = f"{title_of(card)} · {rule_set_name(card.rules.id)} · Hand and Foot scorekeeper"
    return render(
        score_card_story(card, paper=paper), paper=paper, title=title_of(card), footer=footer
    )
