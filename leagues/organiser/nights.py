"""The organiser's pages that close a club night and open it again.

Closing is asked on a page that lists each table still playing or waiting to start, with its
game and a way to void it: the night closes only once every table has finished or been voided
(`services.night_close` decides, and says which tables are left). A second "Close" (a double
submit, or another organiser meanwhile) is told the night is already closed, never a 500.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues import player_stats, services
from leagues.models import ClubNight, League
from leagues.organiser.views import _day, _night, organisers_only
from leagues.services import LeagueError

# Where the reopen page may send the organiser back to, by the page that offered it.
AFTER_REOPEN = {
    "night": "leagues:night",
    "seating": "leagues:night_seating",
    "start": "leagues:night_start",
    "arrival": "leagues:night_arrival",
}


def _page(
    request: HttpRequest, league: League, night: ClubNight, template: str, **extra
) -> HttpResponse:
    context = {"league": league, "night": night, **extra}
    return render(request, f"leagues/organiser/{template}", context)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_close(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm and flags the unfinished tables; POST closes the night."""
    night = _night(league, night_id)
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.night_close(night=night, user=request.user)
        except LeagueError as error:
            night.refresh_from_db(fields=["closed_at"])
            if night.closed_at is not None:
                messages.info(request, error.errors[0][1])
                return redirect("leagues:night", slug=league.slug, night_id=night.pk)
            errors = [message for field, message in error.errors if field == "night"]
        else:
            messages.success(
                request,
                f"The club night of {_day(night.date)} is closed; its page no longer refreshes.",
            )
            return redirect("leagues:night", slug=league.slug, night_id=night.pk)
    view = player_stats.night_view(night)
    return _page(
        request, league, night, "night_close.html", unfinished=view.unfinished, errors=errors
    )


@require_http_methods(["GET", "POST"])
@organisers_only
def night_reopen(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm; POST opens the night again and goes back to the page it came from."""
    night = _night(league, night_id)
    then = request.POST.get("then") or request.GET.get("then")
    if then not in AFTER_REOPEN:
        then = "night"
    if request.method == "POST":
        try:
            services.night_reopen(night=night, user=request.user)
        except LeagueError as error:
            # Open already: a double submit, or another organiser reopened it first.
            messages.info(request, error.errors[0][1])
        else:
            messages.success(
                request,
                f"The club night of {_day(night.date)} is open again: seat players, start "
                "games and record late arrivals as before.",
            )
        return redirect(AFTER_REOPEN[then], slug=league.slug, night_id=night.pk)
    return _page(request, league, night, "night_reopen.html", then=then)
