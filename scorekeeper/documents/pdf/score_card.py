"""Score sheets: blank for any rule set, or filled with a game's rounds as the engine scored them.

The builder only prints: every number comes from the engine's `GameStatus`, never from a sum
of its own, so the card says what the game page says.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine
from scorekeeper.documents.pdf.base import (
    BODY,
    CELL,
    CELL_BOLD,
    CELL_RIGHT,
    CELL_RIGHT_BOLD,
    FONT,
    RULE,
    SHADE,
    SMALL,
    TITLE,
    TooManyPages,
    cell,
    cell_style,
    frame_width,
    render,
    text,
)
from scorekeeper.documents.pdf.blocks import (
    BLANK_ROW_HEIGHT,
    CELL_PADDING,
    Cell,
    RoundBlock,
    SideBySide,
    Wrapped,
    block_cell,
    fitted_cell,
)
from scorekeeper.documents.pdf.names import (
    Fit,
    fit,
    fit_all,
    initialed,
    name_cell,
    named_after,
    short_name,
)
from scorekeeper.documents.pdf.qr import QrCode
from scorekeeper.engine.formatting import number, rule_set_name
from scorekeeper.engine.house_rules import house_rules_text

# A game to a target has no last round: the blank sheet gives this many blocks, and says how
# to carry on.
TARGET_ROUNDS = 8
# An unfinished game's card leaves this many empty blocks after its last round.
ROOM_TO_CONTINUE = 2
# The most round blocks one sheet prints: every round a game can hold (a sheet of 6 columns runs
# to about 21 pages). The engine holds games to it; a card made from other data is refused.
ROUNDS_PRINTED_MAX = engine.ROUND_MAX
# ReportLab's default padding, spelled out in the summary's style: its cells' room is measured
# against it.
SUMMARY_PADDING = 6
# Between two rounds' blocks side by side.
PAIR_GAP = 4 * mm
# The most lines a column's heading takes before its name is shortened or set smaller.
HEADING_LINES = 4
# The most lines of a signature's caption, and the room kept at the right of its column.
SIGNATURE_LINES = 2
SIGNATURE_PADDING = 6


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
    if not rules.opening_minimum:
        return "No opening minimum."
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
        # Blank blocks to carry on with on paper, as far as the game can go.
        return min(played + ROOM_TO_CONTINUE, engine.ROUND_MAX)
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


def name_forms(side: CardSide) -> tuple[str, ...]:
    """A side's name, then its shorter form where it has one (`A. Oyelaran-Williams`)."""
    short = short_name(side.name, side.players)
    return (side.name,) if short == side.name else (side.name, short)


def block_width(card: ScoreCard, width: float) -> float:
    """How wide a round's block is: half the page where two sides' blocks stand side by side."""
    return (width - PAIR_GAP) / 2 if len(card.sides) <= 2 else width


def block_columns(card: ScoreCard, width: float) -> tuple[float, float]:
    """The width of a block's label column and of each side's column: the labels take half of
    a two-sided block; of a wider one, less the more sides it has, so that six sides' names
    have room for a word each."""
    sides = len(card.sides)
    label_width = width * (0.5 if sides <= 2 else 0.34 if sides <= 4 else 0.28)
    return label_width, (width - label_width) / sides


def heading_fit(card: ScoreCard, round_number: int, room: float) -> Fit:
    """A round's heading in its label column: `Round 3 · A. Oyelaran-Williams deals` where the
    dealer's whole name does not fit."""
    heading = f"Round {number(round_number)}"
    if round_number > len(card.dealers):
        return fit((heading,), CELL_BOLD.fontName, CELL_BOLD.fontSize, room, HEADING_LINES)
    dealer = card.dealers[round_number - 1]
    forms = [f"{heading} · {dealer} deals"]
    if initialed(dealer) != dealer:
        forms.append(f"{heading} · {initialed(dealer)} deals")
    return fit(tuple(forms), CELL_BOLD.fontName, CELL_BOLD.fontSize, room, HEADING_LINES)


def side_fits(card: ScoreCard, room: float) -> list[Fit]:
    """The sides' names at the heads of their columns, each `room` points wide."""
    return fit_all([name_forms(side) for side in card.sides], CELL_RIGHT_BOLD, room, HEADING_LINES)


def shortened(card: ScoreCard, width: float) -> bool:
    """Whether a round's block prints a side's or a dealer's name shorter than it is."""
    label_width, side_width = block_columns(card, block_width(card, width))
    label_room, side_room = label_width - 2 * CELL_PADDING, side_width - 2 * CELL_PADDING
    return not all(found.whole for found in side_fits(card, side_room)) or not all(
        heading_fit(card, round_number, label_room).whole
        for round_number in range(1, min(len(card.dealers), _rounds_shown(card)) + 1)
    )


def round_block(
    card: ScoreCard, round_number: int, width: float, wrapped: dict[tuple, Wrapped]
) -> RoundBlock:
    """A round's block: its heading, a row per line of the score and the totals."""
    rules, status = card.rules, card.status
    played = (
        status.rounds[round_number - 1] if status and round_number <= len(status.rounds) else None
    )
    label_width, side_width = block_columns(card, width)
    label_room = label_width - 2 * CELL_PADDING
    side_room = side_width - 2 * CELL_PADDING

    def label(value: str, *, bold: bool = False) -> Cell:
        return block_cell(value, CELL_BOLD if bold else CELL, label_room, wrapped)

    def figures(values: list[str], *, bold: bool = False) -> list[Cell]:
        paragraph_style = CELL_RIGHT_BOLD if bold else CELL_RIGHT
        return [block_cell(value, paragraph_style, side_room, wrapped) for value in values]

    # The heading row: names, measured to fit their cells whole or shortened, never broken
    # inside a word.
    rows: list[list] = [
        [fitted_cell(heading_fit(card, round_number, label_room), CELL_BOLD, label_room, wrapped)]
        + [
            fitted_cell(found, CELL_RIGHT_BOLD, side_room, wrapped)
            for found in side_fits(card, side_room)
        ]
    ]
    if rules.opening_minimum:
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
    # A played round's row with an empty cell (nothing scored there) keeps its taller line.
    least = [BLANK_ROW_HEIGHT if "" in row[1:] else 0 for row in rows] if played else None
    return RoundBlock(
        rows, [label_width] + [side_width] * len(card.sides), heights=heights, least=least
    )


def _round_groups(card: ScoreCard, width: float) -> list[list[Flowable]]:
    """Every round's block of the card, two side by side where the sides fit, as the groups
    of flowables that stay together on a page."""
    count = _rounds_shown(card)
    wrapped: dict[tuple, Wrapped] = {}
    if len(card.sides) > 2:
        return [
            [round_block(card, n, width, wrapped), Spacer(0, 3 * mm)] for n in range(1, count + 1)
        ]
    # Two columns fit side by side: two rounds to a row, as on the printed pads.
    half = block_width(card, width)
    return [
        [
            SideBySide(
                round_block(card, first, half, wrapped),
                round_block(card, first + 1, half, wrapped) if first + 1 <= count else None,
                column=half,
                gap=PAIR_GAP,
            )
        ]
        for first in range(1, count + 1, 2)
    ]


def _kept(group: list[Flowable]) -> Flowable:
    """A group of flowables kept on one page (a lone flowable needs no keeping)."""
    return group[0] if len(group) == 1 else KeepTogether(group)


def round_blocks(card: ScoreCard, width: float) -> list[Flowable]:
    """Every round's block of the card, two side by side where the sides fit."""
    return [_kept(group) for group in _round_groups(card, width)]


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
        + [name_cell(found, CELL_RIGHT_BOLD) for found in side_fits(card, side_room)]
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
    table = Table(rows, colWidths=[label] + [side] * len(card.sides))
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


def _players(side: CardSide) -> str:
    """`José & Zoë`, a side named after its players; `Us: José, Zoë`, one named otherwise."""
    if not side.players or named_after(side.name, side.players):
        return side.name
    return f"{side.name}: {', '.join(side.players)}"


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
    elif any(side.players for side in card.sides) or (card.title and shortened(card, width)):
        # Every side once, whole: the columns' headings may shorten them.
        lines.append(text(f"Players: {'; '.join(_players(side) for side in card.sides)}", BODY))
    if not card.link:
        return [*lines, Spacer(0, 2 * mm)]
    size = 30 * mm
    qr_cell = [QrCode(card.link, size), text(card.link_caption, SMALL)]
    table = Table([[lines, qr_cell]], colWidths=[width - size - 4 * mm, size + 4 * mm])
    table.setStyle(
        TableStyle(
            [
                # A cell sets its font on the page even where its flowables set their own:
                # ReportLab's default, Helvetica, would be put in the file for nothing.
                ("FONTNAME", (0, 0), (-1, -1), FONT),
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
        out.extend([Spacer(0, 2 * mm), _signatures(card, width)])
    return out


def _caption(card: ScoreCard, side: CardSide, room: float) -> Flowable:
    """The words under a signature's line: the side's name, shortened rather than broken."""
    if not card.named:
        return text("Signature", SMALL)
    forms = tuple(f"Signed for {name}" for name in name_forms(side))
    found = fit(forms, SMALL.fontName, SMALL.fontSize, room, SIGNATURE_LINES)
    return text(found.lines[0], SMALL) if found.one_line(SMALL) else found.paragraph(SMALL)


def _signatures(card: ScoreCard, width: float) -> Table:
    """A line to sign on for each side, the side's name under it: two to a row, three where
    there are five or six sides, so that a one-round card's signatures fit under its round."""
    per_row = 3 if len(card.sides) > 4 else 2
    gap = 10 * mm if per_row == 2 else 8 * mm
    column = (width - gap * (per_row - 1)) / per_row
    widths = [gap if index % 2 else column for index in range(2 * per_row - 1)]
    rows: list[list] = []
    commands: list[tuple] = [("FONTNAME", (0, 0), (-1, -1), FONT)]
    for start in range(0, len(card.sides), per_row):
        line, captions = [""] * len(widths), [""] * len(widths)
        for place, side in enumerate(card.sides[start : start + per_row]):
            captions[2 * place] = _caption(card, side, column - SIGNATURE_PADDING)
            commands.append(
                ("LINEBELOW", (2 * place, len(rows)), (2 * place, len(rows)), 0.7, colors.black)
            )
        commands.append(("TOPPADDING", (0, len(rows)), (-1, len(rows)), 9 * mm))
        rows += [line, captions]
    commands += [
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), SIGNATURE_PADDING),
    ]
    return Table(rows, colWidths=widths, style=TableStyle(commands))


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
    *groups, last = _round_groups(card, width)
    story.extend(_kept(group) for group in groups)
    # The last round goes with the notes and signatures under it, whole: the signatures never
    # stand on a page of their own. (One KeepTogether: one inside another is always too tall.)
    story.append(KeepTogether([*last, *_footer_notes(card, width)]))
    return story


def footers(card: ScoreCard) -> tuple[str, ...]:
    """The page's footer, from the fullest to the shortest: the title, the title with the
    names shortened, then the rule set alone."""
    tail = f"{rule_set_name(card.rules.id)} · Hand and Foot scorekeeper"
    forms = [f"{title_of(card)} · {tail}"]
    if not card.title and card.named:
        short = " vs ".join(short_name(side.name, side.players) for side in card.sides)
        forms.append(f"{short} · {tail}")
    return (*forms, tail)


def build_score_card(card: ScoreCard, *, paper: str = "a4") -> bytes:
    """A score sheet as a PDF file: blank, or filled with the rounds of `card.status`."""
    return render(
        score_card_story(card, paper=paper),
        paper=paper,
        title=title_of(card),
        footer=footers(card),
    )
