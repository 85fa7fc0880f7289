"""A club night's pack from plain data: the cover with every table's seating and who sits out,
then each table's sheet on a page of its own."""

import datetime
import re

import pytest

from scorekeeper import engine
from scorekeeper.documents.pdf import night_pack
from scorekeeper.documents.pdf.base import TooManyPages
from scorekeeper.documents.pdf.night_pack import NightPack, PackTable, build_night_pack
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard
from tests.helpers.pdfs import pdf_pages, pdf_words

NIGHT = datetime.date(2026, 11, 21)
RULES = engine.get_ruleset("four-rounds")
LINK = "https://scores.example.org/g/abc123/join/secret456/"


def table(number, sides, seats, *, link="", started=True) -> PackTable:
    card = ScoreCard(
        RULES,
        sides,
        details=(("League", "Riverside Card Club"), ("Club night", "21 November 2026")),
        dealers=(seats * 2)[:4],
        link=link,
        link_caption="Scan to score this table on a phone",
    )
    return PackTable(number, sides, seats, card, started)


TABLES = (
    table(
        1,
        (CardSide("José & Zoë", ("José", "Zoë")), CardSide("Łukasz & Søren", ("Łukasz", "Søren"))),
        ("José", "Łukasz", "Zoë", "Søren"),
        link=LINK,
    ),
    table(
        2,
        (CardSide("Ann & Cy", ("Ann", "Cy")), CardSide("Bob & Di", ("Bob", "Di"))),
        ("Bob", "Ann", "Di", "Cy"),
        started=False,
    ),
)


def pack(**changes) -> NightPack:
    values = {
        "league": "Riverside Card Club",
        "season": "Autumn 2026",
        "date": NIGHT,
        "rules": "Four Rounds",
        "tables": TABLES,
        "sitting_out": ("Renée", "Kofi"),
        "waiting": ("Dev",),
        "notes": ("Each table's QR code opens its game ready to score.",),
    }
    values.update(changes)
    return NightPack(**values)


def flat(page: str) -> str:
    """The page's text on one line, its footer (which the reader finds first) left out."""
    words = " ".join(page.split())
    assert words.startswith("Riverside Card Club: club night, Saturday 21 November 2026 · ")
    return re.sub(r"^.*? Page [0-9]+ ", "", words, count=1)


def test_the_cover_lists_every_table_and_who_sits_out():
    pages = pdf_pages(build_night_pack(pack()))
    cover = flat(pages[0])
    assert (
        "Club night, Saturday 21 November 2026 Riverside Card Club · Autumn 2026 · Four Rounds "
        "Tables Table Sides Seats round the table, the deal passing left "
        "1 José & Zoë Łukasz & Søren José, Łukasz, Zoë, Søren José deals first. "
        "2 Ann & Cy Bob & Di Bob, Ann, Di, Cy Bob deals first. Not started yet. "
        "Sitting out Renée and Kofi. Waiting for a seat Dev. "
        "Each table's QR code opens its game ready to score."
    ) in cover
    assert "Round 1" not in cover


def test_each_table_has_a_page_with_its_seats_its_blank_sheet_and_its_code():
    pages = [flat(page) for page in pdf_pages(build_night_pack(pack(), paper="letter"))]
    assert len(pages) == 3
    first, second = pages[1], pages[2]
    assert first.startswith("Table 1 Four Rounds. The game ends after round 4")
    assert (
        "League: Riverside Card Club · Club night: 21 November 2026 · "
        "Seats, the deal passing left: José, Łukasz, Zoë, Søren"
    ) in first
    assert "Players: José & Zoë; Łukasz & Søren" in first
    assert "Scan to score this table on a phone" in first
    assert LINK in first
    assert "Round 1 · José deals José & Zoë Łukasz & Søren Opening meld 60 60" in first
    assert "Round 4 · Søren deals José & Zoë Łukasz & Søren Opening meld 150 150" in first
    assert "Signed for José & Zoë Signed for Łukasz & Søren" in first
    assert "Not started" not in first

    assert second.startswith(
        "Not started yet: the QR code of this table's game appears on its sheet once the "
        "organiser starts the night's games."
    )
    assert "Table 2 Four Rounds" in second
    assert "Seats, the deal passing left: Bob, Ann, Di, Cy" in second
    assert "Round 1 · Bob deals Ann & Cy Bob & Di Opening meld 60 60" in second
    assert "Scan" not in second and "https://" not in second


def test_a_night_with_nobody_seated_is_a_cover_alone():
    pages = pdf_pages(build_night_pack(pack(tables=(), sitting_out=(), waiting=(), notes=())))
    assert len(pages) == 1
    assert "Tables Nobody is seated yet. Sitting out Nobody." in flat(pages[0])
    assert "Waiting" not in pages[0]


def test_names_are_printed_as_text_never_as_markup():
    sides = (CardSide("<b>Ann</b>", ()), CardSide("Bob & <i>Co</i>", ()))
    words = pdf_words(
        build_night_pack(
            pack(tables=(table(1, sides, ("<b>Ann</b>", "Bob & <i>Co</i>")),), sitting_out=())
        )
    )
    assert "1 <b>Ann</b> Bob & <i>Co</i> <b>Ann</b>, Bob & <i>Co</i> <b>Ann</b> deals first." in (
        words
    )


def test_a_pack_too_long_is_refused_from_one_tables_sheet(monkeypatch):
    laid_out = []
    real_page_count = night_pack.page_count
    monkeypatch.setattr(
        night_pack,
        "page_count",
        lambda story, **kw: laid_out.append(kw) or real_page_count(story, **kw),
    )
    monkeypatch.setattr(night_pack, "render", lambda *a, **kw: pytest.fail("laid the pack out"))
    rules = engine.get_ruleset("ten-thousand").with_overrides({"rounds": 20, "target_score": None})
    sides = TABLES[0].sides
    tables = tuple(
        PackTable(n, sides, TABLES[0].seats, ScoreCard(rules, sides)) for n in range(1, 51)
    )

    with pytest.raises(TooManyPages) as caught:
        build_night_pack(pack(tables=tables))

    assert str(caught.value) == (
        "This club night's pack would run to about 201 pages, more than the 120 we print in one "
        "file; print each table's sheet from its game page."
    )
    assert laid_out == [{"paper": "a4"}]
