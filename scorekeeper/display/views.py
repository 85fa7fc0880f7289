"""The display settings page, and the text-size switch every page's header carries."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from scorekeeper.display.choices import (
    AWAKE,
    COOKIE,
    COOKIE_AGE,
    SPEAK,
    TEXT,
    THEME,
    display_chosen,
    display_of,
)

FIELDS = [
    ("text", "Text size", TEXT, "Large makes the text and every button bigger, on every page."),
    ("theme", "Colours", THEME, "Dark is easier on the eyes in a dim room."),
    ("awake", "Keep the screen on during a game", AWAKE, "While a game is open and not over."),
    ("speak", "Read the totals aloud after each save", SPEAK, "With the phone's own voice."),
]


def _back(request: HttpRequest) -> str:
    """Where the player came from, if it is a page of this site."""
    back = request.POST.get("next") or request.GET.get("next") or "/"
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return back if safe else "/"


@require_http_methods(["GET", "POST"])
def display_settings(request: HttpRequest) -> HttpResponse:
    before = display_of(request)
    back = _back(request)
    errors: dict[str, str] = {}
    if request.method == "POST":
        display, errors = display_chosen(request.POST, before)
        if not errors:
            response = redirect(back)
            response.set_cookie(
                COOKIE,
                display.cookie(),
                max_age=COOKIE_AGE,
                samesite="Lax",
                secure=request.is_secure(),
                httponly=True,
            )
            return response
    fields = [
        {
            "name": name,
            "legend": legend,
            "hint": hint,
            "options": list(options.items()),
            "value": getattr(before, name),
            "error": errors.get(name),
        }
        for name, legend, options, hint in FIELDS
    ]
    context = {"fields": fields, "back": back}
    return render(request, "scorekeeper/display.html", context, status=400 if errors else 200)
