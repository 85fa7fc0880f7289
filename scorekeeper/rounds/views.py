"""The rounds' pages: the round form (a new round or a correction, previewed as it is typed),
a stored round, deleting the last round, the Undo of a save, and a round brought back from the
history. What a posted form does is decided in `scorekeeper.rounds.page`."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import engine
from scorekeeper.access import can_score, phone_id
from scorekeeper.games import live
from scorekeeper.games.responses import (
    already_saved_redirect,
    confirmed_action,
    conflict_redirect,
    game_or_404,
    scorer_or_403,
)
from scorekeeper.games.selectors import GameView, dealer_for, game_view, new_round_view
from scorekeeper.games.store import Conflict
from scorekeeper.portable import round_fields
from scorekeeper.rounds import confirmation, page, services

ROUND_NUMBER_MISSING = (
    "Nothing was saved: the form did not say which round it was for, so it may be an old copy "
    "of the page or a repeat. These are the rounds stored; tap Enter round to add the next one."
)


DELETE_NUMBER_MISSING = (
    "Nothing was deleted: the form did not say which round to delete, so it may be an old copy "
    "of the page or a repeat. These are the rounds stored; open the last round to delete it."
)


def _round_page(request: HttpRequest, view: GameView, number: int) -> HttpResponse:
    """The round form for a new round or a correction: GET shows it, a POST goes to
    page.round_post (htmx previews, a plain post saves; post/redirect/get)."""
    game = view.game
    editing = number <= view.played
    stored = view.rounds[number - 1] if editing else None
    dealer = dealer_for(game, view.sides, number)
    if request.method == "GET":
        data = (
            round_fields.values_from_entry(view.rules, stored.ended_by, stored.entry)
            if stored
            else {}
        )
        outcome = page.RoundPost(
            kind=page.FORM,
            form=round_fields.build(view.rules, view.sides, data, dealer.side_index),
        )
    else:
        scorer_or_403(request, game)
        outcome = page.round_post(
            game=game,
            view=view,
            number=number,
            dealer=dealer.side_index,
            data=request.POST,
            htmx=bool(request.htmx),
            user=request.user,
            phone=phone_id(request),
        )
        if outcome.kind == page.SAVED:
            if outcome.saved is not None:
                live.offer_undo(request, game, outcome.saved)
            else:
                messages.success(request, outcome.message)
            return redirect("game_detail", public_id=game.public_id)
        if outcome.kind == page.CONFLICT:
            return conflict_redirect(request, game, outcome.conflict, editing=editing)
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
        # A refused Save: its summary also at the top, in view as the page opens.
        "refused": outcome.kind == page.REFUSED and not request.htmx,
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
    posted = round_fields.posted_round_number(request.POST)
    if request.method == "POST":
        scorer_or_403(request, game)
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
        return already_saved_redirect(request, game, posted)
    if game.finished:
        messages.info(request, services.game_over(view.played))
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
    game = game_or_404(public_id)
    if not 1 <= number <= len(game.rounds.all()):
        raise Http404("No such round")
    if request.method == "GET" and not can_score(request, game):
        raise PermissionDenied("Only the phones scoring this game can correct rounds.")
    return _round_page(request, game_view(game), number)


def _round_detail(
    request: HttpRequest, public_id: str, number: int, *, reason: str = "", error: str = ""
) -> HttpResponse:
    game = game_or_404(public_id)
    view = game_view(game)
    rows = view.rows
    if not 1 <= number <= len(rows):
        raise Http404("No such round")
    stored, scores = rows[number - 1]
    scorer = can_score(request, game)
    context = {
        "view": view,
        "game": game,
        "round": stored,
        "scores": list(zip(view.sides, scores, strict=True)),
        "last": number == len(rows),
        "can_score": scorer,
        # In a game whose rounds another side confirms: whether this phone saved the round,
        # and so hands it over for the other side's word ("Them: confirm").
        "asked": stored.confirmation in (stored.Confirmation.WAITING, stored.Confirmation.DISPUTED),
        "own": scorer and stored.entered_phone == phone_id(request),
        "reason": reason,
        "reason_error": error,
        "reason_max": confirmation.REASON_MAX,
    }
    template = "scorekeeper/round_detail.html"
    # The page's own live refresh (its #live section) wants the whole page.
    if request.htmx and request.htmx.target != "live":
        template += "#breakdown"
    # A refused dispute is the page again with its error, as a refused round form is: 200.
    return render(request, template, context)


@require_GET
def round_detail(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    return _round_detail(request, public_id, number)


@require_POST
def round_confirm(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """The other side's word that a round is right: one tap on their own phone, or the "Them:
    confirm" step on the phone that saved it."""
    game = game_or_404(public_id)
    scorer_or_403(request, game)
    try:
        confirmation.round_confirm(
            game=game,
            number=number,
            version=request.POST.get("round_version") or None,
            phone=phone_id(request),
            handed_over=request.POST.get("handed_over") == "1",
            user=request.user,
        )
    except Conflict as conflict:
        return conflict_redirect(request, game, conflict, editing=True)
    except engine.RoundError as error:
        messages.error(request, error.errors[0].message)
        return redirect("round_detail", public_id=game.public_id, number=number)
    messages.success(request, f"Round {number} confirmed.")
    return redirect("game_detail", public_id=game.public_id)


@require_POST
def round_dispute(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """The other side's word that a round is wrong, and why: flagged for the organiser."""
    game = game_or_404(public_id)
    scorer_or_403(request, game)
    reason = request.POST.get("reason", "")
    try:
        confirmation.round_dispute(
            game=game,
            number=number,
            version=request.POST.get("round_version") or None,
            phone=phone_id(request),
            reason=reason,
            handed_over=request.POST.get("handed_over") == "1",
            user=request.user,
        )
    except Conflict as conflict:
        return conflict_redirect(request, game, conflict, editing=True)
    except engine.RoundError as error:
        problem = error.errors[0]
        if problem.path == "reason":
            # Beside the field, with what was typed.
            return _round_detail(request, public_id, number, reason=reason, error=problem.message)
        messages.error(request, problem.message)
        return redirect("round_detail", public_id=game.public_id, number=number)
    messages.success(
        request,
        f"Round {number} disputed: the organiser sees why. Correct it, or the organiser "
        "confirms it.",
    )
    return redirect("game_detail", public_id=game.public_id)


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_or_404(public_id)
    rounds = list(game.rounds.all())
    last = len(rounds)
    # The number and version the confirmation asked about, so that a round added or changed
    # on another phone meanwhile is not the one deleted, and a repeat deletes nothing more.
    number = round_fields.posted_round_number(request.POST)
    if request.method == "POST" and number is None:
        scorer_or_403(request, game)
        messages.error(request, DELETE_NUMBER_MISSING)
        return redirect("game_detail", public_id=game.public_id)
    return confirmed_action(
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


@require_POST
def round_restore(request: HttpRequest, public_id: str, event_id: int) -> HttpResponse:
    game = game_or_404(public_id)
    if not can_score(request, game):
        raise PermissionDenied(
            "Only the phones scoring this game can restore a round. Ask a scorer for the "
            "scorer link."
        )
    try:
        restored = services.round_restore(
            game=game, event_id=event_id, user=request.user, phone=phone_id(request)
        )
    except engine.RoundError as error:
        for problem in error.errors:
            messages.error(request, problem.message)
        return redirect("game_history", public_id=game.public_id)
    messages.success(request, f"Round {restored.number} restored.")
    return redirect("game_detail", public_id=game.public_id)


@require_POST
def round_undo(request: HttpRequest, public_id: str) -> HttpResponse:
    """Undo the save of the round this browser has just saved: gone, history entry and all."""
    game = game_or_404(public_id)
    scorer_or_403(request, game)
    number = round_fields.posted_round_number(request.POST)
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
    except Conflict as conflict:
        live.undo_forget(request)
        return conflict_redirect(request, game, conflict, editing=True)
    except engine.RoundError as error:
        live.undo_forget(request)
        messages.error(request, error.errors[0].message)
    else:
        live.undo_forget(request)
        messages.success(request, f"Round {number} removed.")
    return redirect("game_detail", public_id=game.public_id)
