"""PDFs read back: the bytes of a PDF download, and its text the way a reader selects and
searches it."""

import html
import io
import re
import subprocess

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


def broken_words(data: bytes, names) -> list[str]:
    """Each word of `names` the PDF prints with a line break inside it, as `Oyelaran-Willi|ams`;
    a break after a hyphen (`Fairweather-|Montgomery`) is a break a reader expects, not one."""
    text = pdf_text(data)
    found = []
    for word in sorted({word for name in names for word in name.split()}):
        # The word's letters with any run of spaces or line breaks between them.
        pattern = r"(?<!\w)" + r"\s*".join(re.escape(letter) for letter in word) + r"(?!\w)"
        for match in re.finditer(pattern, text):
            parts = match.group().split()
            if any(not part.endswith("-") for part in parts[:-1]):
                found.append("|".join(parts))
    return found


def page_with(pages: list[str], words: str) -> list[int]:
    """The numbers (from 1) of the pages whose text, on one line, holds `words`."""
    return [number for number, page in enumerate(pages, 1) if words in " ".join(page.split())]


def word_boxes(data: bytes) -> list[list[tuple[str, float, float, float, float]]]:
    """Each page's words as poppler's pdftotext finds them: the word and its box (left, top,
    right, bottom) in points from the page's top left corner. Needs poppler-utils."""
    done = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"],
        input=data,
        capture_output=True,
        check=True,
        timeout=60,
    )
    pages = []
    for page in re.findall(r"<page [^>]*>(.*?)</page>", done.stdout.decode(), re.S):
        pages.append(
            [
                (html.unescape(word), float(x0), float(y0), float(x1), float(y1))
                for x0, y0, x1, y1, word in re.findall(
                    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                    r"(.*?)</word>",
                    page,
                )
            ]
        )
    return pages
