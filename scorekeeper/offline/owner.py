"""Whose pages a phone keeps for offline use: every page says, in a header the service worker
reads (static/js/sw.js, checkOwner), which phone and which account it was made for, as
`<phone>.<account>`, each a keyed hash or empty. The worker drops the kept pages and the offline
database, before keeping anything new, when the phone's id it kept them for has changed (signed
out on any page, the session expired) or the account has (signed out, or signed in as someone
else). A phone signing in keeps its id, and with it its games and the rounds it has not sent.

The hashes name the owner without telling the phone's id, under which its rights to score are."""

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from scorekeeper.access import PHONE_KEY

HEADER = "X-Offline-Owner"


def _hashed(value: str) -> str:
    return salted_hmac("scorekeeper.offline.owner", value, algorithm="sha256").hexdigest()[:24]


def owner_of(request: HttpRequest) -> str:
    """`<phone>.<account>`: the hashes of this request's phone id and account ('' for none)."""
    session = getattr(request, "session", None)
    phone = session.get(PHONE_KEY) if session is not None else None
    user = getattr(request, "user", None)
    phone_part = _hashed(f"phone:{phone}") if isinstance(phone, str) and phone else ""
    user_part = _hashed(f"user:{user.pk}") if user is not None and user.is_authenticated else ""
    return f"{phone_part}.{user_part}"


def offline_owner(get_response):
    """Names the owner on every page (HTML), which is all the worker ever keeps."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response[HEADER] = owner_of(request)
        return response

    return middleware
