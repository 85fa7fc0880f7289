"""Offline play's views. The sync API (static/js/offline.js): JSON in and out, the CSRF token in
the X-CSRFToken header; what each answer means is in docs/offline-sync.md, the decisions are in
`scorekeeper.offline.sync`. The installable app: the service worker, the web app manifest and
the offline shell (`scorekeeper.offline.shell`), and the engine packed for the phone
(`scorekeeper.offline.pack`)."""

import functools
import logging
from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views import csrf
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import busy, engine
from scorekeeper.access import can_score, phone_id
from scorekeeper.games import live
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game
from scorekeeper.offline import pack, shell, sync

logger = logging.getLogger(__name__)

NO_GAME = (
    "There is no game at this address on the server. If it was started on this phone, "
    "it is sent first."
)

CSRF_REFUSED = (
    "Nothing was saved: this phone's pass for the site is out of date. Open the game page "
    "while online, then send again."
)


def _errors(errors: list[engine.FieldError], status: int = 400) -> JsonResponse:
    return JsonResponse(
        {"errors": [{"key": e.path or "__all__", "message": e.message} for e in errors]},
        status=status,
    )


def _said(key: str, message: str, status: int) -> JsonResponse:
    return _errors([engine.FieldError(key, message)], status)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A JSON request refused by the CSRF check: 403 in JSON, under the key `csrf`, so that
    the phone can tell it from a game it may not score; any other request gets Django's page."""
    if request.content_type != "application/json":
        return csrf.csrf_failure(request, reason)
    logger.warning("CSRF refused a JSON request (%s): %s", reason, request.path)
    return _said("csrf", CSRF_REFUSED, 403)


class TooBig(engine.RoundError):
    """A body larger than Django reads (DATA_UPLOAD_MAX_MEMORY_SIZE): answered 413."""


TOO_BIG = (
    "Nothing was saved: what this phone sent is far larger than any round or game can be. "
    "Reload the page and send it again."
)


def _body(request: HttpRequest) -> bytes:
    try:
        return request.body
    except RawPostDataException:
        # A form post, not JSON: the CSRF check has read it already, and it is not a round.
        return b""
    except RequestDataTooBig:
        # Refused here, in words and in JSON (django.request logs the 413 in one line),
        # rather than as Django's logged traceback.
        raise TooBig([engine.FieldError("__all__", TOO_BIG)]) from None


def _scorers_game(request: HttpRequest, public_id: str) -> tuple[Game | None, HttpResponse | None]:
    """The game at this address if this phone scores it; else the answer that says why not
    (404 no such game, 403 not a scorer)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return None, _said("__all__", NO_GAME, 404)
    if not can_score(request, game):
        return None, _said("__all__", sync.NOT_A_SCORER, 403)
    return game, None


def _busy_as_json(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A write that found the database busy answers 503 with the busy message (rolled back, so
    the phone sends the same request again), as JSON rather than the busy page."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except OperationalError as error:
            if not busy.is_busy(error):
                raise
            logger.warning("Database busy past its timeout: %s %s", request.method, request.path)
            response = _said("__all__", busy.BUSY, 503)
            response["Retry-After"] = "1"
            return response

    return wrapped


@require_GET
def game_offline(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game as a phone keeps it to score offline, and whether this phone may score it."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        return _said("__all__", NO_GAME, 404)
    scorer = can_score(request, game)
    # Whether this phone may score is part of the answer: joining by the scorer link changes it
    # though the game has not changed.
    etag = live.game_etag(game.updated_at)[:-1] + ('-s"' if scorer else '-v"')
    if live.etag_sent(request, etag):
        response = HttpResponseNotModified()
    else:
        response = JsonResponse({**sync.game_snapshot(game), "can_score": scorer})
    response["ETag"] = etag
    # This phone's copy only, and asked again each time: another phone's round must show.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_POST
@_busy_as_json
def game_create(request: HttpRequest) -> HttpResponse:
    """Create a game started offline; 201 created, 200 when this phone created it already."""
    try:
        sent = sync.game_sent(_body(request))
        made = sync.game_sync_create(
            public_id=sent.public_id,
            preset=sent.preset,
            form=sent.form,
            user=request.user,
            phone=phone_id(request),
        )
    except TooBig as error:
        return _errors(error.errors, 413)
    except engine.RoundError as error:
        return _errors(error.errors)
    # A repeat finds this phone's right, stored with the game; another phone's game is refused.
    if not made.created and not can_score(request, made.game):
        return _said("id", sync.ID_TAKEN, 409)
    return JsonResponse(
        {"snapshot": sync.game_snapshot(made.game)}, status=201 if made.created else 200
    )


@require_POST
@_busy_as_json
def round_send(request: HttpRequest, public_id: str) -> HttpResponse:
    """Store a round scored offline: 201 stored, 200 already stored, 409 another phone's round
    is at that number, 400 refused (nothing stored)."""
    game, refused = _scorers_game(request, public_id)
    if refused is not None:
        return refused
    try:
        sent = sync.round_sent(_body(request))
        synced = sync.round_sync(
            game=game,
            key=sent.key,
            number=sent.number,
            ended_by=sent.ended_by,
            entry=sent.entry,
            place=sent.place,
            version=sent.version,
            user=request.user,
            phone=phone_id(request),
        )
    except TooBig as error:
        return _errors(error.errors, 413)
    except engine.RoundError as error:
        return _errors(error.errors)
    status, answer = sync.round_answer(synced, game)
    return JsonResponse(answer, status=status)


@require_POST
@_busy_as_json
def confirm_send(request: HttpRequest, public_id: str) -> HttpResponse:
    """The other side's word on a round, given while the phone was offline: 200 confirmed (or
    confirmed already), 409 the round changed or went since the phone showed it, 400 refused."""
    game, refused = _scorers_game(request, public_id)
    if refused is not None:
        return refused
    try:
        sent = sync.confirm_sent(_body(request))
        already = sync.confirm_sync(
            game=game, sent=sent, phone=phone_id(request), user=request.user
        )
    except TooBig as error:
        return _errors(error.errors, 413)
    except Conflict as conflict:
        return _said("round", conflict.errors[0].message, 409)
    except engine.RoundError as error:
        return _errors(error.errors)
    return JsonResponse({"number": sent.number, "confirmed": True, "already": already})


# The address names the content, so a browser may keep it for good.
IMMUTABLE = "public, max-age=31536000, immutable"


@require_GET
def offline_engine(request: HttpRequest, digest: str) -> HttpResponse:
    """The engine zip at its hashed address; an old hash is gone (404), never other bytes."""
    packed, current = pack.engine_zip()
    if digest != current:
        raise Http404("This version of the engine is no longer served; reload the page.")
    response = HttpResponse(packed, content_type="application/zip")
    response["Cache-Control"] = IMMUTABLE
    return response


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
