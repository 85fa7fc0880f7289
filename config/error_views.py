"""The error page for a request the server could not read (answer 400)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Django's own 400 page is a bare "Bad Request": a pasted list too long for a form lands
    # here before any view can say what went wrong, so this page says it.
    too_big = isinstance(exception, RequestDataTooBig)
    context = {"too_big": too_big, "limit": filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    return render(request, "400.html", context, status=400)
