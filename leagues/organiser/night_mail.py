"""The organiser's sending of a club night's results to the members (`services.night_mail`)."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from leagues import services
from leagues.models import League
from leagues.night_results import in_words, night_results
from leagues.organiser.common import day_text, night_or_404, organisers_only
from leagues.services import LeagueError
from scorekeeper.engine.formatting import number


def results_mail(request: HttpRequest, league: League, night) -> tuple[str, str]:
    """The subject and plain-text body of the night's results mail, with the page's link."""
    results = night_results(league, night)
    context = {
        "league": league,
        "night": night,
        "day": day_text(night.date),
        **in_words(results),
        "link": request.build_absolute_uri(
            reverse("leagues:night_results", args=[league.slug, night.pk])
        ),
    }
    subject = f"{league.name}: the results of the club night of {day_text(night.date)}"
    return subject, render_to_string("leagues/mail/night_results.txt", context)


@require_POST
@organisers_only
def night_results_mail(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """Mail the night's results to the members who have an address, then back to the page."""
    night = night_or_404(league, night_id)
    subject, body = results_mail(request, league, night)
    try:
        sent = services.night_results_send(
            night=night, subject=subject, body=body, user=request.user, now=timezone.now()
        )
    except LeagueError as error:
        messages.error(request, error.errors[0][1])
    else:
        messages.success(
            request, f"The results went to {number(sent)} member{'s' if sent != 1 else ''}."
        )
    return redirect("leagues:night_results", slug=league.slug, night_id=night.pk)
