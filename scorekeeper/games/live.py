"""Pages that follow a game live, and the Undo offered right after a round is saved.

A page showing a game carries the game's version (an ETag made of `Game.updated_at`, which every
round write moves through `store.scores_store`); static/js/app.js asks `games.views.game_state`
every 2 s with that ETag in If-None-Match, and the page refreshes itself only when the answer is not
304. Nothing is kept in the app's processes, so any number of them can serve one database.
"""

from datetime import UTC, datetime, timedelta

from django.contrib import messages
from django.http import HttpRequest
from django.utils import timezone
from django.utils.http import parse_etags

from scorekeeper.models import Game, Round

# How long "Round 3 saved" offers its Undo: long enough to notice a slip, short enough that
# nobody undoes a round the table has played on from.
UNDO_WINDOW = timedelta(seconds=60)
UNDO_KEY = "undo_round"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def game_etag(updated_at: datetime) -> str:
    """The game's version as a strong ETag: the microsecond of its last write, in hex."""
    return f'"{_microsecond(updated_at):x}"'


def etag_sent(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match holds `etag`, weakly compared: a gzipped answer
    goes out with its ETag made weak (W/"..."), and the browser sends that back."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    return etag in sent or f"W/{etag}" in sent


def game_version(game: Game) -> str:
    """The game's version as its row says it now (the ETag's value, without its quotes)."""
    return f"{_microsecond(game.updated_at):x}"


def _microsecond(updated_at: datetime) -> int:
    return (updated_at - _EPOCH) // timedelta(microseconds=1)


def offer_undo(request: HttpRequest, game: Game, saved: Round) -> None:
    """Say the round is saved, with an Undo for this browser only (its session)."""
    request.session[UNDO_KEY] = {
        "game": game.public_id,
        "number": saved.number,
        "version": saved.version,
    }
    messages.success(request, f"Round {saved.number} saved.", extra_tags="undo")


def undo_offered(request: HttpRequest, game: Game) -> dict | None:
    """The Undo this browser was offered for this game, or None."""
    offer = request.session.get(UNDO_KEY)
    if not isinstance(offer, dict) or offer.get("game") != game.public_id:
        return None
    return offer


def undo_seconds_left(offer: dict) -> int:
    """Whole seconds before the offer's round is too old to undo (0 when it is)."""
    saved_at = datetime.fromisoformat(offer["version"])
    return max(0, int((saved_at + UNDO_WINDOW - timezone.now()).total_seconds()))


def undo_forget(request: HttpRequest) -> None:
    request.session.pop(UNDO_KEY, None)


def undo_not_offered(number: int, rounds: int) -> str:
    """Why an Undo this browser was not offered does nothing."""
    if number > rounds:
        return f"Round {number} was already removed, so nothing else was removed."
    return (
        f"Round {number} can be undone only on the phone that saved it, within "
        f"{int(UNDO_WINDOW.total_seconds())} seconds, so nothing was removed. If it is wrong, "
        "correct or delete it from the game page."
    )
