"""A club night's results: a page and a PDF the organiser prints or shares by its link, with the
night page's visibility."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from leagues import player_stats
from leagues.models import ClubNight, League
from leagues.night_results import (
    best_lines,
    in_words,
    move_text,
    night_results,
    results_addresses,
    results_sent,
    table_note,
)
from leagues.public.lookups import id_or_404, league_or_404
from leagues.public.views import scoring_text
from scorekeeper.documents.cards import PaperError, bad_paper, file_stem, paper_for, pdf_of
from scorekeeper.documents.pdf.night_results import (
    NightResultsSheet,
    ResultTable,
    build_night_results,
)
from scorekeeper.engine.formatting import number, signed


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
        **in_words(results),
        "results": results,
        "scoring_text": scoring_text(league),
    }
    if organiser:
        context["addresses"] = len(results_addresses(night))
        context["sent"] = results_sent(night)
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
