"""How every page, PDF and message writes numbers, names and rule-set names.

Plain Python with no Django import, so the engine's messages, the PDF builders and the templates
(through `scorekeeper.templatetags.scorekeeper`) all write a number the same way.
"""

from __future__ import annotations

import contextvars
import datetime
import functools
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal

from .cldr_numbers import NUMBER_SYMBOLS

MINUS = "\N{MINUS SIGN}"

# The language numbers are written in (a Django language code: en, es, pt-br), for this request
# or this call on the phone; English where none is set. A context variable, so that two requests
# served at once each keep their own.
_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("written_in", default="en")


@contextmanager
def written_in(language: str) -> Iterator[None]:
    """Numbers written in this language's way inside the block: `1.990` in Portuguese."""
    token = _LANGUAGE.set(language if language in NUMBER_SYMBOLS else "en")
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def _localised(text: str) -> str:
    """Python's `1,234.5` in the current language's symbols (CLDR, cldr_numbers.py)."""
    decimal_symbol, group = NUMBER_SYMBOLS[_LANGUAGE.get()]
    if (decimal_symbol, group) == (".", ","):
        return text
    return text.translate({ord(","): group, ord("."): decimal_symbol})


# Past about 4,300 digits int -> str raises ValueError; a message must never be what fails.
_MAX_SHOWN_BITS = 9_000


def number(value: int) -> str:
    """`1,990`, `−100` (a true minus sign, not a hyphen)."""
    if value.bit_length() > _MAX_SHOWN_BITS:
        sign = MINUS if value < 0 else ""
        return f"about {sign}10^{int(value.bit_length() * 0.30103):,}"
    text = _localised(f"{abs(value):,}")
    return f"{MINUS}{text}" if value < 0 else text


# A pure function of its arguments, asked for the same figures at every view of a table (four
# a row of the standings): remembered, a repeated view skips the Decimal arithmetic. `typed`,
# because a Decimal equal to a float may round differently from the float's shortest repr.
def decimal(value: float | Decimal | int, places: int) -> str:
    """`1,234.5`, `−0.5`: a figure to `places` decimals, a half rounded away from zero as the
    page's `floatformat` did; a value that rounds to nothing reads `0.0`, never `−0.0`."""
    return _decimal(value, places, _LANGUAGE.get())


@functools.lru_cache(maxsize=8192, typed=True)
def _decimal(value: float | Decimal | int, places: int, language: str) -> str:
    # Through its shortest repr, so that 2.675 rounds as written (2.68), not as stored.
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = _localised(f"{abs(rounded):,.{places}f}")
    return f"{MINUS}{text}" if rounded < 0 else text


def percent(value: float | Decimal | int) -> str:
    """`75`, `83.3`, `100`: a percentage to one decimal, without a `.0` that says nothing."""
    text = decimal(value, 1)
    zero = NUMBER_SYMBOLS[_LANGUAGE.get()][0] + "0"
    return text[:-2] if text.endswith(zero) else text


# The pages write dates as `30 Sep 2026` (Django's "j M Y"); the chart's match them whatever the
# locale.
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_month(date: datetime.date) -> str:
    """`30 Sep`: a date within a year that is shown nearby, as a chart's axis writes it."""
    return f"{date.day} {MONTHS[date.month - 1]}"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """`1 basket`, `2 baskets`."""
    word = singular if count == 1 else (plural or singular + "s")
    return f"{number(count)} {word}"


def signed(value: int) -> str:
    """`+1,990`, `−100`, `0`: points won or lost, with their sign."""
    return f"+{number(value)}" if value > 0 else number(value)


def change(before: int, after: int) -> str:
    """`640 → 540`, or `625` when nothing changed."""
    return number(after) if before == after else f"{number(before)} → {number(after)}"


def listing(items: Iterable[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


# -- a side's name in a sentence ----------------------------------------------------------------
#
# The one place that decides whether a side's name takes a singular or a plural verb ("Ann needs",
# "Ann & Carl need") and how to say what it owns. A side is a player ("Ann") or a team, named by
# its players ("Ann & Carl", "Ann, Bob and Cy") or by a name its players chose ("Us", "Them",
# "The Smiths"). Plural: a name that joins players (`&` or `and` between two words, or a comma
# between words) and the plural pronouns Us, Them, We and They (the whole name, in any case).
# Everything else is one name and takes the singular, "The Smiths" and "Spades" included: a chosen
# name reads as a name ("The Smiths needs 90 to open"), and guessing plurals from a final s would
# make "Chris" and "Douglas" plural.

_PLURAL_NAMES = frozenset({"us", "them", "we", "they"})
# `&` or `and` as a word of its own, or a comma, with a word before and after it.
_JOINED = re.compile(
    r"\w[^\w\s]*\s+(?:&|and)\s+[^\w\s]*\w|\w[^\w\s,]*,\s*[^\w\s]*\w", re.IGNORECASE
)

# Verbs whose plural is not the singular without its final s.
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}


def plural(name: str) -> bool:
    """Whether a side's name takes a plural verb: `Ann & Carl`, `Ann and Carl`, `Ann, Bob and
    Cy`, `Us`, `Them`, `We`, `They`; never `Ann`, `Chris`, `Side 1` or `The Smiths`."""
    return name.strip().casefold() in _PLURAL_NAMES or _JOINED.search(name) is not None


def _plural_verb(singular: str) -> str:
    """`needs` -> `need`, `has reached` -> `have reached`, `went out` unchanged."""
    first, space, rest = singular.partition(" ")
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith(("sses", "shes", "ches", "xes", "zes")):
        first = first[:-2]
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return first + space + rest


def verb(name: str, singular: str, plural_form: str | None = None) -> str:
    """The verb as it agrees with a side's name: `verb("Ann", "needs")` is `needs`,
    `verb("Ann & Carl", "needs")` is `need`; `has` -> `have`, `is` -> `are`, `has reached` ->
    `have reached`, and a past tense (`went out`) stays as it is. `plural_form` names the plural
    where the singular without its s is not it."""
    if not plural(name):
        return singular
    return plural_form if plural_form is not None else _plural_verb(singular)


def says(name: str, singular: str, plural_form: str | None = None) -> str:
    """The name with its verb: `Ann needs`, `Ann & Carl need`, `Them have`."""
    return f"{name} {verb(name, singular, plural_form)}"


def owned(name: str, thing: str, *, start: bool = False) -> str:
    """`Ann's melded points`; `the melded points of Us` where `'s` reads wrong: after a name that
    ends in s (`Us's`, `Chris's`) and after a plural name (`Them's`, `Ann & Carl's`). With
    `start`, capitalised to open a sentence."""
    if name[-1:].lower() == "s" or plural(name):
        phrase = f"the {thing} of {name}"
        return phrase[0].upper() + phrase[1:] if start else phrase
    return f"{name}'s {thing}"


def rule_set_name(preset: str) -> str:
    """A rule set's name as players know it (`Four Rounds`), never its id (`four-rounds`); an
    id no longer known reads as words."""
    # Imported here: the engine's messages import this module.
    from scorekeeper.engine import RULESETS

    rules = RULESETS.get(preset)
    return rules.name if rules is not None else preset.replace("-", " ").capitalize()
