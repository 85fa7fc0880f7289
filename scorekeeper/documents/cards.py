"""The boundary between the web app and the PDF builders: paper size, file names, responses,
and a game's models turned into the plain data of a score card."""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils import timezone
from django.utils.text import slugify

from scorekeeper import engine
from scorekeeper.documents.cache import content_version, pdf_cached
from scorekeeper.documents.pdf.base import PAPER, PAPER_NAMES, PdfError
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.engine.seating import dealing_order
from scorekeeper.games.scoring import status_for
from scorekeeper.models import Game, Side
from scorekeeper.portable import start_fields

# Regions whose printers take US Letter; everyone else prints on A4.
LETTER_REGIONS = frozenset(
    {"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "PR", "SV", "NI", "BZ"}
)
# Letters that Unicode does not decompose into a base letter and an accent, so that a file name
# keeps Łukasz and Søren readable: `lukasz`, `soren`.
_TRANSLITERATE = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "Đ": "D",
        "đ": "d",
        "Ð": "D",
        "ð": "d",
        "Þ": "Th",
        "þ": "th",
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "ı": "i",
    }
)
FILE_STEM_MAX = 120


# The widest blank sheet still leaves room to write a score in each column: a table's most.
SHEET_SIDES_MAX = engine.TABLE_SIDES_MAX


class PaperError(ValueError):
    """The `paper` field holds something other than a4 or letter."""


class SheetError(ValueError):
    """A blank sheet was asked for with house rules or a number of sides that cannot be."""


def paper_from_locale(accept_language: str) -> str:
    """`letter` where the browser's first language names a Letter region (en-US, es-MX), else
    `a4`; no header at all means the site's own language (en-us)."""
    tags = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if tag and tag != "*":
            tags.append((-quality, position, tag))
    if not tags:
        return "letter"
    _, _, first = min(tags)
    region = first.replace("_", "-").split("-")[1:2]
    return "letter" if region and region[0].upper() in LETTER_REGIONS else "a4"


def paper_for(request: HttpRequest) -> str:
    """The paper the user chose (`?paper=a4|letter`), or the one their locale uses."""
    chosen = request.GET.get("paper")
    if chosen is None or chosen == "":
        return paper_from_locale(request.headers.get("Accept-Language", ""))
    if chosen not in PAPER:
        shown = chosen if len(chosen) <= 40 else chosen[:40] + "…"
        raise PaperError(f"paper: {shown!r} is not a paper size we print on; choose a4 or letter.")
    return chosen


def paper_choices(request: HttpRequest) -> list[tuple[str, str, bool]]:
    """(value, name, is the default here) for each paper size, the locale's default first."""
    default = paper_from_locale(request.headers.get("Accept-Language", ""))
    ordered = sorted(PAPER, key=lambda paper: paper != default)
    return [(paper, PAPER_NAMES[paper], paper == default) for paper in ordered]


def bad_paper(error: PaperError) -> HttpResponse:
    return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")


def file_stem(*parts: str) -> str:
    """`2026-11-21-ann-vs-bob-score-card`: the parts as one readable ASCII slug."""
    words = [slugify(part.translate(_TRANSLITERATE)) for part in parts]
    stem = "-".join(word for word in words if word)
    return stem[:FILE_STEM_MAX].rstrip("-") or "document"


def pdf_response(data: bytes, stem: str) -> FileResponse:
    """A finished PDF as a download named `<stem>.pdf`."""
    response = FileResponse(
        io.BytesIO(data), as_attachment=True, filename=f"{stem}.pdf", content_type="application/pdf"
    )
    # A score card changes with every round: never serve yesterday's copy.
    response["Cache-Control"] = "no-store"
    return response


def pdf_download(
    build: Callable[[], bytes], stem: str, *, kind: str, version: str, paper: str
) -> HttpResponse:
    """The PDF `build` makes as a download (kept in the cache under its kind, version and
    paper), or a 400 page saying why it cannot be printed (too many pages): input must never
    cost a 500 or seconds of CPU."""
    try:
        data = pdf_cached(kind, version, paper, build)
    except PdfError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    return pdf_response(data, stem)


def pdf_of(
    data: Any, build: Callable[..., bytes], stem: str, *, kind: str, paper: str
) -> HttpResponse:
    """The download of `build(data, paper=paper)`, kept in the cache under a digest of `data`:
    for documents whose data has no version of its own."""
    return pdf_download(
        lambda: build(data, paper=paper),
        stem,
        kind=kind,
        version=content_version(data),
        paper=paper,
    )


def dealers_for(sides: Sequence[CardSide], first_dealer: int, rounds: int) -> tuple[str, ...]:
    """Who deals each of the first `rounds` rounds: the deal passes left round by round."""
    order = dealing_order([len(side.players) for side in sides])
    names = [(sides[index].players or (sides[index].name,))[place] for index, place in order]
    return tuple(names[(first_dealer + n) % len(names)] for n in range(rounds))


def card_sides(sides: Iterable[Side]) -> tuple[CardSide, ...]:
    """A game's sides as the columns of a score sheet."""
    return tuple(CardSide(side.name, tuple(side.players)) for side in sides)


def game_date(game: Game) -> datetime.date:
    """The day the game was played: its club night's date, else the day it started."""
    league_game = getattr(game, "league_game", None)
    if league_game is not None:
        return league_game.date
    return timezone.localdate(game.created_at)


def league_details(game: Game) -> tuple[tuple[str, str], ...]:
    """League, season and club night of a league game; nothing for a kitchen-table game.

    The league app hangs its LeagueGame on the game; scorekeeper reads it by the reverse
    accessor and never imports leagues."""
    league_game = getattr(game, "league_game", None)
    if league_game is None:
        return ()
    details = [("League", league_game.league.name), ("Season", league_game.season.name)]
    if league_game.night_id:
        day = league_game.night.date
        details.append(("Club night", f"{day.day} {day:%B %Y}, table {league_game.table}"))
    if league_game.voided:
        details.append(("Voided", league_game.void_reason))
    return tuple(details)


def game_score_card(game: Game) -> ScoreCard:
    """A game's score card from what the game page shows: its rounds, scored by the engine."""
    sides = list(game.sides.all())
    rounds = list(game.rounds.all())
    status: engine.GameStatus = status_for(game, sides, rounds)
    rules = status.rules
    card_sides_ = card_sides(sides)
    shown_rounds = len(rounds) + (0 if game.finished else 2)
    if rules.rounds:
        shown_rounds = max(shown_rounds, rules.rounds)
    return ScoreCard(
        rules=rules,
        sides=card_sides_,
        status=status,
        date=game_date(game),
        details=league_details(game),
        dealers=dealers_for(card_sides_, game.first_dealer, shown_rounds),
        house_rules=bool(game.house_rules),
    )


def game_file_stem(game: Game, sides: Sequence[Side], what: str = "score card") -> str:
    """`2026-11-21-ann-vs-bob-score-card`."""
    names = " vs ".join(side.name for side in sides)
    return file_stem(game_date(game).isoformat(), names, what)


def blank_sheet_request(
    base: engine.RuleSet, data: Mapping[str, str]
) -> tuple[engine.RuleSet, int]:
    """The rules (a preset, or house rules given as the start form's `rule-...` fields) and
    the number of columns (`sides`) of a blank sheet."""
    try:
        rules = engine.table_rules(
            {"base": base.id, "overrides": start_fields.overrides_from(base, data)}
        )
    except engine.RoundError as error:
        raise SheetError(
            "\n".join(f"{_field(problem.path)}: {problem.message}" for problem in error.errors)
        ) from None
    most = min(rules.max_sides or SHEET_SIDES_MAX, SHEET_SIDES_MAX)
    raw = data.get("sides", "")
    if raw == "":
        return rules, rules.min_sides
    if not re.fullmatch(r"[0-9]{1,3}", raw) or not rules.min_sides <= int(raw) <= most:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        allowed = (
            f"{most}"
            if rules.min_sides == most
            else f"a whole number from {rules.min_sides} to {most}"
        )
        raise SheetError(
            f"sides: {shown!r} columns cannot be printed for {rule_set_name(rules.id)}; "
            f"give {allowed}."
        )
    return rules, int(raw)


def _field(path: str) -> str:
    """The start form's field for an engine path: rules.overrides.canasta_bonus.natural is
    rule-canasta_bonus-natural."""
    if path.startswith("rules.overrides."):
        return "rule-" + path.removeprefix("rules.overrides.").replace(".", "-")
    return path or "rules"
