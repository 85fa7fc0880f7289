"""What the game's and the rounds' views share: the game at an address or a 404, the scorers'
right to change it or a 403, a change asked to confirm first, and what a phone sees when another
phone changed the game before it."""

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scorekeeper import engine
from scorekeeper.access import can_score
from scorekeeper.games.selectors import game_get
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game


def game_or_404(public_id: str) -> Game:
    """The game at this address, with its sides and rounds, or a 404."""
    game = game_get(public_id)
    if game is None:
        raise Http404("No game at this address")
    return game


def scorer_or_403(request: HttpRequest, game: Game) -> None:
    """Refuse a change of the game to a browser that may not score it."""
    if not can_score(request, game):
        raise PermissionDenied(
            "Only the phones scoring this game can change it. Ask a scorer for the scorer link."
        )


def already_saved_redirect(request: HttpRequest, game: Game, number: int) -> HttpResponse:
    """To the stored round, saying that this round number was saved already."""
    messages.error(
        request,
        f"Round {number} was already saved, from this phone or another, so nothing was "
        "added. This is the stored round; correct it if it is wrong.",
    )
    return redirect("round_detail", public_id=game.public_id, number=number)


def conflict_redirect(
    request: HttpRequest, game: Game, conflict: Conflict, *, editing: bool
) -> HttpResponse:
    """Another phone changed the game first: say what happened and show what is stored."""
    if not editing and conflict.number is not None:
        return already_saved_redirect(request, game, conflict.number)
    messages.error(request, conflict.errors[0].message)
    if conflict.number is None:
        return redirect("game_detail", public_id=game.public_id)
    return redirect("round_detail", public_id=game.public_id, number=conflict.number)


def confirmed_action(
    request: HttpRequest,
    game: Game,
    *,
    title: str,
    question: str,
    button: str,
    action: Callable[[], Any],
    done: str,
    hidden: Sequence[tuple[str, Any]] = (),
) -> HttpResponse:
    """GET asks for confirmation (its form posts `hidden`, what it asked about); POST does it
    and redirects to the game."""
    scorer_or_403(request, game)
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
    except Conflict as conflict:
        return conflict_redirect(request, game, conflict, editing=True)
    except engine.RoundError as error:
        for problem in error.errors:
            messages.error(request, problem.message)
    else:
        messages.success(request, done)
    return redirect("game_detail", public_id=game.public_id)
