"""The one way a CSV leaves the app: every cell a spreadsheet reads as text or as a number, never
as a formula, whatever separator it splits the lines on; streamed, a few rows at a time.

A spreadsheet runs a cell that starts with = + - @, a tab or a carriage return (OWASP, "CSV
Injection"). Quoting a cell does not stop it: Excel runs `"=1+1"` as readily as `=1+1`. Nor does
the separator the file was written with: German or French Excel splits a line on ";", so that
`"Ann;=cmd|' /C calc'!A0"`, one quoted cell to a comma-reading program, is there the cells
`"Ann` and `=cmd|' /C calc'!A0"`, the second a live command. So a text cell gets a `'` before
each character that could start a formula where a cell could start: at its start, and after
every character that ends a cell under some reading (`,` and `;`, a tab, a line break, a `"`),
spaces between allowed (LibreOffice's import can trim them away). The `'` shows in the
spreadsheet, as text; the cell is never run.

Text is always quoted and numbers never (`csv.QUOTE_NONNUMERIC`), rather than every cell
quoted: a spreadsheet asked to take quoted cells as text (LibreOffice's "Quoted field as text")
still sums the numbers, and a reader can tell a number from its text (`csv.reader` with
QUOTE_NONNUMERIC turns the unquoted cells into floats). A number is an int, a float or a
Decimal, written in plain digits with a hyphen-minus: a negative margin stays a number, which no
spreadsheet runs as a formula.

UTF-8 with a byte order mark, so that Excel reads José and Zoë as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal

from django.http import StreamingHttpResponse

BOM = "\ufeff"
# What starts a formula, and a character that may end the cell before it (with any spaces but
# a tab or a line break between, those being ends themselves).
_FORMULA_START = r"[=+\-@\t\r]"
_CELL_END = r"[,;\t\r\n\"]"
_EXPOSED = re.compile(rf"(?:^|(?<={_CELL_END}))([^\S\t\r\n]*)(?={_FORMULA_START})")
# Rows written before a chunk is sent: about 16 KiB of a games file, few enough that memory
# stays flat, enough that a response is not thousands of tiny writes.
ROWS_A_CHUNK = 100

Cell = str | int | float | Decimal


def text_cell(text: str) -> str:
    """The text with a `'` before each character that could start a formula in a cell of some
    reading of the file."""
    # Searched first: most cells need nothing, and a search costs a fifth of a substitution.
    return text if _EXPOSED.search(text) is None else _EXPOSED.sub(r"\1'", text)


def cell(value: Cell | None) -> Cell:
    """A number as it is; anything else as defused text ("" for None)."""
    # bool is an int to Python, but True is no figure to a spreadsheet.
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    return text_cell("" if value is None else str(value))


def csv_chunks(header: Sequence[str], rows: Iterable[Sequence[Cell | None]]) -> Iterator[bytes]:
    """The file in pieces: the byte order mark and the header at once, then ROWS_A_CHUNK rows a
    piece, each row read from `rows` only when its piece is written."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)

    def taken() -> bytes:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text.encode("utf-8")

    buffer.write(BOM)
    writer.writerow([cell(value) for value in header])
    yield taken()
    for written, row in enumerate(rows, start=1):
        writer.writerow([cell(value) for value in row])
        if written % ROWS_A_CHUNK == 0:
            yield taken()
    if buffer.tell():
        yield taken()


def csv_response(
    header: Sequence[str], rows: Iterable[Sequence[Cell | None]], stem: str
) -> StreamingHttpResponse:
    """The rows as a CSV download named `<stem>.csv`, streamed: a long season's games leave as
    they are read, never held whole."""
    response = StreamingHttpResponse(
        csv_chunks(header, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    # Standings change with every game: never serve yesterday's copy.
    response["Cache-Control"] = "no-store"
    return response
