import logging

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import engine
from scorekeeper.access import can_score, grant_scoring
from scorekeeper.documents import cards as documents
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.games import entry as game_entry
from scorekeeper.games import live, services
from scorekeeper.games.history import history_sentence
from scorekeeper.games.page import game_page
from scorekeeper.games.presenters import GameLine, game_line
from scorekeeper.games.scoring import game_ruleset
from scorekeeper.games.selectors import (
    GameView,
    dealer_for,
    game_events,
    game_for_card,
    game_get,
    game_row,
    game_view,
    games_for,
    new_round_view,
)
from scorekeeper.games.sharing import share_links
from scorekeeper.models import Game
from scorekeeper.offline.sync import game_start_from_form
from scorekeeper.rounds import entry as round_entry
from scorekeeper.rounds import page as round_page

logger = logging.getLogger(__name__)

ROUND_NUMBER_MISSING = (
    "Nothing was saved: the form did not say which round it was for, so it may be an old copy "
    "of the page or a repeat. These are the rounds stored; tap Enter round to add the next one."
)
DELETE_NUMBER_MISSING = (
    "Nothing was deleted: the form did not say which round to delete, so it may be an old copy "
    "of the page or a repeat. These are the rounds stored; open the last round to delete it."
)

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
        "papers": documents.paper_choices(request),
    }
    return render(request, "scorekeeper/rules_picker.html", context)


@require_GET
def score_sheet(request: HttpRequest, preset: str) -> HttpResponse:
    """A blank score sheet for a preset, or for house rules given as the start form's fields."""
    if preset not in engine.RULESETS:
        raise Http404("No such rule set")
    base = engine.RULESETS[preset]
    try:
        paper = documents.paper_for(request)
        rules, count = documents.blank_sheet_request(base, request.GET)
    except documents.PaperError as error:
        return documents.bad_paper(error)
    except documents.SheetError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    word = rules.words["side"].capitalize()
    card = ScoreCard(
        rules=rules,
        sides=tuple(CardSide(f"{word} {n}") for n in range(1, count + 1)),
        house_rules=bool(rules.overrides()),
        named=False,
    )
    stem = documents.file_stem(rule_set_name(rules.id), "blank score sheet")
    return documents.pdf_download(lambda: build_score_card(card, paper=paper), stem)


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, preset: str) -> HttpResponse:
    if preset not in engine.RULESETS:
        raise Http404("No such rule set")
    rules = engine.RULESETS[preset]
    if request.method == "GET":
        form = game_entry.build(rules, request.GET)
        return render(request, "scorekeeper/game_new.html", {"form": form})
    data = request.POST
    try:
        game = game_start_from_form(preset=preset, form=data, user=request.user)
    except engine.RoundError as error:
        form = game_entry.build(rules, data, error.errors)
        return render(request, "scorekeeper/game_new.html", {"form": form}, status=200)
    grant_scoring(request, game)
    return redirect("game_detail", public_id=game.public_id)


def _game_or_404(public_id: str) -> Game:
    game = game_get(public_id)
    if game is None:
        raise Http404("No game at this address")
    return game


def _scorer_or_403(request: HttpRequest, game: Game) -> None:
    if not can_score(request, game):
        raise PermissionDenied(
            "Only the phones scoring this game can change it. Ask a scorer for the scorer link."
        )


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
        # The scorer link (and its QR code) only for those who may score: anyone else gets
        # the read-only link, which is this page's own address.
        "share_links": share_links(
            scorer_url=request.build_absolute_uri(scorer_url) if scorer else None,
            viewer_url=request.build_absolute_uri(reverse("game_detail", args=[game.public_id])),
        ),
        "papers": documents.paper_choices(request),
    }
    return render(request, "scorekeeper/game_detail.html", context)


@require_GET
def game_score_card(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game's score card as a PDF: every round entered so far, itemised."""
    game = game_for_card(public_id)
    if game is None:
        raise Http404("No game at this address")
    try:
        paper = documents.paper_for(request)
    except documents.PaperError as error:
        return documents.bad_paper(error)
    card = documents.game_score_card(game)
    stem = documents.game_file_stem(game, game.sides.all())
    return documents.pdf_download(lambda: build_score_card(card, paper=paper), stem)


def _round_page(request: HttpRequest, view: GameView, number: int) -> HttpResponse:
    """The round form for a new round or a correction: GET shows it, a POST goes to
    round_page.round_post (htmx previews, a plain post saves; post/redirect/get)."""
    game = view.game
    editing = number <= view.played
    stored = view.rounds[number - 1] if editing else None
    dealer = dealer_for(game, view.sides, number)
    if request.method == "GET":
        data = (
            round_entry.values_from_entry(view.rules, stored.ended_by, stored.entry)
            if stored
            else {}
        )
        outcome = round_page.RoundPost(
            kind=round_page.FORM,
            form=round_entry.build(view.rules, view.sides, data, dealer.side_index),
        )
    else:
        _scorer_or_403(request, game)
        outcome = round_page.round_post(
            game=game,
            view=view,
            number=number,
            dealer=dealer.side_index,
            data=request.POST,
            htmx=bool(request.htmx),
            user=request.user,
        )
        if outcome.kind == round_page.SAVED:
            if outcome.saved is not None:
                live.offer_undo(request, game, outcome.saved)
            else:
                messages.success(request, outcome.message)
            return redirect("game_detail", public_id=game.public_id)
        if outcome.kind == round_page.CONFLICT:
            return _conflict(request, game, outcome.conflict, editing=editing)
    context = {
        "view": view,
        "game": game,
        # The game's name (str(game)) from the sides already read.
        "names": " vs ".join(side.name for side in view.sides),
        "form": outcome.form,
        "number": number,
        "editing": editing,
        "dealer": dealer,
        "meld": [
            view.rules.opening_meld_for(number, total) for total in _totals_before(view, number)
        ],
        "preview": outcome.preview,
        "confirm": outcome.confirm,
        "totals_now": view.totals,
        "new_totals": outcome.new_totals,
        "can_score": can_score(request, game),
        # The version the correction was opened on travels with the form until it is saved.
        "round_version": request.POST.get("round_version", "")
        if request.method == "POST"
        else (stored.version if stored else ""),
    }
    template = "scorekeeper/round_form.html"
    if request.htmx:
        context["error_slots"] = outcome.form.slots()
        context["counted_values"] = sorted(outcome.counted.items())
        template += "#preview"
    return render(request, template, context, status=outcome.status_code)


def _already_saved(request: HttpRequest, game: Game, number: int) -> HttpResponse:
    messages.error(
        request,
        f"Round {number} was already saved, from this phone or another, so nothing was "
        "added. This is the stored round; correct it if it is wrong.",
    )
    return redirect("round_detail", public_id=game.public_id, number=number)


def _conflict(
    request: HttpRequest, game: Game, conflict: services.Conflict, *, editing: bool
) -> HttpResponse:
    """Another phone changed the game first: say what happened and show what is stored."""
    if not editing and conflict.number is not None:
        return _already_saved(request, game, conflict.number)
    messages.error(request, conflict.errors[0].message)
    if conflict.number is None:
        return redirect("game_detail", public_id=game.public_id)
    return redirect("round_detail", public_id=game.public_id, number=conflict.number)


def _totals_before(view, number: int) -> list[int]:
    if number == 1:
        return [0] * len(view.sides)
    if number > view.played:
        return view.totals
    return [score.running_total for score in view.rows[number - 2][1]]


@require_http_methods(["GET", "POST"])
def round_new(request: HttpRequest, public_id: str) -> HttpResponse:
    view = new_round_view(public_id)
    if view is None:
        raise Http404("No game at this address")
    game, number = view.game, view.played + 1
    posted = round_entry.posted_round_number(request.POST)
    if request.method == "POST":
        _scorer_or_403(request, game)
    if request.method == "POST" and posted is None and not request.htmx:
        # Without it a repeat of the same form would be saved as one more round.
        messages.error(request, ROUND_NUMBER_MISSING)
        return redirect("game_detail", public_id=game.public_id)
    if request.method == "POST" and posted is not None and posted < number and request.htmx:
        # A preview still on its way when its round was saved: nothing to show, and the saved
        # page's messages (its Undo) stay for that page.
        return HttpResponse(status=204)
    if request.method == "POST" and posted is not None and posted < number:
        # A double tap, or another phone saved this round first (perhaps the one that ended
        # the game): show what is stored.
        return _already_saved(request, game, posted)
    if game.finished:
        messages.info(request, "The game is over: correct a round or reopen the game first.")
        return redirect("game_detail", public_id=game.public_id)
    if request.method == "GET" and not can_score(request, game):
        raise PermissionDenied("Only the phones scoring this game can enter rounds.")
    if request.method == "POST" and posted is not None and posted > number:
        # The form was opened for a later round and a round was deleted since: saving it as
        # this round would put it in the wrong place.
        messages.error(
            request,
            f"Round {posted} was not saved: a round was deleted on another phone meanwhile, "
            f"so the game is at round {number}.",
        )
        return redirect("game_detail", public_id=game.public_id)
    return _round_page(request, view, number)


@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    game = _game_or_404(public_id)
    if not 1 <= number <= len(game.rounds.all()):
        raise Http404("No such round")
    if request.method == "GET" and not can_score(request, game):
        raise PermissionDenied("Only the phones scoring this game can correct rounds.")
    return _round_page(request, game_view(game), number)


@require_GET
def round_detail(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    game = _game_or_404(public_id)
    view = game_view(game)
    rows = view.rows
    if not 1 <= number <= len(rows):
        raise Http404("No such round")
    stored, scores = rows[number - 1]
    context = {
        "view": view,
        "game": game,
        "round": stored,
        "scores": list(zip(view.sides, scores, strict=True)),
        "last": number == len(rows),
        "can_score": can_score(request, game),
    }
    template = "scorekeeper/round_detail.html"
    # The page's own live refresh (its #live section) wants the whole page.
    if request.htmx and request.htmx.target != "live":
        template += "#breakdown"
    return render(request, template, context)


def _confirmed_action(request, game, *, title, question, button, action, done, hidden=()):
    """GET asks for confirmation (its form posts `hidden`, what it asked about); POST does it
    and redirects to the game."""
    _scorer_or_403(request, game)
    if request.method == "GET":
        return render(
            request,
            "scorekeeper/confirm.html",
            {
                "game": game,
                "title": title,
                "question": question,
                "button": button,
                "hidden": hidden,
            },
        )
    try:
        action()
    except services.Conflict as conflict:
        return _conflict(request, game, conflict, editing=True)
    except engine.RoundError as error:
        for problem in error.errors:
            messages.error(request, problem.message)
    else:
        messages.success(request, done)
    return redirect("game_detail", public_id=game.public_id)


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game_or_404(public_id)
    rounds = list(game.rounds.all())
    last = len(rounds)
    # The number and version the confirmation asked about, so that a round added or changed
    # on another phone meanwhile is not the one deleted, and a repeat deletes nothing more.
    number = round_entry.posted_round_number(request.POST)
    if request.method == "POST" and number is None:
        _scorer_or_403(request, game)
        messages.error(request, DELETE_NUMBER_MISSING)
        return redirect("game_detail", public_id=game.public_id)
    return _confirmed_action(
        request,
        game,
        title=f"Delete round {last}?",
        question=f"Round {last} and its scores will be removed; the game's history keeps a copy.",
        button=f"Delete round {last}",
        action=lambda: services.round_delete_last(
            game=game,
            user=request.user,
            number=number,
            version=request.POST.get("round_version") or None,
        ),
        done=f"Round {number} deleted.",
        hidden=[("round_number", last), ("round_version", rounds[-1].version)] if rounds else [],
    )


@require_http_methods(["GET", "POST"])
def game_end(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game_or_404(public_id)
    return _confirmed_action(
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
    game = _game_or_404(public_id)
    return _confirmed_action(
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
    game = _game_or_404(public_id)
    _scorer_or_403(request, game)
    rematch = services.game_rematch(game=game, user=request.user)
    grant_scoring(request, rematch)
    messages.success(request, "Rematch started: same rules, same sides, the deal moves on.")
    return redirect("game_detail", public_id=rematch.public_id)


@require_GET
def game_join(request: HttpRequest, public_id: str, token: str) -> HttpResponse:
    game = _game_or_404(public_id)
    if not constant_time_compare(token, game.scorer_token):
        raise PermissionDenied("This scorer link is not valid for this game.")
    grant_scoring(request, game)
    messages.success(request, "This phone can now score the game.")
    return redirect("game_detail", public_id=game.public_id)


@require_POST
def game_claim(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game_or_404(public_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('game_detail', args=[public_id])}")
    _scorer_or_403(request, game)
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
    game = _game_or_404(public_id)
    rules, names = game_ruleset(game), [side.name for side in game.sides.all()]
    context = {
        "game": game,
        "events": [(event, history_sentence(event, rules, names)) for event in game_events(game)],
        "can_score": can_score(request, game),
        # A deleted round can come back only as the next round.
        "next_round": len(game.rounds.all()) + 1,
    }
    return render(request, "scorekeeper/game_history.html", context)


@require_POST
def round_restore(request: HttpRequest, public_id: str, event_id: int) -> HttpResponse:
    game = _game_or_404(public_id)
    if not can_score(request, game):
        raise PermissionDenied(
            "Only the phones scoring this game can restore a round. Ask a scorer for the "
            "scorer link."
        )
    try:
        restored = services.round_restore(game=game, event_id=event_id, user=request.user)
    except engine.RoundError as error:
        for problem in error.errors:
            messages.error(request, problem.message)
        return redirect("game_history", public_id=game.public_id)
    messages.success(request, f"Round {restored.number} restored.")
    return redirect("game_detail", public_id=game.public_id)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    # A real round trip, not just an open socket: a load balancer should stop sending traffic
    # to an instance whose database is gone.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer")
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": connection.vendor})
