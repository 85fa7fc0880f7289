"""The organiser's pages of a league's seasons: adding one and changing its name and dates."""

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues import services
from leagues.models import League, Season
from leagues.organiser import forms, selectors
from leagues.organiser.common import day_text, form_data, found, organisers_only
from leagues.services import LeagueError
from scorekeeper import engine


def _season_page(request, league: League, season: Season | None) -> HttpResponse:
    initial = {}
    if season is not None:
        initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
    form = forms.SeasonForm(form_data(request), initial=initial, league=league, season=season)
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        try:
            if season is None:
                saved = services.season_create(league=league, user=request.user, **values)
            else:
                saved = services.season_update(season=season, user=request.user, **values)
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            verb = "added" if season is None else "saved"
            messages.success(
                request,
                f"Season {saved.name} {verb}: {day_text(saved.starts_on)} to "
                f"{day_text(saved.ends_on)}.",
            )
            return redirect("leagues:detail", slug=league.slug)
    # A new season freezes the league's rules as they are now: those are what it will play.
    rules = engine.resolve_rules(season.rules if season else _league_rules(league))
    context = {"league": league, "season": season, "form": form, "rules": rules}
    return render(request, "leagues/organiser/season_form.html", context)


def _league_rules(league: League) -> dict[str, Any]:
    return {"base": league.preset, "overrides": league.house_rules}


@require_http_methods(["GET", "POST"])
@organisers_only
def season_new(request: HttpRequest, league: League) -> HttpResponse:
    return _season_page(request, league, None)


@require_http_methods(["GET", "POST"])
@organisers_only
def season_edit(request: HttpRequest, league: League, season_id: int) -> HttpResponse:
    season = found(selectors.season_get(league, season_id), Season)
    return _season_page(request, league, season)
