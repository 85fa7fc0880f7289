"""What the organiser's pages share: who may open them, the lookups that answer 404, the data a
form is bound to and a date as the pages write it.

Every write goes through `leagues.services`; a `LeagueError` is shown beside the field it names
and the page answers 200 with what the organiser typed.

Who may open them: anyone signed in may start a league; everything else is for the league's
organisers. Signed out: the login page, which comes back here. A private league the user may
not see: 404, so that its existence is not revealed. Anyone else: 403.
"""

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.utils import dateformat

from leagues import player_stats
from leagues.access import can_view, is_organiser
from leagues.models import ClubNight, League

T = TypeVar("T")


def form_data(request: HttpRequest) -> QueryDict | None:
    """What a form is bound to: the posted data, or None (an unbound form) on GET."""
    return request.POST if request.method == "POST" else None


def signed_in(view: Callable) -> Callable:
    """The view for signed-in users; anyone else is sent to sign in first."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


def organisers_only(view: Callable) -> Callable:
    """The view for the league's organisers; it is called with the league in place of its slug."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        # Before looking the league up, so a signed-out visitor learns nothing about it.
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        league = found(player_stats.league_get(slug), League)
        if not can_view(request.user, league):
            raise Http404("No such league")
        if not is_organiser(request.user, league):
            raise PermissionDenied(
                f"Only the organisers of {league.name} can do this. Ask one of them to add you."
            )
        return view(request, league, *args, **kwargs)

    return wrapped


def found(row: T | None, model: type) -> T:
    """The row a selector found; 404 when there is none."""
    if row is None:
        # Django's own words, as get_object_or_404 says them.
        raise Http404(f"No {model.__name__} matches the given query.")
    return row


def night_or_404(league: League, night_id: int) -> ClubNight:
    """The league's club night, with its season; 404 when the league has no such night."""
    return found(player_stats.night_get(league, night_id), ClubNight)


def day_text(date) -> str:
    """A date as the organiser's pages write it: 1 September 2026."""
    return dateformat.format(date, "j F Y")
