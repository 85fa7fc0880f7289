"""A write the database could not start in time: on SQLite, another table's save still held the
write lock when the busy timeout ran out. The phone is asked to send the same form again; the
transaction was rolled back, so nothing of the refused write is kept."""

import logging

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

logger = logging.getLogger(__name__)

BUSY = "The scorebook is busy with another table's save; nothing was saved. Tap Save again."
# SQLite's words for a lock it could not get (the second from a shared-cache database, which
# may name the table after a colon: "database table is locked: scorekeeper_game").
_LOCKED = ("database is locked", "database table is locked")


def is_busy(error: BaseException) -> bool:
    """Whether `error` is the database refusing a write only because another one held it."""
    if not isinstance(error, OperationalError):
        return False
    message = str(error)
    return any(message == words or message.startswith(words + ":") for words in _LOCKED)


def busy_page(request: HttpRequest) -> HttpResponse:
    """The message and a button that sends the same form again, answered 503."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name != "csrfmiddlewaretoken"
        for value in values
    ]
    response = render(
        request,
        "busy.html",
        {"message": BUSY, "fields": fields, "again": request.method == "POST"},
        status=503,
    )
    response["Retry-After"] = "1"
    return response


class BusyDatabaseMiddleware:
    """Every view's write that finds the database busy answers 503 with the busy page, never
    500; views with a form of their own (the round form) answer it themselves first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_busy(exception):
            return None
        logger.warning("Database busy past its timeout: %s %s", request.method, request.path)
        return busy_page(request)
