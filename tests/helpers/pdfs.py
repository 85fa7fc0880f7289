"""PDFs read back: the bytes of a PDF download, and its text the way a reader selects and
searches it."""

import io
import re

from pypdf import PdfReader


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page, with runs of spaces made one."""
    assert data.startswith(b"%PDF-"), data[:20]
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"[ \t]+", " ", page.extract_text()) for page in reader.pages]


def pdf_text(data: bytes) -> str:
    """The text of the whole file."""
    return "\n".join(pdf_pages(data))


def pdf_words(data: bytes) -> str:
    """The whole file's text as one line: a table cell that wraps reads as one phrase."""
    return " ".join(pdf_text(data).split())


def download(response) -> bytes:
    """The PDF a response streams, after checking it is one."""
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content)


def filename(response) -> str:
    match = re.fullmatch(r'attachment; filename="([^"]+)"', response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    return match.group(1)
