"""What every PDF shares: paper sizes, the embedded font, text styles and the page footer."""

from __future__ import annotations

import functools
import io
import threading
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.pagesizes import landscape as turned
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle
from reportlab.platypus.tables import _SPECIALROWS, CellStyle

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


def _by_characters(make_subset):
    """TTFontFace.makeSubset called with a subset's characters as a tuple, so that a cache can
    key on them."""

    def made(characters: tuple[int, ...]) -> bytes:
        return make_subset(list(characters))

    def make(subset) -> bytes:
        return made_cached(tuple(subset))

    made_cached = functools.lru_cache(maxsize=64)(made)
    return make


def _register_fonts() -> None:
    # Helvetica, the built-in font, has no Ł; an embedded TrueType font has every Latin letter
    # and gives the text a ToUnicode map, so that it can be selected and searched.
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, file in ((FONT, "DejaVuSansCondensed.ttf"), (BOLD, "DejaVuSansCondensed-Bold.ttf")):
        font = TTFont(name, str(FONT_DIR / file))
        # The font program embedded for a subset depends on the subset's characters alone:
        # made once per set of characters (a card's digits and names come back request after
        # request), not cut from the whole font again at every save.
        font.face.makeSubset = _by_characters(font.face.makeSubset)
        pdfmetrics.registerFont(font)
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


_register_fonts()


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


def _one_line(value: str, paragraph_style: ParagraphStyle) -> bool:
    """Whether a paragraph of `value` in this style is drawn as a string would be: one run of
    words in one font, with no border, background, indent or markup to lay out."""
    return (
        bool(value)
        and " ".join(value.split()) == value
        and paragraph_style.alignment in ALIGNMENTS
        and not (
            paragraph_style.leftIndent
            or paragraph_style.rightIndent
            or paragraph_style.firstLineIndent
            or paragraph_style.backColor
            or paragraph_style.borderWidth
            or paragraph_style.textTransform
            or paragraph_style.wordWrap
            or paragraph_style.endDots
            or paragraph_style.shaping
            or getattr(paragraph_style, "autoLeading", "")
        )
    )


class Text(Flowable):
    """A paragraph of plain text that, where it fits on one line, is drawn as one string.

    A paragraph parses its text as markup when made and breaks it into lines at every layout,
    and a table lays each of its cells out twice: most of a club-night pack's time. Text that
    fits its width is drawn where the paragraph would draw its one line (its first baseline a
    font size below the top, as ReportLab places it); text that wraps is the paragraph itself,
    made only then."""

    def __init__(
        self, value: str, paragraph_style: ParagraphStyle, *, shared: bool = False
    ) -> None:
        super().__init__()
        self.value = value
        self.style = paragraph_style
        self._simple = _one_line(value, paragraph_style)
        self._paragraph: Paragraph | None = None
        self._line = False
        self._shared = shared

    def paragraph(self) -> Paragraph:
        """The paragraph this text stands for: names escaped, never read as markup. A table
        cell's (`shared`, never split) is one paragraph for every cell of the same text and
        style: a card's 40 blocks head their columns with the same two names, and parsing a
        paragraph costs more than breaking it into lines."""
        if self._paragraph is None:
            if self._shared:
                self._paragraph = _cell_paragraph(self.value, self.style)
            else:
                self._paragraph = Paragraph(escape(self.value), self.style)
        return self._paragraph

    def wrap(self, availWidth, availHeight):
        paragraph_style = self.style
        self._line = (
            self._simple
            and stringWidth(self.value, paragraph_style.fontName, paragraph_style.fontSize)
            <= availWidth
        )
        if self._line:
            self.width, self.height = availWidth, paragraph_style.leading
            return self.width, self.height
        paragraph = self.paragraph()
        # A table lays its cells out when sized and again when drawn, at the same width: the
        # lines a paragraph breaks into depend on the width alone, so they are broken once.
        # (A split throws its lines away.)
        # The width the paragraph was last broken into lines for, and its size then, kept on
        # the paragraph, which cells may share: each is wrapped at its width before it is drawn.
        broken = getattr(paragraph, "_broken_for", None)
        if broken is None or broken[0] != availWidth or not hasattr(paragraph, "blPara"):
            broken = paragraph._broken_for = availWidth, paragraph.wrap(availWidth, availHeight)
        self.width, self.height = broken[1]
        return self.width, self.height

    def split(self, availWidth, availHeight):
        self.wrap(availWidth, availHeight)
        if self._line:
            # One line cannot split: it goes whole to the next frame, as the paragraph's would.
            return [self] if availHeight >= self.height else []
        return self.paragraph().split(availWidth, availHeight)

    def minWidth(self):
        return self.paragraph().minWidth()

    def draw(self):
        if not self._line:
            self.paragraph().drawOn(self.canv, 0, 0)
            return
        canvas, paragraph_style = self.canv, self.style
        canvas.saveState()
        canvas.setFillColor(paragraph_style.textColor)
        canvas.setFont(paragraph_style.fontName, paragraph_style.fontSize, paragraph_style.leading)
        baseline = self.height - paragraph_style.fontSize
        if paragraph_style.alignment == TA_RIGHT:
            canvas.drawRightString(self.width, baseline, self.value)
        elif paragraph_style.alignment == TA_CENTER:
            canvas.drawCentredString(self.width / 2, baseline, self.value)
        else:
            canvas.drawString(0, baseline, self.value)
        canvas.restoreState()


# Per thread: a paragraph wrapped at one width must be drawn before another build, on another
# thread, wraps it at another.
_cell_paragraphs = threading.local()
CELL_PARAGRAPHS_MAX = 1024


def _cell_paragraph(value: str, paragraph_style: ParagraphStyle) -> Paragraph:
    made = getattr(_cell_paragraphs, "made", None)
    if made is None:
        made = _cell_paragraphs.made = {}
    key = (value, paragraph_style)
    paragraph = made.get(key)
    if paragraph is None:
        if len(made) >= CELL_PARAGRAPHS_MAX:
            made.clear()
        paragraph = made[key] = Paragraph(escape(value), paragraph_style)
    return paragraph


def text(value: str, paragraph_style: ParagraphStyle = BODY) -> Text:
    """A paragraph of plain text: names are drawn as written, never read as markup."""
    return Text(value, paragraph_style)


def cell(value: str, paragraph_style: ParagraphStyle, room: float) -> Text | str:
    """A table cell of plain text: the string itself when it fits on one line `room` points
    wide, else a paragraph that wraps. A table draws a string far faster than it lays out a
    paragraph (a 20-round card has hundreds of cells); `cell_style` gives the string the
    paragraph's font, size, leading and alignment, so that both look the same."""
    if _fits(value, paragraph_style, room):
        return value
    # A paragraph collapses runs of spaces and breaks lines where a string would not.
    return Text(value, paragraph_style, shared=True)


@functools.lru_cache(maxsize=4096)
def _fits(value: str, paragraph_style: ParagraphStyle, room: float) -> bool:
    """Whether `value` is drawn as one string in a cell `room` points wide. A card asks it of
    hundreds of cells, most of them the same few labels and figures; the styles are the
    module's own, never changed once made."""
    return (
        _one_line(value, paragraph_style)
        and stringWidth(value, paragraph_style.fontName, paragraph_style.fontSize) <= room
    )


ALIGNMENTS = {TA_LEFT: "LEFT", TA_RIGHT: "RIGHT", TA_CENTER: "CENTER"}


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


def render(
    story: Sequence[Flowable],
    *,
    paper: str,
    title: str,
    footer: str,
    author: str = "",
    landscape: bool = False,
) -> bytes:
    """Lay the flowables out on pages of the given paper and return the PDF file."""
    return _laid_out(story, paper, title, footer, author, landscape)[0]


def page_count(story: Sequence[Flowable], *, paper: str, landscape: bool = False) -> int:
    """How many pages the flowables fill (laid out and thrown away), to refuse a long file
    before paying for all of it."""
    return _laid_out(story, paper, "", "", "", landscape)[1]


def _shown(canvas, font_name: str, size: float, leading: float, value: str) -> tuple[str, float]:
    """The text-showing operators of one line of `value` in an embedded font, as a fresh
    ReportLab text object writes them (`/F2+0 8 Tf 9.76 TL (...) Tj`, one run per subset of the
    font), and its width; kept per document, since a font's subsets are the document's own.

    A character is given its code in a subset the first time the document shows it, so
    the codes and the order of the fonts in the file are the same as ReportLab's."""
    memo = canvas.__dict__.setdefault("_shown_lines", {})
    key = (font_name, size, leading, value)
    found = memo.get(key)
    if found is None:
        font = pdfmetrics.getFont(font_name)
        doc = canvas._doc
        operators = []
        subset_now = -1
        for subset, codes in font.splitString(value, doc):
            if subset != subset_now:
                operators.append(
                    f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf "
                    f"{fp_str(leading)} TL"
                )
                subset_now = subset
            operators.append(f"({escapePDF(codes)}) Tj")
        found = memo[key] = (" ".join(operators), stringWidth(value, font_name, size))
    return found


def draw_line(
    canvas, x: float, y: float, value: str, alignment: str = "LEFT", y_text: str = ""
) -> None:
    """`canvas.drawString` (or its right-aligned or centred kin) in the canvas's current font,
    which must be an embedded TrueType one: the same operators, without a text object made
    and the string split into the font's subsets for each of the hundreds of cells of a card.
    `y_text`: `y` as ReportLab writes it (`fp_str`), for a row of cells to share."""
    operators, width = _shown(canvas, canvas._fontname, canvas._fontsize, canvas._leading, value)
    if alignment == "RIGHT":
        x -= width
    elif alignment in ("CENTER", "CENTRE"):
        x -= 0.5 * width
    canvas._code.append(f"BT 1 0 0 1 {fp_str(x)} {y_text or fp_str(y)} Tm {operators} T* ET")


class Grid(Table):
    """A table that draws nothing for its empty cells, and its one-line string cells straight
    onto the page.

    ReportLab draws an empty string as a text object of its own, as costly as a number; a
    blank score sheet is mostly empty cells. A string cell is drawn with the operators
    ReportLab's would write, byte for byte (`draw_line`)."""

    def __init__(self, data, *args, cellStyles=None, **kwargs) -> None:
        # Every cell starts with the one default style, until setStyle gives them a cached set
        # (or copies them to style them one by one): ReportLab would make a style per cell,
        # each named after its place, only for setStyle to replace them. The cell styles a
        # split hands its parts may be shared ones too.
        self._fresh_cells = cellStyles is None
        self._shared_cells = True
        if cellStyles is None and data and isinstance(data, (list, tuple)):
            columns = max(len(row) for row in data)
            cellStyles = [[_DEFAULT_CELL] * columns for _ in data]
        super().__init__(data, *args, cellStyles=cellStyles, **kwargs)

    def setStyle(self, tblstyle):
        """TableStyle.setStyle, the commands that style cells (fonts, alignment, padding)
        applied once per shape of table and set of commands: a card's 40 blocks of the same
        shape share one set of cell styles, which nothing changes after (ReportLab's own split
        shares them between the parts of a table), instead of each command visiting each
        cell of each block."""
        if not isinstance(tblstyle, TableStyle):
            tblstyle = TableStyle(tblstyle)
        commands = tblstyle.getCommands()
        cells = tuple(
            tuple(command)
            for command in commands
            if command[0] in _CELL_COMMANDS and command[1][1] not in _SPECIALROWS
        )
        if cells and self._fresh_cells and self._cellStyles:
            try:
                shared = _shared_cell_styles(self._nrows, self._ncols, cells)
            except TypeError:  # a command's values that cannot be a key: styled cell by cell
                shared = None
            if shared is not None:
                self._cellStyles = [list(row) for row in shared]
                self._fresh_cells, self._shared_cells = False, True
                rest = [command for command in commands if tuple(command) not in cells]
                super().setStyle(TableStyle(rest, **tblstyle._opts))
                return
        if cells and self._shared_cells:
            # Copy on write: a cell style must never change under another table.
            self._cellStyles = [
                [_cell_style_like(style) for style in row] for row in self._cellStyles
            ]
            self._shared_cells = False
        self._fresh_cells = self._fresh_cells and not cells
        super().setStyle(tblstyle)

    def _drawCell(self, cellval, cellstyle, pos, size):
        # Skipping one leaves the canvas's font and colour as the last cell drawn set them,
        # which is what the next cell checks against. No cell of ours carries a link.
        if isinstance(cellval, str):
            if not cellval:
                return
            if (
                "\n" not in cellval
                and cellstyle.alignment in _LINE_ALIGNMENTS
                and cellstyle.valign in _LINE_VALIGNS
                and not (
                    cellstyle.href
                    or cellstyle.destination
                    or cellstyle.direction
                    or cellstyle.shaping
                )
                and pdfmetrics.getFont(cellstyle.fontname)._dynamicFont
            ):
                self._drawLineCell(cellval, cellstyle, pos, size)
                return
        elif not pdfmetrics.getFont(cellstyle.fontname)._dynamicFont:
            # A cell of flowables (they set their own fonts) would set its style's font on the
            # canvas all the same: a cell style's default, Helvetica, which no text of ours is
            # set in, would be put into the file for it. The embedded font stands in.
            cellstyle = _flowable_cell_style(cellstyle)
        super()._drawCell(cellval, cellstyle, pos, size)

    def _drawLineCell(self, cellval, cellstyle, pos, size):
        # Table._drawCell for one line of text in the middle of its cell.
        canvas = self.canv
        if self._curcellstyle is not cellstyle:
            current = self._curcellstyle
            if current is None or cellstyle.color != current.color:
                canvas.setFillColor(cellstyle.color)
            if (
                current is None
                or cellstyle.leading != current.leading
                or cellstyle.fontname != current.fontname
                or cellstyle.fontsize != current.fontsize
            ):
                canvas.setFont(cellstyle.fontname, cellstyle.fontsize, cellstyle.leading)
            self._curcellstyle = cellstyle
        colpos, rowpos = pos
        colwidth, rowheight = size
        just = cellstyle.alignment
        if just == "LEFT":
            x = colpos + cellstyle.leftPadding
        elif just == "RIGHT":
            x = colpos + colwidth - cellstyle.rightPadding
        else:
            x = colpos + (colwidth + cellstyle.leftPadding - cellstyle.rightPadding) * 0.5
        valign, leading, fontsize = cellstyle.valign, cellstyle.leading, cellstyle.fontsize
        if valign == "MIDDLE":
            y = (
                rowpos
                + (cellstyle.bottomPadding + rowheight - cellstyle.topPadding + leading) / 2.0
                - fontsize
            )
        elif valign == "BOTTOM":
            y = rowpos + cellstyle.bottomPadding + leading - fontsize
        else:
            y = rowpos + rowheight - cellstyle.topPadding - fontsize
        draw_line(canvas, x, y, cellval, just)


# The table style commands that set each cell's own style, rather than lines or backgrounds.
_CELL_COMMANDS = frozenset(
    {
        "FONT",
        "FONTNAME",
        "FACE",
        "SIZE",
        "FONTSIZE",
        "LEADING",
        "TEXTCOLOR",
        "ALIGN",
        "ALIGNMENT",
        "VALIGN",
        "LEFTPADDING",
        "RIGHTPADDING",
        "TOPPADDING",
        "BOTTOMPADDING",
    }
)


_DEFAULT_CELL = CellStyle("default")


def _cell_style_like(style: CellStyle, name: str = "") -> CellStyle:
    """A cell style of its own with the same settings (CellStyle.copy would also copy the
    `copy` method a style made from a parent carries, bound to that parent)."""
    made = CellStyle(name or style.name)
    made.__dict__.update({k: v for k, v in style.__dict__.items() if k not in ("name", "copy")})
    return made


@functools.lru_cache(maxsize=256)
def _flowable_cell_style(style: CellStyle) -> CellStyle:
    """The style of a cell of flowables, in the embedded font rather than a built-in one."""
    made = _cell_style_like(style)
    made.fontname = FONT
    return made


@functools.lru_cache(maxsize=256)
def _shared_cell_styles(
    rows: int, columns: int, commands: tuple[tuple, ...]
) -> tuple[tuple[CellStyle, ...], ...]:
    """The cell styles a table of this shape has after these cell commands, in order."""
    template = Table(
        [[""] * columns for _ in range(rows)],
        cellStyles=[
            [_cell_style_like(_DEFAULT_CELL, repr((row, column))) for column in range(columns)]
            for row in range(rows)
        ],
    )
    template.setStyle(TableStyle(list(commands)))
    return tuple(tuple(row) for row in template._cellStyles)


_LINE_ALIGNMENTS = frozenset({"LEFT", "RIGHT", "CENTER", "CENTRE"})
_LINE_VALIGNS = frozenset({"MIDDLE", "BOTTOM", "TOP"})


def _laid_out(
    story: Sequence[Flowable], paper: str, title: str, footer: str, author: str, landscape: bool
) -> tuple[bytes, int]:
    size = page_size(paper, landscape=landscape)
    buffer = io.BytesIO()

    def draw_footer(canvas, doc) -> None:
        if doc.page > PAGES_MAX:
            # Stop laying out at once: the cost of a file grows with its pages.
            raise TooManyPages()
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(colors.black)
        canvas.drawString(MARGIN, MARGIN / 2, footer)
        canvas.drawRightString(size[0] - MARGIN, MARGIN / 2, f"Page {doc.page}")
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
        # Every page starts in the embedded font: with ReportLab's Helvetica, each file carried
        # a font (and its encoding, worked out at every save) that no text of ours is set in.
        initialFontName=FONT,
    )
    try:
        document.build(list(story), onFirstPage=draw_footer, onLaterPages=draw_footer)
    except TooManyPages:
        # ReportLab prefixes the message with where it was raised; the reader needs only why.
        raise TooManyPages() from None
    return buffer.getvalue(), document.page
