"""The installable app's views: the service worker, the web app manifest, the offline shell."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scorekeeper.offline import shell


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js with its version and precache list, at the root so that its scope is /."""
    response = HttpResponse(shell.worker_script(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every visit; no cache means it always sees it.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest that makes the site installable."""
    response = JsonResponse(shell.manifest(), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@never_cache
def offline_shell(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows offline for a page it has not kept; offline.js fills it."""
    return render(request, "offline.html")
