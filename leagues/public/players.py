"""The public pages of a league's players: a player's page, and head to head in a season. The
same visibility as the league's other pages (`lookups.league_or_404`)."""

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from leagues import player_stats, rivalry, selectors
from leagues.models import League
from leagues.public.lookups import (
    fragment_asked,
    id_or_404,
    league_or_404,
    links_to,
    player_link,
    render_page,
    season_or_404,
)
from scorekeeper.engine.formatting import number, owned, percent


@require_GET
def head_to_head(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """One player's record against everyone they met in a season (?player=, sortable); with no
    player chosen, the chooser, and the whole matrix when the season is small."""
    league, organiser = league_or_404(request, slug)
    seasons = player_stats.league_seasons(league)
    season = season_or_404(seasons, season_id)
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
            if league.play == League.Play.TEAMS and not fragment_asked(request)
            else []
        )
        link = player_link(league)
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
    return render_page(request, "leagues/head_to_head.html", context, "record")


@require_GET
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league, organiser = league_or_404(request, slug)
    membership = player_stats.membership_get(league, id_or_404(player_id))
    if membership is None:
        raise Http404("No such player in this league")
    # Reversed once for the page's rows (partners, opponents, games).
    link, night_link = player_link(league), links_to("leagues:night", league.slug)
    game_link = links_to("game_detail")
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
    return render_page(request, "leagues/player_detail.html", context, "results")


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


def _number_cells(*figures: str) -> str:
    """`<td class="num">` cells of figures written by scorekeeper.engine.formatting (nothing to
    escape), for tables of hundreds of rows (see `views.standing_rows`)."""
    return mark_safe("".join(f'<td class="num">{figure}</td>' for figure in figures))
