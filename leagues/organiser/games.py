"""The organiser's pages that void a league game, so that it no longer counts in the standings
or the ratings, and make it count again."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from leagues import services
from leagues.models import League, LeagueGame
from leagues.organiser import forms, selectors
from leagues.organiser.common import day_text, form_data, found, organisers_only
from leagues.services import LeagueError


def _league_game(league: League, league_game_id: int) -> LeagueGame:
    return found(selectors.league_game_get(league, league_game_id), LeagueGame)


def _after_game(league_game: LeagueGame) -> str:
    if league_game.night_id is not None:
        return reverse(
            "leagues:night",
            kwargs={"slug": league_game.league.slug, "night_id": league_game.night_id},
        )
    return reverse("leagues:detail", kwargs={"slug": league_game.league.slug})


def _game_title(league_game: LeagueGame) -> str:
    where = f"table {league_game.table}, " if league_game.table else ""
    return f"{league_game.game} ({where}{day_text(league_game.date)})"


@require_http_methods(["GET", "POST"])
@organisers_only
def game_void(request: HttpRequest, league: League, league_game_id: int) -> HttpResponse:
    league_game = _league_game(league, league_game_id)
    form = forms.VoidForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.game_void(
                league_game=league_game, reason=form.cleaned_data["reason"], user=request.user
            )
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request,
                f"The game {_game_title(league_game)} is voided: it no longer counts in the "
                "standings or the ratings.",
            )
            return redirect(_after_game(league_game))
    context = {
        "league": league,
        "league_game": league_game,
        "title": _game_title(league_game),
        "form": form,
        "back": _after_game(league_game),
    }
    return render(request, "leagues/organiser/game_void.html", context)


@require_http_methods(["GET", "POST"])
@organisers_only
def game_unvoid(request: HttpRequest, league: League, league_game_id: int) -> HttpResponse:
    league_game = _league_game(league, league_game_id)
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.game_unvoid(league_game=league_game, user=request.user)
        except LeagueError as error:
            errors = [message for _, message in error.errors]
        else:
            messages.success(
                request,
                f"The game {_game_title(league_game)} counts again; the ratings have been "
                "worked out again.",
            )
            return redirect(_after_game(league_game))
    context = {
        "league": league,
        "league_game": league_game,
        "title": _game_title(league_game),
        "errors": errors,
        "back": _after_game(league_game),
    }
    return render(request, "leagues/organiser/game_unvoid.html", context)


@require_POST
@organisers_only
def game_confirm(request: HttpRequest, league: League, league_game_id: int) -> HttpResponse:
    """The organiser confirms every round of a table's game not confirmed yet (post only: the
    button is on the night's page, beside the table)."""
    league_game = _league_game(league, league_game_id)
    try:
        numbers = services.game_rounds_confirm(league_game=league_game, user=request.user)
    except LeagueError as error:
        messages.error(request, error.errors[0][1])
    else:
        listed = ", ".join(str(n) for n in numbers)
        counts = (
            "it counts in the standings now"
            if league_game.game.finished and not league_game.voided
            else "it counts once it is over"
            if not league_game.voided
            else "it stays voided"
        )
        messages.success(
            request,
            f"Round{'s' if len(numbers) > 1 else ''} {listed} of {_game_title(league_game)} "
            f"confirmed by you: {counts}.",
        )
    return redirect(_after_game(league_game))
