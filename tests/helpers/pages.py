"""Pages and files the server answers, read back: the visible text, a part of it between two
headings, the tables' cells, a form field with its errors, and the rows of a CSV download."""

import csv
import html
import io
import re
from html.parser import HTMLParser

from django.utils.html import escape


def text(response_or_html) -> str:
    """The visible text, tags and screen-reader-only spans left out."""
    page = getattr(response_or_html, "content", b"").decode() or response_or_html
    page = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", page)
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", page).split()))


def section(page: str, heading: str, until: str) -> str:
    """The part of a page's text (see `text`) between a heading and the next one, `until`."""
    return page.split(f" {heading} ", 1)[1].split(f" {until} ", 1)[0]


class _Tables(HTMLParser):
    """Every table's rows as lists of cell texts, whitespace collapsed, hidden text dropped."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.hidden = [], None, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.hidden or "visually-hidden" in (attrs.get("class") or ""):
            self.hidden += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if self.hidden:
            self.hidden -= 1
        elif tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None and not self.hidden:
            self.cell.append(data)


def tables(response) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(response.content.decode())
    return parser.tables


def body_rows(response, index: int = 0) -> list[str]:
    """The body rows of a table as "cell | cell | ..." lines (the header row left out)."""
    return [" | ".join(row) for row in tables(response)[index][1:]]


def field_block(html: str, name: str) -> str:
    """The part of the page that shows the form field `name`: its label, control and errors."""
    blocks = re.split(r'(?=<(?:div|fieldset) class="org-field)', html)
    found = [b for b in blocks if re.search(f'<[^>]* id="id_{name}(_[0-9]+)?"', b)]
    assert found, f"no field {name} on the page"
    return found[0]


def assert_beside(html: str, name: str, message: str) -> None:
    """The form field `name` shows this error message beside it."""
    assert f'<p class="field-error" role="alert">{escape(message)}</p>' in field_block(html, name)


def rule_block(html: str, key: str) -> str:
    """The house-rule field `rule-<key>`: its label, control, the preset's value and errors."""
    blocks = re.split(r'(?=<div class="rule-field)', html)
    (found,) = [b for b in blocks if f'id="rule-{key}"' in b]
    return found.split("</details>")[0]


def csv_text(response) -> str:
    """The text of a CSV download, streamed, after checking it is one (UTF-8 with a byte order
    mark)."""
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.streaming
    content = b"".join(response.streaming_content)
    assert content.startswith(b"\xef\xbb\xbf")
    return content.decode("utf-8-sig")


def read_csv(text: str, **reading) -> list[list]:
    """The rows of a CSV file's text as the csv module reads them (`reading`: its options, such
    as delimiter=";" or quoting=csv.QUOTE_NONNUMERIC)."""
    return list(csv.reader(io.StringIO(text, newline=""), **reading))


def csv_rows(response, **reading) -> list[list]:
    """The rows of a CSV download (`reading` as for read_csv)."""
    return read_csv(csv_text(response), **reading)


# A cell a spreadsheet may run: one that starts with = + - @ once its leading whitespace (a tab,
# a line break) is trimmed, as LibreOffice's import can trim it, and is not a plain number.
_RUNNABLE = re.compile(r"\s*[=+\-@]")
_PLAIN_NUMBER = re.compile(r"\s*-?[0-9]+(\.[0-9]+)?\s*")
# The separators a spreadsheet splits a line on: "," in English, ";" in German or French, and
# a tab for text pasted in.
SEPARATORS = (",", ";", "\t")


def runnable_cells(text: str) -> dict[str, list[str]]:
    """{separator: the cells a spreadsheet splitting each line on it could run}, the file read
    by the csv module under each of SEPARATORS; a list stays empty when there is none."""
    return {
        separator: [
            cell
            for row in read_csv(text, delimiter=separator)
            for cell in row
            if _RUNNABLE.match(cell) and not _PLAIN_NUMBER.fullmatch(cell)
        ]
        for separator in SEPARATORS
    }
