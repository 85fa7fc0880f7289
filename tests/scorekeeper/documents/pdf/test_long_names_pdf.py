"""Ordinary long names (30 characters, hyphenated surnames) on every PDF: no word broken inside
it, no text running out of its cell, the Players line naming each side once and whole, and the
signatures on the page of the card's last round."""

import itertools
import shutil
from io import BytesIO

import pytest
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table

from scorekeeper import engine
from scorekeeper.documents.pdf.base import CELL_BOLD, MARGIN, frame_width, page_size, paragraph
from scorekeeper.documents.pdf.night_pack import NightPack, PackTable, build_night_pack
from scorekeeper.documents.pdf.score_card import (
    CardSide,
    ScoreCard,
    block_width,
    build_score_card,
    round_block,
)
from scorekeeper.documents.pdf.standings import (
    Column,
    StandingsSheet,
    build_standings,
    layout,
    standings_story,
)
from tests.helpers.pdfs import broken_words, page_with, pdf_pages, pdf_words, word_boxes
from tests.helpers.score_cards import (
    DAY,
    LONG_NAMES,
    LONG_PLAYERS,
    LONG_TEAMS,
    long_card,
)

FOUR_ROUNDS = engine.get_ruleset("four-rounds")
TEN_THOUSAND = engine.get_ruleset("ten-thousand")
# A league's one-round game, as a club night plays Ten Thousand against the clock.
ONE_ROUND = TEN_THOUSAND.with_overrides({"rounds": 1, "target_score": None})
LINK = "https://scores.example.org/g/abc123/join/secret456/"
NEEDS_POPPLER = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)"
)

CARDS = {
    # Four Rounds: two teams, two rounds played, two to play.
    "four rounds, two teams": lambda: long_card(FOUR_ROUNDS, LONG_TEAMS[:2], 2),
    # Six sides, the most a table seats: two rounds played, two left to play on paper.
    "six sides": lambda: long_card(TEN_THOUSAND, LONG_PLAYERS, 2),
    "six sides, blank": lambda: long_card(TEN_THOUSAND, LONG_PLAYERS),
    "three teams of two": lambda: long_card(TEN_THOUSAND, LONG_TEAMS, 1),
    "one round, six sides, with its code": lambda: long_card(
        ONE_ROUND, LONG_PLAYERS, 1, finished=True, house_rules=True, link=LINK
    ),
}


def last_round(card: ScoreCard) -> int:
    """The number of the card's last round block."""
    played = len(card.status.rounds) if card.status else 0
    if card.rules.rounds:
        return max(card.rules.rounds, played)
    return 8 if not played else played if card.status.finished else played + 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", CARDS)
def test_no_name_is_broken_inside_a_word(name, paper):
    card = CARDS[name]()
    assert broken_words(build_score_card(card, paper=paper), LONG_NAMES) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", CARDS)
def test_the_signatures_are_on_the_page_of_the_last_round(name, paper):
    card = CARDS[name]()
    pages = pdf_pages(build_score_card(card, paper=paper))
    signed = page_with(pages, "Signed for")
    assert len(signed) == 1, signed
    (page,) = signed
    assert page_with(pages, f"Round {last_round(card)} ·") == [page]
    words = " ".join(pages[page - 1].split())
    assert words.count("Signed for") == len(card.sides)
    # The last round's block is whole on that page, its totals under it.
    assert words.rindex("Running total") < words.index("Signed for")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("sides", [LONG_PLAYERS[:2], LONG_TEAMS[:2], LONG_TEAMS, LONG_PLAYERS])
def test_a_one_round_card_is_one_page(sides, paper):
    card = long_card(
        ONE_ROUND,
        sides,
        1,
        finished=True,
        house_rules=True,
        link=LINK,
        details=(
            ("League", "Thursday Club"),
            ("Season", "Autumn 2026"),
            ("Club night", "21 November 2026, table 3"),
        ),
    )
    (page,) = pdf_pages(build_score_card(card, paper=paper))
    words = " ".join(page.split())
    assert "Round 1 ·" in words and "Running total" in words
    assert words.count("Signed for") == len(sides)


def test_the_players_line_names_each_side_once_and_whole():
    words = pdf_words(build_score_card(CARDS["four rounds, two teams"]()))
    assert (
        "Players: Abigail Fairweather-Montgomery & Oluwaseun Oyelaran-Williams; "
        "Bartholomew Castellanos-Whitby & Guinevere Okonkwo-Hargreaves "
    ) in words
    words = pdf_words(build_score_card(CARDS["six sides"]()))
    assert "Players: " + "; ".join(LONG_NAMES) + " " in words


def test_a_team_of_its_own_name_is_followed_by_its_players():
    sides = (
        CardSide("The Card Sharks", LONG_NAMES[:2]),
        CardSide(" & ".join(LONG_NAMES[2:4]), LONG_NAMES[2:4]),
    )
    words = pdf_words(build_score_card(long_card(FOUR_ROUNDS, sides, 1)))
    assert (
        "Players: The Card Sharks: Abigail Fairweather-Montgomery, Oluwaseun Oyelaran-Williams; "
        "Bartholomew Castellanos-Whitby & Guinevere Okonkwo-Hargreaves "
    ) in words


def test_a_name_too_long_for_its_column_is_shortened_to_initials_never_cut():
    words = pdf_words(build_score_card(CARDS["four rounds, two teams"]()))
    # A two-sided block's column is about 58 points wide: each player's first name becomes an
    # initial, and the line breaks only after a hyphen or at a space.
    assert "A. Fairweather- Montgomery & O. Oyelaran- Williams" in words
    assert "B. Castellanos- Whitby & G. Okonkwo- Hargreaves" in words
    # Six sides: each name whole, on three lines.
    words = pdf_words(build_score_card(CARDS["six sides"]()))
    assert "Abigail Fairweather- Montgomery Oluwaseun Oyelaran- Williams" in words


def test_a_footer_too_long_for_its_line_is_shortened():
    pages = pdf_pages(build_score_card(CARDS["four rounds, two teams"]()))
    assert " ".join(pages[0].split()).startswith(
        "A. Fairweather-Montgomery & O. Oyelaran-Williams vs B. Castellanos-Whitby & "
        "G. Okonkwo-Hargreaves · Four Rounds · Hand and Foot scorekeeper Page 1 "
    )
    # Six sides' names shortened are still too long: the rule set's name alone.
    pages = pdf_pages(build_score_card(CARDS["six sides"]()))
    for number, page in enumerate(pages, 1):
        assert " ".join(page.split()).startswith(
            f"Ten Thousand · Hand and Foot scorekeeper Page {number} "
        )


@NEEDS_POPPLER
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", CARDS)
def test_no_word_overlaps_another_or_leaves_the_frame(name, paper):
    data = build_score_card(CARDS[name](), paper=paper)
    width = page_size(paper)[0]
    for words in word_boxes(data):
        for word, left, _, right, _ in words:
            assert left >= MARGIN - 0.5 and right <= width - MARGIN + 0.5, word
        # Words on one line (the same baseline) never overlap: no text runs into its
        # neighbour's cell.
        lines = {}
        for box in words:
            lines.setdefault(round(box[4], 1), []).append(box)
        for line in lines.values():
            line.sort(key=lambda box: box[1])
            for before, after in itertools.pairwise(line):
                assert before[3] <= after[1] + 0.1, (before, after)


def test_a_word_broken_inside_is_found():
    # ReportLab's own paragraph, in a cell too narrow, breaks a long word where it must.
    narrow = paragraph("Oluwaseun Oyelaran-Williams", CELL_BOLD)
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=True)
    narrow.wrapOn(canvas, 40, 200)
    narrow.drawOn(canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    assert broken_words(buffer.getvalue(), LONG_NAMES[1:2])


def placed_words(flowable, width: float) -> list[tuple[str, float, float]]:
    """Each word the flowable draws alone on a page, with its left and right edges."""
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(width, 1000), invariant=True)
    flowable.wrapOn(canvas, width, 1000)
    flowable.drawOn(canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    (words,) = word_boxes(buffer.getvalue())
    return [(word, left, right) for word, left, _, right, _ in words]


BLOCKS = {
    "two teams": (FOUR_ROUNDS, LONG_TEAMS[:2]),
    "three teams": (TEN_THOUSAND, LONG_TEAMS),
    "six players": (TEN_THOUSAND, LONG_PLAYERS),
    # A surname of 17 letters and no hyphen is wider than a sixth of the page at 8 points.
    "six players, one long word": (
        TEN_THOUSAND,
        (*LONG_PLAYERS[:5], CardSide("Wilhelmina Featherstonehaugh", ())),
    ),
    "a name of one word": (
        TEN_THOUSAND,
        (*LONG_PLAYERS[:5], CardSide("Featherstonehaughcholmondeley", ())),
    ),
}


@NEEDS_POPPLER
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", BLOCKS)
def test_every_word_of_a_round_block_stays_in_its_cell(name, paper):
    rules, sides = BLOCKS[name]
    card = long_card(rules, sides, 1)
    width = block_width(card, frame_width(paper))
    for number in (1, 2):
        block = round_block(card, number, width, {})
        edges = block.columns
        for word, left, right in placed_words(block, width):
            inside = [
                column
                for column in range(len(edges) - 1)
                if edges[column] < left and right < edges[column + 1]
            ]
            assert inside, (word, left, right, edges)
    assert broken_words(build_score_card(card, paper=paper), [side.name for side in sides]) == []


# The night pack ----------------------------------------------------------------------------


def pack_table(number: int, sides, rules) -> PackTable:
    seats = tuple(player for side in sides for player in side.players)
    card = ScoreCard(
        rules,
        sides,
        details=(("League", "Riverside Card Club"), ("Club night", "21 November 2026")),
        dealers=(seats * 8)[:8],
        link=LINK,
        link_caption="Scan to score this table on a phone",
    )
    return PackTable(number, sides, seats, card)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(
    ("rules", "tables"),
    [
        (TEN_THOUSAND, [LONG_PLAYERS, LONG_TEAMS, LONG_PLAYERS[:2]]),
        (FOUR_ROUNDS, [LONG_TEAMS[:2], LONG_TEAMS[1:]]),
        (ONE_ROUND, [LONG_PLAYERS, LONG_TEAMS[:2]]),
    ],
)
def test_a_night_pack_breaks_no_name_and_signs_each_sheet_under_its_last_round(
    rules, tables, paper
):
    night = NightPack(
        "Riverside Card Club",
        "Autumn 2026",
        DAY,
        rules.name,
        tuple(pack_table(n, sides, rules) for n, sides in enumerate(tables, 1)),
        sitting_out=LONG_NAMES[:1],
    )
    data = build_night_pack(night, paper=paper)
    assert broken_words(data, LONG_NAMES) == []
    pages = pdf_pages(data)
    last = rules.rounds or 8
    signed = page_with(pages, "Signed for")
    assert len(signed) == len(tables)
    assert page_with(pages, f"Round {last} ·") == signed
    for page, sides in zip(signed, tables, strict=True):
        assert " ".join(pages[page - 1].split()).count("Signed for") == len(sides)
    everything = pdf_words(data)
    for sides in tables:
        assert "Players: " + "; ".join(side.name for side in sides) + " " in everything


# Standings ---------------------------------------------------------------------------------

COLUMNS = (
    Column("#"),
    Column("Player", numeric=False),
    Column("League points", bold=True),
    *(
        Column(heading)
        for heading in (
            "Games",
            "Wins",
            "Ties",
            "Losses",
            "Win %",
            "Points for",
            "Points against",
            "Average score",
            "Average margin",
            "Rating",
        )
    ),
    Column("Last five", numeric=False),
)
HEADINGS = [column.heading for column in COLUMNS]


def standings(names, figure: str = "123,450") -> StandingsSheet:
    rows = tuple(
        (str(n), name, "12", "8", "5", "1", "2", "68.8", figure, figure, figure + ".3",
         "−" + figure + ".3", "12.4", "WWLTW")
        for n, name in enumerate(names, 1)
    )  # fmt: skip
    return StandingsSheet("Riverside Card Club", "Autumn 2026", COLUMNS, rows, DAY)


STANDINGS = {
    "players": standings(LONG_NAMES),
    "teams": standings([side.name for side in LONG_TEAMS]),
    "teams of three": standings([" & ".join(LONG_NAMES[:3]), " & ".join(LONG_NAMES[3:])]),
    # Figures no league reaches: the table is wider than a landscape page at 8 points.
    "too wide for a page": standings(LONG_NAMES, f"{10**21:,}"),
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", STANDINGS)
def test_standings_break_no_heading_and_no_name_inside_a_word(name, paper):
    data = build_standings(STANDINGS[name], paper=paper)
    assert broken_words(data, [*HEADINGS, *LONG_NAMES]) == []
    words = pdf_words(data)
    for row in STANDINGS[name].rows:
        assert " ".join(row) in words


@NEEDS_POPPLER
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", STANDINGS)
def test_every_word_of_the_standings_table_stays_in_its_cell(name, paper):
    sheet = STANDINGS[name]
    _, widths, _ = layout(sheet, paper)
    table = next(
        flowable
        for flowable in standings_story(sheet, paper=paper)[1]
        if isinstance(flowable, Table)
    )
    edges = [sum(widths[:index]) for index in range(len(widths) + 1)]
    for word, left, right in placed_words(table, edges[-1]):
        assert any(
            edges[column] < left and right < edges[column + 1] for column in range(len(widths))
        ), (word, left, right, edges)
