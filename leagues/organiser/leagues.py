"""The organiser's pages of a league's settings: starting a league, then its settings and its
organisers."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues import services
from leagues.models import League
from leagues.organiser import forms, selectors
from leagues.organiser.common import form_data, organisers_only, signed_in
from leagues.services import LeagueError


@require_http_methods(["GET", "POST"])
@signed_in
def league_new(request: HttpRequest) -> HttpResponse:
    form = forms.LeagueForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(user=request.user, **form.service_values())
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request, f"{league.name} is ready. Add a season, then the league's members."
            )
            return redirect("leagues:detail", slug=league.slug)
    return render(request, "leagues/organiser/league_form.html", {"form": form, "league": None})


@require_http_methods(["GET", "POST"])
@organisers_only
def league_edit(request: HttpRequest, league: League) -> HttpResponse:
    action = request.POST.get("action", "save")
    posted = form_data(request)
    form = forms.LeagueForm(posted if action == "save" else None, league=league)
    organiser_form = forms.OrganiserForm(posted if action == "add_organiser" else None)
    organiser_errors: list[str] = []
    if request.method == "POST":
        if action == "save" and form.is_valid():
            try:
                services.league_update(league=league, user=request.user, **form.service_values())
            except LeagueError as error:
                forms.show_errors(form, error.errors)
            else:
                messages.success(request, f"The settings of {league.name} are saved.")
                return redirect("leagues:detail", slug=league.slug)
        elif action == "add_organiser" and organiser_form.is_valid():
            account = organiser_form.cleaned_data["username"]
            try:
                services.organiser_add(league=league, account=account, user=request.user)
            except LeagueError as error:
                forms.show_errors(organiser_form, error.errors)
            else:
                messages.success(request, f"{account.get_username()} now organises {league.name}.")
                return redirect("leagues:league_edit", slug=league.slug)
        elif action == "remove_organiser":
            username = request.POST.get("username", "")
            try:
                services.organiser_remove(league=league, username=username, user=request.user)
            except LeagueError as error:
                organiser_errors = [message for _, message in error.errors]
            else:
                if username == request.user.get_username():
                    messages.success(request, f"You no longer organise {league.name}.")
                    return redirect("leagues:detail", slug=league.slug)
                messages.success(request, f"{username} no longer organises {league.name}.")
                return redirect("leagues:league_edit", slug=league.slug)
    setup = selectors.league_setup(league)
    context = {
        "league": league,
        "form": form,
        "organiser_form": organiser_form,
        "organiser_errors": organiser_errors,
        "organisers": setup.organisers,
        "seasons": setup.seasons,
        "nights": setup.nights,
    }
    return render(request, "leagues/organiser/league_form.html", context)
