"""Players' names as the projector's cards show them: whole when they fit a card's line, else
with first names as initials ("Abigail Fairweather-Montgomery" is "A. Fairweather-Montgomery").

A name is never cut inside a word and never loses its surname: only given names become
initials, middle names first ("Mary Elizabeth Fairweather" is "Mary E. Fairweather" before it is
"M. E. Fairweather"). A name still too long for the line (one long surname) keeps its initials
and may wrap only at a space or at its surname's hyphen (static/css/projector.css).

The projector decides the line's length in letters from its grid (`projector.name_letters`);
this module decides, once per name, which form each takes. Two players whose short forms would
be the same ("A. Smith" for Ann and Alan) both keep their whole names.
"""

import unicodedata
from collections.abc import Iterable

# Words that belong to the surname after them: "Ludwig van Beethoven" is "L. van Beethoven",
# "Tomás Ó Briain" is "T. Ó Briain".
PARTICLES = frozenset(
    {
        "al", "bin", "bint", "da", "das", "de", "del", "della", "den", "der", "di", "do", "dos",
        "du", "el", "ibn", "la", "le", "mac", "mc", "ní", "nic", "ó", "st", "st.", "te", "ten",
        "ter", "ua", "van", "von",
    }
)  # fmt: skip
# Words that follow a surname and stay with it: "Sammy Davis Jr." is "S. Davis Jr.".
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


def _letter(part: str) -> str | None:
    """The first letter of a word with its accents, even when they are written as combining
    marks ("É", "Ł"); None when the word has no letter or digit."""
    for index, char in enumerate(part):
        if char.isalnum():
            end = index + 1
            while end < len(part) and unicodedata.combining(part[end]):
                end += 1
            return part[index:end]
    return None


def initial(word: str) -> str:
    """A given name as its initial: `Abigail` is `A.`, `Ana-María` is `A.-M.`; a word with no
    letter in it stays as it is."""
    letters = [_letter(part) for part in word.split("-")]
    if not all(letters):
        return word
    return "-".join(f"{letter}." for letter in letters)


def _surname_start(words: list[str]) -> int:
    """Where the surname starts: at its first particle ("van der Berg", "Ó Briain", "de la
    Cruz Fernández"), else at the last word, with any suffix after it ("Davis Jr."); never at
    the first word."""
    particle = next(
        (i for i, word in enumerate(words) if i > 0 and word.casefold() in PARTICLES), None
    )
    if particle is not None:
        return particle
    start = len(words) - 1
    while start > 1 and words[start].casefold() in SUFFIXES:
        start -= 1
    return start


def short_name(name: str, letters: int) -> str:
    """The name in at most `letters` characters where initials can make it so: whole if it
    fits, else its given names as initials, the middle ones first. A name that cannot be made
    short enough has every given name as an initial; a single word is never shortened."""
    words = name.split()
    shown = " ".join(words)
    if len(shown) <= letters or len(words) < 2:
        return shown
    start = _surname_start(words)
    # Middle names first, then the first name: "Mary E. Fairweather" keeps what it can.
    for index in [*range(start - 1, 0, -1), 0]:
        words[index] = initial(words[index])
        shown = " ".join(words)
        if len(shown) <= letters:
            break
    return shown


def shown_names(names: Iterable[str], letters: int) -> dict[str, str]:
    """Each name with the form the board shows it in (`short_name`), except that names whose
    short forms would be the same are shown whole, so nobody is taken for somebody else."""
    unique = list(dict.fromkeys(names))
    short = {name: short_name(name, letters) for name in unique}
    taken: dict[str, set[str]] = {}
    for name, form in short.items():
        taken.setdefault(form, set()).add(" ".join(name.split()))
    return {
        name: form if len(taken[form]) == 1 else " ".join(name.split())
        for name, form in short.items()
    }
