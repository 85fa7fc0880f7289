"""The game's pages: the home page and the game list, the rule-set picker and the start form,
the game page, its history, and the game's own changes (end, reopen, rematch, join, claim)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import engine
from scorekeeper.access import can_score, grant_scoring, phone_id, secret_inside
from scorekeeper.games import live, services
from scorekeeper.games.history import history_sentence
from scorekeeper.games.page import game_page
from scorekeeper.games.presenters import GameLine, game_line
from scorekeeper.games.responses import confirmed_action, game_or_404, scorer_or_403
from scorekeeper.games.scoring import game_ruleset
from scorekeeper.games.selectors import game_events, game_row, games_for, rounds_to_confirm
from scorekeeper.games.sharing import share_links
from scorekeeper.models import Game, Round
from scorekeeper.portable import start_fields

LEAGUE_GAME_CLAIM = (
    "A league's game stays with its league: find it on the league's club-night page, "
    "not under My games."
)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = _listed(games_for(request)[:20])
    return render(request, "scorekeeper/home.html", {"games": games})


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/game_list.html", {"games": _listed(games_for(request))})


def _listed(games) -> list[tuple[Game, GameLine]]:
    return [(game, game_line(game, list(game.sides.all()), game.rounds_played)) for game in games]


@require_GET
def rules_picker(request: HttpRequest) -> HttpResponse:
    context = {
        "rulesets": engine.RULESETS.values(),
    }
    return render(request, "scorekeeper/rules_picker.html", context)


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, preset: str) -> HttpResponse:
    if preset not in engine.RULESETS:
        raise Http404("No such rule set")
    rules = engine.RULESETS[preset]
    if request.method == "GET":
        form = start_fields.build(rules, request.GET)
        return render(request, "scorekeeper/game_new.html", {"form": form})
    data = request.POST
    try:
        game = services.game_start_from_form(preset=preset, form=data, user=request.user)
    except engine.RoundError as error:
        form = start_fields.build(rules, data, error.errors)
        return render(request, "scorekeeper/game_new.html", {"form": form}, status=200)
    grant_scoring(request, game)
    return redirect("game_detail", public_id=game.public_id)


@require_GET
def game_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_row(public_id)
    # The scoreboard, the chart and the game's status, made once per change of the game.
    page = game_page(game) if game is not None else None
    if page is None:
        raise Http404("No game at this address")
    scorer = can_score(request, game)
    scorer_url = reverse("game_join", args=[game.public_id, game.scorer_token])
    context = {
        "page": page,
        "game": game,
        "can_score": scorer,
        # Not kept with the page: which rounds this phone hands over depends on the phone.
        "confirming": rounds_to_confirm(game, phone_id(request) if scorer else None),
        # The scorer link (and its QR code) only for those who may score: anyone else gets
        # the read-only link, which is this page's own address.
        "share_links": share_links(
            scorer_url=request.build_absolute_uri(scorer_url) if scorer else None,
            viewer_url=request.build_absolute_uri(reverse("game_detail", args=[game.public_id])),
        ),
    }
    response = render(request, "scorekeeper/game_detail.html", context)
    return secret_inside(response) if scorer else response


@require_http_methods(["GET", "POST"])
def game_end(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    return confirmed_action(
        request,
        game,
        title="End the game now?",
        question="The game ends with the totals as they stand; the highest total wins.",
        button="End the game",
        action=lambda: services.game_end(game=game, user=request.user),
        done="The game is over.",
    )


@require_http_methods(["GET", "POST"])
def game_reopen(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    return confirmed_action(
        request,
        game,
        title="Reopen the game?",
        question="The game carries on from its last round, as if it had not been ended.",
        button="Reopen the game",
        action=lambda: services.game_reopen(game=game, user=request.user),
        done="The game is open again.",
    )


@require_POST
def game_rematch(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    scorer_or_403(request, game)
    try:
        rematch = services.game_rematch(game=game, user=request.user)
    except services.AlreadyRematched as already:
        # Sent twice, or from two phones: the second goes to the game the first started.
        rematch = already.rematch
        messages.info(request, already.errors[0].message)
    else:
        messages.success(request, "Rematch started: same rules, same sides, the deal moves on.")
    grant_scoring(request, rematch)
    return redirect("game_detail", public_id=rematch.public_id)


@require_GET
def game_join(request: HttpRequest, public_id: str, token: str) -> HttpResponse:
    game = game_or_404(public_id)
    if not constant_time_compare(token, game.scorer_token):
        raise PermissionDenied("This scorer link is not valid for this game.")
    grant_scoring(request, game)
    messages.success(request, "This phone can now score the game.")
    return redirect("game_detail", public_id=game.public_id)


@require_POST
def game_claim(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('game_detail', args=[public_id])}")
    scorer_or_403(request, game)
    if getattr(game, "league_game", None) is not None:
        # Its members may score it, but the game is the league's record, not one person's.
        raise PermissionDenied(LEAGUE_GAME_CLAIM)
    try:
        services.game_claim(game=game, user=request.user)
    except engine.RoundError as error:
        messages.error(request, error.errors[0].message)
    else:
        messages.success(request, "The game is now under My games.")
    return redirect("game_detail", public_id=game.public_id)


@require_GET
def game_history(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    rules, names = game_ruleset(game), [side.name for side in game.sides.all()]
    context = {
        "game": game,
        "events": [(event, history_sentence(event, rules, names)) for event in game_events(game)],
        "can_score": can_score(request, game),
        # A deleted round can come back only as the next round.
        "next_round": len(game.rounds.all()) + 1,
    }
    return render(request, "scorekeeper/game_history.html", context)


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
    if live.etag_sent(request, etag):
        response = HttpResponseNotModified()
    else:
        rounds = Round.objects.filter(game_id=pk).count()
        response = JsonResponse({"rounds": rounds, "finished": finished})
    response["ETag"] = etag
    # Every check goes to the server: a cached answer would hide the other phone's round.
    patch_cache_control(response, no_cache=True)
    return response
