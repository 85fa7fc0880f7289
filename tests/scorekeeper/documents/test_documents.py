"""Paper by locale and file names, without a database."""

import pytest

from scorekeeper.documents.cards import dealers_for, file_stem, paper_from_locale
from scorekeeper.documents.pdf.score_card import CardSide


@pytest.mark.parametrize(
    "header, paper",
    [
        ("en-US,en;q=0.9", "letter"),
        ("en-GB,en;q=0.9", "a4"),
        ("de-DE", "a4"),
        ("es-MX,es;q=0.8", "letter"),
        ("fr-CA", "letter"),
        ("pt_BR", "a4"),
        ("fr;q=0.5, en-CA", "letter"),
        ("en-US;q=0.4, pl-PL;q=0.9", "a4"),
        ("da", "a4"),
        ("*", "letter"),
        ("", "letter"),
        ("en-US;q=banana, de-DE", "letter"),
    ],
)
def test_the_default_paper_follows_the_browsers_first_language(header, paper):
    assert paper_from_locale(header) == paper


def test_file_names_are_readable_ascii_even_for_names_unicode_does_not_decompose():
    assert (
        file_stem("2026-11-21", "José & Zoë vs Łukasz & Søren", "score card")
        == "2026-11-21-jose-zoe-vs-lukasz-soren-score-card"
    )
    assert file_stem("Ærø", "Straße", "Œuvre") == "aero-strasse-oeuvre"
    assert file_stem("???", "") == "document"
    assert len(file_stem("a" * 300)) == 120


def test_the_deal_passes_left_so_partners_alternate_with_opponents():
    sides = (CardSide("Ann & Cy", ("Ann", "Cy")), CardSide("Bob & Di", ("Bob", "Di")))
    assert dealers_for(sides, 1, 6) == ("Bob", "Cy", "Di", "Ann", "Bob", "Cy")
    assert dealers_for((CardSide("Ann"), CardSide("Bob"), CardSide("Cy")), 2, 4) == (
        "Cy",
        "Ann",
        "Bob",
        "Cy",
    )
