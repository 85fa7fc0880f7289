"""Middleware: signed-in pages kept out of shared caches, and a refusal logged in one line."""

import logging

from django.core.exceptions import PermissionDenied
from django.core.handlers.exception import get_exception_response
from django.http import HttpRequest, HttpResponse
from django.urls import get_resolver, get_urlconf
from django.utils.cache import patch_cache_control
from django.utils.log import log_response

logger = logging.getLogger("django.request")


def private_when_signed_in(get_response):
    """A page made for a signed-in account is never stored by a proxy or left in the browser's
    cache; a view's own Cache-Control is kept, made private."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if response.has_header("Cache-Control"):
                patch_cache_control(response, private=True)
            else:
                patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


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
