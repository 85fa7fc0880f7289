"""The QR codes of the score cards: ReportLab's own modules, and a phone's camera reads them."""

import shutil
import subprocess

import pytest
from reportlab.graphics.barcode.qr import QrCode
from reportlab.graphics.barcode.qrencoder import QRCode

from scorekeeper import engine
from scorekeeper.documents.pdf.qr import codewords, error_bytes, generator_logs
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card
from tests.qrcodes import zbar_read

LINK = "http://127.0.0.1:8000/g/Ab3dEf6hJk/join/4pQ-rS_tUvWxYz0123456789abcdefGHIJ/"


def test_the_generator_polynomial_of_two_error_bytes_is_x2_plus_3x_plus_2():
    # (x - α⁰)(x - α¹) = x² + (1 + 2)x + 2, written as the logs of its terms after the first.
    assert generator_logs(2) == (25, 1)
    # The QR standard's generator of 7 error bytes: α^87, α^229, α^146, α^149, α^238, α^102,
    # α^21 after x⁷.
    assert generator_logs(7) == (87, 229, 146, 149, 238, 102, 21)


def test_the_error_bytes_of_the_standards_worked_example():
    # ISO/IEC 18004's example: "01234567" as a version 1-M code.
    data = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
    assert error_bytes(data, 10) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85]


@pytest.mark.parametrize("level", ["L", "M", "Q", "H"])
@pytest.mark.parametrize(
    "value",
    [
        "1",
        "0123456789" * 3,
        "HTTP://EXAMPLE.ORG/ABC",
        LINK,
        LINK * 4,
        "Łukasz, Søren and Zoë " * 10,
    ],
)
def test_the_bytes_are_reportlabs_for_every_level_and_kind_of_data(level, value):
    qr = QrCode(value, qrLevel=level).qr
    qr.version = qr.calculate_version()
    assert codewords(qr) == QRCode.createData(qr.version, qr.errorCorrectLevel, qr.dataList)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_the_printed_code_reads_back_as_the_link(tmp_path):
    rules = engine.get_ruleset("four-rounds")
    card = ScoreCard(rules, (CardSide("Ann"), CardSide("Bob")), link=LINK)
    (tmp_path / "card.pdf").write_bytes(build_score_card(card))
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", "card.pdf", "page"],
        cwd=tmp_path,
        check=True,
        timeout=60,
    )
    (page,) = tmp_path.glob("page*.png")
    assert zbar_read(page) == [LINK]
