"""Middleware: a viewer's own pages kept out of caches, and a refusal logged in one line."""

import logging

from django.core.exceptions import PermissionDenied
from django.core.handlers.exception import get_exception_response
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import get_resolver, get_urlconf
from django.utils.cache import patch_cache_control
from django.utils.log import log_response

logger = logging.getLogger("django.request")


def private_for_its_viewer(get_response):
    """A page drawn for one viewer (a signed-in account, or a phone with a session: its rights to
    score a game, its list of games) is never stored by a proxy or left in the browser's cache;
    a view's own Cache-Control is kept, made private. A page without a session (a watcher's, the
    public pages) is left as it was."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        # A session sent, or begun by this request (the scorer link's first answer).
        if (user is not None and user.is_authenticated) or (
            session is not None and not session.is_empty()
        ):
            if response.has_header("Cache-Control"):
                patch_cache_control(response, private=True)
            else:
                patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


# Text worth compressing: pages, JSON, CSV, the manifest. PDFs and images are compressed already,
# and static files are WhiteNoise's (compressed once at collectstatic, above this middleware).
COMPRESSED_TYPES = ("text/", "application/json", "application/manifest+json")


class CompressedText(GZipMiddleware):
    """Django's GZipMiddleware for text answers only, and never for a page that shows a secret
    of its own (`scorekeeper.access.secret_inside`: the scorer link).

    BREACH reads a secret from the compressed length of pages that also reflect what an attacker
    chose. Django masks the CSRF token anew in every response and adds up to 100 random bytes to
    every gzip answer (Heal the BREACH), and the session is never in a page; the scorer link is
    the one secret a page shows, so its page goes uncompressed."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        kind = response.get("Content-Type", "")
        if getattr(response, "secret_inside", False) or not kind.startswith(COMPRESSED_TYPES):
            return response
        return super().process_response(request, response)


class ForbiddenInOneLine:
    """A refusal (PermissionDenied) is expected traffic, not a fault: one warning line with the
    path and the account, instead of Django's traceback."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, PermissionDenied):
            return None
        response = get_exception_response(request, get_resolver(get_urlconf()), 403, exception)
        user = getattr(request, "user", None)
        who = user.pk if user is not None and user.is_authenticated else "anonymous"
        # log_response marks the response as logged, so Django does not log it a second time.
        log_response(
            "Forbidden (403): %s user=%s",
            request.path,
            who,
            response=response,
            request=request,
            logger=logger,
        )
        return response
