"""What every PDF shares: paper sizes, the embedded font, text styles and the page footer.

Everything here goes through ReportLab's public API (Platypus and the canvas's documented
methods), so that a new ReportLab release cannot break it from the inside;
tests/scorekeeper/documents/pdf/test_public_api.py holds every module of this package to that.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.pagesizes import landscape as turned
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate

PAPER = {"a4": A4, "letter": LETTER}
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}
MARGIN = 12 * mm
# Platypus frames pad their content by 6 points on each side.
FRAME_PADDING = 6

FONT = "DejaVuSansCondensed"
BOLD = "DejaVuSansCondensed-Bold"
FONT_DIR = Path(__file__).resolve().parent / "fonts"

# Grey enough to tell apart from black on a cheap laser printer, dark enough to photocopy.
RULE = colors.Color(0.55, 0.55, 0.55)
SHADE = colors.Color(0.9, 0.9, 0.9)
LIGHT = colors.Color(0.96, 0.96, 0.96)


class PdfError(ValueError):
    """Plain data a builder cannot print, such as an unknown paper size."""


# The most pages one file may run to: a 50-table club night's pack of Ten Thousand sheets fits
# within it; building this many pages costs about a second of CPU
# (bench/pdf_worst_case.py).
PAGES_MAX = 120


class TooManyPages(PdfError):
    """The document would run past PAGES_MAX pages; raised before or while laying it out."""

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message or f"This PDF would run past {PAGES_MAX} pages, the most we print in one file."
        )


def register_fonts() -> None:
    """Register the embedded font once per process (reading a TrueType file is not free).

    Helvetica, the built-in font, has no Ł; an embedded TrueType font has every Latin letter
    and gives the text a ToUnicode map, so that it can be selected and searched."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, file in ((FONT, "DejaVuSansCondensed.ttf"), (BOLD, "DejaVuSansCondensed-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


register_fonts()


def style(name: str, size: float = 9, *, bold: bool = False, **extra) -> ParagraphStyle:
    """A paragraph style in the embedded font."""
    return ParagraphStyle(
        name, fontName=BOLD if bold else FONT, fontSize=size, leading=size * 1.22, **extra
    )


TITLE = style("title", 16, bold=True, spaceAfter=1 * mm)
HEADING = style("heading", 11, bold=True, spaceBefore=3 * mm, spaceAfter=1.5 * mm)
BODY = style("body", 9)
SMALL = style("small", 7.5)
CELL = style("cell", 8)
CELL_BOLD = style("cell-bold", 8, bold=True)
CELL_RIGHT = style("cell-right", 8, alignment=TA_RIGHT)
CELL_RIGHT_BOLD = style("cell-right-bold", 8, bold=True, alignment=TA_RIGHT)

ALIGNMENTS = {TA_LEFT: "LEFT", TA_RIGHT: "RIGHT", TA_CENTER: "CENTER"}


@functools.lru_cache(maxsize=256)
def unbroken(paragraph_style: ParagraphStyle, size: float | None = None) -> ParagraphStyle:
    """The style at `size` (its own by default) whose paragraphs break lines only at spaces,
    never inside a word: for text already measured to fit its room, such as a name."""
    size = paragraph_style.fontSize if size is None else size
    return ParagraphStyle(
        f"{paragraph_style.name}-unbroken-{size}",
        parent=paragraph_style,
        fontSize=size,
        leading=size * 1.22,
        splitLongWords=0,
    )


def paragraph(value: str, paragraph_style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text: names are drawn as written, never read as markup."""
    return Paragraph(escape(value), paragraph_style)


def plain(paragraph_style: ParagraphStyle) -> bool:
    """Whether a one-line paragraph in this style is only its text: no border, background,
    indent or other dressing that a paragraph draws around its line."""
    return paragraph_style.alignment in ALIGNMENTS and not (
        paragraph_style.leftIndent
        or paragraph_style.rightIndent
        or paragraph_style.firstLineIndent
        or paragraph_style.backColor
        or paragraph_style.borderWidth
        or paragraph_style.textTransform
        or paragraph_style.wordWrap
        or paragraph_style.endDots
    )


@functools.lru_cache(maxsize=4096)
def fits(value: str, paragraph_style: ParagraphStyle, room: float) -> bool:
    """Whether `value` looks the same as a string as it would as a paragraph `room` wide.

    A paragraph collapses runs of spaces and breaks lines where a string would not, so those
    stay paragraphs. A card asks this of hundreds of cells, most of them the same few labels
    and figures; the styles are this module's own and never change once made."""
    return (
        bool(value)
        and " ".join(value.split()) == value
        and stringWidth(value, paragraph_style.fontName, paragraph_style.fontSize) <= room
    )


class Text(Flowable):
    """Plain text in a paragraph style: one string where it fits on its line, drawn where the
    paragraph would draw it (its baseline a font size below the top), else the paragraph
    itself, made only then.

    Parsing a paragraph and breaking it into lines costs far more than measuring a string,
    and most of a sheet's text (its title, details and captions, a pack cover's cells) is one
    line."""

    def __init__(self, value: str, paragraph_style: ParagraphStyle) -> None:
        super().__init__()
        self.value, self.style = value, paragraph_style
        self.one_line = False
        self.wrapped: Paragraph | None = None

    def as_paragraph(self) -> Paragraph:
        if self.wrapped is None:
            self.wrapped = paragraph(self.value, self.style)
        return self.wrapped

    def wrap(self, availWidth, availHeight):
        self.one_line = plain(self.style) and fits(self.value, self.style, availWidth)
        if self.one_line:
            self.width, self.height = availWidth, self.style.leading
        else:
            self.width, self.height = self.as_paragraph().wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth, availHeight):
        self.wrap(availWidth, availHeight)
        if self.one_line:
            # One line cannot split: it goes whole to the next frame, as a paragraph's would.
            return [self] if availHeight >= self.height else []
        return self.as_paragraph().split(availWidth, availHeight)

    def minWidth(self):
        return self.as_paragraph().minWidth()

    def draw(self):
        if not self.one_line:
            self.as_paragraph().drawOn(self.canv, 0, 0)
            return
        canvas, style = self.canv, self.style
        canvas.setFillColor(style.textColor)
        canvas.setFont(style.fontName, style.fontSize, style.leading)
        baseline = self.height - style.fontSize
        if style.alignment == TA_RIGHT:
            canvas.drawRightString(self.width, baseline, self.value)
        elif style.alignment == TA_CENTER:
            canvas.drawCentredString(self.width / 2, baseline, self.value)
        else:
            canvas.drawString(0, baseline, self.value)


def text(value: str, paragraph_style: ParagraphStyle = BODY) -> Text:
    """Plain text: names are drawn as written, never read as markup."""
    return Text(value, paragraph_style)


def cell(value: str, paragraph_style: ParagraphStyle, room: float) -> Text | str:
    """A table cell of plain text: the string itself when it fits on one line `room` points
    wide, else text that wraps.

    A table draws a string faster than it lays out a flowable (a 20-round card's summary has
    a row a round); `cell_style` gives the string the paragraph's font, size, leading and
    alignment, so that both look the same."""
    if fits(value, paragraph_style, room):
        return value
    return text(value, paragraph_style)


def cell_style(
    paragraph_style: ParagraphStyle, start: tuple[int, int], stop: tuple[int, int]
) -> list[tuple]:
    """Table style commands that draw the string cells from `start` to `stop` as a paragraph
    of `paragraph_style` would be drawn there: same font, size, leading and alignment."""
    return [
        # One command for font, size and leading: each command visits every cell of its range.
        (
            "FONT",
            start,
            stop,
            paragraph_style.fontName,
            paragraph_style.fontSize,
            paragraph_style.leading,
        ),
        ("ALIGN", start, stop, ALIGNMENTS[paragraph_style.alignment]),
    ]


def page_size(paper: str, *, landscape: bool = False) -> tuple[float, float]:
    """The page size of `a4` or `letter`, upright or turned (for wide tables)."""
    try:
        size = PAPER[paper]
    except KeyError:
        raise PdfError(f"Paper must be one of {', '.join(PAPER)}, not {paper!r}.") from None
    return turned(size) if landscape else size


def frame_width(paper: str, *, landscape: bool = False) -> float:
    """The width a flowable may take between the margins."""
    return page_size(paper, landscape=landscape)[0] - 2 * MARGIN - 2 * FRAME_PADDING


FOOTER_SIZE = 7
# Between the footer's text and the page number at its right.
FOOTER_GAP = 4 * mm


def footer_line(footers: Sequence[str], room: float) -> tuple[str, float]:
    """The first footer (fullest first) that fits `room` points at the footer's size, else the
    last one set as small as it needs: a footer never runs into the page number."""
    for footer in footers:
        if stringWidth(footer, FONT, FOOTER_SIZE) <= room:
            return footer, FOOTER_SIZE
    last = footers[-1]
    return last, FOOTER_SIZE * room / stringWidth(last, FONT, FOOTER_SIZE)


def render(
    story: Sequence[Flowable],
    *,
    paper: str,
    title: str,
    footer: str | Sequence[str],
    author: str = "",
    landscape: bool = False,
) -> bytes:
    """Lay the flowables out on pages of the given paper and return the PDF file. `footer` is
    the line at the foot of every page, or its forms from the fullest to the shortest, the
    first that fits printed."""
    footers = (footer,) if isinstance(footer, str) else tuple(footer)
    return _laid_out(story, paper, title, footers, author, landscape)[0]


def page_count(story: Sequence[Flowable], *, paper: str, landscape: bool = False) -> int:
    """How many pages the flowables fill (laid out and thrown away), to refuse a long file
    before paying for all of it."""
    return _laid_out(story, paper, "", ("",), "", landscape)[1]


def _laid_out(
    story: Sequence[Flowable],
    paper: str,
    title: str,
    footers: tuple[str, ...],
    author: str,
    landscape: bool,
) -> tuple[bytes, int]:
    """The PDF file of the flowables and how many pages it has."""
    size = page_size(paper, landscape=landscape)
    buffer = io.BytesIO()

    def draw_footer(canvas, doc) -> None:
        if doc.page > PAGES_MAX:
            # Stop laying out at once: the cost of a file grows with its pages.
            raise TooManyPages()
        number = f"Page {doc.page}"
        room = size[0] - 2 * MARGIN - stringWidth(number, FONT, FOOTER_SIZE) - FOOTER_GAP
        footer, footer_size = footer_line(footers, room)
        canvas.saveState()
        canvas.setFillColor(colors.black)
        # The footer first: the order a reader selects and searches the text in.
        canvas.setFont(FONT, footer_size)
        canvas.drawString(MARGIN, MARGIN / 2, footer)
        canvas.setFont(FONT, FOOTER_SIZE)
        canvas.drawRightString(size[0] - MARGIN, MARGIN / 2, number)
        canvas.restoreState()

    document = SimpleDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        author=author or "Hand and Foot scorekeeper",
        creator="Hand and Foot scorekeeper",
        # The same data gives the same bytes: no timestamp or random id in the file.
        invariant=True,
        lang="en",
        # Every page starts in the embedded font: with ReportLab's Helvetica, each file would
        # carry a font that no text of ours is set in.
        initialFontName=FONT,
    )
    try:
        document.build(list(story), onFirstPage=draw_footer, onLaterPages=draw_footer)
    except TooManyPages:
        # ReportLab prefixes the message with where it was raised; the reader needs only why.
        raise TooManyPages() from None
    return buffer.getvalue(), document.page
