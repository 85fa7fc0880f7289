"""The QR codes of the score cards: segno's modules, drawn as vectors, and a phone's camera
reads them."""

import datetime
import io
import shutil
import subprocess

import pytest
import segno
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scorekeeper import engine
from scorekeeper.documents.pdf.night_pack import NightPack, PackTable, build_night_pack
from scorekeeper.documents.pdf.qr import QUIET_ZONE, QrCode, qr_matrix
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card
from tests.helpers.qrcodes import zbar_read

LINK = "http://127.0.0.1:8000/g/Ab3dEf6hJk/join/4pQ-rS_tUvWxYz0123456789abcdefGHIJ/"
NEEDS_PDFTOPPM = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)"
)


def test_the_modules_are_segnos_at_level_m_with_the_first_mask():
    code = segno.make(LINK, error="m", mask=0, micro=False, boost_error=False)
    assert code.designator == "5-M" and code.mask == 0
    assert qr_matrix(LINK) == code.matrix


def test_each_run_of_dark_modules_is_one_filled_rectangle():
    data = io.BytesIO()
    canvas = Canvas(data, pageCompression=0)
    QrCode(LINK, 30 * mm).drawOn(canvas, 0, 0)
    canvas.save()
    runs = sum(len([part for part in bytes(row).split(b"\x00") if part]) for row in qr_matrix(LINK))
    assert data.getvalue().count(b" re f") == runs
    assert QrCode(LINK, 30 * mm).wrap(100, 100) == (30 * mm, 30 * mm)
    # The code and its quiet zone fill the square: 37 modules and 4 light ones each side.
    assert len(qr_matrix(LINK)) + 2 * QUIET_ZONE == 45


def read_back(tmp_path, data: bytes) -> list[list[str]]:
    """What zbarimg reads on each page of the PDF, printed at 150 dpi."""
    (tmp_path / "file.pdf").write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "file.pdf", "page"],
        cwd=tmp_path,
        check=True,
        timeout=60,
    )
    return [zbar_read(page) for page in sorted(tmp_path.glob("page*.png"))]


@NEEDS_PDFTOPPM
def test_the_printed_code_reads_back_as_the_link(tmp_path):
    rules = engine.get_ruleset("four-rounds")
    card = ScoreCard(rules, (CardSide("Ann"), CardSide("Bob")), link=LINK)
    assert read_back(tmp_path, build_score_card(card)) == [[LINK]]


@NEEDS_PDFTOPPM
def test_each_tables_code_in_a_pack_reads_back_as_its_own_link(tmp_path):
    rules = engine.get_ruleset("ten-thousand")
    sides = (CardSide("José & Zoë", ("José", "Zoë")), CardSide("Łukasz & Søren"))
    links = [f"https://scores.example.org/g/{n:022d}/join/{'t' * 43}/" for n in (1, 2, 3)]
    tables = tuple(
        PackTable(n, sides, ("José", "Łukasz", "Zoë", "Søren"), ScoreCard(rules, sides, link=link))
        for n, link in enumerate(links, 1)
    )
    pack = NightPack("Club", "Autumn", datetime.date(2026, 11, 21), rules.name, tables)
    pages = read_back(tmp_path, build_night_pack(pack))
    # The cover, then each table's sheet of two pages, its code on the first.
    assert pages == [[], [links[0]], [], [links[1]], [], [links[2]], []]
