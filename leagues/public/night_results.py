"""A club night's results: a page and a PDF the organiser prints or shares by its link, with the
night page's visibility."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from leagues import player_stats
from leagues.models import ClubNight, League
from leagues.night_results import Move, NightResults, TableResult, night_results
from leagues.public.lookups import id_or_404, league_or_404
from leagues.public.views import scoring_text
from scorekeeper.documents.cards import PaperError, bad_paper, file_stem, paper_for, pdf_of
from scorekeeper.documents.pdf.night_results import (
    NightResultsSheet,
    ResultTable,
    build_night_results,
)
from scorekeeper.engine.formatting import number, signed


def move_text(move: Move) -> str:
    """`up 2`, `down 1`, `same` or `new` (a first game): a player's move in the standings."""
    if move.before is None:
        return "new"
    if move.places > 0:
        return f"up {number(move.places)}"
    if move.places < 0:
        return f"down {number(-move.places)}"
    return "same"


def table_note(table: TableResult) -> str:
    """`a tie after 4 rounds`, `voided`: what a table's line says besides its totals."""
    rounds = f"{number(table.rounds)} round{'s' if table.rounds != 1 else ''}"
    return {
        "finished": f"after {rounds}",
        "tie": f"a tie after {rounds}",
        "voided": "voided",
        "playing": f"still playing, {rounds} played",
        "not started": "not started",
    }[table.state]


def best_lines(results: NightResults) -> tuple[str, ...]:
    """`Highest total: Ann & Bob, 3,250 at table 2.`, and the widest win."""
    lines = []
    if results.highest is not None:
        best = results.highest
        lines.append(f"Highest total: {best.names}, {number(best.points)} at table {best.table}.")
    if results.widest is not None and results.widest.points > 0:
        best = results.widest
        lines.append(f"Widest win: {best.names}, by {number(best.points)} at table {best.table}.")
    return tuple(lines)


def _night(request: HttpRequest, slug: str, night_id: int) -> tuple[League, bool, ClubNight]:
    league, organiser = league_or_404(request, slug)
    night = player_stats.night_get(league, id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    return league, organiser, night


def _title(night: ClubNight) -> str:
    return f"Club night, {night.date:%A} {night.date.day} {night.date:%B %Y}"


@require_GET
def night_results_page(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """The night's results: each table, the night's best, the standings' moves."""
    league, organiser, night = _night(request, slug, night_id)
    results = night_results(league, night)
    context = {
        "league": league,
        "is_organiser": organiser,
        "night": night,
        "title": _title(night),
        "tables": [(table, table_note(table)) for table in results.tables],
        "best": best_lines(results),
        "moves": [(move, move_text(move), signed(move.gained)) for move in results.moves],
        "results": results,
        "scoring_text": scoring_text(league),
    }
    return render(request, "leagues/night_results.html", context)


@require_GET
def night_results_pdf(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """The night's results as a PDF."""
    league, _, night = _night(request, slug, night_id)
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    results = night_results(league, night)
    sheet = NightResultsSheet(
        league=league.name,
        title=_title(night),
        season=night.season.name,
        tables=tuple(
            ResultTable(
                table.number,
                tuple(
                    (side.names, "" if side.total is None else number(side.total), side.won)
                    for side in table.sides
                ),
                table_note(table),
            )
            for table in results.tables
        ),
        best=best_lines(results),
        moves=tuple(
            (m.after, m.name, m.before or "", move_text(m), signed(m.gained)) for m in results.moves
        ),
        scoring=scoring_text(league),
    )
    stem = file_stem(league.name, f"night {night.date:%Y-%m-%d}", "results")
    return pdf_of(sheet, build_night_results, stem, kind="night-results", paper=paper)
