"""The game's version for pages that follow it live, and Undo of a round just saved."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import engine
from scorekeeper.games import live, services
from scorekeeper.games.views import _conflict, _game_or_404, _scorer_or_403
from scorekeeper.models import Game, Round
from scorekeeper.rounds import entry as round_entry


@require_GET
def game_state(request: HttpRequest, public_id: str) -> HttpResponse:
    """304 while the game is as the page saw it (one indexed query, no template); otherwise its
    rounds and whether it is over, for the page to refresh itself."""
    row = (
        Game.objects.filter(public_id=public_id).values_list("updated_at", "pk", "finished").first()
    )
    if row is None:
        raise Http404("No game at this address")
    updated_at, pk, finished = row
    etag = live.game_etag(updated_at)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        rounds = Round.objects.filter(game_id=pk).count()
        response = JsonResponse({"rounds": rounds, "finished": finished})
    response["ETag"] = etag
    # Every check goes to the server: a cached answer would hide the other phone's round.
    patch_cache_control(response, no_cache=True)
    return response


@require_POST
def round_undo(request: HttpRequest, public_id: str) -> HttpResponse:
    """Undo the save of the round this browser has just saved: gone, history entry and all."""
    game = _game_or_404(public_id)
    _scorer_or_403(request, game)
    number = round_entry.posted_round_number(request.POST)
    offer = live.undo_offered(request, game)
    if number is None or offer is None or offer["number"] != number:
        rounds = len(game.rounds.all())
        messages.error(request, live.undo_not_offered(number or rounds, rounds))
        return redirect("game_detail", public_id=game.public_id)
    try:
        services.round_delete_last(
            game=game,
            user=request.user,
            number=number,
            version=offer["version"],
            undo_within=live.UNDO_WINDOW,
        )
    except services.Conflict as conflict:
        live.undo_forget(request)
        return _conflict(request, game, conflict, editing=True)
    except engine.RoundError as error:
        live.undo_forget(request)
        messages.error(request, error.errors[0].message)
    else:
        live.undo_forget(request)
        messages.success(request, f"Round {number} removed.")
    return redirect("game_detail", public_id=game.public_id)
