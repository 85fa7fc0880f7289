"""The public pages of a league: the list, a league, its standings and a club night, and their
printed and CSV copies (the players' pages are in `players`). Anyone may read a public or
unlisted league; a private one answers 404 to those who may not see it, so that its existence
is not revealed."""

import datetime
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from leagues import adjustment_notes as adjustments
from leagues import player_stats, selectors
from leagues.models import League
from leagues.public import csv_exports, documents
from leagues.public.lookups import (
    id_or_404,
    league_or_404,
    player_link,
    render_page,
    season_or_404,
)
from scorekeeper import engine
from scorekeeper.documents.cards import (
    PaperError,
    bad_paper,
    paper_for,
    pdf_of,
)
from scorekeeper.documents.pdf.night_pack import build_night_pack
from scorekeeper.documents.pdf.score_card import build_score_card
from scorekeeper.documents.pdf.standings import build_standings
from scorekeeper.engine.formatting import decimal, number, percent, rule_set_name

TOP_STANDINGS = 10
DEFAULT_SORT = "league_points"


def _today() -> datetime.date:
    """Today in the site's time zone: the one place these pages read the clock."""
    return timezone.localdate()


def scoring_text(league: League) -> str:
    """How a game scores in the standings, in words."""
    if league.scoring == League.Scoring.TOTAL:
        return "League points are the total points scored."
    return (
        f"Win {number(league.win_points)}, tie {number(league.tie_points)}, "
        f"loss {number(league.loss_points)}."
    )


TIE_BREAK_TEXT = (
    "Ranked by league points, then wins, then win % (a tie counts half a win), then average "
    "margin, then points for. Players level on all of these share a rank, shown as “=1”, "
    "and are listed by name."
)


MARKS = {"W": "win", "T": "tie", "L": "loss"}

# A standings row's cells, written here rather than by the template: at 200 rows, a filter and a
# variable a number took most of the page's time (bench/standings.py). Plain formatting: every
# value is a number written by scorekeeper.engine.formatting (digits, separators, a minus sign),
# one of the fixed words below or the player's address; only the name is escaped.
_ROW_CELLS = (
    '<td class="rank">{}</td><th scope="row" class="player"><a href="{}">{}</a></th>'
    '<td class="total">{}</td>' + "<td>{}</td>" * 11
)
# Beside an adjusted player's league points (the notes under the table say why).
_ADJUSTED = (
    f'<span class="adjusted" title="{adjustments.MARK_TITLE}">{{}}'
    f'<span class="adjusted-mark" aria-hidden="true">{adjustments.MARK}</span>'
    '<span class="visually-hidden"> (adjusted)</span></span>'
)
_MARKS_CELL = '<span class="marks" role="img" aria-label="{}">{}</span>'
_MARK = '<span class="mark mark-{0}">{0}</span>'


@dataclass(frozen=True)
class StandingLine:
    """A standings row as the table shows it: the row and its cells, rank to last five."""

    row: selectors.StandingRow
    cells: str


def standing_rows(
    rows: list[selectors.StandingRow],
    league: League,
    adjusted: frozenset[int] = frozenset(),
) -> list[StandingLine]:
    """Each row with its cells: rank, the player (a link to their page), the figures (the
    league points of a player in `adjusted` marked) and the last five (the W/T/L marks with
    their text alternative in words)."""
    link = player_link(league)
    return [
        StandingLine(
            row,
            # Numbers, fixed words and an address, and the name escaped: see _ROW_CELLS.
            mark_safe(
                _ROW_CELLS.format(
                    row.rank,
                    link(row.player_id),
                    escape(row.name),
                    _ADJUSTED.format(number(row.league_points))
                    if row.player_id in adjusted
                    else number(row.league_points),
                    number(row.games),
                    number(row.wins),
                    number(row.ties),
                    number(row.losses),
                    percent(row.win_pct),
                    number(row.points_for),
                    number(row.points_against),
                    decimal(row.avg_score, 1),
                    decimal(row.avg_margin, 1),
                    "–" if row.rating is None else decimal(row.rating, 1),
                    _marks(row.last_five),
                )
            ),
        )
        for row in rows
    ]


def _marks(last_five: str) -> str:
    if not last_five:
        return "–"
    words = ", ".join(MARKS[mark] for mark in last_five).capitalize() + ", newest first"
    return _MARKS_CELL.format(words, "".join(_MARK.format(mark) for mark in last_five))


def standings_columns(sort: str | None, order: str | None) -> list[dict]:
    """The sortable columns: label, whether sorted (and how, for aria-sort), the next order."""
    columns = []
    for key, label in selectors.SORTS.items():
        if key == sort:
            aria_sort = "descending" if order == "desc" else "ascending"
            # A second click on the sorted column turns it round.
            next_order = "asc" if order == "desc" else "desc"
        else:
            # A new column starts at its natural order: names A to Z, numbers highest first.
            aria_sort, next_order = "", "asc" if key == "name" else "desc"
        columns.append(
            {"key": key, "label": label, "aria_sort": aria_sort, "next_order": next_order}
        )
    return columns


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    leagues = list(player_stats.leagues_listed(request.user))
    rows = [(league, rule_set_name(league.preset)) for league in leagues]
    return render(request, "leagues/league_list.html", {"rows": rows})


@require_GET
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league, organiser = league_or_404(request, slug)
    seasons = player_stats.league_seasons(league)
    season = player_stats.current_season(seasons, _today())
    table = selectors.standings(league, season) if season is not None else []
    notes = adjustments.notes_of(
        selectors.adjustments(league, season) if season is not None else [], all_time=False
    )
    # The season in play plays by the rules it froze, and its blank sheet prints them: those
    # are the page's rule set. The league's own, if changed since, are for the next season.
    rules = season.rules if season is not None else league.rules_spec
    context = {
        "league": league,
        "is_organiser": organiser,
        "ruleset": rule_set_name(rules["base"]),
        "rules": rules,
        "next_rules": (
            league.rules_spec
            if engine.resolve_rules(rules) != engine.resolve_rules(league.rules_spec)
            else None
        ),
        "next_ruleset": rule_set_name(league.preset),
        "scoring_text": scoring_text(league),
        "seasons": seasons,
        "season": season,
        "rows": standing_rows(table[:TOP_STANDINGS], league, notes.players),
        "adjustment_notes": notes,
        "columns": standings_columns(None, None),
        "more_rows": len(table) > TOP_STANDINGS,
        "nights": list(player_stats.recent_nights(league)),
    }
    return render(request, "leagues/league_detail.html", context)


def _standings_page(
    request: HttpRequest, league: League, organiser: bool, season_id: int | None
) -> HttpResponse:
    seasons = player_stats.league_seasons(league)
    season = season_or_404(seasons, season_id) if season_id is not None else None
    sort = request.GET.get("sort", DEFAULT_SORT)
    if sort not in selectors.SORTS:
        sort = DEFAULT_SORT
    order = request.GET.get("order")
    if order not in ("asc", "desc"):
        order = "asc" if sort == "name" else "desc"
    rows = selectors.standings(league, season, sort=sort, descending=order == "desc")
    notes = adjustments.notes_of(selectors.adjustments(league, season), all_time=season is None)
    context = {
        "league": league,
        "is_organiser": organiser,
        "season": season,
        "seasons": seasons,
        "rows": standing_rows(rows, league, notes.players),
        "adjustment_notes": notes,
        "columns": standings_columns(sort, order),
        "sortable": True,
        "caption": (
            f"Standings sorted by {selectors.SORTS[sort].lower()}, "
            f"{'highest' if order == 'desc' else 'lowest'} first"
            if sort != "name"
            else f"Standings sorted by name, {'A to Z' if order == 'asc' else 'Z to A'}"
        ),
        "tie_break_text": TIE_BREAK_TEXT,
        "scoring_text": scoring_text(league),
    }
    return render_page(request, "leagues/standings.html", context, "table")


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    league, organiser = league_or_404(request, slug)
    return _standings_page(request, league, organiser, None)


@require_GET
def season_standings(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league, organiser = league_or_404(request, slug)
    return _standings_page(request, league, organiser, season_id)


@require_GET
def night_detail(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    league, organiser = league_or_404(request, slug)
    night = player_stats.night_get(league, id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    view = player_stats.night_view(night)
    context = {
        "league": league,
        "is_organiser": organiser,
        "night": night,
        "view": view,
        # Refresh while games run or the night is on; a closed or an old night's page stays
        # still.
        "polling": night.closed_at is None and (view.in_progress or night.date == _today()),
        # The round timer's controls say whether it is still running or has run out.
        "timer_out": night.timer_ends_at is not None and night.timer_ends_at <= timezone.now(),
    }
    return render_page(request, "leagues/night_detail.html", context, "results")


# Printable PDFs: the same visibility as the pages; a bad `?paper=` answers 400 naming it.


def _standings_pdf(request: HttpRequest, league: League, season_id: int | None) -> HttpResponse:
    season = (
        season_or_404(player_stats.league_seasons(league), season_id)
        if season_id is not None
        else None
    )
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    sheet = documents.standings_sheet(
        league,
        season,
        selectors.standings(league, season),
        adjustments.notes_of(selectors.adjustments(league, season), all_time=season is None),
        printed_on=_today(),
        scoring=scoring_text(league),
        tie_break=TIE_BREAK_TEXT,
    )
    return pdf_of(
        sheet,
        build_standings,
        documents.standings_file_stem(league, season),
        kind="standings",
        paper=paper,
    )


@require_GET
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The all-time standings as a PDF, in the page's default order."""
    league, _ = league_or_404(request, slug)
    return _standings_pdf(request, league, None)


@require_GET
def season_standings_pdf(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's standings as a PDF, in the page's default order."""
    league, _ = league_or_404(request, slug)
    return _standings_pdf(request, league, season_id)


@require_GET
def night_pack(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """The club night's pack: the seating, then a blank sheet with a QR code per table."""
    league, organiser = league_or_404(request, slug)
    night = player_stats.night_get(league, id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    pack = documents.night_pack(
        league, night, organiser=organiser, absolute_url=request.build_absolute_uri
    )
    return pdf_of(
        pack,
        build_night_pack,
        documents.night_pack_file_stem(league, night),
        kind="night-pack",
        paper=paper,
    )


@require_GET
def score_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """A blank score sheet with the rules of the league's current season."""
    league, _ = league_or_404(request, slug)
    season = player_stats.current_season(player_stats.league_seasons(league), _today())
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    card = documents.league_score_card(league, season)
    return pdf_of(
        card,
        build_score_card,
        documents.score_sheet_file_stem(league, season),
        kind="league-sheet",
        paper=paper,
    )


# CSV downloads: the same visibility as the pages.


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The all-time standings as CSV, in the page's default order."""
    league, _ = league_or_404(request, slug)
    return csv_exports.standings_csv(
        league, None, selectors.standings(league, None), selectors.adjustments(league, None)
    )


@require_GET
def season_standings_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's standings as CSV, in the page's default order."""
    league, _ = league_or_404(request, slug)
    season = season_or_404(player_stats.league_seasons(league), season_id)
    return csv_exports.standings_csv(
        league, season, selectors.standings(league, season), selectors.adjustments(league, season)
    )


@require_GET
def season_games_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's games as CSV, one row a game, oldest first."""
    league, _ = league_or_404(request, slug)
    season = season_or_404(player_stats.league_seasons(league), season_id)
    return csv_exports.season_games_csv(league, season, request.build_absolute_uri)
