"""Names in narrow places (a column's heading, a signature's caption, a page's footer): broken
into lines only at spaces and after a hyphen, never inside a word, and never wider than their
room.

A name that does not fit in its few lines is shortened the way a person would shorten it, first
names to their initials ("A. Oyelaran-Williams"), and set a little smaller if need be; the card
prints the full names elsewhere (its title, its Players line or its seats).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from scorekeeper.documents.pdf.base import unbroken
from scorekeeper.engine.formatting import listing

# The smallest size a name is set in before it may not fit its lines: still legible on a
# cheap laser printer.
SMALLEST = 6.0
STEP = 0.5
# Names side by side are set in one size down to this one (see `fit_all`).
UNIFORM = 7.0
# A line may come this close to its room: the paragraph that draws it adds its words' widths
# up in another order.
SLACK = 0.01
# Hyphen-minus and the hyphen: a line may end after either.
HYPHENS = "-\u2010"
# The ways a team's name joins its players: "Ann & Bob", "Ann, Bob & Cy", "Ann and Bob".
_JOINS = re.compile(r"(\s+(?:&|and)\s+|,\s+)")
_AFTER_HYPHEN = re.compile(f"(?<=[{HYPHENS}])(?=[^{HYPHENS}])")
# `A.`, `J.-L.`: an initial stays on the line of the name it stands before.
_INITIAL = re.compile(rf"\w\.(?:[{HYPHENS}]\w\.)*")


def pieces(value: str) -> list[tuple[str, bool]]:
    """The parts of `value` a line may end after, each with whether a space comes before it:
    `Oyelaran-` and `Williams` (no space); an initial and the first part of the next word are
    one part, `O. Oyelaran-`."""
    found: list[tuple[str, bool]] = []
    glued = False
    for word in value.split():
        initial = _INITIAL.fullmatch(word) is not None
        for index, part in enumerate([word] if initial else _AFTER_HYPHEN.split(word)):
            if glued and index == 0:
                found[-1] = (f"{found[-1][0]} {part}", found[-1][1])
            else:
                found.append((part, index == 0))
        glued = initial
    return found


@functools.lru_cache(maxsize=8192)
def lines(value: str, font: str, size: float, room: float) -> tuple[str, ...] | None:
    """`value` in as few lines as fit `room` points, each line filled as far as it goes and
    ended only at a space or after a hyphen; None when a part (see `pieces`) is wider than the
    room on its own."""
    done: list[str] = []
    line = ""
    for part, spaced in pieces(value):
        if stringWidth(part, font, size) > room - SLACK:
            return None
        joined = part if not line else line + (" " if spaced else "") + part
        if stringWidth(joined, font, size) <= room - SLACK:
            line = joined
        else:
            done.append(line)
            line = part
    if line:
        done.append(line)
    return tuple(done)


def _initial(word: str) -> str:
    """`A.` for `Abigail`, `J.-L.` for `Jean-Luc`; a particle (`van`, `de`) and an initial
    already made stay as they are."""
    if not word[:1].isupper() or word.endswith("."):
        return word
    return "-".join(f"{part[0]}." for part in re.split(f"[{HYPHENS}]", word) if part)


def initialed(person: str) -> str:
    """A person's name with every first name an initial: `A. Fairweather-Montgomery`; a name
    of one word stays whole."""
    words = person.split()
    if len(words) < 2:
        return person
    return " ".join([*(_initial(word) for word in words[:-1]), words[-1]])


def named_after(name: str, players: Sequence[str]) -> bool:
    """Whether a side's name only joins its players' names: `Ann & Bob`, `Ann, Bob and Cy`,
    or a player's own name."""
    if not players:
        return False
    joined = {" & ".join(players), listing(players), listing(players, "&"), ", ".join(players)}
    return name in joined


def short_name(name: str, players: Sequence[str] = ()) -> str:
    """A side's name with its people's first names as initials: `A. Fairweather-Montgomery &
    O. Oyelaran-Williams`. A name of the side's own choosing (`The Card Sharks`) has no
    shorter form: it is returned as it is."""
    if players and not named_after(name, players):
        return name
    if players and len(players) > 1:
        # Each player's name shortened where it stands in the team's name.
        return "".join(
            part if _JOINS.fullmatch(part) else initialed(part) for part in _JOINS.split(name)
        )
    return initialed(name)


@dataclass(frozen=True)
class Fit:
    """A text as it fits its room: its lines, their font size, and whether it is the text's
    first (fullest) form."""

    lines: tuple[str, ...]
    size: float
    whole: bool

    def one_line(self, paragraph_style: ParagraphStyle) -> bool:
        """Whether it is one line in the style's own size: a string, drawn as any other."""
        return len(self.lines) <= 1 and self.size == paragraph_style.fontSize

    def paragraph(self, paragraph_style: ParagraphStyle) -> Paragraph:
        """Its lines as a paragraph in the style at its size, broken where it was measured."""
        return Paragraph(
            "<br/>".join(escape(line) for line in self.lines),
            unbroken(paragraph_style, self.size),
        )


def fit_all(
    names: Sequence[tuple[str, ...]], paragraph_style: ParagraphStyle, room: float, most_lines: int
) -> list[Fit]:
    """Names side by side (a row of headings), each fitted to `room` (see `fit`) and all set
    in the size the smallest needs, so that the row reads as one; but a name that needs a
    size smaller than UNIFORM (a long word in a narrow column) is set small on its own."""
    font, size = paragraph_style.fontName, paragraph_style.fontSize
    found = [fit(forms, font, size, room, most_lines) for forms in names]
    smallest = min((each.size for each in found if each.size >= UNIFORM), default=size)
    return [
        fit(forms, font, smallest, room, most_lines) if each.size > smallest else each
        for forms, each in zip(names, found, strict=True)
    ]


def name_cell(found: Fit, paragraph_style: ParagraphStyle) -> str | Paragraph:
    """A table cell of a fitted name: the string where it is one line at the style's size,
    else its paragraph."""
    if found.one_line(paragraph_style):
        return "".join(found.lines)
    return found.paragraph(paragraph_style)


@functools.lru_cache(maxsize=4096)
def fit(forms: tuple[str, ...], font: str, size: float, room: float, most_lines: int) -> Fit:
    """The first of `forms` (fullest first) that fits `room` in at most `most_lines` lines,
    at `size` or a step smaller down to SMALLEST: every form at one size before a smaller
    size. Where none does, the one in the fewest lines; where a word is wider than the room
    even at SMALLEST, the form that shrinks least, set as small as its widest part needs."""
    fewest: Fit | None = None
    sizes = [size]
    while sizes[-1] - STEP >= SMALLEST:
        sizes.append(sizes[-1] - STEP)
    for at in sizes:
        for index, form in enumerate(forms):
            found = lines(form, font, at, room)
            if found is None:
                continue
            if len(found) <= most_lines:
                return Fit(found, at, index == 0)
            if fewest is None or len(found) < len(fewest.lines):
                fewest = Fit(found, at, index == 0)
    if fewest is not None:
        return fewest

    # A word wider than the room even at SMALLEST: the form that needs the least shrinking,
    # set as small as its widest part needs (rounded down to a tenth of a point).
    def needed(form: str) -> float:
        widest = max((stringWidth(part, font, 1) for part, _ in pieces(form)), default=1)
        return max(int((room - SLACK) / widest * 10) / 10, 0.1)

    index = max(range(len(forms)), key=lambda index: (needed(forms[index]), -index))
    at = min(needed(forms[index]), size)
    return Fit(lines(forms[index], font, at, room) or (forms[index],), at, index == 0)
