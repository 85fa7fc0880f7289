"""The organiser's page of a league's audit: its events and its games' corrections, newest
first, a page at a time."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from leagues.models import League
from leagues.organiser import selectors
from leagues.organiser.common import organisers_only

AUDIT_PAGE = 100


@require_GET
@organisers_only
def audit(request: HttpRequest, league: League) -> HttpResponse:
    log = selectors.audit_log(league)
    page = Paginator(log, AUDIT_PAGE).get_page(request.GET.get("page"))
    return render(request, "leagues/organiser/audit.html", {"league": league, "page": page})
