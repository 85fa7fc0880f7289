"""What the public pages of a league share: finding the league, a season or an id the address
names (404 for what the viewer may not see), answering htmx with a fragment, and the addresses
of a page's many links."""

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from leagues import player_stats
from leagues.access import is_member, is_organiser
from leagues.models import League, Season

# Ids are 64-bit; a longer number in the address would overflow the database driver.
MAX_ID = 2**63 - 1


def league_or_404(request: HttpRequest, slug: str) -> tuple[League, bool]:
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


def id_or_404(value: int) -> int:
    """The id from the address; 404 for one no row can have."""
    if not 0 < value <= MAX_ID:
        raise Http404("No such page")
    return value


def season_or_404(seasons: list[Season], season_id: int) -> Season:
    """The season of this id among the league's seasons; 404 when it is not one of them."""
    # Picked from the list the season switcher shows anyway, which saves a query.
    season = next((s for s in seasons if s.pk == season_id), None)
    if season is None:
        raise Http404("No such season")
    return season


def fragment_asked(request: HttpRequest) -> bool:
    """Whether htmx asks for the page's fragment rather than the whole page."""
    # A history restore after a cache miss needs the whole page.
    return bool(request.htmx) and not request.htmx.history_restore_request


def render_page(
    request: HttpRequest, template: str, context: dict, partial: str | None = None
) -> HttpResponse:
    """The page, or only its `partial` when htmx asks for the fragment."""
    if partial and fragment_asked(request):
        template += f"#{partial}"
    response = render(request, template, context)
    # The same URL answers a page or a fragment, so caches must key on the header.
    patch_vary_headers(response, ["HX-Request"])
    return response


def links_to(name: str, *args: object) -> Callable[[object], str]:
    """The address of a page from its last argument, reversed once: at 200 rows, a `{% url %}`
    a row took more of the page's time than its queries did (bench/head_to_head.py)."""
    marker = 1234567
    head, tail = reverse(name, args=[*args, marker]).rsplit(str(marker), 1)
    return lambda last: f"{head}{last}{tail}"


def player_link(league: League) -> Callable[[int], str]:
    """The address of a player's page in the league from their id."""
    return links_to("leagues:player", league.slug)
