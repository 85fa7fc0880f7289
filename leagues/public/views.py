"""The public pages of a league: the list, a league, its standings, head to head, a player and a
club night. Anyone may read a public or unlisted league; a private one answers 404 to those who
may not see it, so that its existence is not revealed."""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from leagues import player_stats, rivalry, selectors
from leagues.access import is_member, is_organiser
from leagues.models import League, Season
from leagues.public import csv_exports, documents
from scorekeeper.documents.cards import (
    PaperError,
    bad_paper,
    paper_for,
    pdf_download,
)
from scorekeeper.documents.pdf.night_pack import build_night_pack
from scorekeeper.documents.pdf.score_card import build_score_card
from scorekeeper.documents.pdf.standings import build_standings
from scorekeeper.engine.formatting import decimal, number, owned, percent, rule_set_name

TOP_STANDINGS = 10
DEFAULT_SORT = "league_points"
# Ids are 64-bit; a longer number in the address would overflow the database driver.
MAX_ID = 2**63 - 1


def _league_or_404(request: HttpRequest, slug: str) -> tuple[League, bool]:
    """The league and whether the viewer organises it; 404 when they may not see it."""
    league = player_stats.league_get(slug)
    if league is None:
        raise Http404("No such league")
    organiser = is_organiser(request.user, league)
    if (
        league.visibility == League.Visibility.PRIVATE
        and not organiser
        and not is_member(request.user, league)
    ):
        raise Http404("No such league")
    return league, organiser


def _id_or_404(value: int) -> int:
    if not 0 < value <= MAX_ID:
        raise Http404("No such page")
    return value


def _fragment_asked(request: HttpRequest) -> bool:
    # htmx asks for the fragment; a history restore after a cache miss needs the whole page.
    return bool(request.htmx) and not request.htmx.history_restore_request


def _render(
    request: HttpRequest, template: str, context: dict, partial: str | None = None
) -> HttpResponse:
    if partial and _fragment_asked(request):
        template += f"#{partial}"
    response = render(request, template, context)
    # The same URL answers a page or a fragment, so caches must key on the header.
    patch_vary_headers(response, ["HX-Request"])
    return response


def _today() -> datetime.date:
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
_MARKS_CELL = '<span class="marks" role="img" aria-label="{}">{}</span>'
_MARK = '<span class="mark mark-{0}">{0}</span>'


@dataclass(frozen=True)
class StandingLine:
    """A standings row as the table shows it: the row and its cells, rank to last five."""

    row: selectors.StandingRow
    cells: str


def standing_rows(rows: list[selectors.StandingRow], league: League) -> list[StandingLine]:
    """Each row with its cells: rank, the player (a link to their page), the figures and the
    last five (the W/T/L marks with their text alternative in words)."""
    link = _player_link(league)
    return [
        StandingLine(
            row,
            # Numbers, fixed words and an address, and the name escaped: see _ROW_CELLS.
            mark_safe(
                _ROW_CELLS.format(
                    row.rank,
                    link(row.player_id),
                    escape(row.name),
                    number(row.league_points),
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


def _number_cells(*figures: str) -> str:
    """`<td class="num">` cells of figures written by scorekeeper.engine.formatting (nothing to
    escape), for tables of hundreds of rows (see _ROW_CELLS)."""
    return mark_safe("".join(f'<td class="num">{figure}</td>' for figure in figures))


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
    league, organiser = _league_or_404(request, slug)
    seasons = player_stats.league_seasons(league)
    season = player_stats.current_season(seasons, _today())
    table = selectors.standings(league, season) if season is not None else []
    context = {
        "league": league,
        "is_organiser": organiser,
        "ruleset": rule_set_name(league.preset),
        "scoring_text": scoring_text(league),
        "seasons": seasons,
        "season": season,
        "rows": standing_rows(table[:TOP_STANDINGS], league),
        "columns": standings_columns(None, None),
        "more_rows": len(table) > TOP_STANDINGS,
        "nights": list(player_stats.recent_nights(league)),
    }
    return render(request, "leagues/league_detail.html", context)


def _season_or_404(seasons: list[Season], season_id: int) -> Season:
    # Picked from the list the season switcher shows anyway, which saves a query.
    season = next((s for s in seasons if s.pk == season_id), None)
    if season is None:
        raise Http404("No such season")
    return season


def _standings_page(
    request: HttpRequest, league: League, organiser: bool, season_id: int | None
) -> HttpResponse:
    seasons = player_stats.league_seasons(league)
    season = _season_or_404(seasons, season_id) if season_id is not None else None
    sort = request.GET.get("sort", DEFAULT_SORT)
    if sort not in selectors.SORTS:
        sort = DEFAULT_SORT
    order = request.GET.get("order")
    if order not in ("asc", "desc"):
        order = "asc" if sort == "name" else "desc"
    rows = selectors.standings(league, season, sort=sort, descending=order == "desc")
    context = {
        "league": league,
        "is_organiser": organiser,
        "season": season,
        "seasons": seasons,
        "rows": standing_rows(rows, league),
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
    return _render(request, "leagues/standings.html", context, "table")


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    league, organiser = _league_or_404(request, slug)
    return _standings_page(request, league, organiser, None)


@require_GET
def season_standings(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league, organiser = _league_or_404(request, slug)
    return _standings_page(request, league, organiser, season_id)


def _link(name: str, *args: object) -> Callable[[object], str]:
    """The address of a page from its last argument, reversed once: at 200 rows, a `{% url %}`
    a row took more of the page's time than its queries did (bench/head_to_head.py)."""
    marker = 1234567
    head, tail = reverse(name, args=[*args, marker]).rsplit(str(marker), 1)
    return lambda last: f"{head}{last}{tail}"


def _player_link(league: League) -> Callable[[int], str]:
    """The address of a player's page in the league from their id."""
    return _link("leagues:player", league.slug)


@require_GET
def head_to_head(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """One player's record against everyone they met in a season (?player=, sortable); with no
    player chosen, the chooser, and the whole matrix when the season is small."""
    league, organiser = _league_or_404(request, slug)
    seasons = player_stats.league_seasons(league)
    season = _season_or_404(seasons, season_id)
    players = selectors.season_players(league, season)

    def member_name(player_id: int) -> str | None:
        membership = player_stats.membership_get(league, player_id)
        return membership.player.name if membership is not None else None

    choice = rivalry.choose(request.GET.get("player"), players, season.name, member_name)
    sort, order = rivalry.sort_order(request.GET.get("sort"), request.GET.get("order"))
    context = {
        "league": league,
        "is_organiser": organiser,
        "season": season,
        "seasons": seasons,
        "players": players,
        "choice": choice,
        "small": len(players) <= rivalry.MATRIX_MAX,
    }
    if choice.player_id is not None:
        meetings = selectors.opponents(league, choice.player_id, season)
        # The sort links' fragment is the record alone: no partners to read for it.
        partners = (
            selectors.partners(league, choice.player_id, season)
            if league.play == League.Play.TEAMS and not _fragment_asked(request)
            else []
        )
        link = _player_link(league)
        context |= {
            "record": [
                (meeting, link(meeting.other_id))
                for meeting in selectors.sort_meetings(meetings, sort, order == "desc")
            ],
            "rivals": rivalry.rivals_text(selectors.rivals(meetings)),
            "columns": rivalry.record_columns(sort, order),
            "caption": rivalry.record_caption(choice.name, sort, order),
            "player_page": owned(choice.name, "player page", start=True),
            "partners": [(meeting, link(meeting.other_id)) for meeting in partners],
            "query": urlencode({"player": choice.player_id, "sort": sort, "order": order}),
        }
    elif context["small"]:
        matrix = selectors.head_to_head(league, season)
        context |= {
            "matrix_players": matrix.players,
            "rows": [
                (player_id, name, list(zip(matrix.players, matrix.row(player_id), strict=True)))
                for player_id, name in matrix.players
            ],
            "ties": any(cell.ties for cell in matrix.cells.values()),
        }
    return _render(request, "leagues/head_to_head.html", context, "record")


@require_GET
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league, organiser = _league_or_404(request, slug)
    membership = player_stats.membership_get(league, _id_or_404(player_id))
    if membership is None:
        raise Http404("No such player in this league")
    # Reversed once for the page's rows (partners, opponents, games).
    link, night_link = _player_link(league), _link("leagues:night", league.slug)
    game_link = _link("game_detail")
    game_count = player_stats.player_game_count(league, player_id)
    # The results a page at a time, newest first (?page=2: the ten before); the partners and
    # opponents met most, or all of them (?meetings=all).
    limit = player_stats.HISTORY_LIMIT
    pages = max(1, -(-game_count // limit))
    page = _page_or_404(request.GET.get("page"), pages)
    everyone = request.GET.get("meetings") == "all"
    record = player_stats.player_record(
        league, player_id, shown=None if everyone else player_stats.MEETINGS_SHOWN
    )
    history = player_stats.player_history(league, player_id, limit, page)
    first = (page - 1) * limit + 1
    context = {
        "league": league,
        "is_organiser": organiser,
        "membership": membership,
        "player": membership.player,
        "rating": membership.rating if membership.rated_games else None,
        "history": [
            (row, night_link(row.league_game.night_id), game_link(row.league_game.game.public_id))
            for row in history
        ],
        "game_count": game_count,
        "page": page,
        "first_shown": first,
        "last_shown": first + len(history) - 1,
        "newer_url": _page_url(request.path, page - 1) if page > 1 else "",
        "older_url": _page_url(request.path, page + 1) if page < pages else "",
        "by_ruleset": record.by_ruleset,
        "chart": record.chart,
        "partners": [
            (m, link(m.other_id), _number_cells(number(m.games), percent(m.win_pct)))
            for m in record.partners
        ],
        "opponents": [
            (
                m,
                link(m.other_id),
                _number_cells(*(number(n) for n in (m.games, m.wins, m.ties, m.losses))),
            )
            for m in record.opponents
        ],
        "partner_count": record.partner_count,
        "opponent_count": record.opponent_count,
        "everyone": everyone,
        "teams": league.play == League.Play.TEAMS,
        "other_leagues": list(player_stats.other_leagues(league, player_id, request.user)),
    }
    return _render(request, "leagues/player_detail.html", context, "results")


def _page_or_404(value: str | None, pages: int) -> int:
    """The page of results asked for (1 when none); 404 for one that is not there."""
    if value is None:
        return 1
    if (
        not (value.isascii() and value.isdigit() and len(value) < 10)
        or not 1 <= int(value) <= pages
    ):
        raise Http404("No such page of results")
    return int(value)


def _page_url(path: str, page: int) -> str:
    return path if page == 1 else f"{path}?{urlencode({'page': page})}"


@require_GET
def night_detail(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    league, organiser = _league_or_404(request, slug)
    night = player_stats.night_get(league, _id_or_404(night_id))
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
    }
    return _render(request, "leagues/night_detail.html", context, "results")


# Printable PDFs: the same visibility as the pages; a bad `?paper=` answers 400 naming it.


def _standings_pdf(request: HttpRequest, league: League, season_id: int | None) -> HttpResponse:
    season = (
        _season_or_404(player_stats.league_seasons(league), season_id)
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
        printed_on=_today(),
        scoring=scoring_text(league),
        tie_break=TIE_BREAK_TEXT,
    )
    return pdf_download(
        lambda: build_standings(sheet, paper=paper), documents.standings_file_stem(league, season)
    )


@require_GET
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The all-time standings as a PDF, in the page's default order."""
    league, _ = _league_or_404(request, slug)
    return _standings_pdf(request, league, None)


@require_GET
def season_standings_pdf(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's standings as a PDF, in the page's default order."""
    league, _ = _league_or_404(request, slug)
    return _standings_pdf(request, league, season_id)


@require_GET
def night_pack(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """The club night's pack: the seating, then a blank sheet with a QR code per table."""
    league, organiser = _league_or_404(request, slug)
    night = player_stats.night_get(league, _id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    pack = documents.night_pack(
        league, night, organiser=organiser, absolute_url=request.build_absolute_uri
    )
    return pdf_download(
        lambda: build_night_pack(pack, paper=paper), documents.night_pack_file_stem(league, night)
    )


@require_GET
def score_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """A blank score sheet with the rules of the league's current season."""
    league, _ = _league_or_404(request, slug)
    season = player_stats.current_season(player_stats.league_seasons(league), _today())
    try:
        paper = paper_for(request)
    except PaperError as error:
        return bad_paper(error)
    card = documents.league_score_card(league, season)
    return pdf_download(
        lambda: build_score_card(card, paper=paper), documents.score_sheet_file_stem(league, season)
    )


# CSV downloads: the same visibility as the pages.


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The all-time standings as CSV, in the page's default order."""
    league, _ = _league_or_404(request, slug)
    return csv_exports.standings_csv(league, None, selectors.standings(league, None))


@require_GET
def season_standings_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's standings as CSV, in the page's default order."""
    league, _ = _league_or_404(request, slug)
    season = _season_or_404(player_stats.league_seasons(league), season_id)
    return csv_exports.standings_csv(league, season, selectors.standings(league, season))


@require_GET
def season_games_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's games as CSV, one row a game, oldest first."""
    league, _ = _league_or_404(request, slug)
    season = _season_or_404(player_stats.league_seasons(league), season_id)
    return csv_exports.season_games_csv(league, season, request.build_absolute_uri)
