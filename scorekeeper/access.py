"""Who may score a game: the phone that started it, phones given its scorer link, its owner.

Anyone with the game's unguessable address may view it; that address is the read-only link.

A phone's rights are rows of `ScoringRight`, under the id its session keeps (`phone_id`): made
once and never written again, so two requests of one phone at the same moment (two tabs, a tab
and the offline sync) each add their right, and neither's save of the session can lose the
other's. Signing in keeps the session's data and with it the id and the rights; signing out
empties the session, and the rights go with the id.
"""

import base64
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django.utils.module_loading import import_string

from scorekeeper.models import Game, ScoringRight, new_token

PHONE_KEY = "phone"
# Where a session kept its rights before they were rows: a list of the games' public ids, made
# rights by `_phone_of` at the phone's next request.
SESSION_KEY = "scoring_games"
# The pages a game is started from, which give a phone its id before it can post a start.
START_PAGES = frozenset({"rules_picker", "game_new"})
# Rights this request has looked up or granted, by game: one query per game and request.
_KNOWN = "_scoring_rights"


def phone_id(request: HttpRequest) -> str:
    """This phone's id: kept in its session from its first need on, never changed."""
    session = request.session
    phone = session.get(PHONE_KEY)
    if isinstance(phone, str) and phone:
        return phone
    phone = _new_phone_id(session.session_key)
    session[PHONE_KEY] = phone
    return phone


def _new_phone_id(session_key: str | None) -> str:
    # Requests of one session that find it without an id (an old session's first requests, sent
    # at once) make the same id from the session's key, so neither's save loses the other's
    # rights; a keyed hash, so that the id never tells the key. A phone with no session yet gets
    # a random id: the start pages give it one (PhoneIdMiddleware) before it can post a start,
    # and two requests of its very first contact at once would start two sessions anyway, of
    # which the browser keeps one.
    if not session_key:
        return new_token()
    digest = salted_hmac("scorekeeper.access.phone_id", session_key, algorithm="sha256")
    return base64.urlsafe_b64encode(digest.digest()).decode()[:22]


def _phone_of(request: HttpRequest) -> str | None:
    """This phone's id if it has one (none is made to read); an old session's list of games is
    made rights here, once."""
    session = request.session
    old = session.get(SESSION_KEY)
    if old is None:
        phone = session.get(PHONE_KEY)
        return phone if isinstance(phone, str) and phone else None
    phone = phone_id(request)
    listed = old if isinstance(old, list) else []
    ids = [public_id for public_id in listed if isinstance(public_id, str)]
    games = list(Game.objects.filter(public_id__in=ids).only("pk")) if ids else []
    if games:
        scoring_rights_grant(phone=phone, games=games)
    # Dropped from the session only once the rights are stored for good.
    transaction.on_commit(lambda: session.pop(SESSION_KEY, None))
    return phone


@transaction.atomic
def scoring_rights_grant(*, phone: str, games: Iterable[Game]) -> None:
    """Let the phone score the games: a row each, inserted with the rights it has already left
    as they are (the unique pair is the insert's own check; never read, then written)."""
    rights = [ScoringRight(phone=phone, game=game) for game in games]
    for right in rights:
        # The game is a row already; its uniqueness is the insert's to check, at the moment of
        # the insert, which a read before it could not be.
        right.full_clean(exclude={"game"}, validate_unique=False, validate_constraints=False)
    ScoringRight.objects.bulk_create(rights, ignore_conflicts=True)


def grant_scoring(request: HttpRequest, game: Game) -> None:
    """Let this phone score the game (an id is made for a phone that has none yet)."""
    scoring_rights_grant(phone=phone_id(request), games=[game])
    _known(request)[game.pk] = True


def scoring_ids(request: HttpRequest) -> QuerySet:
    """Public ids of the games this phone may score: a query, run where it is used."""
    phone = _phone_of(request)
    rights = ScoringRight.objects.filter(phone=phone) if phone else ScoringRight.objects.none()
    return rights.values_list("game__public_id", flat=True)


def _known(request: HttpRequest) -> dict[int, bool]:
    if not hasattr(request, _KNOWN):
        setattr(request, _KNOWN, {})
    return getattr(request, _KNOWN)


def _has_right(request: HttpRequest, game: Game) -> bool:
    known = _known(request)
    if game.pk not in known:
        phone = _phone_of(request)
        known[game.pk] = (
            phone is not None and ScoringRight.objects.filter(phone=phone, game=game).exists()
        )
    return known[game.pk]


def secret_inside(response: HttpResponse) -> HttpResponse:
    """Mark a page that shows a secret of its own (a scorer link): it is sent uncompressed
    (config.middleware.CompressedText), so that BREACH cannot read the secret back from the
    compressed length of pages an attacker makes the phone load."""
    response.secret_inside = True
    return response


def can_score(request: HttpRequest, game: Game) -> bool:
    if request.user.is_authenticated and game.owner_id == request.user.pk:
        return True
    if _has_right(request, game):
        return True
    # Other apps grant more (a league lets its members score its tables) without this app
    # importing them.
    return any(
        import_string(path)(request, game) for path in getattr(settings, "SCORING_RULES", ())
    )


class PhoneIdMiddleware:
    """A phone opening a page a game is started from gets its id there, so that two starts it
    posts at once (two tabs) share one id and keep both rights. Other pages make none: a phone
    that only watches a game keeps no session, and its checks cost one query. An old session's
    list of games becomes rights at its first request that passes the CSRF check, whatever the
    page (its session is read for the account anyway)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        if SESSION_KEY in request.session:
            _phone_of(request)
        elif request.method == "GET" and match is not None and match.url_name in START_PAGES:
            phone_id(request)
